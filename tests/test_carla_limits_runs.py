"""Floods of one tiny unit in a CARLA recorder log: runs of byte-identical packets (an empty EventDel, the 5
zero bytes of an empty FrameStart), frames that repeat but for their timing and EventAdd attributes are walked
in bulk (tests/test_limits_runs.py). These tests count the per-unit walk calls (the bulk step must replace
them) and hold the fast and the slow path to the same reports."""

from __future__ import annotations

import io
import struct

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_limits_runs import _Counting, _same

from recspec.conformance.carla import _check as carla_check
from recspec.report import FileReport


def _s(text: str) -> bytes:
    return struct.pack("<H", len(text)) + text.encode()


CARLA_HEADER = struct.pack("<H", 1) + _s("CARLA_RECORDER") + struct.pack("<q", 1_700_000_000) + _s("Town10HD_Opt")


def _packet(pid: int, payload: bytes) -> bytes:
    return struct.pack("<BI", pid, len(payload)) + payload


def _frame_start(frame_id: int, elapsed: float, duration: float = 0.05) -> bytes:
    return _packet(0, struct.pack("<Qdd", frame_id, duration, elapsed))


FRAME_END = _packet(1, b"")


EMPTY_DEL = _packet(3, struct.pack("<H", 0))  # EventDel of no actor: 7 bytes


def _add(actor: int) -> bytes:
    record = struct.pack("<IB6fI", actor, 1, 0, 0, 0, 0, 0, 0, 0) + _s("vehicle.a") + struct.pack("<H", 0)
    return _packet(2, struct.pack("<H", 1) + record)


def _del(actor: int) -> bytes:
    return _packet(3, struct.pack("<HI", 1, actor))


def _parent(actor: int, parent: int) -> bytes:
    return _packet(4, struct.pack("<HII", 1, actor, parent))


def _add_attributes(attributes: list[tuple[int, bytes, bytes]]) -> bytes:
    record = struct.pack("<IB6fI", 9, 1, 0, 0, 0, 0, 0, 0, 0) + _s("vehicle.b") + struct.pack("<H", len(attributes))
    record += b"".join(struct.pack("<BH", t, len(k)) + k + struct.pack("<H", len(v)) + v for t, k, v in attributes)
    return _packet(2, struct.pack("<H", 1) + record)


# attributes good and bad: a type no release defines, invalid UTF-8, a NUL
_ATTRIBUTES = [(1, b"role_name", b"hero"), (9, b"x", b""), (0, b"\xff", b"a"), (2, b"a", b"\x00"),
               (0, b"", b"\xfe\x00")]


# The units a generated log is made of: well-formed and broken, in a frame or not.
CARLA_UNITS = {
    "start": lambda i: _frame_start(i + 1, 0.05 * i),
    "end": lambda i: FRAME_END,
    "zero-start": lambda i: b"\0" * 5,
    "empty-del": lambda i: EMPTY_DEL,
    "add": lambda i: _add(7),
    "del": lambda i: _del(7),
    # EventDel packets that all differ (hostile.py carla-distinct-dels), of actors alive or not, ids repeated
    "del-new": lambda i: _del(100_000 + i),
    "add-cycle": lambda i: _add(1000 + i % 300),
    "del-cycle": lambda i: _del(1000 + i % 300),
    "del-pair": lambda i: _packet(3, struct.pack("<HII", 2, 1000 + i % 300, 7)),
    # EventParent packets that all differ (hostile.py carla-distinct-parents): of actors never added, of one
    # alive (7, added by "add"), of the actors "add-cycle" added, two records a packet, ids repeated
    "parent-new": lambda i: _parent(200_000 + 2 * i, 200_001 + 2 * i),
    "parent-alive": lambda i: _parent(7, 300_000 + i),
    "parent-cycle": lambda i: _parent(1000 + i % 300, 1000 + (i * 7) % 300),
    "parent-pair": lambda i: _packet(4, struct.pack("<HIIII", 2, 1000 + i % 300, 7, 7, 400_000 + i % 5)),
    "unknown": lambda i: _packet(99, b""),
    "user": lambda i: _packet(150, b"xy"),
    "position": lambda i: _packet(6, struct.pack("<HI6f", 1, 7, 0, 0, 0, 0, 0, 0)),
    "counter": lambda i: _packet(4, struct.pack("<Q", 0)),
    # an EventAdd of runs of attributes (150 of one, 120 of another...), a new run pattern per index
    "attributes": lambda i: _add_attributes([_ATTRIBUTES[(i + j) % 5] for j in range(4) for _ in range(30 * (j + 2))]),
    # whole frames that repeat but for their timing (hostile.py's carla-steered cases), with a finding each or
    # none, timed to follow on (exact binary fractions) or not, changing the alive set or not
    "frame-wheels": lambda i: _frame_start(i + 1, 0.5 * i, 0.5) + _packet(21, struct.pack("<HII", 1, 7, 2**32 - 1))
    + FRAME_END,
    "frame-bones": lambda i: _frame_start(i + 1, 0.5 * i, 0.5) + _packet(19, struct.pack("<HIH", 1, 7, 0xFFFF))
    + FRAME_END,
    "frame-late": lambda i: _frame_start(i + 1, 0.05 * i) + _packet(21, struct.pack("<HII", 1, 7, 2**32 - 1))
    + FRAME_END,
    "frame-add-del": lambda i: _frame_start(i + 1, 0.5 * i, 0.5) + _add(7) + _del(8) + FRAME_END,
    "frame-del-add": lambda i: _frame_start(i + 1, 0.5 * i, 0.5) + _del(7) + _add(8) + FRAME_END,
    "frame-lacking": lambda i: _frame_start(i + 1, 0.5 * i, 0.5) + FRAME_END,
}


