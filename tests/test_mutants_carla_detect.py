"""CARLA variant detection (conformance/carla/_detect.py) on logs put together byte by byte
(tests/build_carla.py), from the layout in docs/formats/carla.md and the research notes
(shared/formats/carla_recorder.md): packets of a u8 id, a u32 size and the payload; counted
payloads of a u16 count and fixed-size records (Position 28 bytes in UE4 builds, 52 in UE5 ones;
EventDel 4); an EventAdd record of a u32 id, a u8 actor type, two vectors, a u32 uid, a description
string and u16-counted attributes (u8 type, two strings). What each variant must say of such a log
follows from the notes' tables, not from the module: the packet-id table (section 4), which packets
are written in every frame (section 3, "Packet order inside a frame"), the actor and attribute type
enumerations (section 6: INVALID is the last actor type; dev-2023 and 0.9.16 number attribute types
from 1, UE5 adds 5).

Every log is detected four ways, the fast and the straightforward readings (``bulk``) and judgements
(``grouped``), with the file's size known and not (an unknown size reads packet by packet, frame by
frame, like a file over ``SMALL_PREFIX_BYTES``), and each answer is held to the same facts. Written
against the mutants tools/mutate.py makes of the module."""

from __future__ import annotations

import io
import struct
from typing import Any

import pytest
from build_carla import (
    ADD,
    COLLISION,
    DEL,
    FE,
    FS,
    PARENT,
    POSITION,
    STATE,
    counted,
    frame,
    header,
    packet,
    position,
    string,
)

from recspec.conformance.carla import _detect
from recspec.conformance.carla._detect import (
    DETECTION_PREFIX_FRAMES,
    DETECTION_PREFIX_PACKETS,
    PREFERENCE,
    SMALL_PREFIX_BYTES,
    detect_variant,
)
from recspec.reference.carla import VARIANTS
from recspec.reference.carla import PacketKind as K

HEADER_SIZE = 34  # "34 bytes for a 6-char map name" (header() writes Town06)
FRAME_START_SIZE = 5 + 24  # u64 id, f64 durationThis, f64 elapsed
FRAME_END_SIZE = 5
VISUAL_TIME = 20  # 0.9.14 on: size 8, an f64 and no count
UNDEFINED = 99  # below 100 and defined in no variant
USER = 100  # "user-defined packets should use ids >= 100": every variant explains them

#: Section 3: the packets each numbering writes in every frame, even with no record
#: (ids in that variant's numbering, section 4), besides FrameStart and FrameEnd.
ALWAYS_WRITTEN = {
    "0.9.4-0.9.5": {2, 3, 4, 5, 6, 7},
    "0.9.6-0.9.9": {2, 3, 4, 5, 6, 7, 8, 9},
    "0.9.10-0.9.11": {2, 3, 4, 5, 6, 7, 8, 9, 10},
    "0.9.12-0.9.13": {2, 3, 4, 5, 6, 7, 8, 9, 10},
    "0.9.14": {2, 3, 4, 5, 6, 7, 8, 9, 10, 20},
    "0.9.15": {2, 3, 4, 5, 6, 7, 8, 9, 10, 20, 21, 22},
    "dev-2023": {2, 3, 4, 5, 6, 7, 8, 9, 10, 20, 21, 22, 23},
    "0.9.16": {2, 3, 4, 5, 6, 7, 8, 9, 10, 20, 21, 22, 23},
    "ue5": {2, 3, 4, 5, 6, 7, 8, 9, 10, 20, 21, 22, 23},
}
OLD_SIX = (ADD, DEL, PARENT, COLLISION, POSITION, STATE)  # 0.9.4-0.9.5's, ids 2 to 7


