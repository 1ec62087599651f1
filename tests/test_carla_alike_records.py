"""EventAdd records alike byte for byte but for their database ids (``alike_records``) change no
report, and the EventAdd scan reads a run of them as the decoder does.

Once a record of such a run has been judged and every finding it makes would only be counted,
the rest of the run is counted in bulk and its ids added as a set, if they are new and
distinct. These tests compare that with the one-by-one walk of decoded records
(``fast_path=False``) on the whole report, and count the records taken in bulk, so that a
comparison cannot pass by the bulk step never running.
"""

from __future__ import annotations

import struct
from functools import partial
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_carla_fastpaths import SCAN_ATTRIBUTE, TEXT, _assert_scan_agrees_with_decode_body, event_add_payload
from test_carla_limits_runs import _BULK_ATTRIBUTE, CARLA_HEADER, FRAME_END, _carla, _frame_start, _packet
from test_limits_runs import _same

from recspec.conformance.carla import _check as carla_check
from recspec.reference.carla import alike_records, record_ids, scan_event_add


def _record(actor: int, actor_type: int, description: bytes, attributes: list[tuple[int, bytes, bytes]]) -> bytes:
    return (struct.pack("<IB6fIH", actor, actor_type, 0, 0, 0, 0, 0, 0, 0, len(description)) + description
            + struct.pack("<H", len(attributes))
            + b"".join(struct.pack("<BH", t, len(k)) + k + struct.pack("<H", len(v)) + v for t, k, v in attributes))


def _event_add(records: list[bytes]) -> bytes:
    return _packet(2, struct.pack("<H", len(records)) + b"".join(records))


