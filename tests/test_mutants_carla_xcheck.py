"""The CARLA cross-check (conformance/carla/_xcheck.py): the Kaitai parser's reading of a log compared
packet by packet with the reference decoder's, and the sample of packets the default check reads.

The logs are packed by hand from docs/formats/carla.md (a 34-byte info header for the map name
``Town06``; packets of ``u8 id, u32 size, payload``; FrameStart 24 bytes, FrameEnd empty, EventDel a
``u16`` count and ``u32`` ids), so every offset below is the layout's. Two readings that differ are made
by construction: the Kaitai side is handed other bytes (``_kaitai_reads``) than the reference, so where
and how they part is known before the comparison runs. Written against the survivors tools/mutate.py
found in the module."""

from __future__ import annotations

import io
import struct
from typing import Any

import pytest

import recspec
from recspec.conformance import _sample
from recspec.conformance.carla import _xcheck as carla_x
from recspec.conformance.carla._xcheck import KaitaiRejected, differential, kaitai_packets, kaitai_parse, same
from recspec.reference.carla import VARIANTS, FrameEnd, FrameStart, Packet
from recspec.reference.carla import PacketKind as K

V = VARIANTS["0.9.15"]  # ids: 0 FrameStart, 1 FrameEnd, 3 EventDel; 99 is no packet of it (raw bytes)


def _string(text: str) -> bytes:
    raw = text.encode()
    return struct.pack("<H", len(raw)) + raw


def _header(magic: str = "CARLA_RECORDER") -> bytes:
    """u16 version 1, string magic, i64 date, string map: 34 bytes for ``Town06``."""
    return struct.pack("<H", 1) + _string(magic) + struct.pack("<q", 1_700_000_000) + _string("Town06")


HEADER = _header()
assert len(HEADER) == 34


def _packet(packet_id: int, payload: bytes) -> bytes:
    return struct.pack("<BI", packet_id, len(payload)) + payload


def _frame_start(frame: int, elapsed: float = 0.0) -> bytes:
    return _packet(0, struct.pack("<Qdd", frame, 0.05, elapsed))  # id, durationThis, elapsed


FRAME_END = _packet(1, b"")


def _event_del(*ids: int) -> bytes:
    return _packet(3, struct.pack(f"<H{len(ids)}I", len(ids), *ids))


# FrameStart at 34 (29 bytes), EventDel of 1, 2, 3 at 63 (19 bytes), FrameEnd at 82 (5 bytes); 87 bytes
LOG = HEADER + _frame_start(1) + _event_del(1, 2, 3) + FRAME_END
assert len(LOG) == 87


def _kaitai_reads(monkeypatch: pytest.MonkeyPatch, other: bytes) -> None:
    """The differential's Kaitai side reads ``other`` in place of the log it is given."""
    real = carla_x.kaitai_packets
    monkeypatch.setattr(carla_x, "kaitai_packets", lambda f, variant: real(io.BytesIO(other), variant))


def _as_tuples(divergences: list[Any]) -> list[tuple[int, str]]:
    return [(d.offset, d.path) for d in divergences]


# --- the Kaitai reading on its own -------------------------------------------------------------------------


def test_a_header_kaitai_rejects_is_rejected_at_offset_0() -> None:
    bad = _header("CARLA_RECORDEX") + FRAME_END
    ((offset, rejected),) = list(kaitai_packets(io.BytesIO(bad), V))
    assert offset == 0 and isinstance(rejected, KaitaiRejected)
    assert rejected.offset == 0 and rejected.rule == "CARLA-XCHECK-REJECT"
    assert "header" in rejected.message


def test_kaitai_parse_raises_for_a_file_it_rejects() -> None:
    with pytest.raises(KaitaiRejected):
        kaitai_parse(_header("CARLA_RECORDEX") + FRAME_END, V)
    assert same(kaitai_parse(LOG, V).packets[2], Packet(K.FRAME_END, FrameEnd(), 1))


def test_a_payload_kaitai_rejects_leaves_its_framing_to_the_next_packet() -> None:
    """A FrameStart of 25 bytes (its layout is 24) is rejected, and the walk goes on 5 + 25 bytes further."""
    data = HEADER + _packet(0, bytes(25)) + FRAME_END
    (at, rejected), (next_at, packet) = list(kaitai_packets(io.BytesIO(data), V))
    assert (at, next_at) == (34, 64)
    assert isinstance(rejected, KaitaiRejected) and rejected.offset == 34
    assert same(packet, Packet(K.FRAME_END, FrameEnd(), 1))
    # a packet whose size runs past the file ends the walk there
    cut = HEADER + _packet(0, bytes(24))[:20]
    ((at, rejected),) = list(kaitai_packets(io.BytesIO(cut), V))
    assert at == 34 and isinstance(rejected, KaitaiRejected)


