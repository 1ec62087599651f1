"""The default cross-check of CARLA and NanoVer files reads a sample (``conformance/_sample.py``):
deterministic, spread over the file, always the header and any tail the framing refuses, the
first and last unit (CARLA) or the last only when the hash chose none (NanoVer); its offsets are
the original file's; ``full`` reads everything."""

from __future__ import annotations

import struct
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_carla_properties import mutations

import recspec
from recspec.conformance import _sample
from recspec.conformance.carla import _xcheck as carla_x
from recspec.conformance.nanover import _xcheck as nanover_x
from recspec.errors import DecodeError
from recspec.reference import carla as carla_reference
from recspec.strategies import carla_logs

CORPUS = Path(__file__).resolve().parents[1] / "corpus"


def test_the_choice_is_deterministic_and_about_one_in_stride() -> None:
    chosen = [i for i in range(64_000) if _sample.is_chosen(i, 32)]
    assert chosen == [i for i in range(64_000) if _sample.is_chosen(i, 32)]
    assert 1_800 < len(chosen) < 2_200
    # not periodic: every residue modulo a frame's length gets picked
    for period in (8, 14, 16, 32):
        assert {i % period for i in chosen} == set(range(period))
    assert all(_sample.is_chosen(i, 1) for i in range(100))


def _units(n: int, size: int) -> tuple[bytes, list[tuple[int, int]]]:
    head = b"H" * 10
    body = b"".join(bytes([i % 256]) * size for i in range(n))
    return head + body, [(10 + i * size, 10 + (i + 1) * size) for i in range(n)]


def test_cut_keeps_the_header_first_last_and_maps_offsets_back() -> None:
    data, spans = _units(1000, 7)
    s = _sample.cut(data, 10, iter(spans), 32)
    assert s.units == 1000 and 2 < s.chosen < 100 and not s.full
    assert s.data[:10] == b"H" * 10
    assert s.data[10:17] == data[10:17]  # the first unit
    assert s.data[-7:] == data[-7:]  # the last unit
    # every byte of the sample is the original byte its offset maps to
    assert all(s.data[i] == data[s.original_offset(i)] for i in range(len(s.data)))


def test_a_tail_the_framing_refuses_is_always_in_the_sample() -> None:
    data, spans = _units(100, 5)
    data += b"\x01\x02\x03"  # a cut unit
    spans.append((len(data) - 3, len(data) + 1))
    s = _sample.cut(data, 10, iter(spans), 1000)
    assert s.data.endswith(b"\x01\x02\x03")
    assert s.original_offset(len(s.data) - 3) == len(data) - 3


@given(n=st.integers(1, 600), stride=st.sampled_from((1, 2, 7, 256, 1024)), cut_tail=st.booleans(),
       trailing=st.binary(max_size=3))
def test_without_ends_the_sample_is_the_hash_s_choice_or_else_the_last_unit(
        n: int, stride: int, cut_tail: bool, trailing: bytes) -> None:
    """``ends=False`` (NanoVer): the units the hash takes counting from 1, a tail the framing refuses
    always, and the last unit when neither gave one; the count of units and every offset stay right."""
    data, spans = _units(n, 3)
    if cut_tail:
        data += b"\xfe\xfd"
        spans.append((len(data) - 2, len(data) + 1))
    elif trailing:
        data += trailing  # bytes after the last unit the framing saw (no tail unit)
    s = _sample.cut(data, 10, iter(spans), stride, ends=False)
    whole = spans[:-1] if cut_tail else spans
    expect = [i for i in range(len(whole)) if _sample.is_chosen(i + 1, stride)]
    if cut_tail:
        expect.append(len(whole))  # the tail is the file's last unit: the sample is never empty
    elif not expect:
        expect = [len(whole) - 1]
    pieces = [data[a:b] if b <= len(data) else data[a:] for a, b in (spans[i] for i in expect)]
    rest = b"" if cut_tail else data[spans[-1][1]:]
    assert s.data == data[:10] + b"".join(pieces) + rest
    assert (s.units, s.chosen) == (len(spans), len(expect))
    assert all(s.data[i] == data[s.original_offset(i)] for i in range(len(s.data)))


def test_the_nanover_sample_leaves_the_first_record_to_the_hash() -> None:
    """A trajectory's first record (its topology) costs the Kaitai reading more than the whole check:
    above SAMPLE_ABOVE the default sample takes it only as the hash would take any record, and the
    evidence says so; up to SAMPLE_ABOVE every record is read."""
    from recspec.reference.nanover import Frame, encode_frame, encode_header, encode_record

    def traj(n: int, note: str) -> bytes:
        return encode_header() + b"".join(encode_record(1000 * (i + 1), encode_frame(
            Frame(i + 1, {"energy.kinetic": float(i), "note": note}, {}))) for i in range(n))

    data = traj(300, "x" * 300)
    assert len(data) > nanover_x.SAMPLE_ABOVE
    chosen = [i for i in range(300) if _sample.is_chosen(i + 1, nanover_x.SAMPLE_STRIDE)]
    assert 0 not in chosen and chosen  # 300 records at 1 in SAMPLE_STRIDE: the hash takes some, not the first
    evidence = recspec.check(data, format="nanover", variant="traj").evidence["cross_check"]
    assert f"on a sample of {len(chosen)} of 300 records" in evidence, evidence
    assert (f"the header and about 1 record in {nanover_x.SAMPLE_STRIDE} (the last when the hash chose none)"
            in evidence)
    few = traj(3, "x" * 30_000)
    assert len(few) > nanover_x.SAMPLE_ABOVE
    assert not any(_sample.is_chosen(i + 1, nanover_x.SAMPLE_STRIDE) for i in range(3))
    # the last record: a file always has one record read twice
    assert "on a sample of 1 of 3 records" in recspec.check(few, format="nanover", variant="traj").evidence[
        "cross_check"]
    small = traj(300, "")
    assert len(small) <= nanover_x.SAMPLE_ABOVE
    assert recspec.check(small, format="nanover", variant="traj").evidence["cross_check"] == (
        "kaitai: agrees (every record of this file is in the sample)")


