"""The CARLA rule checker (conformance/carla/_check.py) on logs put together byte by byte
(tests/build_carla.py), from the layout in docs/formats/carla.md: the info header (u16 version at
0, the magic string at 2, the i64 date at 18, the map string at 26), packets of a u8 id, a u32 size
and the payload, counted payloads of a u16 count and fixed-size records (Position 28 bytes, State
10, Collision 14, EventDel 4, EventParent 8). Every rule the walk reports is asserted with its id
and the offset (and length) the layout gives, never one read back from the checker. Written against
the mutants tools/mutate.py makes of the module (a deleted finding, a bound off by one); each check
runs with the fast paths on and off (``fast_path=False`` walks every packet), whose findings and
counts must agree."""

from __future__ import annotations

import math
import struct

import pytest
from build_carla import (
    ADD,
    COLLISION,
    DEL,
    FE,
    FS,
    HEADER_SIZE,
    MAP_AT,
    NOT_AN_ACTOR,
    PARENT,
    POSITION,
    STATE,
    actor,
    both,
    check,
    collision,
    counted,
    counts,
    empty_middle,
    end,
    found,
    frame,
    header,
    log,
    offsets,
    packet,
    position,
    start,
    state,
    string,
)

from recspec.conformance.carla._check import _DATE_MAX, _DATE_MIN
from recspec.trace import collecting


def test_a_clean_log_has_no_finding() -> None:
    data = log(frame(1, *empty_middle()), frame(2, *empty_middle()), frame(3, *empty_middle(), last=True))
    report = both(data)
    assert report.findings == [] and report.stats["frames"] == 3 and report.stats["packets"] == 12


# --- the header ------------------------------------------------------------------------

def _tail() -> bytes:
    return frame(1, *empty_middle(), last=True)


def test_header_magic_version_and_empty_map() -> None:
    report = both(log(_tail(), head=header(version=2, magic=b"CARLA_RECORDEX", map_name=b"")))
    assert found(report, "CARLA-HEADER-001") == [(2, 2 + 14, "header.magic")]
    assert found(report, "CARLA-HEADER-002") == [(0, 2, "header.version")]
    assert found(report, "CARLA-HEADER-004") == [(26, 2, "header.map_name")]  # a 28-byte header, map at 26


@pytest.mark.parametrize(("date", "fires"), [(_DATE_MIN - 1, True), (_DATE_MIN, False), (_DATE_MAX - 1, False),
                                              (_DATE_MAX, True), (-1, True)])
def test_the_date_is_held_to_2017_to_2100(date: int, fires: bool) -> None:
    assert _DATE_MIN == 1_483_228_800 and _DATE_MAX == 4_102_444_800  # 2017-01-01, 2100-01-01 UTC
    report = both(log(_tail(), head=header(date=date)))
    assert found(report, "CARLA-HEADER-003") == ([(18, 8, "header.date")] if fires else [])


def test_the_map_name_string_faults_are_at_its_length_field() -> None:
    bad = both(log(_tail(), head=header(map_name=b"Town\xff6")))
    assert found(bad, "CARLA-STRING-001") == [(MAP_AT, None, "header.map_name")]
    nul = both(log(_tail(), head=header(map_name=b"Town\x006")))
    assert found(nul, "CARLA-STRING-002") == [(MAP_AT, None, "header.map_name")]
    assert found(nul, "CARLA-STRING-001") == []


def test_a_header_cut_inside_its_date_or_its_magic() -> None:
    report = check(header()[:20])  # 2 of the date's 8 bytes, at 18
    assert [(f.rule, f.offset, f.path) for f in report.findings] == [("CARLA-STREAM-001", 18, "header.date")]
    assert report.verdict.name == "MALFORMED"
    wrong = b"\x01\x00\x05\x00CARLA"  # a magic string of 5 bytes, then the file ends
    report = check(wrong)
    assert found(report, "CARLA-HEADER-001") == [(2, 7, "header.magic")]  # the 7 bytes read after the version
    assert [f.rule for f in report.findings] == ["CARLA-HEADER-001", "CARLA-STREAM-001"]
    assert found(check(b"\x01"), "CARLA-HEADER-001") == [(1, 0, "header.magic")]  # at the file's end, not past it


