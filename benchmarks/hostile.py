"""Hostile inputs: per format, the cheapest bytes that cost a checker the most.

Each generator writes one file of about ``count`` units (packets, frames,
records, map entries...) to ``path`` and streams its output, so a case of
hundreds of MB is written in constant memory. ``benchmarks/bench_worst.py``
runs them at full size and ``tests/test_limits_properties.py`` at small sizes.

The cases are the ones the resource contract (README, "Limits") is measured
on: the structure that can be huge in each format (packets per frame, frames,
records, map entries, repeated keys, elements per array) and the content that
makes a reader do the most work per byte (empty units, zeros after a valid
header, the largest payload a limit admits).
"""

from __future__ import annotations

import struct
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

__all__ = ["CASES", "Case", "write_case"]

_CHUNK = 1 << 20


def _zeros(f: BinaryIO, n: int) -> None:
    block = bytes(_CHUNK)
    while n > 0:
        f.write(block[: min(n, _CHUNK)])
        n -= _CHUNK


# --- CARLA ---------------------------------------------------------------------

def _carla_header() -> bytes:
    def s(text: str) -> bytes:
        return struct.pack("<H", len(text)) + text.encode()

    return struct.pack("<H", 1) + s("CARLA_RECORDER") + struct.pack("<q", 1_700_000_000) + s("Town10HD_Opt")


def _frame_start(frame_id: int, elapsed: float, duration: float = 0.05) -> bytes:
    return struct.pack("<BIQdd", 0, 24, frame_id, duration, elapsed)


_FRAME_END = struct.pack("<BI", 1, 0)


def carla_header_zeros(f: BinaryIO, count: int) -> None:
    """A valid header, then ``count`` bytes of zeros: FrameStart ids with size 0, one after another."""
    f.write(_carla_header())
    _zeros(f, count)