def test_same_compares_every_field_of_a_packet() -> None:
    a = Packet(K.FRAME_START, FrameStart(1, 0.05, 0.0), 0)
    assert same(a, Packet(K.FRAME_START, FrameStart(1, 0.05, 0.0), 0))
    assert not same(a, Packet(K.FRAME_START, FrameStart(1, 0.05, 0.5), 0))
    assert not same(a, Packet(K.FRAME_START, FrameStart(2, 0.05, 0.0), 0))
    assert same(FrameStart(1, float("nan"), 0.0), FrameStart(1, float("nan"), 0.0))  # the same bits read twice
    assert not same(FrameStart(1, float("nan"), 0.0), FrameStart(1, 0.0, 0.0))
    assert not same((1, 2), (1, 2, 3)) and not same((1, 2), (1, 3)) and same((1, 2), (1, 2))


# --- the comparison: readings that differ by construction ----------------------------------------------------


def test_readings_that_agree_give_no_divergence() -> None:
    assert differential(LOG, V) == []
    assert differential(HEADER + _packet(0, bytes(25)) + FRAME_END, V) == []  # both reject the same packet
    assert differential(_header("CARLA_RECORDEX") + FRAME_END, V) == []  # both reject the header


def test_a_value_that_differs_is_named_by_its_path_in_the_packet(monkeypatch: pytest.MonkeyPatch) -> None:
    _kaitai_reads(monkeypatch, HEADER + _frame_start(1) + _event_del(1, 2, 4) + FRAME_END)
    (d,) = differential(LOG, V)
    assert (d.offset, d.path) == (63, "packet:EventDel")
    assert d.message == ".body[2].database_id: reference 3 vs Kaitai 4"  # the third record's id


def test_a_field_that_differs_is_named_by_its_name(monkeypatch: pytest.MonkeyPatch) -> None:
    _kaitai_reads(monkeypatch, HEADER + _frame_start(1, elapsed=0.5) + _event_del(1, 2, 3) + FRAME_END)
    (d,) = differential(LOG, V)
    assert (d.offset, d.path) == (34, "packet:FrameStart")
    assert d.message == ".body.elapsed: reference 0.0 vs Kaitai 0.5"


def test_a_record_count_that_differs_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    _kaitai_reads(monkeypatch, HEADER + _frame_start(1) + _event_del(1, 2) + FRAME_END)
    d = differential(LOG, V)[0]
    assert (d.offset, d.path) == (63, "packet:EventDel")
    assert d.message == ".body (length 3 vs 2)"


def test_kaitai_rejecting_a_packet_the_reference_reads(monkeypatch: pytest.MonkeyPatch) -> None:
    """A FrameEnd of 24 bytes where the log has its FrameStart: the framing is the same, so the packets
    after it are compared as usual and agree."""
    _kaitai_reads(monkeypatch, HEADER + _packet(1, struct.pack("<Qdd", 1, 0.05, 0.0)) + _event_del(1, 2, 3)
                  + FRAME_END)
    (d,) = differential(LOG, V)
    assert (d.offset, d.path) == (34, "packet")
    assert d.message.startswith("reference accepts (") and ", Kaitai rejects (" in d.message
    assert "Kaitai is at offset" not in d.message


def test_the_reference_rejecting_a_packet_kaitai_reads(monkeypatch: pytest.MonkeyPatch) -> None:
    bad = HEADER + _packet(1, struct.pack("<Qdd", 1, 0.05, 0.0)) + _event_del(1, 2, 3) + FRAME_END
    _kaitai_reads(monkeypatch, LOG)
    (d,) = differential(bad, V)
    assert (d.offset, d.path) == (34, "packet")
    assert d.message.startswith("reference rejects (") and d.message.endswith(", Kaitai accepts")


def test_readings_framed_apart_stop_where_they_part(monkeypatch: pytest.MonkeyPatch) -> None:
    """Kaitai's FrameStart holds 25 bytes: it rejects it at 34 and reads its next packet at 64, where the
    reference reads the EventDel at 63; the comparison stops there."""
    _kaitai_reads(monkeypatch, HEADER + _packet(0, bytes(25)) + _event_del(1, 2, 3) + FRAME_END)
    first, second = differential(LOG, V)
    assert (first.offset, second.offset) == (34, 63)
    assert "Kaitai rejects" in first.message and "Kaitai is at offset" not in first.message
    assert second.message.endswith("; Kaitai is at offset 64")


def test_a_header_only_one_reader_rejects(monkeypatch: pytest.MonkeyPatch) -> None:
    _kaitai_reads(monkeypatch, _header("CARLA_RECORDEX") + FRAME_END)
    assert _as_tuples(differential(LOG, V)) == [(0, "header")]
    assert differential(LOG, V)[0].message == "reference accepts the header, Kaitai rejects it"
    monkeypatch.undo()
    _kaitai_reads(monkeypatch, LOG)
    (d,) = differential(_header("CARLA_RECORDEX") + FRAME_END, V)
    assert (d.offset, d.path, d.message) == (0, "header", "reference rejects the header, Kaitai accepts it")