# --- packets -----------------------------------------------------------------------------

def test_packets_outside_a_frame_and_unknown_ids() -> None:
    loose = counted(POSITION, [])
    user, undefined, highest_defined = packet(100, b"abc"), packet(99, b"xy"), packet(8, b"")
    data = log(frame(1, *empty_middle()), loose, frame(2, *empty_middle(), user, undefined, highest_defined,
                                                       last=True))
    at = offsets(data)  # FS FE at 0 3; the loose Position is packet 4; frame 2: FS Pos State user undefined 8 FE
    report = both(data)
    assert found(report, "CARLA-FRAME-001") == [(at[4], 7, "packet@5:Position")]
    assert found(report, "CARLA-PACKET-003") == [(at[8], 8, "frame[1]/packet[3]:Raw")]
    assert [(o, n) for o, n, _ in found(report, "CARLA-PACKET-002")] == [(at[9], 7), (at[10], 5)]
    assert [f.actual for f in report.findings if f.rule == "CARLA-PACKET-002"] == [99, 8]


def test_frame_start_and_frame_end_payload_sizes() -> None:
    short_start = packet(FS, struct.pack("<Qd", 1, -1.0))  # 16 bytes, not 24
    long_end = packet(FE, b"\x00\x01")
    data = log(frame(1, *empty_middle())[:-5] + long_end, short_start + b"".join(empty_middle()) + end())
    at = offsets(data)
    report = both(data)
    assert found(report, "CARLA-PACKET-001") == [(at[3], 7, "frame[0]/packet[3]:FrameEnd"),
                                                 (at[4], 21, "frame[1]/packet[0]:FrameStart")]
    assert [(f.expected, f.actual) for f in report.findings if f.rule == "CARLA-PACKET-001"] == [(0, 2), (24, 16)]


def test_a_frame_counter_is_reported_where_the_variant_defines_it() -> None:
    data = log(start(1, -1.0, 0.0) + packet(18, struct.pack("<Q", 5)) + end())
    at = offsets(data)
    report = both(data, "0.9.14")
    assert found(report, "CARLA-PACKET-004") == [(at[1], 13, "frame[0]/packet[1]:FrameCounter")]


# --- frames and their timing -------------------------------------------------------------

def test_the_first_frame_is_id_1_at_elapsed_0() -> None:
    data = log(start(2, -1.0, 0.25) + b"".join(empty_middle()) + end())
    payload = offsets(data)[0] + 5
    report = both(data)
    assert found(report, "CARLA-FRAME-003") == [(payload, 8, "frame[0]/packet[0]:FrameStart.frame_id")]
    assert found(report, "CARLA-FRAME-005") == [(payload + 16, 8, "frame[0]/packet[0]:FrameStart.elapsed")]


def test_frame_ids_and_elapsed_follow_on() -> None:
    middle = b"".join(empty_middle())
    data = log(start(1, 0.5, 0.0) + middle + end(), start(3, 0.25, 0.75) + middle + end(),
               start(4, -1.0, 1.0) + middle + end())
    at = offsets(data)
    report = both(data)
    # frame 2 has id 3 (after 1) and elapsed 0.75 != 0.0 + 0.5; frame 3 follows frame 2
    assert found(report, "CARLA-FRAME-003") == [(at[4] + 5, 8, "frame[1]/packet[0]:FrameStart.frame_id")]
    assert [f.expected for f in report.findings if f.rule == "CARLA-FRAME-003"] == [2]
    assert found(report, "CARLA-FRAME-004") == [(at[4] + 21, 8, "frame[1]/packet[0]:FrameStart.elapsed")]
    assert [f.expected for f in report.findings if f.rule == "CARLA-FRAME-004"] == [0.5]
    assert found(report, "CARLA-FRAME-008") == [] and found(report, "CARLA-FRAME-006") == []