def carla_empty_packets(f: BinaryIO, count: int) -> None:
    """One frame holding ``count`` empty EventDel packets (7 bytes each)."""
    f.write(_carla_header() + _frame_start(1, 0.0, -1.0))
    empty = struct.pack("<BIH", 3, 2, 0) * 4096
    for _ in range(count // 4096):
        f.write(empty)
    f.write(empty[: 7 * (count % 4096)])
    f.write(_FRAME_END)


def _carla_one_frame_of(f: BinaryIO, count: int, packet: Callable[[int], bytes]) -> None:
    """A CARLA log of one frame holding ``packet(0)`` .. ``packet(count - 1)``, written 4,096 packets at a
    time (a flood of packets that all differ never sits whole in memory)."""
    f.write(_carla_header() + _frame_start(1, 0.0, -1.0))
    for start in range(0, count, 4096):
        f.write(b"".join(packet(i) for i in range(start, min(start + 4096, count))))
    f.write(_FRAME_END)


def carla_distinct_dels(f: BinaryIO, count: int) -> None:
    """One frame of ``count`` EventDel packets of one record each (11 bytes), each deleting a new id: no
    two packets alike, so no run of repeated units applies; each deletes an actor never added."""
    dels = struct.Struct("<BIHI")
    _carla_one_frame_of(f, count, lambda i: dels.pack(3, 6, 1, i + 1))


def carla_distinct_parents(f: BinaryIO, count: int) -> None:
    """One frame of ``count`` EventParent packets of one record each (15 bytes), each attaching a new id to
    another never added: no two packets alike, and each record refers to actors that do not exist."""
    parent = struct.Struct("<BIHII")
    _carla_one_frame_of(f, count, lambda i: parent.pack(4, 10, 1, 2 * i + 1, 2 * i + 2))


def carla_elapsed_frames(f: BinaryIO, count: int) -> None:
    """``count`` empty frames (34 bytes each) that all say elapsed 0: from the second on each breaks
    ``elapsed[n+1] == elapsed[n] + durationThis[n]``, and only their ids differ."""
    f.write(_carla_header())
    out = []
    for i in range(count):
        out.append(_frame_start(i + 1, 0.0, 0.05 if i + 1 < count else -1.0) + _FRAME_END)
        if len(out) >= 4096:
            f.write(b"".join(out))
            out.clear()
    f.write(b"".join(out))


def _carla_frames(f: BinaryIO, count: int, frame: Callable[[int], bytes]) -> None:
    """A CARLA header, then ``frame(i)`` for ``i`` in ``range(count)``, written 4,096 frames at a time."""
    f.write(_carla_header())
    out = []
    for i in range(count):
        out.append(frame(i))
        if len(out) >= 4096:
            f.write(b"".join(out))
            out.clear()
    f.write(b"".join(out))


def carla_alternating_frames(f: BinaryIO, count: int) -> None:
    """``count`` empty frames (34 bytes each) whose elapsed is 0 in every other frame: each frame at 0 (but the
    first) breaks ``elapsed[n+1] == elapsed[n] + durationThis[n]``, each frame after it keeps it, and every
    frame's id differs."""
    _carla_frames(f, count, lambda i: _frame_start(i + 1, 0.0 if i % 2 == 0 else 0.05,
                                                   0.05 if i + 1 < count else -1.0) + _FRAME_END)


_POSITION = struct.Struct("<BIHI6f")


def carla_moving_frames(f: BinaryIO, count: int) -> None:
    """``count`` frames (69 bytes each), timed as CARLA writes them, each holding one Position record of an
    actor never added whose location moves from frame to frame: every frame breaks the same rules, and no two
    frames have the same bytes."""
    times = [0.0]
    for _ in range(count - 1):  # the writer's arithmetic: each elapsed the one before plus its durationThis
        times.append(times[-1] + 0.05)
    _carla_frames(f, count, lambda i: _frame_start(i + 1, times[i], 0.05 if i + 1 < count else -1.0)
                  + _POSITION.pack(6, 30, 1, 7, float(i), 2.0, 0.0, 0.0, 0.0, 0.0) + _FRAME_END)


def carla_distinct_actor_frames(f: BinaryIO, count: int) -> None:
    """``count`` frames (69 bytes each), timed as CARLA writes them, each holding one Position record of a
    new actor never added: every frame breaks the same rules, and their judged bytes (the actor ids) all
    differ."""
    times = [0.0]
    for _ in range(count - 1):
        times.append(times[-1] + 0.05)
    _carla_frames(f, count, lambda i: _frame_start(i + 1, times[i], 0.05 if i + 1 < count else -1.0)
                  + _POSITION.pack(6, 30, 1, 1000 + i, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0) + _FRAME_END)


def carla_two_shape_frames(f: BinaryIO, count: int) -> None:
    """``count`` frames, timed as CARLA writes them, of two shapes in turn: FrameStart and FrameEnd only (34
    bytes), and with an empty EventDel between them (41 bytes). Each frame lacks packets of every frame, and
    no frame has the shape of the one before it."""
    times = [0.0]
    for _ in range(count - 1):
        times.append(times[-1] + 0.05)
    empty_del = struct.pack("<BIH", 3, 2, 0)
    _carla_frames(f, count, lambda i: _frame_start(i + 1, times[i], 0.05 if i + 1 < count else -1.0)
                  + (empty_del if i % 2 else b"") + _FRAME_END)


def carla_one_size_shapes_frames(f: BinaryIO, count: int) -> None:
    """``count`` frames, timed as CARLA writes them, holding in turn an empty EventDel, an empty EventParent
    and an empty Collision: three shapes of one size (41 bytes), so the frames' sizes do not tell them apart."""
    times = [0.0]
    for _ in range(count - 1):
        times.append(times[-1] + 0.05)
    empty = [struct.pack("<BIH", pid, 2, 0) for pid in (3, 4, 5)]
    _carla_frames(f, count, lambda i: _frame_start(i + 1, times[i], 0.05 if i + 1 < count else -1.0)
                  + empty[i % 3] + _FRAME_END)


def carla_moving_elapsed_frames(f: BinaryIO, count: int) -> None:
    """As ``carla_moving_frames``, the actor added in the first frame (so that its Position records are
    clean) and every frame at elapsed 0: a timing finding in every frame but the first, and no two frames
    with the same bytes."""
    record = struct.pack("<IB6fI", 7, 1, 0, 0, 0, 0, 0, 0, 0) + struct.pack("<H", 9) + b"vehicle.a" \
        + struct.pack("<H", 0)
    add = struct.pack("<BIH", 2, 2 + len(record), 1) + record
    _carla_frames(f, count, lambda i: _frame_start(i + 1, 0.0, 0.05 if i + 1 < count else -1.0)
                  + (add if i == 0 else b"") + _POSITION.pack(6, 30, 1, 7, float(i), 2.0, 0.0, 0.0, 0.0, 0.0)
                  + _FRAME_END)


def carla_empty_frames(f: BinaryIO, count: int) -> None:
    """``count`` frames holding only FrameStart and FrameEnd (34 bytes each), timed as CARLA writes them."""
    f.write(_carla_header())
    out = []
    elapsed = 0.0
    for i in range(count):
        out.append(_frame_start(i + 1, elapsed, 0.05 if i + 1 < count else -1.0) + _FRAME_END)
        elapsed += 0.05
        if len(out) >= 4096:
            f.write(b"".join(out))
            out.clear()
    f.write(b"".join(out))


def carla_unknown_packets(f: BinaryIO, count: int) -> None:
    """One frame of ``count`` packets with an id no release defines (99), each a warning, skipped by size."""
    f.write(_carla_header() + _frame_start(1, 0.0, -1.0))
    unknown = struct.pack("<BI", 99, 0) * 4096
    for _ in range(count // 4096):
        f.write(unknown)
    f.write(unknown[: 5 * (count % 4096)])
    f.write(_FRAME_END)


def carla_huge_position(f: BinaryIO, count: int) -> None:
    """One frame of ``count`` Position records (28 bytes each), all for actor 1, in packets of the most
    records a packet can count (65,535: the count is a u16): the biggest record lists."""
    record = struct.pack("<I6f", 1, 0, 0, 0, 0, 0, 0)
    f.write(_carla_header() + _frame_start(1, 0.0, -1.0))
    block = record * 4096
    left = count
    while left > 0:
        n = min(left, 0xFFFF)
        f.write(struct.pack("<BIH", 6, 2 + 28 * n, n))
        for _ in range(n // 4096):
            f.write(block)
        f.write(record * (n % 4096))
        left -= n
    f.write(_FRAME_END)


def carla_max_packet(f: BinaryIO, count: int) -> None:
    """One frame holding one EventAdd packet of about ``count`` payload bytes: as many actors as fit,
    each with 65,535 distinct 7-byte attributes (a 2-character id, an empty value): the most memory a
    packet's bytes decode to (a run of one attribute is one object repeated)."""
    _carla_attributes(f, count, [bytes((33 + i % 94, 33 + i // 94 % 94)) for i in range(0xFFFF)])


#: The first bytes no UTF-8 string starts with (a continuation byte, or a byte never used).
_NOT_A_START = [*range(0x80, 0xC0), *range(0xF8, 0x100)]


def carla_invalid_attributes(f: BinaryIO, count: int) -> None:
    """As ``carla-max-packet``, with every attribute's 2-byte id invalid UTF-8 (a byte no character
    starts with, then any byte), no two neighbours alike: a finding per attribute."""
    _carla_attributes(f, count, [bytes((_NOT_A_START[i % 72], i // 72 % 256)) for i in range(0xFFFF)])


def carla_many_actors(f: BinaryIO, count: int) -> None:
    """One frame holding one EventAdd packet of ``count`` actors (at most 65,535, the u16 count),
    each with one 7-byte attribute: the most records a packet holds, each judged on its own."""
    n = min(count, 0xFFFF)
    attribute = struct.pack("<BH", 1, 2) + b"id" + struct.pack("<H", 0)
    tail = struct.pack("<B6fI", 1, 0, 0, 0, 0, 0, 0, 0) + struct.pack("<HH", 0, 1) + attribute
    f.write(_carla_header() + _frame_start(1, 0.0, -1.0))
    f.write(struct.pack("<BIH", 2, 2 + (4 + len(tail)) * n, n))
    f.write(b"".join(struct.pack("<I", i + 1) + tail for i in range(n)))
    f.write(_FRAME_END)


def _carla_attributes(f: BinaryIO, count: int, ids: list[bytes]) -> None:
    attrs = b"".join(struct.pack("<BH", 0, 2) + key + struct.pack("<H", 0) for key in ids)
    record = struct.pack("<IB6fI", 1, 1, 0, 0, 0, 0, 0, 0, 0) + struct.pack("<HH", 0, len(ids)) + attrs
    n = max(0, (count - 2) // len(record))
    f.write(_carla_header() + _frame_start(1, 0.0, -1.0))
    f.write(struct.pack("<BIH", 2, 2 + len(record) * n, n))
    for i in range(n):
        f.write(struct.pack("<I", i + 1) + record[4:])
    f.write(_FRAME_END)


def carla_steered_wheels(f: BinaryIO, count: int) -> None:
    """0.9.15 frames whose AnimVehicleWheels packet (id 21) claims 2^32-1 wheels."""
    _carla_steered(f, count, struct.pack("<BIHII", 21, 10, 1, 7, 0xFFFFFFFF))


def carla_steered_bones(f: BinaryIO, count: int) -> None:
    """0.9.14 frames whose WalkerBones packet (id 19) claims 65,535 bones."""
    _carla_steered(f, count, struct.pack("<BIHIH", 19, 8, 1, 7, 0xFFFF))


def carla_steered_torque(f: BinaryIO, count: int) -> None:
    """Frames with a PhysicsControl packet (id 15) whose torque-curve count is 2^32-1."""
    body = struct.pack("<HI", 1, 7) + struct.pack("<I", 0xFFFFFFFF)
    _carla_steered(f, count, struct.pack("<BI", 15, len(body)) + body)


def _carla_steered(f: BinaryIO, count: int, packet: bytes) -> None:
    f.write(_carla_header())
    elapsed = 0.0
    for i in range(count):
        f.write(_frame_start(i + 1, elapsed, 0.05 if i + 1 < count else -1.0) + packet + _FRAME_END)
        elapsed += 0.05


# --- NanoVer -------------------------------------------------------------------

_NANOVER_MAGIC = bytes.fromhex("e3b78999c4e3715c")


def _varint(n: int) -> bytes:
    out = bytearray()
    while True:
        b = n & 0x7F
        n >>= 7
        if n:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def _ld(field: int, payload: bytes) -> bytes:
    return _varint(field << 3 | 2) + _varint(len(payload)) + payload


def _nanover_record(f: BinaryIO, timestamp: int, payload_len: int) -> None:
    f.write(struct.pack("<QQQ", timestamp, 0, payload_len))


def _nanover_one_big_record(f: BinaryIO, entries: Callable[[int], bytes], count: int, *, traj: bool) -> None:
    """One record whose payload holds ``count`` map entries, written without building it whole."""
    f.write(_NANOVER_MAGIC + struct.pack("<Q", 2))
    parts_len = len(entries(0)) * count  # every entry of a case has the same length
    inner_tag = _varint(2 << 3 | 2) if traj else _varint(1 << 3 | 2)  # FrameData in frame / Struct in changed_keys
    payload_len = len(inner_tag) + len(_varint(parts_len)) + parts_len
    _nanover_record(f, 1, payload_len)
    f.write(inner_tag + _varint(parts_len))
    out = []
    for i in range(count):
        out.append(entries(i))
        if len(out) >= 4096:
            f.write(b"".join(out))
            out.clear()
    f.write(b"".join(out))


def _bool_value_entry(key: bytes) -> bytes:
    return _ld(1, _ld(1, key) + _ld(2, b"\x20\x01"))  # map entry {key, Value{bool_value: true}}


def nanover_state_many_keys(f: BinaryIO, count: int) -> None:
    """A .state record whose StateUpdate holds ``count`` distinct keys."""
    _nanover_one_big_record(f, lambda i: _bool_value_entry(b"k%07d" % i), count, traj=False)


def nanover_state_one_key(f: BinaryIO, count: int) -> None:
    """A .state record with ``count`` copies of one key (the last one wins)."""
    _nanover_one_big_record(f, lambda i: _bool_value_entry(b"k0000000"), count, traj=False)


def nanover_traj_many_keys(f: BinaryIO, count: int) -> None:
    """A .traj record whose frame holds ``count`` distinct value keys."""
    _nanover_one_big_record(f, lambda i: _bool_value_entry(b"k%07d" % i), count, traj=True)


def nanover_empty_records(f: BinaryIO, count: int) -> None:
    """``count`` records with empty payloads, 1 us apart (24 bytes each)."""
    f.write(_NANOVER_MAGIC + struct.pack("<Q", 2))
    out = []
    for i in range(count):
        out.append(struct.pack("<QQQ", i + 1, 0, 0))
        if len(out) >= 4096:
            f.write(b"".join(out))
            out.clear()
    f.write(b"".join(out))


def nanover_falling_times(f: BinaryIO, count: int) -> None:
    """``count`` records with empty payloads whose timestamps fall by 1 us each (24 bytes each): from
    the second on each breaks "timestamps never decrease", and no two are alike."""
    f.write(_NANOVER_MAGIC + struct.pack("<Q", 2))
    out = []
    for i in range(count):
        out.append(struct.pack("<QQQ", count - i, 0, 0))
        if len(out) >= 4096:
            f.write(b"".join(out))
            out.clear()
    f.write(b"".join(out))


def nanover_wide_times(f: BinaryIO, count: int) -> None:
    """``count`` records with empty payloads, 1 us apart, whose timestamps' upper 8 bytes are not zero
    (24 bytes each): each breaks NANOVER-TIME-001, and no two are alike."""
    f.write(_NANOVER_MAGIC + struct.pack("<Q", 2))
    out = []
    for i in range(count):
        out.append(struct.pack("<QQQ", i + 1, 1, 0))
        if len(out) >= 4096:
            f.write(b"".join(out))
            out.clear()
    f.write(b"".join(out))


def nanover_header_zeros(f: BinaryIO, count: int) -> None:
    """A valid header, then ``count`` bytes of zeros: empty records all at timestamp 0."""
    f.write(_NANOVER_MAGIC + struct.pack("<Q", 2))
    _zeros(f, count)


# --- Matrix-SMT ----------------------------------------------------------------

def _bson_key(key: str) -> bytes:
    return key.encode() + b"\0"


_EMPTY_DOC = struct.pack("<i", 5) + b"\0"


def _matrix_frames(f: BinaryIO, count: int, frame: Callable[[int], bytes]) -> None:
    """``{objects: [], frames: [frame(0), ...]}`` written element by element, lengths computed first."""
    elements_len = sum(1 + len(str(i)) + 1 + len(frame(i)) for i in range(count))
    frames_len = 4 + elements_len + 1
    objects = b"\x04" + _bson_key("objects") + _EMPTY_DOC
    doc_len = 4 + len(objects) + 1 + len(_bson_key("frames")) + frames_len + 1
    f.write(struct.pack("<i", doc_len) + objects + b"\x04" + _bson_key("frames") + struct.pack("<i", frames_len))
    out = []
    for i in range(count):
        out.append(b"\x03" + _bson_key(str(i)) + frame(i))
        if len(out) >= 4096:
            f.write(b"".join(out))
            out.clear()
    f.write(b"".join(out) + b"\0\0")


def _t_states_cmd(i: int) -> bytes:
    body = (b"\x01" + _bson_key("t") + struct.pack("<d", i * 0.02)
            + b"\x04" + _bson_key("states") + _EMPTY_DOC + b"\x04" + _bson_key("cmd") + _EMPTY_DOC)
    return struct.pack("<i", 4 + len(body) + 1) + body + b"\0"


def matrix_bare_frames(f: BinaryIO, count: int) -> None:
    """``count`` frames ``{t, states: [], cmd: []}`` (47 bytes each)."""
    _matrix_frames(f, count, _t_states_cmd)


def matrix_empty_frames(f: BinaryIO, count: int) -> None:
    """``count`` empty frame documents ``{}`` (each breaks MATRIX-FRAME-004)."""
    _matrix_frames(f, count, lambda i: _EMPTY_DOC)


def matrix_wide_array(f: BinaryIO, count: int) -> None:
    """One frame whose ``states`` array holds ``count`` int32 elements (the most elements per byte)."""
    elements = b"".join(b"\x10" + _bson_key(str(i)) + struct.pack("<i", 0) for i in range(count))
    states = struct.pack("<i", 4 + len(elements) + 1) + elements + b"\0"
    body = b"\x01" + _bson_key("t") + struct.pack("<d", 0.0) + b"\x04" + _bson_key("states") + states
    frame = struct.pack("<i", 4 + len(body) + 1) + body + b"\0"
    _matrix_frames(f, 1, lambda i: frame)


def matrix_deep_nesting(f: BinaryIO, count: int) -> None:
    """One frame holding ``count`` nested documents (the nesting limit stops it)."""
    inner = _EMPTY_DOC
    for _ in range(count):
        inner = struct.pack("<i", 4 + 1 + 2 + len(inner) + 1) + b"\x03a\0" + inner + b"\0"
    _matrix_frames(f, 1, lambda i: inner)


def _timed_frame(i: int, state: bytes) -> bytes:
    """``{t: i * 0.02, states: [state], cmd: []}``: one state, the time the only number that changes."""
    states = struct.pack("<i", 4 + 2 + 1 + len(state) + 1) + b"\x030\0" + state + b"\0"
    body = (b"\x01" + _bson_key("t") + struct.pack("<d", i * 0.02)
            + b"\x04" + _bson_key("states") + states + b"\x04" + _bson_key("cmd") + _EMPTY_DOC)
    return struct.pack("<i", 4 + len(body) + 1) + body + b"\0"


def _nested(depth: int) -> bytes:
    """``{a: {a: ... {}}}``, ``depth`` documents inside the outermost one."""
    inner = _EMPTY_DOC
    for _ in range(depth):
        inner = struct.pack("<i", 4 + 1 + 2 + len(inner) + 1) + b"\x03a\0" + inner + b"\0"
    return inner


def matrix_empty_states(f: BinaryIO, count: int) -> None:
    """``count`` frames ``{t, states: [{}], cmd: []}`` (55 bytes each), 0.02 s apart: each state lacks
    every key (five findings a frame), and no two frames are alike (their times differ)."""
    _matrix_frames(f, count, lambda i: _timed_frame(i, _EMPTY_DOC))


def matrix_nested_states(f: BinaryIO, count: int) -> None:
    """``count`` frames whose one state is ``{a: {a: ...}}`` nested 95 deep (just inside the nesting
    limit of 100 with the frame and the top level), 0.02 s apart: a deep document in every frame."""
    state = _nested(95)
    _matrix_frames(f, count, lambda i: _timed_frame(i, state))


def matrix_keyed_states(f: BinaryIO, count: int) -> None:
    """``count`` frames whose one state is ``{a: {}}`` (63 bytes each), 0.02 s apart: an unknown key
    and five missing ones in every frame."""
    state = _nested(1)
    _matrix_frames(f, count, lambda i: _timed_frame(i, state))


def matrix_zeros(f: BinaryIO, count: int) -> None:
    """A document length claiming ``count`` bytes, then zeros: an empty key with type 0 ends it early."""
    f.write(struct.pack("<i", count))
    _zeros(f, count - 4)


# --- raSkat signal --------------------------------------------------------------

def raskat_max_samples(f: BinaryIO, count: int) -> None:
    """A v2 signal with ``count`` samples (the file-size limit stops a big one)."""
    header = struct.pack("<H", 2) + b"20250624101500" + struct.pack("<I", 0)
    header += struct.pack("<HI", 128, 0) * 3 + struct.pack("<IBI", 1_000_000, 0, count)
    f.write(header)
    _zeros(f, 2 * count)


def raskat_msgpack_samples(f: BinaryIO, count: int) -> None:
    """A v3 signal whose samples array claims ``count`` elements and holds them all (int16 zeros)."""
    head = (struct.pack("<H", 3) + b"\xae20250624101500" + b"\x00" + b"\xcb" + struct.pack(">d", 1.0) * 1
            + b"\xcb" + struct.pack(">d", 1.0) + b"\x00" + b"\xce" + struct.pack(">I", 1_000_000) + b"\xcd\x01\x00"
            + b"\x0c" + b"\xcb" + struct.pack(">d", 3.3) + b"\x00" + b"\x00")
    f.write(head + b"\xdd" + struct.pack(">I", count))
    _zeros(f, count)


@dataclass(frozen=True)
class Case:
    name: str
    format: str
    write: Callable[[BinaryIO, int], None]
    full: int  # the count bench_worst.py writes
    unit: str
    extra_args: tuple[str, ...] = ()  # recspec check arguments besides --format
    what: str = ""


CASES: tuple[Case, ...] = (
    Case("carla-header-zeros", "carla", carla_header_zeros, 200_000_000, "bytes",
         what="a valid header then 200 MB of zeros"),
    Case("carla-empty-packets", "carla", carla_empty_packets, 2_000_000, "packets",
         what="one frame of 2,000,000 empty packets"),
    Case("carla-distinct-dels", "carla", carla_distinct_dels, 2_000_000, "packets",
         what="one frame of 2,000,000 EventDel packets, each deleting a new id"),
    Case("carla-distinct-parents", "carla", carla_distinct_parents, 1_000_000, "packets",
         what="one frame of 1,000,000 EventParent packets, each attaching a new id to an actor never added"),
    Case("carla-elapsed-frames", "carla", carla_elapsed_frames, 900_000, "frames",
         what="900,000 empty frames all at elapsed 0 (a finding in every frame but the first)"),
    Case("carla-alternating-frames", "carla", carla_alternating_frames, 900_000, "frames",
         what="900,000 empty frames, every other one at elapsed 0 (a finding in every other frame)"),
    Case("carla-moving-frames", "carla", carla_moving_frames, 450_000, "frames",
         what="450,000 frames of one Position record of an actor never added, its location moving"),
    Case("carla-distinct-actor-frames", "carla", carla_distinct_actor_frames, 450_000, "frames",
         what="450,000 frames of one Position record each, of a new actor never added in every frame"),
    Case("carla-two-shape-frames", "carla", carla_two_shape_frames, 800_000, "frames",
         what="800,000 frames, in turn empty and holding an empty EventDel, timed as CARLA writes them"),
    Case("carla-one-size-shapes-frames", "carla", carla_one_size_shapes_frames, 730_000, "frames",
         what="730,000 frames holding in turn an empty EventDel, EventParent and Collision (one size)"),
    Case("carla-moving-elapsed-frames", "carla", carla_moving_elapsed_frames, 450_000, "frames",
         what="450,000 frames of one Position record of an actor alive, its location moving, all at elapsed 0"),
    Case("carla-empty-frames", "carla", carla_empty_frames, 900_000, "frames",
         what="900,000 frames of FrameStart and FrameEnd only"),
    Case("carla-unknown-packets", "carla", carla_unknown_packets, 2_000_000, "packets",
         what="2,000,000 packets of an unknown id in one frame"),
    Case("carla-huge-position", "carla", carla_huge_position, 2_000_000, "records",
         what="one frame of 2,000,000 Position records (56 MB) in packets of 65,535"),
    Case("carla-max-packet", "carla", carla_max_packet, 4 * 1024 * 1024, "bytes",
         what="one EventAdd packet of about MAX_PACKET_SIZE (4 MiB), 65,535 distinct attributes per actor"),
    Case("carla-invalid-attributes", "carla", carla_invalid_attributes, 4 * 1024 * 1024, "bytes",
         what="as carla-max-packet, every attribute id invalid UTF-8 (a finding per attribute)"),
    Case("carla-many-actors", "carla", carla_many_actors, 0xFFFF, "actors",
         what="one EventAdd packet of 65,535 actors with one attribute each"),
    Case("carla-steered-wheels", "carla", carla_steered_wheels, 100_000, "frames",
         what="AnimVehicleWheels claiming 2^32-1 wheels in every frame"),
    Case("carla-steered-bones", "carla", carla_steered_bones, 100_000, "frames",
         what="WalkerBones claiming 65,535 bones in every frame"),
    Case("carla-steered-torque", "carla", carla_steered_torque, 100_000, "frames",
         what="PhysicsControl with a torque-curve count of 2^32-1 in every frame"),
    Case("nanover-state-many-keys", "nanover", nanover_state_many_keys, 1_000_000, "keys",
         ("--variant", "state"), "one .state record of 1,000,000 distinct keys"),
    Case("nanover-state-one-key", "nanover", nanover_state_one_key, 1_000_000, "keys",
         ("--variant", "state"), "one .state record of 1,000,000 copies of one key"),
    Case("nanover-traj-many-keys", "nanover", nanover_traj_many_keys, 1_000_000, "keys",
         ("--variant", "traj"), "one .traj frame of 1,000,000 value keys"),
    Case("nanover-empty-records", "nanover", nanover_empty_records, 1_000_000, "records",
         ("--variant", "traj"), "1,000,000 empty records"),
    Case("nanover-falling-times", "nanover", nanover_falling_times, 1_000_000, "records",
         ("--variant", "traj"), "1,000,000 empty records, each 1 us before the last"),
    Case("nanover-wide-times", "nanover", nanover_wide_times, 1_000_000, "records",
         ("--variant", "traj"), "1,000,000 empty records whose timestamps' upper 8 bytes are 1"),
    Case("nanover-header-zeros", "nanover", nanover_header_zeros, 100_000_000, "bytes",
         ("--variant", "traj"), "a valid header then 100 MB of zeros"),
    Case("matrix-bare-frames", "matrix-smt", matrix_bare_frames, 1_000_000, "frames",
         what="1,000,000 frames {t, states: [], cmd: []}"),
    Case("matrix-empty-frames", "matrix-smt", matrix_empty_frames, 1_000_000, "frames",
         what="1,000,000 empty frames {}"),
    Case("matrix-wide-array", "matrix-smt", matrix_wide_array, 1_000_000, "elements",
         what="one states array of 1,000,000 int32 elements"),
    Case("matrix-deep-nesting", "matrix-smt", matrix_deep_nesting, 10_000, "levels",
         what="one frame of 10,000 nested documents"),
    Case("matrix-empty-states", "matrix-smt", matrix_empty_states, 200_000, "frames",
         what="200,000 frames {t, states: [{}], cmd: []}, their times all different"),
    Case("matrix-nested-states", "matrix-smt", matrix_nested_states, 12_500, "frames",
         what="12,500 frames whose one state is nested 95 deep, their times all different"),
    Case("matrix-keyed-states", "matrix-smt", matrix_keyed_states, 170_000, "frames",
         what="170,000 frames whose one state is {a: {}}, their times all different"),
    Case("matrix-zeros", "matrix-smt", matrix_zeros, 100_000_000, "bytes",
         what="a document length of 100 MB, then zeros"),
    Case("raskat-max-samples", "raskat-signal", raskat_max_samples, 4_000_000, "samples",
         what="a v2 signal of 4,000,000 samples (8 MB)"),
    Case("raskat-msgpack-samples", "raskat-signal", raskat_msgpack_samples, 8_000_000, "samples",
         what="a v3 samples array of 8,000,000 elements"),
)


def write_case(case: Case, path: str | Path, count: int | None = None) -> int:
    """Write ``case`` at ``count`` units (default: its full size) to ``path``; returns the file size."""
    with open(path, "wb") as f:
        case.write(f, case.full if count is None else count)
        return f.tell()