def test_kaitai_ending_before_the_reference(monkeypatch: pytest.MonkeyPatch) -> None:
    _kaitai_reads(monkeypatch, LOG[:82])
    (d,) = differential(LOG, V)
    assert (d.offset, d.path, d.message) == (82, "packet", "reference reads a packet here, Kaitai has ended")


def test_kaitai_reading_past_the_reference(monkeypatch: pytest.MonkeyPatch) -> None:
    _kaitai_reads(monkeypatch, LOG + FRAME_END)
    (d,) = differential(LOG, V)
    assert (d.offset, d.path) == (87, "packet")
    assert d.message.startswith("Kaitai reads more than the reference: ")


@pytest.mark.parametrize("limit", [1, 3, 20])
def test_at_most_limit_divergences(monkeypatch: pytest.MonkeyPatch, limit: int) -> None:
    frames = b"".join(_frame_start(i) + FRAME_END for i in range(1, 31))
    _kaitai_reads(monkeypatch, HEADER + b"".join(_frame_start(i, 0.5) + FRAME_END for i in range(1, 31)))
    got = differential(HEADER + frames, V, limit)
    assert [d.offset for d in got] == [34 + 34 * i for i in range(limit)]  # each FrameStart, 29 + 5 bytes apart


def test_progress_is_called_every_512_packets_at_a_packet_start() -> None:
    data = HEADER + FRAME_END * 1100
    calls: list[tuple[int, int]] = []
    assert differential(data, V, progress=lambda done, total: calls.append((done, total))) == []
    # the 512th and the 1,024th packet (1-based) start 5 bytes a packet after the header
    assert calls == [(34 + 5 * 511, len(data)), (34 + 5 * 1023, len(data))]


# --- the report: which packets the second reading is given ---------------------------------------------------


def _report(data: bytes, cross_check: str) -> Any:
    return recspec.check(data, format="carla", variant="0.9.15", cross_check=cross_check)  # type: ignore[arg-type]