def detections(data: bytes) -> list[tuple[str, dict[str, Any]]]:
    """The variant and evidence of every reading: bulk and grouped on and off, the size known and not."""
    out = []
    for size in (len(data), None):
        for bulk in (True, False):
            for grouped in (True, False):
                f = io.BytesIO(data)
                f.seek(HEADER_SIZE)
                variant, evidence = detect_variant(f, HEADER_SIZE, size, grouped=grouped, bulk=bulk)
                assert f.tell() == HEADER_SIZE
                out.append((variant.name, evidence))
    return out


def reasons(evidence: dict[str, Any]) -> dict[str, str]:
    return {c["variant"]: c["reason"] for c in evidence["candidates"]}


def empty_frame(i: int, ids: tuple[int, ...] = OLD_SIX, *extra: bytes) -> bytes:
    """A frame of empty counted packets (size 2, count 0) of these ids, then ``extra``."""
    return frame(i, *(counted(pid, []) for pid in ids), *extra)


def visual_time(seconds: float) -> bytes:
    return packet(VISUAL_TIME, struct.pack("<d", seconds))


# --- always-written packets: the third rank -----------------------------------------------------


def test_always_written_packets_missing_are_counted_per_frame_and_variant() -> None:
    """Three frames of 0.9.4-0.9.5's six always-written packets (all empty): every variant explains every
    packet (ids 0 to 7 mean the same everywhere, an empty counted payload is 2 bytes in every layout), and
    each lacks, per frame, the always-written packets its numbering adds (section 3)."""
    data = header() + b"".join(empty_frame(i) for i in (1, 2, 3))
    missing = {name: 3 * len(ids - set(OLD_SIX)) for name, ids in ALWAYS_WRITTEN.items()}
    assert missing == {"0.9.4-0.9.5": 0, "0.9.6-0.9.9": 6, "0.9.10-0.9.11": 9, "0.9.12-0.9.13": 9, "0.9.14": 12,
                       "0.9.15": 18, "dev-2023": 21, "0.9.16": 21, "ue5": 21}
    # fewest missing first, then the stated order among equals
    order = sorted(PREFERENCE, key=lambda n: (missing[n], PREFERENCE.index(n)))
    for name, evidence in detections(data):
        assert name == "0.9.4-0.9.5"
        assert [c["variant"] for c in evidence["candidates"]] == order
        assert all(c["fits"] for c in evidence["candidates"])
        assert reasons(evidence) == {n: f"{m} always-written packets missing" if m else "every packet fits"
                                     for n, m in missing.items()}
        assert evidence["prefix_packets"] == 3 * 8
        assert evidence["also_fit_equally"] == [] and "note" not in evidence


def test_frames_of_the_newest_numbering_pick_it_over_the_older_ones() -> None:
    """Two frames with every packet 0.9.15 writes always (ids 2 to 10, 21 and 22 empty, and
    VisualTime, id 20: an f64, no count): ids 21 and
    22 are defined from 0.9.15 on, so the older numberings leave them undefined; 0.9.15 misses nothing;
    dev-2023, 0.9.16 and ue5 define every id but miss their fourth new always-written packet, id 23 (the
    biker in dev-2023 and ue5, the door in 0.9.16), once a frame."""
    counted_ids = tuple(sorted(ALWAYS_WRITTEN["0.9.15"] - {VISUAL_TIME}))
    data = header() + b"".join(empty_frame(i, counted_ids, visual_time(737.78 + i)) for i in (1, 2))
    for name, evidence in detections(data):
        assert name == "0.9.15"
        r = reasons(evidence)
        assert r["0.9.15"] == "every packet fits"
        # 0.9.14 defines ids up to 20: 21 and 22 undefined in both frames
        assert r["0.9.14"].startswith("4 packets with undefined ids; ")
        # 0.9.4-0.9.5 defines 0 to 7: 8, 9, 10, 20, 21, 22 undefined, six a frame
        assert r["0.9.4-0.9.5"].startswith("12 packets with undefined ids; ")
        # the numberings with a door: every id defined, one always-written packet (23) missing a frame
        for n in ("dev-2023", "0.9.16", "ue5"):
            assert r[n] == "2 always-written packets missing"