class _Bulk:
    """Counts the records ``_Walk._alike_bulk`` takes in bulk while a test runs."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.records = 0
        inner = carla_check._Walk._alike_bulk

        def counted(walk: Any, scan: Any, first: int, end: int, added: Any) -> bool:
            taken = inner(walk, scan, first, end, added)
            self.records += (end - first) * taken
            return taken

        monkeypatch.setattr(carla_check._Walk, "_alike_bulk", counted)


@given(runs=st.lists(st.tuples(st.integers(1, 300), st.sampled_from([1, 5, 200]),
                               st.sampled_from([b"vehicle.c", b"", b"\xff"]),
                               st.lists(_BULK_ATTRIBUTE, max_size=4),
                               st.sampled_from(["new", "repeat", "alive", "alive-first"])), min_size=1, max_size=4),
       profile=st.sampled_from(["spec", "compat"]), variant=st.sampled_from([None, "0.9.15", "0.9.16"]),
       cut=st.integers(0, 3), cap=st.sampled_from([1, 3, 100]))
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
def test_records_alike_but_for_their_ids_agree_with_the_walk(runs, profile, variant, cut, cap) -> None:
    """Runs of records alike but for their ids (1 to 300 of them, enough for a rule to pass its stored
    findings, also under a lower cap), each run of an actor type, description and attributes clean or
    not; the ids new, one of them met again within the run, or one (the first or last) added by an
    earlier packet; then a packet adding again the first and last id of every run."""
    earlier = _event_add([_record(1_000_000 + i, 1, b"vehicle.c", []) for i in range(4)])
    records = []
    again: list[int] = []
    next_id = 1
    for count, actor_type, description, attributes, ids in runs:
        these = list(range(next_id, next_id + count))
        next_id += count
        if ids == "repeat" and count > 2:
            these[count // 2 + 1] = these[count // 2]
        elif ids.startswith("alive"):
            these[0 if ids == "alive-first" else -1] = 1_000_000 + len(again) // 2
        again.extend((these[0], these[-1]))
        records.extend(_record(i, actor_type, description, attributes) for i in these)
    later = _event_add([_record(i, 1, b"vehicle.c", []) for i in again])
    data = CARLA_HEADER + _frame_start(1, 0.0, -1.0) + earlier + _event_add(records) + later + FRAME_END
    data = data[:len(data) - cut]
    sink = carla_check.FindingSink
    carla_check.FindingSink = partial(sink, max_per_rule=cap)  # type: ignore[misc]
    try:
        fast = _carla(data, fast_path=True, profile=profile, variant=variant)
        slow = _carla(data, fast_path=False, profile=profile, variant=variant)
    finally:
        carla_check.FindingSink = sink  # type: ignore[misc]
    _same(fast, slow)


def test_a_run_of_faulty_records_is_counted_in_bulk_once_its_rules_only_count(monkeypatch) -> None:
    # 1,000 records of one attribute whose id is not UTF-8: the first 100 store CARLA-STRING-001's
    # findings, the rest are counted in bulk; the totals are the walk's
    bulk = _Bulk(monkeypatch)
    records = [_record(i + 1, 1, b"vehicle.c", [(1, b"\xff", b"")]) for i in range(1_000)]
    data = CARLA_HEADER + _frame_start(1, 0.0, -1.0) + _event_add(records) + FRAME_END
    fast = _carla(data, fast_path=True)
    assert bulk.records == 1_000 - 100
    assert fast.verdicts["spec"].rules["CARLA-STRING-001"] == 1_000
    assert fast.stats["actors_added"] == 1_000
    stored = [f for f in fast.findings if f.rule == "CARLA-STRING-001"]
    assert len(stored) == 100 and stored[-1].path.endswith("/record[99]/attributes[0].id")
    _same(fast, _carla(data, fast_path=False))


def test_an_id_met_again_sends_the_run_to_the_chunks(monkeypatch) -> None:
    bulk = _Bulk(monkeypatch)
    ids = [*range(1, 500), 250]  # the last record adds actor 250 again: CARLA-ACTOR-002 at record[499]
    records = [_record(i, 1, b"vehicle.c", [(1, b"role_name", b"hero")]) for i in ids]
    data = CARLA_HEADER + _frame_start(1, 0.0, -1.0) + _event_add(records) + FRAME_END
    fast = _carla(data, fast_path=True)
    assert bulk.records == 0
    again = [f for f in fast.findings if f.rule == "CARLA-ACTOR-002"]
    assert [f.path.rsplit("/", 1)[-1] for f in again] == ["record[499].database_id"]
    assert fast.stats["actors_added"] == 500
    _same(fast, _carla(data, fast_path=False))


def test_alike_records_are_found_a_window_at_a_time() -> None:
    unit = struct.pack("<I", 0) + b"rest-of-record"
    width = len(unit)
    buf = b"".join(struct.pack("<I", i) + unit[4:] for i in range(37)) + b"x" * width
    assert alike_records(buf, 0, width, 1000) == 37
    assert alike_records(buf, 0, width, 20) == 20
    changed = bytearray(buf)
    changed[width * 23 + 6] ^= 1  # record 23 differs after its id
    assert alike_records(bytes(changed), 0, width, 1000) == 23
    assert alike_records(bytes(changed), width * 24, width, 1000) == 13
    assert record_ids(buf, width * 3, width, 4) == [3, 4, 5, 6]


def _layout(records: list[tuple[int, int, bytes, list[tuple[int, bytes, bytes]]]], vec_f64: bool
            ) -> tuple[list[tuple[int, int, int, int]], list[int], list[int]]:
    """Where ``event_add_payload`` puts each record (start, end, first attribute, after its last) and
    each attribute (its type byte, its value's length field), counted from the encoding."""
    fixed = 4 + 1 + (48 if vec_f64 else 24) + 4
    pos, spans, starts, values = 2, [], [], []
    for _, _, desc, attrs in records:
        at = pos
        pos += fixed + 2 + len(desc) + 2
        lo = len(starts)
        for _, k, v in attrs:
            starts.append(pos)
            values.append(pos + 3 + len(k))
            pos += 3 + len(k) + 2 + len(v)
        spans.append((at, pos, lo, len(starts)))
    return spans, starts, values


@given(st.lists(st.tuples(st.integers(1, 40), st.integers(0, 255), TEXT, st.lists(SCAN_ATTRIBUTE, max_size=5)),
                min_size=1, max_size=4),
       st.booleans(), st.integers(-9, 9), st.binary(max_size=9), st.integers(0, 2**32 - 1))
@settings(max_examples=200, deadline=None)
def test_the_scan_takes_alike_records_as_the_decoder_reads_them(runs, vec_f64, cut, junk, seed) -> None:
    """Runs of 1 to 40 records alike but for their ids (drawn, now and then equal): the scan, which
    takes such a run at once, reads what decode_body reads, each record and attribute where the
    encoding put it."""
    records = [((seed + 7919 * i) % 2**32 if i % 5 else seed, actor_type, desc, attrs)
               for i, (count, actor_type, desc, attrs) in enumerate(r for run in runs for r in [run] * run[0])]
    _assert_scan_agrees_with_decode_body(records, vec_f64, cut, junk)
    if cut:
        return
    scan = scan_event_add(event_add_payload(records, vec_f64), vec_f64)
    assert scan is not None
    spans, starts, values = _layout(records, vec_f64)
    assert [(r[0], r[7], r[5], r[6]) for r in scan.records] == spans
    assert [r[1] for r in scan.records] == [r[0] for r in records]
    assert list(scan.starts) == starts and list(scan.values) == values