def test_a_negative_duration_before_the_last_frame() -> None:
    middle = b"".join(empty_middle())
    zero = log(start(1, 0.0, 0.0) + middle + end(), start(2, -1.0, 0.0) + middle + end())
    assert both(zero).findings == []  # a step of 0.0 is not negative
    data = log(start(1, -1.0, 0.0) + middle + end(), start(2, -1.0, 1.0) + middle + end())
    at = offsets(data)
    report = both(data)
    assert found(report, "CARLA-FRAME-008") == [(at[0] + 13, 8, "frame[0]/packet[0]:FrameStart.duration_this")]
    assert found(report, "CARLA-FRAME-004") == []  # not asked of a frame after a negative step


def test_the_last_frame_keeps_its_placeholder() -> None:
    middle = b"".join(empty_middle())
    data = log(start(1, 0.5, 0.0) + middle + end(), start(2, 0.5, 0.5) + middle + end())
    at = offsets(data)
    report = both(data)
    assert found(report, "CARLA-FRAME-006") == [(at[4] + 13, 8, "frame[1]/packet[0]:FrameStart.duration_this")]
    assert [(f.expected, f.actual) for f in report.findings if f.rule == "CARLA-FRAME-006"] == [(-1.0, 0.5)]


def test_timing_that_is_not_finite() -> None:
    middle = b"".join(empty_middle())
    data = log(start(1, math.inf, 0.0) + middle + end(), start(2, -1.0, math.nan) + middle + end())
    at = offsets(data)
    report = both(data)
    assert found(report, "CARLA-FRAME-010") == [(at[0] + 13, 16, "frame[0]/packet[0]:FrameStart"),
                                                (at[4] + 13, 16, "frame[1]/packet[0]:FrameStart")]


def test_a_frame_start_inside_a_frame_and_a_frame_left_open() -> None:
    middle = b"".join(empty_middle())
    data = log(start(1, 0.5, 0.0) + middle, start(2, -1.0, 0.5) + middle)
    at = offsets(data)
    report = both(data)
    assert found(report, "CARLA-FRAME-002") == [(at[3], 5, "frame[0]/packet[3]:FrameStart")]
    assert found(report, "CARLA-FRAME-007") == [(len(data), 0, "frame[1]")]
    assert found(report, "CARLA-FRAME-011") == []


def test_a_log_without_frames() -> None:
    report = both(log())
    assert found(report, "CARLA-FRAME-009") == [(HEADER_SIZE, 0, "")]


def test_a_frame_lacking_a_packet_the_writer_always_writes() -> None:
    data = log(frame(1, counted(POSITION, []), last=True))
    at = offsets(data)
    report = both(data)
    assert found(report, "CARLA-FRAME-011") == [(at[2], 5, "frame[0]/packet[2]:FrameEnd")]


def test_every_frame_lacking_a_packet_is_counted_past_the_stored_findings() -> None:
    n = 130  # more than the 100 findings a rule stores
    data = log(*(frame(i, counted(POSITION, []), last=i == n) for i in range(1, n + 1)))
    report = both(data)
    assert counts(report) == {"CARLA-FRAME-011": n}
    assert len(found(report, "CARLA-FRAME-011")) == 100
    assert report.stats["frames"] == n and report.stats["packets"] == 3 * n


# --- the order of packets in a frame --------------------------------------------------------

def test_a_packet_twice_and_a_packet_out_of_the_writer_order() -> None:
    data = log(frame(1, counted(STATE, []), counted(POSITION, []), counted(STATE, []), last=True))
    at = offsets(data)
    report = both(data)
    assert found(report, "CARLA-ORDER-001") == [(at[2], 7, "frame[0]/packet[2]:Position")]
    assert found(report, "CARLA-ORDER-002") == [(at[3], 7, "frame[0]/packet[3]:State")]