# --- the prefix: 64 frames ----------------------------------------------------------------------


def _sixty_four_frames_then_more(records: int) -> tuple[bytes, int]:
    """64 frames of a Position of ``records`` records, the 64th with an undefined id after it; then a
    FrameStart and another undefined id, no FrameEnd (so the file holds exactly 64 FrameEnds). Returns
    the log and the offset of the undefined packet in frame 64."""
    body = counted(POSITION, [position(7)] * records)
    frames = [frame(i, body) for i in range(1, 64)]
    frame_size = FRAME_START_SIZE + len(body) + FRAME_END_SIZE
    assert all(len(f) == frame_size for f in frames)
    undefined_at = HEADER_SIZE + 63 * frame_size + FRAME_START_SIZE + len(body)
    frames.append(frame(64, body, packet(UNDEFINED, b"\x01\x02\x03")))
    tail = frame(65, counted(POSITION, []))[:-FRAME_END_SIZE] + packet(UNDEFINED - 1, b"")
    return header() + b"".join(frames) + tail, undefined_at


@pytest.mark.parametrize("records", [0, 8], ids=["small file", "over SMALL_PREFIX_BYTES"])
def test_the_prefix_ends_with_the_64th_frame_end(records: int) -> None:
    """The 64th frame is read whole, its undefined packet included; the packets after its FrameEnd are
    not read (a FrameStart, and an undefined id that would otherwise be counted)."""
    data, undefined_at = _sixty_four_frames_then_more(records)
    assert DETECTION_PREFIX_FRAMES == 64
    assert (len(data) - HEADER_SIZE > SMALL_PREFIX_BYTES) == bool(records)
    for name, evidence in detections(data):
        assert evidence["prefix_packets"] == 64 * 3 + 1
        for variant, reason in reasons(evidence).items():
            if variant == "ue5" and records:  # 52-byte records: 2 + 8 * 52 = 418, not 226, in every frame
                assert reason.startswith("64 payloads do not fit; 1 packets with undefined ids; "), reason
                continue
            assert reason.startswith("1 packets with undefined ids; "), reason
            assert f"first: packet id {UNDEFINED} at offset {undefined_at} is not defined" in reason
        assert "note" in evidence
        assert name == "0.9.4-0.9.5"  # the fewest always-written packets missing: 5 a frame


def test_a_frame_end_outside_a_frame_counts_toward_the_64() -> None:
    """A log that starts with a FrameEnd (no FrameStart before it), then frames: that FrameEnd is the
    first of the 64, so the prefix ends with frame 63's, before frame 64 and its undefined packet."""
    frames = [frame(i, counted(POSITION, [])) for i in range(1, 64)]
    data = header() + packet(FE, b"") + b"".join(frames) + frame(64, packet(UNDEFINED, b""))
    for _, evidence in detections(data):
        assert evidence["prefix_packets"] == 1 + 63 * 3
        assert "note" not in evidence
        assert all("undefined" not in reason for reason in reasons(evidence).values())


def test_the_prefix_ends_after_its_most_packets() -> None:
    """16,384 user packets (id 100, explained by every variant), then an undefined id: not read."""
    data = header() + packet(USER, b"") * DETECTION_PREFIX_PACKETS + packet(UNDEFINED, b"")
    for _, evidence in detections(data):
        assert evidence["prefix_packets"] == DETECTION_PREFIX_PACKETS == 16384
        assert set(reasons(evidence).values()) == {"every packet fits"}


