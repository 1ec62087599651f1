"""The default cross-check of a CARLA log reads a sample of its packets (tests/test_cross_check_sample.py): the
first and last packet always, offsets of the original file, packets framed in windows (runs of one header by
arithmetic) and chosen by C loops that take the sample of every packet."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_carla_properties import mutations

import recspec
from recspec.conformance import _sample
from recspec.conformance.carla import _xcheck as carla_x
from recspec.errors import DecodeError
from recspec.reference import carla as carla_reference
from recspec.strategies import carla_logs

CORPUS = Path(__file__).resolve().parents[1] / "corpus"


def test_a_real_size_log_is_sampled_and_says_so() -> None:
    data = (CORPUS / "carla" / "valid" / "0.9.15.log").read_bytes()
    # 40 copies of the corpus log's frames make a log long enough to sample
    import io

    from recspec.reference import carla as c

    f = io.BytesIO(data)
    _, off = c.read_header(f)
    body = data[off:]
    big = data + body * 40
    spans = list(carla_x._packet_spans(big, off))
    s = _sample.cut(big, off, iter(spans), carla_x.SAMPLE_STRIDE)
    assert s.chosen < len(spans) // 10
    # the sample is itself a log both readers frame the same way
    assert carla_x.differential(s.data, c.VARIANTS["0.9.15"]) == []
    report = recspec.check(big, format="carla", variant="0.9.15")
    assert "on a sample of" in report.evidence["cross_check"]
    assert recspec.check(big, format="carla", variant="0.9.15").evidence == report.evidence  # deterministic
    full = recspec.check(big, format="carla", variant="0.9.15", cross_check="full")
    assert full.evidence["cross_check"] == "kaitai: agrees"


def test_a_divergence_in_the_sample_is_reported_at_its_original_offset(monkeypatch: pytest.MonkeyPatch) -> None:
    """Make the comparison fail on every packet: the findings' offsets are packet starts of the original file."""
    data = (CORPUS / "carla" / "valid" / "0.9.15.log").read_bytes()
    import io

    from recspec.reference import carla as c

    f = io.BytesIO(data)
    _, off = c.read_header(f)
    big = data + data[off:] * 40
    starts = {s for s, _ in carla_x._packet_spans(big, off)}
    monkeypatch.setattr(carla_x, "same", lambda a, b: False)
    report = recspec.check(big, format="carla", variant="0.9.15")
    offsets = [x.offset for x in report.findings if x.rule == "CARLA-XCHECK-001"]
    assert offsets and set(offsets) <= starts
    assert max(offsets) > len(data)  # from the spread of the sample, not only its first bytes


@st.composite
def _header_runs(draw: st.DrawFn, blob: bytes) -> bytes:
    """``blob`` with runs of packets of one header (id and payload size) inserted after its header or at its
    end: byte for byte repeats or payloads that differ, a run broken by a packet of another size or id, a
    copy cut short or grown past the file, as hostile.py's floods of unknown packets and EventDels are."""
    try:
        _, off = carla_reference.decode_header(blob, 0)
    except DecodeError:
        off = len(blob)
    packet_id = draw(st.sampled_from((0, 3, 99, 255)))
    size = draw(st.integers(0, 9))
    count = draw(st.integers(0, 40))
    same = draw(st.booleans())
    payload = draw(st.binary(min_size=size, max_size=size))
    units = [bytes([packet_id]) + size.to_bytes(4, "little")
             + (payload if same else draw(st.binary(min_size=size, max_size=size))) for _ in range(count)]
    if units and draw(st.booleans()):  # one unit of the run breaks it: another id, size or a cut
        at = draw(st.integers(0, len(units) - 1))
        unit = bytearray(units[at])
        where = draw(st.integers(0, min(4, len(unit) - 1)))
        unit[where] ^= draw(st.integers(1, 255))
        units[at] = bytes(unit)
    run = b"".join(units)
    if draw(st.booleans()):
        run = run[:draw(st.integers(0, len(run)))]  # cut inside a packet or its header
    return blob[:off] + run + blob[off:] if draw(st.booleans()) else blob + run


def _edited_log(data: st.DataObject) -> bytes:
    """A drawn log of up to 6 frames as it is, mutated, with bytes appended, or with runs of packets of one
    header."""
    blob, _ = data.draw(carla_logs(min_frames=0, max_frames=6), label="log")
    edit = data.draw(st.sampled_from(("none", "mutated", "appended", "runs")), label="edit")
    if edit == "mutated":
        blob = data.draw(mutations(blob), label="mutated")
    elif edit == "appended":
        blob += data.draw(st.binary(min_size=1, max_size=12), label="tail")
    elif edit == "runs":
        blob = data.draw(_header_runs(blob), label="runs")
    return blob


@given(data=st.data(), stride=st.sampled_from((1, 2, 3, 7, carla_x.SAMPLE_STRIDE)),
       window=st.sampled_from((1, 7, 12, 64, 1 << 16)), run_min=st.sampled_from((1, 2, 5, carla_x._RUN_MIN)),
       run_block=st.sampled_from((1, 3, carla_x._RUN_BLOCK)))
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_carla_chosen_packets_are_the_sample_of_every_packet(data: st.DataObject, stride: int, window: int,
                                                             run_min: int, run_block: int) -> None:
    """Valid logs, mutated ones (cut inside a packet or its header, sizes rewritten above the limit or
    past the end), logs with bytes appended and logs with runs of packets of one header (framed by
    arithmetic, in blocks of ``run_block`` packets, from ``run_min`` packets on), framed in windows smaller
    and larger than their packets: the packets ``_chosen_packets`` takes are ``choose`` of every packet
    ``_packet_spans`` frames, and the samples cut from them are the same."""
    blob = _edited_log(data)
    try:
        _, off = carla_reference.decode_header(blob, 0)
    except DecodeError:
        return  # no header: the file is compared in full
    every = list(_sample.choose(carla_x._packet_spans(blob, off), stride, len(blob)))
    old = carla_x._SPAN_BYTES, carla_x._RUN_MIN, carla_x._RUN_BLOCK
    carla_x._SPAN_BYTES, carla_x._RUN_MIN, carla_x._RUN_BLOCK = window, run_min, run_block
    try:
        taken = list(carla_x._chosen_packets(blob, off, stride))
    finally:
        carla_x._SPAN_BYTES, carla_x._RUN_MIN, carla_x._RUN_BLOCK = old
    assert taken == every
    budget = 40  # a payload budget small enough that some packets are left out

    def leave_out(start: int, end: int) -> bool:
        return end - start - 5 > budget

    assert _sample.cut_chosen(blob, off, iter(taken), leave_out) == _sample.cut(
        blob, off, carla_x._packet_spans(blob, off), stride, leave_out)


@given(data=st.data(), limit=st.sampled_from((0, 3, 40, carla_reference.MAX_PACKET_SIZE)))
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_the_sample_s_framing_ends_the_packets_frame_packets_frames(data: st.DataObject, limit: int) -> None:
    """``_frame_ends`` (the sample's framing: ends only) against the reference's ``frame_packets`` on valid,
    mutated and appended logs, from any offset, in windows ending anywhere, with payload limits that stop
    the framing early: the same packets, each ending where ``frame_packets`` says."""
    blob = _edited_log(data)
    start = data.draw(st.integers(0, len(blob)), label="start")
    end = data.draw(st.integers(start, len(blob)), label="end")
    starts, _, sizes = carla_reference.frame_packets(blob, start, end, limit)
    assert carla_x._frame_ends(blob, start, end, limit) == [s + 5 + n for s, n in zip(starts, sizes)]