def test_deletions_past_the_stored_findings_are_all_counted() -> None:
    # after Position (written later in a frame), each EventDel breaks ORDER-001; each after the first
    # ORDER-002; each deletes an actor that is not alive (ACTOR-003); ids differ, so no two are alike
    n = 150
    dels = [counted(DEL, [struct.pack("<I", 1000 + i)]) for i in range(n)]
    data = log(start(1, -1.0, 0.0) + counted(POSITION, []) + b"".join(dels) + counted(STATE, []) + end())
    at = offsets(data)
    report = both(data)
    assert counts(report) == {"CARLA-ORDER-001": n, "CARLA-ORDER-002": n - 1, "CARLA-ACTOR-003": n}
    assert found(report, "CARLA-ACTOR-003")[:2] == [(at[2] + 7, 4, "frame[0]/packet[2]:EventDel/record[0].database_id"),
                                                    (at[3] + 7, 4, "frame[0]/packet[3]:EventDel/record[0].database_id")]
    assert found(report, "CARLA-ORDER-002")[0] == (at[3], 11, "frame[0]/packet[3]:EventDel")
    assert report.stats["packets"] == n + 4


def test_repeated_packets_past_the_stored_findings_are_all_counted() -> None:
    n = 130  # the same State packet again and again: each after the first breaks ORDER-002
    data = log(start(1, -1.0, 0.0) + counted(POSITION, []) + counted(STATE, []) * n + end())
    report = both(data)
    assert counts(report) == {"CARLA-ORDER-002": n - 1}
    assert report.stats["packets"] == n + 3


# --- actors --------------------------------------------------------------------------------

def test_records_of_actors_that_are_not_alive() -> None:
    add = counted(ADD, [actor(7), actor(8)])
    pos = counted(POSITION, [position(7), position(9), position(8), position(10)])
    hits = counted(COLLISION, [collision(1, 7, NOT_AN_ACTOR), collision(2, 11, 8), collision(3, 8, 12)])
    parent = counted(PARENT, [struct.pack("<II", 13, 7), struct.pack("<II", 8, 14)])
    data = log(start(1, -1.0, 0.0) + add + parent + hits + pos + counted(STATE, []) + end())
    at = offsets(data)
    report = both(data)
    p, c, e = at[2] + 7, at[3] + 7, at[4] + 7  # the first record of EventParent, Collision, Position
    assert found(report, "CARLA-ACTOR-001") == [
        (p, 8, "frame[0]/packet[2]:EventParent/record[0].database_id"),
        (p + 8, 8, "frame[0]/packet[2]:EventParent/record[1].database_id_parent"),
        (c + 14, 14, "frame[0]/packet[3]:Collision/record[1].database_id1"),
        (c + 28, 14, "frame[0]/packet[3]:Collision/record[2].database_id2"),
        (e + 28, 28, "frame[0]/packet[4]:Position/record[1].database_id"),
        (e + 84, 28, "frame[0]/packet[4]:Position/record[3].database_id")]
    assert [f.actual for f in report.findings if f.rule == "CARLA-ACTOR-001"] == [13, 14, 11, 12, 9, 10]


def test_deleting_an_alive_actor_then_again() -> None:
    data = log(frame(1, counted(ADD, [actor(5)]), counted(DEL, [struct.pack("<I", 5), struct.pack("<I", 5)]),
                     *empty_middle(), last=True))
    at = offsets(data)
    report = both(data)
    assert found(report, "CARLA-ACTOR-003") == [(at[2] + 7 + 4, 4, "frame[0]/packet[2]:EventDel/record[1].database_id")]


def test_an_actor_added_twice_and_actor_types() -> None:
    # 0.9.4-0.9.5: actor types 0..3, 4 is INVALID
    data = log(frame(1, counted(ADD, [actor(5, kind=3), actor(5, kind=4), actor(6, kind=9)]), *empty_middle(),
                     last=True))
    payload = offsets(data)[1] + 5
    for fast in (True, False):
        report = check(data, fast=fast)
        rec = "frame[0]/packet[1]:EventAdd/record"
        assert found(report, "CARLA-ACTOR-002") == [(payload, None, f"{rec}[1].database_id")]
        assert found(report, "CARLA-ENUM-001") == [(payload, None, f"{rec}[1].type"), (payload, None, f"{rec}[2].type")]
        assert [f.expected for f in report.findings if f.rule == "CARLA-ENUM-001"] == ["0..3", "0..3"]