def test_every_id_from_100_to_255_is_a_user_packet() -> None:
    """Ids of 100 and above are user packets (the notes, section 3: "user-defined packets should use ids
    >= 100"; DReyeVR writes 139 and 140): every variant explains them, whatever their size, up to the
    u8 id's largest value."""
    data = header() + frame(1, *(packet(pid, bytes(pid % 7)) for pid in range(USER, 256)))
    for _, evidence in detections(data):
        assert evidence["prefix_packets"] == 2 + 156
        assert reasons(evidence)["0.9.4-0.9.5"] == "6 always-written packets missing"  # ids 2 to 7
        assert all("undefined" not in r and "do not fit" not in r for r in reasons(evidence).values())


# --- packets too short for a record count ------------------------------------------------------


@pytest.mark.parametrize("short", [0, 1])
def test_counted_packets_too_short_for_their_count_in_repeated_frames(short: int) -> None:
    """Three frames of an EventDel of 0 or 1 bytes (its layout: a u16 count, then 4 bytes a record):
    no layout has that size, in any variant; the first such payload is named at its packet's offset."""
    body = packet(DEL, b"\x05" * short)
    data = header() + b"".join(frame(i, body) for i in (1, 2, 3))
    first = HEADER_SIZE + FRAME_START_SIZE
    for _, evidence in detections(data):
        assert evidence["prefix_packets"] == 9
        for reason in reasons(evidence).values():
            assert reason.startswith("3 payloads do not fit; ")
            assert reason.endswith(f"first: packet id {DEL} at offset {first}: EventDel payload is {short} bytes, "
                                   "its layout implies at least 2")


def test_a_log_ending_one_byte_into_a_counted_payload() -> None:
    """The file's last packet is an EventDel of one byte: nothing past the file is read as its count."""
    data = header() + frame(1, counted(DEL, [])) + start(2) + packet(DEL, b"\x07")
    last = len(data) - 6
    for _, evidence in detections(data):
        assert evidence["prefix_packets"] == 5
        for reason in reasons(evidence).values():
            assert reason.startswith("1 payloads do not fit; ")
            assert f"first: packet id {DEL} at offset {last}: EventDel payload is 1 bytes" in reason


def start(i: int) -> bytes:
    return frame(i)[:-FRAME_END_SIZE]


# --- a shape first seen in a frame read in one call ----------------------------------------------


def test_a_count_that_changes_in_a_frame_of_the_same_sizes() -> None:
    """Frames of the same ids and sizes whose Position counts differ: one record (30 bytes: 2 + 28), or a
    count of 0 on the same 30 bytes, where the layout implies 2 + 0 * 28 = 2 in every variant (UE5's
    52-byte record too). Frames 1 and 4 hold one record, frames 2, 3 and 5 say 0: three misfits, the
    first named at frame 2's Position packet; in UE5 all five misfit (2 + 52 = 54), from frame 1's."""
    record = struct.pack("<I6f", 0x01020304, 1.0, 2.0, 3.0, 0.0, 0.0, 90.0)
    one = packet(POSITION, struct.pack("<H", 1) + record)
    zero = packet(POSITION, struct.pack("<H", 0) + record)
    frames = [frame(1, one), frame(2, zero), frame(3, zero), frame(4, one), frame(5, zero)]
    data = header() + b"".join(frames)
    first = HEADER_SIZE + FRAME_START_SIZE
    second = HEADER_SIZE + len(frames[0]) + FRAME_START_SIZE
    for _, evidence in detections(data):
        for name, reason in reasons(evidence).items():
            if name == "ue5":
                assert reason.startswith("5 payloads do not fit; "), reason
                assert reason.endswith(f"first: packet id {POSITION} at offset {first}: Position payload is 30 "
                                       "bytes, its layout implies 54"), reason
                continue
            assert reason.startswith("3 payloads do not fit; "), (name, reason)
            assert reason.endswith(f"first: packet id {POSITION} at offset {second}: Position payload is 30 bytes, "
                                   "its layout implies 2"), (name, reason)