@pytest.mark.parametrize("fmt", ["carla", "nanover"])
def test_sampled_and_full_cross_checks_agree_on_every_corpus_file(fmt: str) -> None:
    """The sample never finds what the full reading does not (and on the corpus both agree)."""
    for path in sorted((CORPUS / fmt).rglob("*")):
        if not path.is_file() or path.name == "manifest.json":
            continue
        sampled = recspec.check(path, format=fmt)
        full = recspec.check(path, format=fmt, cross_check="full")
        assert sampled.verdict == full.verdict, path
        assert [f.rule for f in sampled.findings] == [f.rule for f in full.findings], path
        evidence = sampled.evidence.get("cross_check")
        if "cross_check" not in full.evidence:  # a header no variant reads: nothing to cross-check
            assert evidence is None, path
        else:
            assert evidence is not None and evidence.startswith("kaitai: agrees"), (path, evidence)


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


def test_nanover_records_are_sampled() -> None:
    from recspec.reference.nanover import Frame, encode_frame, encode_header, encode_record

    data = encode_header() + b"".join(
        encode_record(1000 * (i + 1), encode_frame(Frame(i + 1, {"energy.kinetic": float(i)}, {})))
        for i in range(2000))
    report = recspec.check(data, format="nanover", variant="traj")
    assert "on a sample of" in report.evidence["cross_check"]
    spans = list(nanover_x._record_spans(data))
    assert len(spans) == 2000 and spans[0][0] == 16 and spans[-1][1] == len(data)
    assert struct.unpack_from("<Q", data, 0)[0]  # the header is the magic


@pytest.mark.parametrize("fmt", ["carla", "nanover", "matrix-smt"])
def test_the_stated_sample_is_the_stride_the_code_uses(fmt: str) -> None:
    # The registry's note (printed by `recspec check --help` and kept in reports' evidence
    # texts) and the help's paragraph must say the stride SAMPLE_STRIDE really is.
    import importlib

    from recspec.cli import _cross_check_section
    from recspec.formats import FORMATS

    info = FORMATS[fmt]
    stride = importlib.import_module(f"recspec.conformance.{info.package}._xcheck").SAMPLE_STRIDE
    unit = {"carla": "packet", "nanover": "record", "matrix-smt": "frame"}[fmt]
    assert f"about 1 {unit} in {stride:,}" in info.cross_check_note
    label = {"carla": "CARLA", "nanover": "NanoVer", "matrix-smt": "Matrix-SMT"}[fmt]
    assert f"{stride:,} ({label})" in " ".join(_cross_check_section().split())


# --- CARLA frames its packets in windows and chooses them by C loops --------------------------------


def test_chosen_indices_are_the_ones_is_chosen_takes() -> None:
    for stride in (0, 1, 2, 3, 32, 1024):
        for lo, hi in ((0, 0), (0, 5_000), (4_093, 9_000), (70_000, 70_001)):
            assert _sample.chosen_indices(lo, hi, stride) == [i for i in range(lo, hi) if _sample.is_chosen(i, stride)]


@given(data=st.data(), stride=st.sampled_from((1, 2, 3, 7, carla_x.SAMPLE_STRIDE)),
       window=st.sampled_from((1, 7, 12, 64, 1 << 16)))
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_carla_chosen_packets_are_the_sample_of_every_packet(data: st.DataObject, stride: int, window: int) -> None:
    """Valid logs, mutated ones (cut inside a packet or its header, sizes rewritten above the limit or
    past the end) and logs with bytes appended, framed in windows smaller and larger than their
    packets: the packets ``_chosen_packets`` takes are ``choose`` of every packet ``_packet_spans``
    frames, and the samples cut from them are the same."""
    blob, _ = data.draw(carla_logs(min_frames=0, max_frames=6), label="log")
    edit = data.draw(st.sampled_from(("none", "mutated", "appended")), label="edit")
    if edit == "mutated":
        blob = data.draw(mutations(blob), label="mutated")
    elif edit == "appended":
        blob += data.draw(st.binary(min_size=1, max_size=12), label="tail")
    try:
        _, off = carla_reference.decode_header(blob, 0)
    except DecodeError:
        return  # no header: the file is compared in full
    every = list(_sample.choose(carla_x._packet_spans(blob, off), stride, len(blob)))
    old = carla_x._SPAN_BYTES
    carla_x._SPAN_BYTES = window
    try:
        taken = list(carla_x._chosen_packets(blob, off, stride))
    finally:
        carla_x._SPAN_BYTES = old
    assert taken == every
    budget = 40  # a payload budget small enough that some packets are left out

    def leave_out(start: int, end: int) -> bool:
        return end - start - 5 > budget

    assert _sample.cut_chosen(blob, off, iter(taken), leave_out) == _sample.cut(
        blob, off, carla_x._packet_spans(blob, off), stride, leave_out)