@pytest.mark.parametrize("trace", [False, True])
def test_event_add_attributes_and_strings(trace: bool) -> None:
    # attribute types 0..4 in 0.9.4-0.9.5
    attributes = ((4, b"color", b"1,2,3"), (5, b"role_name", b"hero"), (3, b"a\xffb", b"x"), (3, b"n", b"a\x00b"))
    data = log(frame(1, counted(ADD, [actor(5, description=b"veh\x00"), actor(6, attributes=attributes)]),
                     *empty_middle(), last=True))
    payload = offsets(data)[1] + 5
    for fast in (True, False):
        with collecting(trace):
            report = check(data, fast=fast)
        rec = "frame[0]/packet[1]:EventAdd/record"
        assert found(report, "CARLA-ENUM-005") == [(payload, None, f"{rec}[1]/attributes[1].type")]
        assert [f.actual for f in report.findings if f.rule == "CARLA-ENUM-005"] == [5]
        assert found(report, "CARLA-STRING-001") == [(payload, None, f"{rec}[1]/attributes[2].id")]
        assert found(report, "CARLA-STRING-002") == [(payload, None, f"{rec}[0].description_id"),
                                                     (payload, None, f"{rec}[1]/attributes[3].value")]


def test_flags_and_enums_of_fixed_records() -> None:
    # State: frozen is a bool, the light state 0..2 in 0.9.4-0.9.5; Collision's hero flags are bools
    add = counted(ADD, [actor(1), actor(2)])
    hits = counted(COLLISION, [collision(1, 1, 2, 1, 1), collision(2, 1, 2, 2, 0), collision(3, 1, 2, 0, 2)])
    states = counted(STATE, [state(1, 1, 2), state(2, 2, 3), state(1, 0, 0)])
    data = log(frame(1, add, hits, counted(POSITION, []), states, last=True))
    at = offsets(data)
    report = both(data)
    c, s = at[2] + 7, at[4] + 7
    assert found(report, "CARLA-VALUE-001") == [
        (c + 14, 14, "frame[0]/packet[2]:Collision/record[1].is_actor1_hero"),
        (c + 28, 14, "frame[0]/packet[2]:Collision/record[2].is_actor2_hero"),
        (s + 10, 10, "frame[0]/packet[4]:State/record[1].is_frozen")]
    assert found(report, "CARLA-ENUM-002") == [(s + 10, 10, "frame[0]/packet[4]:State/record[1].state")]
    assert [(f.expected, f.actual) for f in report.findings if f.rule == "CARLA-ENUM-002"] == [("0..2", 3)]


WHEELS_0915 = 21  # AnimVehicleWheels in 0.9.15


def test_wheels_of_a_vehicle_that_is_not_alive() -> None:
    wheels = struct.pack("<II", 3, 2) + struct.pack("<Bff", 0, 1.0, 2.0) * 2  # 8 + 9n bytes
    other = struct.pack("<II", 4, 1) + struct.pack("<Bff", 0, 1.0, 2.0)
    data = log(start(1, -1.0, 0.0) + counted(ADD, [actor(4)]) + counted(WHEELS_0915, [wheels, other]) + end())
    at = offsets(data)
    report = both(data, "0.9.15")
    assert found(report, "CARLA-ACTOR-001") == [(at[2] + 7, 4, "frame[0]/packet[2]:AnimVehicleWheels/record[0]"
                                                                ".database_id")]


WALKER_BONES_0914 = 19


def test_bones_of_a_walker_that_is_not_alive() -> None:
    bone = string(b"pelvis") + struct.pack("<6f", 0, 0, 0, 0, 0, 0)
    bad = string(b"ne\xffck") + struct.pack("<6f", 0, 0, 0, 0, 0, 0)
    walker = struct.pack("<IH", 9, 2) + bone + bad
    data = log(start(1, -1.0, 0.0) + packet(WALKER_BONES_0914, struct.pack("<H", 1) + walker) + end())
    payload = offsets(data)[1] + 5
    report = both(data, "0.9.14")
    path = "frame[0]/packet[1]:WalkerBones/record[0]"
    assert found(report, "CARLA-ACTOR-001") == [(payload, None, f"{path}.database_id")]
    assert found(report, "CARLA-STRING-001") == [(payload, None, f"{path}/bones[1].name")]