def test_two_byte_payloads_of_another_count_are_another_shape() -> None:
    """A Position of 2 bytes is its count alone: with count 0 it fits (2 + 0 * 28), with count 1 the
    layout implies 30. Frame 1 holds the first, frame 2 the second: one misfit, at frame 2's packet."""
    frames = [frame(1, counted(POSITION, [])), frame(2, packet(POSITION, struct.pack("<H", 1)))]
    data = header() + b"".join(frames)
    at = HEADER_SIZE + len(frames[0]) + FRAME_START_SIZE
    for _, evidence in detections(data):
        for name, reason in reasons(evidence).items():
            implied = 2 + (52 if name == "ue5" else 28)
            assert reason.startswith("1 payloads do not fit; "), reason
            assert reason.endswith(f"first: packet id {POSITION} at offset {at}: Position payload is 2 bytes, "
                                   f"its layout implies {implied}"), reason


def test_verdicts_kept_across_files_are_those_of_the_same_count() -> None:
    """A shape's verdict is kept across files, by (id, size, count): an EventDel of 6 bytes (one 4-byte
    record) with count 257 (0x0101) implies 2 + 257 * 4 = 1030 bytes, and in the next file one with count
    513 (0x0201) implies 2054, whichever reading judged the first."""
    _detect._VERDICTS.clear()
    _detect._JUDGED.clear()
    for count, implied in ((0x0101, 1030), (0x0201, 2054), (0x0101, 1030)):
        data = header() + frame(1, packet(DEL, struct.pack("<HI", count, 0x0101)))
        at = HEADER_SIZE + FRAME_START_SIZE
        for _, evidence in detections(data):
            for reason in reasons(evidence).values():
                assert reason.startswith("1 payloads do not fit; "), reason
                assert reason.endswith(f"first: packet id {DEL} at offset {at}: EventDel payload is 6 bytes, "
                                       f"its layout implies {implied}"), reason


# --- EventAdd records: the inner sizes and the enumerations break ties ------------------------


def _event_add(actor_type: int, attribute_type: int) -> bytes:
    """One UE4 EventAdd record (3 x f32 vectors) with a 30-byte description and one attribute."""
    description = b"vehicle.a-long-blueprint-name.0"[:30]
    record = struct.pack("<IB6fI", 11, actor_type, 1.0, 2.0, 3.0, 0.0, 0.0, 0.0, 5) + string(description)
    record += struct.pack("<H", 1) + struct.pack("<B", attribute_type) + string(b"role_name") + string(b"hero")
    return struct.pack("<H", 1) + record


def test_an_event_add_of_ue4_records_in_two_frames() -> None:
    """The same EventAdd in two frames, with the 0.9.4-0.9.5 always-written packets. Its 87 bytes are at
    least UE5's smallest record (4 + 1 + 2 * 24 + 4 + 2 + 2 = 61, plus the count), so every variant
    explains its size; but read with 24-byte vectors its description length comes from the text, and the
    records do not add up in UE5 (the two copies, named at the first packet's offset). Actor type 5 is a
    Sensor from 0.9.12 on, past INVALID before (5 in 0.9.4-0.9.5, and 0.9.6 to 0.9.11's TrafficSign 4,
    INVALID 5); attribute type 0 is Bool in the 0-based numberings and nothing in dev-2023 and 0.9.16's
    1-based one."""
    payload = _event_add(actor_type=5, attribute_type=0)
    assert len(payload) == 2 + 4 + 1 + 24 + 4 + 2 + 30 + 2 + 1 + 2 + 9 + 2 + 4 == 87
    rest = tuple(counted(pid, []) for pid in OLD_SIX[1:])
    frames = [frame(1, packet(ADD, payload), *rest), frame(2, packet(ADD, payload), *rest)]
    data = header() + b"".join(frames)
    first_add = HEADER_SIZE + FRAME_START_SIZE
    missing = {name: 2 * len(ids - set(OLD_SIX)) for name, ids in ALWAYS_WRITTEN.items()}
    enums = {"0.9.4-0.9.5": 2, "0.9.6-0.9.9": 2, "0.9.10-0.9.11": 2, "0.9.12-0.9.13": 0, "0.9.14": 0,
             "0.9.15": 0, "dev-2023": 2, "0.9.16": 2, "ue5": 0}
    for name, evidence in detections(data):
        r = reasons(evidence)
        for n in PREFERENCE:
            parts = []
            if n == "ue5":
                parts.append("2 payloads whose records do not add up")
            if missing[n]:
                parts.append(f"{missing[n]} always-written packets missing")
            if enums[n]:
                parts.append(f"{enums[n]} out-of-range actor/attribute types")
            if n == "ue5":
                assert r[n].startswith("; ".join(parts) + f"; first: packet id {ADD} at offset {first_add}: "
                                       "EventAdd records do not add up ("), r[n]
            else:
                assert r[n] == "; ".join(parts), (n, r[n])
        fits = {c["variant"]: c["fits"] for c in evidence["candidates"]}
        assert fits == {n: n != "ue5" for n in PREFERENCE}
        assert name == "0.9.4-0.9.5"  # nothing missing: the enumerations rank after that
        assert evidence["also_fit_equally"] == []