def _carla(data: bytes, *, fast_path: bool, profile: str = "spec", variant: str | None = None) -> FileReport:
    from recspec.reference.carla import VARIANTS

    return carla_check.check_stream(io.BytesIO(data), path="x", variant=VARIANTS[variant] if variant else None,
                                    profile=profile, fast_path=fast_path)


def test_carla_one_frame_of_empty_packets_is_walked_in_bulk(monkeypatch: pytest.MonkeyPatch) -> None:
    n = 50_000
    data = CARLA_HEADER + _frame_start(1, 0.0, -1.0) + EMPTY_DEL * n + FRAME_END
    calls = _Counting(monkeypatch, carla_check._Walk, "packet")
    report = _carla(data, fast_path=True)
    assert calls.calls < 300  # the first copies until their rule is capped, then one bulk step
    assert report.stats["packets"] == n + 2
    assert report.capped == {"CARLA-ORDER-002": n - 1}
    assert report.stats["frames"] == 1


def test_carla_zeros_after_the_header_are_walked_in_bulk(monkeypatch: pytest.MonkeyPatch) -> None:
    n = 40_000  # empty FrameStart packets of 5 zero bytes
    data = CARLA_HEADER + b"\0" * (5 * n)
    calls = _Counting(monkeypatch, carla_check._Walk, "packet")
    report = _carla(data, fast_path=True, variant="0.9.15")
    assert calls.calls < 300
    assert report.stats["frames"] == report.stats["packets"] == n
    assert report.capped == {"CARLA-PACKET-001": n, "CARLA-FRAME-002": n - 1}
    assert report.verdict.value == "malformed"


def test_carla_one_frame_of_distinct_deletions_is_walked_in_bulk(monkeypatch: pytest.MonkeyPatch) -> None:
    """EventDel packets that all differ (each deletes a new id: hostile.py carla-distinct-dels) are walked
    one by one until their rules have their stored findings, then a block of packets at a time."""
    n = 50_000
    data = CARLA_HEADER + _frame_start(1, 0.0, -1.0) + b"".join(_del(100 + i) for i in range(n)) + FRAME_END
    calls = _Counting(monkeypatch, carla_check._Walk, "packet")
    report = _carla(data, fast_path=True)
    assert calls.calls < 300
    assert report.stats["packets"] == n + 2
    assert report.capped == {"CARLA-ORDER-002": n - 1, "CARLA-ACTOR-003": n}
    _same(report, _carla(data, fast_path=False))


def test_carla_one_frame_of_distinct_parents_is_walked_in_bulk(monkeypatch: pytest.MonkeyPatch) -> None:
    """EventParent packets that all differ (each attaches a new id to another, neither ever added:
    hostile.py carla-distinct-parents) are walked one by one until their rules have their stored findings,
    then a block of packets at a time; each packet's two ids break CARLA-ACTOR-001."""
    n = 50_000
    data = CARLA_HEADER + _frame_start(1, 0.0, -1.0) + b"".join(_parent(2 * i + 1, 2 * i + 2) for i in range(n)) \
        + FRAME_END
    calls = _Counting(monkeypatch, carla_check._Walk, "packet")
    report = _carla(data, fast_path=True)
    assert calls.calls < 300
    assert report.stats["packets"] == n + 2
    assert report.capped == {"CARLA-ORDER-002": n - 1, "CARLA-ACTOR-001": 2 * n}
    _same(report, _carla(data, fast_path=False))