# --- where the file ends ------------------------------------------------------------------

def test_bytes_after_the_last_frame() -> None:
    body = frame(1, *empty_middle(), last=True)
    data = log(body) + b"\x07\x01"  # a State id and one byte of its size
    report = check(data)
    assert found(report, "CARLA-STREAM-002") == [(HEADER_SIZE + len(body), 2, "")]
    assert [(f.expected, f.actual) for f in report.findings if f.rule == "CARLA-STREAM-002"] == [(0, 2)]


def test_a_log_cut_inside_a_packet() -> None:
    middle = b"".join(empty_middle())
    whole = log(start(1, 0.5, 0.0) + middle + end(), start(2, -1.0, 0.5) + middle + end())
    at = offsets(whole)
    data = whole[:at[5] + 4]  # frame 2's Position: its id and 3 of its 4 size bytes
    report = check(data)
    assert found(report, "CARLA-STREAM-001") == [(at[5], 4, "frame[1]")]
    assert found(report, "CARLA-FRAME-007") == []  # a consequence of the cut, not a second finding
    cut_start = whole[:at[4] + 3]  # frame 2's FrameStart header cut: between frames
    report = check(cut_start)
    assert found(report, "CARLA-STREAM-001") == [(at[4], 3, "")]
    assert found(report, "CARLA-STREAM-002") == []


# --- runs of alike packets and frames, past the stored findings -------------------------------

def test_repeated_faulty_frames_are_all_counted() -> None:
    # the same frame but for its timing, each with a Position of an actor never added
    n = 130
    data = log(*(frame(i, counted(POSITION, [position(9)]), counted(STATE, []), last=i == n) for i in range(1, n + 1)))
    at = offsets(data)
    report = both(data)
    assert counts(report) == {"CARLA-ACTOR-001": n}
    record = "packet[1]:Position/record[0].database_id"
    assert found(report, "CARLA-ACTOR-001")[:2] == [(at[1] + 7, 28, f"frame[0]/{record}"),
                                                    (at[5] + 7, 28, f"frame[1]/{record}")]
    assert report.stats["frames"] == n and report.stats["packets"] == 4 * n and report.stats["position_records"] == n
    assert report.stats["duration_s"] == frame_elapsed(n)


def frame_elapsed(i: int) -> float:
    elapsed = 0.0
    for _ in range(i - 1):
        elapsed += 0.05
    return elapsed


def test_repeated_faulty_packets_are_all_counted() -> None:
    # the same State packet again and again, its record's frozen flag 2: VALUE-001 for each,
    # ORDER-002 for each after the first; then a frame after them is still judged
    n = 130
    faulty = counted(STATE, [state(NOT_AN_ACTOR - 1, frozen=2)])
    data = log(start(1, 0.05, 0.0) + counted(POSITION, []) + faulty * n + end(),
               start(2, -1.0, 0.05) + counted(POSITION, [position(3)]) + counted(STATE, []) + end())
    at = offsets(data)
    report = both(data)
    assert counts(report) == {"CARLA-VALUE-001": n, "CARLA-ORDER-002": n - 1, "CARLA-ACTOR-001": n + 1}
    assert found(report, "CARLA-VALUE-001")[0] == (at[2] + 7, 10, "frame[0]/packet[2]:State/record[0].is_frozen")
    # 100 stored: the State records of the first 100 copies (frame 2's Position only counted)
    assert found(report, "CARLA-ACTOR-001")[-1] == (at[101] + 7, 10, "frame[0]/packet[101]:State/record[0].database_id")
    assert report.stats["packets"] == n + 3 + 4 and report.stats["frames"] == 2