def test_the_actor_types_rank_variants_that_miss_the_same_packets() -> None:
    """With every packet 0.9.10 to 0.9.13 write always, those two numberings tie on everything but the
    actor type: 5 is a Sensor in 0.9.12-0.9.13 only (INVALID in 0.9.10-0.9.11), so it is chosen; with
    actor type 4 (a TrafficSign in both) they tie and the stated order decides (0.9.12-0.9.13 first)."""
    rest = tuple(counted(pid, []) for pid in sorted(ALWAYS_WRITTEN["0.9.10-0.9.11"] - {ADD}))
    for actor_type, expected, equal in ((5, "0.9.12-0.9.13", []), (4, "0.9.12-0.9.13", ["0.9.10-0.9.11"])):
        payload = _event_add(actor_type=actor_type, attribute_type=3)
        data = header() + frame(1, packet(ADD, payload), *rest)
        for name, evidence in detections(data):
            assert name == expected
            assert evidence["also_fit_equally"] == equal
            r = reasons(evidence)
            assert r["0.9.10-0.9.11"] == ("1 out-of-range actor/attribute types" if actor_type == 5
                                          else "every packet fits")


def test_every_attribute_type_of_an_event_add_is_judged() -> None:
    """An EventAdd record (a Vehicle, actor type 1) with three attributes of types 0, 3 and 3: type 0 is
    Bool in the 0-based numberings and out of range in dev-2023 and 0.9.16's 1-based one (1 to 5), the
    first attribute's type as much as a later one's."""
    record = struct.pack("<IB6fI", 11, 1, 1.0, 2.0, 3.0, 0.0, 0.0, 0.0, 5) + string(b"vehicle.a")
    record += struct.pack("<H", 3)
    for attribute_type, name, value in ((0, b"sticky_control", b"true"), (3, b"role_name", b"hero"),
                                        (3, b"color", b"1,2,3")):
        record += struct.pack("<B", attribute_type) + string(name) + string(value)
    rest = tuple(counted(pid, []) for pid in OLD_SIX[1:])
    data = header() + frame(1, packet(ADD, struct.pack("<H", 1) + record), *rest)
    for _, evidence in detections(data):
        r = reasons(evidence)
        for n in ("dev-2023", "0.9.16"):
            assert r[n] == "7 always-written packets missing; 1 out-of-range actor/attribute types", r[n]
        for n in ("0.9.4-0.9.5", "0.9.15"):
            assert "out-of-range" not in r[n], r[n]


# --- bounded caches ----------------------------------------------------------------------------