def test_carla_parents_of_alive_actors_count_only_the_others() -> None:
    """A run of EventParent packets whose child is alive (added before the frame's parents) and whose parent
    is not: CARLA-ACTOR-001 once a packet, for the parent alone; after EventParent written late in the frame
    (after a Position, which CARLA writes after the events), CARLA-ORDER-001 for every one of them."""
    n = 2_000
    position = _packet(6, struct.pack("<HI6f", 1, 7, 0, 0, 0, 0, 0, 0))
    data = CARLA_HEADER + _frame_start(1, 0.0, -1.0) + _add(7) + position \
        + b"".join(_parent(7, 500_000 + i) for i in range(n)) + FRAME_END
    report = _carla(data, fast_path=True)
    assert report.stats["packets"] == n + 4
    assert report.capped == {"CARLA-ORDER-002": n - 1, "CARLA-ACTOR-001": n, "CARLA-ORDER-001": n}
    _same(report, _carla(data, fast_path=False))


@pytest.mark.parametrize("packet", [struct.pack("<BIHII", 21, 10, 1, 7, 2**32 - 1),
                                    struct.pack("<BIHIH", 19, 8, 1, 7, 0xFFFF)])
def test_carla_frames_that_repeat_with_a_finding_are_walked_in_bulk(monkeypatch: pytest.MonkeyPatch,
                                                                      packet: bytes) -> None:
    """Frames of the same bytes but for their timing, each with a malformed packet (hostile.py
    carla-steered-wheels and -bones): walked until their rules have their stored findings, then in bulk."""
    n = 3_000
    data = CARLA_HEADER + b"".join(_frame_start(i + 1, 0.5 * i, 0.5 if i + 1 < n else -1.0) + packet + FRAME_END
                                   for i in range(n))
    calls = _Counting(monkeypatch, carla_check._Walk, "packet")
    report = _carla(data, fast_path=True, variant="0.9.15")
    assert calls.calls < 3 * 300
    assert report.stats["frames"] == n and report.stats["packets"] == 3 * n
    assert report.verdict.value == "malformed" and sum(report.capped.values()) > n
    _same(report, _carla(data, fast_path=False, variant="0.9.15"))


def test_carla_run_stops_at_the_first_different_byte() -> None:
    n = 3_000
    data = CARLA_HEADER + _frame_start(1, 0.0, -1.0) + EMPTY_DEL * n + _packet(3, struct.pack("<H", 1)) \
        + EMPTY_DEL * 5 + FRAME_END
    fast, slow = _carla(data, fast_path=True), _carla(data, fast_path=False)
    _same(fast, slow)
    assert fast.stats["packets"] == n + 8
    odd = len(CARLA_HEADER) + 29 + 7 * n  # the EventDel that counts one record it does not hold
    assert next(f.offset for f in fast.findings if f.rule != "CARLA-ORDER-002") == odd + 5


@given(runs=st.lists(st.tuples(st.sampled_from(sorted(CARLA_UNITS)), st.integers(1, 260)), min_size=1, max_size=8),
       profile=st.sampled_from(["spec", "compat"]), cut=st.integers(0, 6))
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_carla_fast_and_slow_paths_give_the_same_report(runs: list[tuple[str, int]], profile: str, cut: int) -> None:
    parts = [CARLA_HEADER]
    i = 0
    for unit, times in runs:
        for _ in range(times):
            parts.append(CARLA_UNITS[unit](i))
            i += 1
    data = b"".join(parts)
    data = data[:len(data) - cut]  # a cut last packet: the run must not count past the end of the file
    _same(_carla(data, fast_path=True, profile=profile, variant="0.9.15"),
          _carla(data, fast_path=False, profile=profile, variant="0.9.15"))