@pytest.mark.parametrize(("length", "cut"), [(32, False), (33, True)])
def test_a_long_string_is_quoted_by_its_start(length: int, cut: bool) -> None:
    from recspec.conformance.carla._check import SHOWN_CHARS
    assert SHOWN_CHARS == 32
    name = b"T" * (length - 1) + b"\x00"
    report = both(log(_tail(), head=header(map_name=name)))
    (message,) = [f.message for f in report.findings if f.rule == "CARLA-STRING-002"]
    shown = "T" * 32 if cut else "T" * 31 + "\\x00"
    assert f"'{shown}'" in message and (f"... ({length} bytes)" in message) == cut


def test_a_repeated_frame_whose_timing_breaks_is_judged() -> None:
    # repeated faulty frames (past the stored findings, counted in bulk), one of whose elapsed times is
    # twice the step but not the previous elapsed plus the step: FRAME-004 there and at the frame after
    n, step, odd = 130, 0.5, 120

    def timing(i: int) -> tuple[float, float]:
        return (-1.0 if i == n else step), (2 * step if i == odd else (i - 1) * step)
    data = log(*(start(i, *timing(i)) + counted(POSITION, [position(9)]) + counted(STATE, []) + end()
                 for i in range(1, n + 1)))
    at = offsets(data)
    report = both(data)
    assert counts(report) == {"CARLA-ACTOR-001": n, "CARLA-FRAME-004": 2}
    assert found(report, "CARLA-FRAME-004") == [
        (at[4 * (i - 1)] + 21, 8, f"frame[{i - 1}]/packet[0]:FrameStart.elapsed") for i in (odd, odd + 1)]


