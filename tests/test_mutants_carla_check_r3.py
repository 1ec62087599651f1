"""The CARLA checker (conformance/carla/_check.py), held to facts of docs/formats/carla.md on logs made
byte by byte (tests/build_carla.py): a State record is u32 id, u8 is_frozen, f32 elapsed, u8 state (10
bytes); 0.9.4-0.9.5 has three traffic-light states (0 Red, 1 Yellow, 2 Green), flags are 0 or 1
(CARLA-VALUE-001), records name alive actors (CARLA-ACTOR-001). Each finding is asserted with its rule
id, the record's offset (the packet's offset + 5 for its header + 2 for the u16 count + the record's
index x its size) and path, with the fast paths on and off (``both``). Written against the survivors
of a fresh sample of tools/mutate.py's mutants of the module (seed 7)."""

from __future__ import annotations

from build_carla import (
    ADD,
    HEADER_SIZE,
    POSITION,
    STATE,
    actor,
    both,
    check,
    counted,
    found,
    frame,
    header,
    log,
    offsets,
    state,
)

STATE_SIZE = 10
REC = "frame[0]/packet[3]:State/record"  # FrameStart, EventAdd, Position, State


def _state_log(*records: bytes) -> tuple[bytes, int]:
    """Actors 0 and 1 added (0.9.4-0.9.5's EventAdd), then a State packet of ``records``: the log and the
    offset of the State packet's first record."""
    data = log(frame(1, counted(ADD, [actor(0), actor(5)]), counted(POSITION, []), counted(STATE, list(records)),
                     last=True))
    return data, offsets(data)[3] + 5 + 2


def test_a_state_of_an_actor_that_is_not_alive_whose_state_names_an_alive_one() -> None:
    # actor 1 was never added; its state value 0 is also the id of an alive actor, and the id 1 is below 2
    data, at = _state_log(state(5, light=2), state(1, light=0))
    assert found(both(data), "CARLA-ACTOR-001") == [(at + STATE_SIZE, STATE_SIZE, f"{REC}[1].database_id")]


def test_a_frozen_flag_of_2_is_a_value_finding_even_when_below_the_state_count() -> None:
    # is_frozen 2: not 0 or 1 (CARLA-VALUE-001), though below the three traffic-light states
    data, at = _state_log(state(0, frozen=2, light=0))
    report = both(data)
    assert found(report, "CARLA-VALUE-001") == [(at, STATE_SIZE, f"{REC}[0].is_frozen")]
    assert [f.actual for f in report.findings if f.rule == "CARLA-VALUE-001"] == [2]


def test_a_log_cut_before_its_first_frame_is_truncated_not_trailing() -> None:
    # CARLA-STREAM-002 is about bytes after the last FrameEnd; with no frame yet, a packet cut after the
    # header (a State id and 2 of its 4 size bytes) is a file cut short: CARLA-STREAM-001 at the packet
    data = header() + b"\x07\x01\x00"
    for fast in (True, False):
        report = check(data, fast=fast)
        assert found(report, "CARLA-STREAM-001") == [(HEADER_SIZE, 3, "")]
        assert found(report, "CARLA-STREAM-002") == []