def test_the_frame_shape_cache_keeps_at_most_its_bound() -> None:
    """Frame shapes are kept across files "up to ``_FRAME_SHAPES_MAX``": never more."""
    _detect._FRAME_SHAPES.clear()
    for n in range(_detect._FRAME_SHAPES_MAX + 5):
        _detect._frame_shape([(FS, 24), (USER, n), (FE, 0)])
        assert len(_detect._FRAME_SHAPES) <= _detect._FRAME_SHAPES_MAX
    _detect._FRAME_SHAPES.clear()


def test_the_record_chain_cache_keeps_at_most_its_bound_and_no_long_payload() -> None:
    """Record-chain answers are kept for payloads "of at most ``_CHAINS_PAYLOAD_MAX`` bytes, up to
    ``_CHAINS_MAX`` answers": never more, and a longer payload is answered but not kept."""
    v = VARIANTS["0.9.16"]
    _detect._CHAINS.clear()
    for n in range(_detect._CHAINS_MAX + 5):
        payload = struct.pack("<HI", 1, n)  # one EventAdd record cut after its id: the chain does not add up
        assert _detect._chain_misfit(K.EVENT_ADD, v.vec_f64, None, payload, v) is not None
        assert len(_detect._CHAINS) <= _detect._CHAINS_MAX
    long = struct.pack("<H", 1) + bytes(_detect._CHAINS_PAYLOAD_MAX)
    _detect._CHAINS.clear()
    assert _detect._chain_misfit(K.EVENT_ADD, v.vec_f64, None, long, v) is not None
    assert len(_detect._CHAINS) == 0


# --- packets at the reader's block boundary ------------------------------------------------------

READ_BLOCK = 1 << 18  # the reader's first read: 256 KiB from the first packet on (reference/carla/_decode.py)


def test_a_packet_whose_last_byte_is_past_the_first_read_block() -> None:
    """A user packet, then a Position of one record (35 bytes with its head) whose last byte is the
    first one past the reader's first block: it is read whole, and its 30 bytes fit 2 + 28."""
    user = READ_BLOCK + 1 - 5 - 35  # the Position ends at HEADER_SIZE + READ_BLOCK + 1
    data = header() + packet(USER, bytes(user)) + counted(POSITION, [position(7)])
    assert len(data) == HEADER_SIZE + READ_BLOCK + 1
    for _, evidence in detections(data):
        assert evidence["prefix_packets"] == 2
        r = reasons(evidence)
        assert all(r[n] == "every packet fits" for n in PREFERENCE if n != "ue5")
        assert r["ue5"].startswith("1 payloads do not fit; first: packet id 6 at offset "
                                   f"{HEADER_SIZE + 5 + user}: Position payload is 30 bytes, its layout implies 54")


def test_packets_larger_than_a_read_block() -> None:
    """A user packet of 600,000 bytes (more than two read blocks), then an undefined id; and a log that
    ends with such a packet: each is read whole."""
    big = 600_000
    data = header() + packet(USER, bytes(big)) + packet(UNDEFINED, b"")
    for _, evidence in detections(data):
        assert evidence["prefix_packets"] == 2
        for reason in reasons(evidence).values():
            assert reason == f"1 packets with undefined ids; first: packet id {UNDEFINED} at offset " \
                             f"{HEADER_SIZE + 5 + big} is not defined"
    data = header() + packet(USER, bytes(300_000))
    for _, evidence in detections(data):
        assert evidence["prefix_packets"] == 1
        assert set(reasons(evidence).values()) == {"every packet fits"}


def test_a_log_cut_one_byte_before_its_last_packet_ends() -> None:
    """The last Position lacks its last byte: with the size known or not, it is not in the prefix."""
    data = header() + frame(1, counted(POSITION, [position(7)])) + start(2) + counted(POSITION, [position(8)])[:-1]
    for _, evidence in detections(data):
        assert evidence["prefix_packets"] == 4
        r = reasons(evidence)
        assert all("do not fit" not in r[n] for n in PREFERENCE if n != "ue5")
        assert r["ue5"].startswith("1 payloads do not fit; ")