def walked_packets(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """How many packets the walk judges one by one (a list of one counter, patched in)."""
    from recspec.conformance.carla._check import _Walk
    seen = [0]
    walk_packet = _Walk.packet

    def counting(self: _Walk, raw) -> bool:  # type: ignore[no-untyped-def]
        seen[0] += 1
        return walk_packet(self, raw)  # whether the loop has more to do after the packet
    monkeypatch.setattr(_Walk, "packet", counting)
    return seen


def test_runs_past_the_stored_findings_are_counted_without_walking_them(monkeypatch: pytest.MonkeyPatch) -> None:
    # the module's promise for a run whose findings are only counted: alike frames and packets are
    # accounted in bulk (a few past the 100 stored are walked), the counts as if walked
    seen = walked_packets(monkeypatch)
    n = 400
    frames = log(*(frame(i, counted(POSITION, [position(9)]), counted(STATE, []), last=i == n)
                   for i in range(1, n + 1)))
    assert counts(check(frames)) == {"CARLA-ACTOR-001": n}
    assert seen[0] < 4 * 110
    seen[0] = 0
    dels = [counted(DEL, [struct.pack("<I", 1000 + i)]) for i in range(n)]
    deletions = log(start(1, -1.0, 0.0) + counted(POSITION, []) + b"".join(dels) + counted(STATE, []) + end())
    assert counts(check(deletions)) == {"CARLA-ORDER-001": n, "CARLA-ORDER-002": n - 1, "CARLA-ACTOR-003": n}
    assert seen[0] < 110
    seen[0] = 0
    states = log(start(1, -1.0, 0.0) + counted(POSITION, []) + counted(STATE, [state(5, frozen=2)]) * n + end())
    assert counts(check(states))["CARLA-VALUE-001"] == n
    assert seen[0] < 110


def test_alike_deletions_break_the_run_where_their_head_differs() -> None:
    # EventDel packets of one record each, then one of two records: the run stops there and it is walked
    n = 130
    dels = [counted(DEL, [struct.pack("<I", 1000 + i)]) for i in range(n)]
    two = counted(DEL, [struct.pack("<I", 1), struct.pack("<I", 2)])
    data = log(start(1, -1.0, 0.0) + counted(ADD, [actor(1)]) + b"".join(dels) + two + b"".join(dels)
               + counted(POSITION, []) + counted(STATE, []) + end())
    report = both(data)
    # 1 is deleted (alive), 2 is not; the ids 1000.. twice, never alive
    assert counts(report) == {"CARLA-ORDER-002": 2 * n, "CARLA-ACTOR-003": 2 * n + 1}


@pytest.mark.parametrize("trace", [False, True])
def test_attribute_faults_past_the_stored_findings_are_all_counted(trace: bool) -> None:
    # 130 attributes of an undefined type and 120 of them with a NUL in their value, over 3 records
    bad = [(9, b"k%d" % j, b"v\x00" if j < 120 else b"v") for j in range(130)]
    records = [actor(1, attributes=tuple(bad[:50])), actor(2, attributes=tuple(bad[50:100])),
               actor(3, attributes=tuple(bad[100:]))]
    data = log(frame(1, counted(ADD, records), *empty_middle(), last=True))
    payload = offsets(data)[1] + 5
    for fast in (True, False):
        with collecting(trace):
            report = check(data, fast=fast)
        assert counts(report) == {"CARLA-ENUM-005": 130, "CARLA-STRING-002": 120}
        enum = found(report, "CARLA-ENUM-005")
        assert len(enum) == 100
        assert enum[0] == (payload, None, "frame[0]/packet[1]:EventAdd/record[0]/attributes[0].type")
        assert enum[-1][2] == "frame[0]/packet[1]:EventAdd/record[1]/attributes[49].type"
        assert found(report, "CARLA-STRING-002")[-1][2] == "frame[0]/packet[1]:EventAdd/record[1]/attributes[49].value"
        assert report.stats["actors_added"] == 3


@pytest.mark.parametrize("trace", [False, True])
def test_alike_event_adds_are_judged_as_one_by_one(trace: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    # 150 records alike but for their ids, each with an attribute of an undefined type; then the
    # same again with ids met before (ACTOR-002 for each)
    n = 150
    alike = [actor(100 + i, attributes=((9, b"role_name", b"hero"),)) for i in range(n)]
    data = log(frame(1, counted(ADD, alike), *empty_middle()),
               frame(2, counted(ADD, alike), counted(POSITION, [position(100 + n - 1)]), counted(STATE, []),
                     last=True))
    at = offsets(data)
    for fast in (True, False):
        with collecting(trace):
            report = check(data, fast=fast)
        assert counts(report) == {"CARLA-ENUM-005": 2 * n, "CARLA-ACTOR-002": n}
        first = (at[6] + 5, None, "frame[1]/packet[1]:EventAdd/record[0].database_id")
        assert found(report, "CARLA-ACTOR-002")[0] == first
        assert report.stats["actors_added"] == 2 * n
    # with the fast paths and no trace, frame 1's records past the stored findings are counted in
    # bulk (their ids new and distinct); frame 2's ids were met before, so they are judged one by one
    from recspec.conformance.carla._check import _Walk
    bulk: list[bool] = []
    alike_bulk = _Walk._alike_bulk

    def recording(self, *args):  # type: ignore[no-untyped-def]
        bulk.append(alike_bulk(self, *args))
        return bulk[-1]
    monkeypatch.setattr(_Walk, "_alike_bulk", recording)
    assert counts(check(data)) == {"CARLA-ENUM-005": 2 * n, "CARLA-ACTOR-002": n}
    assert bulk[0] is True and len(bulk) >= 1


def test_frames_lacking_a_packet_that_differ_are_counted_in_bulk(monkeypatch: pytest.MonkeyPatch) -> None:
    # frames without State whose Position ids change places (not repeats of one frame): past the
    # stored findings, a template of the lacking shape proves them and counts one FRAME-011 each
    n = 300
    frames = [frame(1, counted(ADD, [actor(1), actor(2)]), counted(POSITION, [position(1), position(2)]))]
    frames += [frame(i, counted(POSITION, [position(1 + i % 2), position(2 - i % 2)]), last=i == n)
               for i in range(2, n + 1)]
    seen = walked_packets(monkeypatch)
    report = both(log(*frames))
    assert counts(report) == {"CARLA-FRAME-011": n}
    assert report.stats["frames"] == n and report.stats["position_records"] == 2 * n
    assert seen[0] < 2 * 4 * 110 + 4 * n  # the slow check walks every packet, the fast one about 100 frames