def test_a_full_cross_check_reads_every_packet_but_one_over_its_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every packet compared (the comparison made to fail on each): the packet of more than
    XCHECK_MAX_PACKET payload bytes alone is left out, and each finding is at a packet start of the log."""
    big = _packet(99, bytes(carla_x.XCHECK_MAX_PACKET + 1))
    units = [_frame_start(1), big, FRAME_END, _frame_start(2), FRAME_END, _frame_start(3), FRAME_END,
             _frame_start(4), FRAME_END]
    starts, at = [], len(HEADER)
    for u in units:
        starts.append(at)
        at += len(u)
    data = HEADER + b"".join(units)
    monkeypatch.setattr(carla_x, "same", lambda a, b: False)
    report = _report(data, "full")
    offsets = [f.offset for f in report.findings if f.rule == "CARLA-XCHECK-001"]
    assert offsets == [s for s, u in zip(starts, units) if u is not big]
    assert report.evidence["cross_check"].startswith("kaitai: 8 divergences on every packet but 1, each above ")


@pytest.mark.parametrize("extra, left_out", [(0, False), (1, True)])
def test_the_packet_budget_is_payload_bytes_above_xcheck_max_packet(extra: int, left_out: bool) -> None:
    data = HEADER + _frame_start(1) + _packet(99, bytes(carla_x.XCHECK_MAX_PACKET + extra)) + FRAME_END
    evidence = _report(data, "full").evidence["cross_check"]
    if left_out:
        assert evidence.startswith("kaitai: agrees on every packet but 1, each above 1,048,576 payload bytes")
    else:
        assert evidence == "kaitai: agrees"


# --- the sample's framing ------------------------------------------------------------------------------------


def _every_packet(data: bytes, stride: int = 1) -> list[tuple[int, int, int]]:
    return list(carla_x._chosen_packets(data, len(HEADER), stride))


def test_a_packet_of_max_packet_size_payload_bytes_is_framed_and_one_more_is_the_tail() -> None:
    """CARLA-LIMIT-001: a payload of MAX_PACKET_SIZE bytes is read, a larger one is not framed; the framing
    then takes everything from that packet on as the tail (its end past the file: ``len + 1``)."""
    most = carla_x.dec.MAX_PACKET_SIZE
    assert most == 4 * 1024 * 1024  # docs/formats/carla.md, "Limits"
    at_limit = HEADER + _packet(99, bytes(most)) + FRAME_END
    n = len(at_limit)
    assert list(carla_x._packet_spans(at_limit, 34)) == [(34, 39 + most), (39 + most, n)]
    assert _every_packet(at_limit) == [(0, 34, 39 + most), (1, 39 + most, n)]
    assert carla_x._frame_ends(at_limit, 34, n, most) == [39 + most, n]
    over = HEADER + _packet(99, bytes(most + 1)) + FRAME_END
    n = len(over)
    assert list(carla_x._packet_spans(over, 34)) == [(34, n + 1)]
    assert _every_packet(over) == [(0, 34, n + 1)]
    assert carla_x._frame_ends(over, 34, n, most) == []


@pytest.mark.parametrize("left", [1, 2, 3, 4])
def test_a_packet_header_cut_short_is_the_tail(left: int) -> None:
    data = LOG + FRAME_END[:left]
    n = len(data)
    assert list(carla_x._packet_spans(data, 34))[-2:] == [(82, 87), (87, n + 1)]
    assert _every_packet(data)[-2:] == [(2, 82, 87), (3, 87, n + 1)]


def test_a_packet_running_past_the_file_is_the_tail() -> None:
    data = LOG + _frame_start(2)[:20]
    assert _every_packet(data)[-1] == (3, 87, len(data) + 1)
    assert _every_packet(data, carla_x.SAMPLE_STRIDE) == [(0, 34, 63), (3, 87, len(data) + 1)]


def test_the_sample_s_framing_stops_before_a_payload_over_its_limit() -> None:
    # FrameStart (24 payload bytes) at 34, EventDel (14) at 63, FrameEnd (0) at 82
    assert carla_x._frame_ends(LOG, 34, len(LOG), 24) == [63, 82, 87]
    assert carla_x._frame_ends(LOG, 34, len(LOG), 23) == []
    assert carla_x._frame_ends(LOG, 63, len(LOG), 14) == [82, 87]
    assert carla_x._frame_ends(LOG, 63, len(LOG), 13) == []
    assert carla_x._frame_ends(LOG, 34, 86, 24) == [63, 82]  # the FrameEnd ends past the window


def test_a_run_of_one_header_is_counted_packet_by_packet() -> None:
    """70 FrameEnds (5 bytes each) then a FrameStart: a run of exactly 70, however the blocks cut it."""
    data = HEADER + FRAME_END * 70 + _frame_start(1)
    assert carla_x._header_run(data, 34, 64) == (70, 5)
    assert carla_x._header_run(data, 34, 71) == (0, 0)
    assert carla_x._header_run(HEADER + FRAME_END * 70, 34, 64) == (70, 5)
    assert carla_x._header_run(data, 34 + 5 * 7, 63) == (63, 5)
    every = _every_packet(data)
    assert [start for _, start, _ in every] == [34 + 5 * i for i in range(70)] + [34 + 5 * 70]
    assert every[-1] == (70, 384, len(data))


def test_a_sampled_run_keeps_its_last_packet() -> None:
    """The default sample takes the first and the last packet always (conformance/_sample.py): of a log of
    70 FrameEnds, framed as one run, the first, those the hash takes, and the 70th."""
    data = HEADER + FRAME_END * 70
    hashed = [i for i in range(1, 69) if _sample.is_chosen(i, carla_x.SAMPLE_STRIDE)]
    assert [i for i, _, _ in _every_packet(data, carla_x.SAMPLE_STRIDE)] == [0, *hashed, 69]
    assert _every_packet(data, carla_x.SAMPLE_STRIDE)[-1] == (69, 34 + 5 * 69, len(data))


def test_a_run_over_the_packet_limit_is_no_run(monkeypatch: pytest.MonkeyPatch) -> None:
    """With the limit lowered to 3 bytes (read at call time, as the witnesses lower it), 70 packets of 4
    payload bytes are no run: the first one is over the limit, so the framing ends there (the tail)."""
    monkeypatch.setattr(carla_x.dec, "MAX_PACKET_SIZE", 3)
    data = HEADER + _packet(99, b"abcd") * 70
    assert carla_x._header_run(data, 34, 64) == (0, 0)
    assert _every_packet(data) == [(0, 34, len(data) + 1)]


# --- dump --ksy ----------------------------------------------------------------------------------------------


def test_the_ksy_dump_gives_each_record_of_a_list_at_its_offset() -> None:
    import json

    out = io.StringIO()
    carla_x.dump_kaitai(io.BytesIO(LOG), out, V)
    tree = json.loads(out.getvalue())
    event_del = tree["packets"][1]
    assert event_del["kind"] == "event_del" and event_del["payload"]["start"] == 68  # 63 + the 5-byte head
    records = event_del["payload"]["value"]["records"]
    assert (records["start"], records["end"]) == (70, 82)  # after the u16 count: three u32 ids
    assert [(r["database_id"]["start"], r["database_id"]["value"]) for r in records["value"]] == [
        (70, 1), (74, 2), (78, 3)]