@given(n=st.integers(100, 400), alive=st.booleans(), records=st.integers(1, 3),
       edits=st.lists(st.tuples(st.floats(0, 1), st.integers(0, 255)), max_size=4),
       insert=st.one_of(st.none(), st.tuples(st.floats(0, 1), st.binary(max_size=9))), cut=st.integers(0, 6))
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_carla_edited_parent_floods_give_the_same_report(n: int, alive: bool, records: int,
                                                         edits: list[tuple[float, int]],
                                                         insert: tuple[float, bytes] | None, cut: int) -> None:
    """A frame of EventParent packets that all differ (hostile.py carla-distinct-parents), of actors alive
    or not, with bytes overwritten, a few inserted and the end cut: wherever an edit breaks a packet's head,
    size or count the run stops there, and the fast and the slow path give the same report."""
    first = 7 if alive else 600_000
    flood = b"".join(_packet(4, struct.pack(f"<H{2 * records}I", records,
                                            *[first if j % 2 == 0 else 700_000 + i * records + j
                                              for j in range(2 * records)]))
                     for i in range(n))
    data = bytearray(CARLA_HEADER + _frame_start(1, 0.0, -1.0) + _add(7) + flood + FRAME_END)
    start = len(CARLA_HEADER) + 29
    for at, value in edits:  # the header and the FrameStart stay: the variant and frame are not in question
        data[start + int(at * (len(data) - start - 1))] = value
    if insert is not None:
        at = start + int(insert[0] * (len(data) - start))
        data[at:at] = insert[1]
    data = bytes(data[:len(data) - cut])
    _same(_carla(data, fast_path=True, variant="0.9.15"), _carla(data, fast_path=False, variant="0.9.15"))


def test_carla_run_stops_at_the_size_the_check_was_given() -> None:
    # the reader judges truncation by the size it is given; the bulk step must not count past it
    data = CARLA_HEADER + _frame_start(1, 0.0, -1.0) + EMPTY_DEL * 5_000 + FRAME_END
    size = len(data) - 7 * 300 - 3
    reports = [carla_check.check_stream(io.BytesIO(data), path="x", variant=None, profile="spec", size=size,
                                        fast_path=fast) for fast in (True, False)]
    _same(*reports)
    assert reports[0].stats["packets"] == 1 + 5_000 - 300


# attribute strings valid, invalid UTF-8 (alone, or only across the boundary of two neighbours), holding a NUL
_TEXTS = [b"", b"role_name", b"\xc3\xa9t\xc3\xa9", b"\xff", b"\xc3", b"\xa9", b"a\x00", b"\xed\xa0\x80", b"\x00\xfe",
          b"\xe2\x82\xac"]


_BULK_ATTRIBUTE = st.tuples(st.sampled_from([0, 1, 2, 7, 200]), st.sampled_from(_TEXTS), st.sampled_from(_TEXTS))


def _add_records(records: list[tuple[int, list[tuple[int, bytes, bytes]]]]) -> bytes:
    payload = [struct.pack("<H", len(records))]
    for actor, attributes in records:
        payload.append(struct.pack("<IB6fI", actor, 1, 0, 0, 0, 0, 0, 0, 0) + _s("vehicle.c")
                       + struct.pack("<H", len(attributes)))
        payload.extend(struct.pack("<BH", t, len(k)) + k + struct.pack("<H", len(v)) + v for t, k, v in attributes)
    return _packet(2, b"".join(payload))


@given(records=st.lists(st.tuples(st.integers(0, 3), st.lists(st.tuples(_BULK_ATTRIBUTE, st.integers(1, 90)),
                                                                max_size=5)), min_size=1, max_size=6),
       packets=st.integers(1, 3), profile=st.sampled_from(["spec", "compat"]),
       variant=st.sampled_from([None, "0.9.15", "0.9.16"]), cut=st.integers(0, 3),
       chunk=st.sampled_from([1, 4, 40, 300, carla_check.ATTRIBUTE_CHUNK]))
@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_carla_eventadd_attributes_in_bulk_give_the_same_report(records, packets, profile, variant, cut,
                                                                  chunk) -> None:
    """Valid, invalid-UTF-8 and mixed attributes, in runs (so that a rule passes its stored findings
    inside one record), in one or more EventAdd packets, judged in chunks of records of several
    sizes: the bulk judgement and detection's scan give the report of the one-by-one walk of
    decoded attributes."""
    adds = [_add_records([(actor, [a for a, times in runs for _ in range(times)]) for actor, runs in records])
            for _ in range(packets)]
    data = CARLA_HEADER + _frame_start(1, 0.0) + b"".join(adds) + FRAME_END
    _same_in_chunks(data[:len(data) - cut], chunk, profile, variant)


def _same_in_chunks(data: bytes, chunk: int, profile: str, variant: str | None) -> None:
    """The report of the one-by-one walk, and of the bulk judgement of EventAdd records in chunks
    of about ``chunk`` attributes."""
    slow = _carla(data, fast_path=False, profile=profile, variant=variant)
    default = carla_check.ATTRIBUTE_CHUNK
    carla_check.ATTRIBUTE_CHUNK = chunk
    try:
        fast = _carla(data, fast_path=True, profile=profile, variant=variant)
    finally:
        carla_check.ATTRIBUTE_CHUNK = default
    _same(fast, slow)


def _actor_records(records: list[tuple[int, int, bytes, bool]]) -> bytes:
    payload = [struct.pack("<H", len(records))]
    for actor, actor_type, description, attribute in records:
        attributes = [(1, b"role_name", b"hero")] if attribute else []
        payload.append(struct.pack("<IB6fIH", actor, actor_type, 0, 0, 0, 0, 0, 0, 0, len(description)) + description
                       + struct.pack("<H", len(attributes)))
        payload.extend(struct.pack("<BH", t, len(k)) + k + struct.pack("<H", len(v)) + v for t, k, v in attributes)
    return _packet(2, b"".join(payload))


@given(records=st.lists(st.tuples(st.integers(0, 40), st.sampled_from([0, 1, 3, 4, 5, 6, 7, 200]),
                                  st.sampled_from([b"vehicle.c", b"", b"walker\x00", b"\xc3\xa9t\xc3\xa9", b"\xff"]),
                                  st.booleans()), min_size=1, max_size=40),
       distinct=st.booleans(), packets=st.integers(1, 2), profile=st.sampled_from(["spec", "compat"]),
       variant=st.sampled_from([None, "0.9.10-0.9.11", "0.9.15", "0.9.16"]),
       chunk=st.sampled_from([1, 30, carla_check.ATTRIBUTE_CHUNK]))
@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_carla_eventadd_records_in_bulk_give_the_same_report(records, distinct, packets, profile, variant,
                                                               chunk) -> None:
    """EventAdd records whose ids repeat (within a packet, or added again by the next) or are
    distinct, of every actor type (INVALID and above among them), with descriptions that are
    ASCII, empty, hold a NUL or are not ASCII (valid UTF-8 or not), with or without an attribute:
    the chunks of clean records judged at once give the report of the one-by-one walk."""
    if distinct:
        records = [(i, *rest) for i, (_, *rest) in enumerate(records)]
    data = CARLA_HEADER + _frame_start(1, 0.0, -1.0) + _actor_records(records) * packets + FRAME_END
    _same_in_chunks(data, chunk, profile, variant)


def test_carla_eventadd_of_clean_records_adds_them_all() -> None:
    """500 clean actors in one EventAdd: every actor added, no finding about them."""
    records = [(i, 1, b"vehicle.c", i % 2 == 0) for i in range(500)]
    data = CARLA_HEADER + _frame_start(1, 0.0, -1.0) + _actor_records(records) + FRAME_END
    fast, slow = (_carla(data, fast_path=fast_path) for fast_path in (True, False))
    _same(fast, slow)
    assert fast.stats["actors_added"] == 500
    assert not [f for f in fast.findings if f.rule.startswith(("CARLA-ACTOR", "CARLA-ENUM", "CARLA-STRING"))]


def test_carla_eventadd_attributes_are_not_decoded_one_by_one(monkeypatch: pytest.MonkeyPatch) -> None:
    """An EventAdd of 20,000 distinct attributes, each invalid UTF-8: detection and the walk scan the
    payload once per vector width and make no attribute object (the reference decoder, which the
    slow path uses, makes them all)."""
    from recspec.reference.carla import _decode, _scan

    ids = [bytes((0x80 + i % 64, i // 64 % 256)) for i in range(20_000)]
    data = (CARLA_HEADER + _frame_start(1, 0.0, -1.0) + _add_records([(5, [(1, k, b"") for k in ids])]) + FRAME_END)
    objects = _Counting(monkeypatch, _decode.m, "ActorAttribute")
    scans = _Counting(monkeypatch, _scan, "_scan_event_add")
    fast = _carla(data, fast_path=True)
    assert objects.calls == 0
    assert scans.calls <= 2
    assert fast.verdicts["spec"].rules["CARLA-STRING-001"] == 20_000
    slow = _carla(data, fast_path=False)
    assert objects.calls == 20_000
    _same(fast, slow)
