"""Fast readers of a CARLA payload's shape, for the checker and variant detection.

Each answers one question about a payload from its length fields alone, without the
model's objects the decoder (``_decode.decode_body``) builds, and agrees with the
decoder on where a payload does not fit (tests/test_carla_fastpaths.py holds them to it):

* ``layout_misfit``: whether a payload's size is one its kind's layout can have in a variant;
* ``record_chain_misfit``: whether the record sizes a variable-record payload's inner counts
  and lengths imply add up to it;
* ``scan_event_add`` (``EventAddScan``): an EventAdd payload's records and attributes as offsets;
* ``anim_wheel_ids``: an AnimVehicleWheels payload's vehicle ids, without its wheels;
* ``physics_control_ids`` and ``walker_bones_scan``: a PhysicsControl payload's actor ids, a
  WalkerBones payload's actor ids and bone names, when the payload decodes.

They read the codec's layout tables (``_decode``); the codec does not use them.
"""

from __future__ import annotations

import struct
import sys
from array import array
from dataclasses import dataclass
from itertools import repeat

from recspec._memo import BoundedMemo
from recspec.errors import Malformed

from ._decode import (
    _FIXED_RECORDS,
    _NO_COUNT,
    _RECORD_STRUCTS,
    _S_ID_TYPE,
    _S_ID_U16,
    _S_ID_U32,
    _UNPACK_U16_FROM,
    _UNPACK_U32_FROM,
    _size_error,
    count_repeats,
)
from ._model import PacketKind as K
from ._variants import Variant

__all__ = ["EventAddScan", "alike_records", "anim_wheel_ids", "layout_misfit", "physics_control_ids",
           "record_chain_misfit", "record_ids", "scan_event_add", "walker_bones_scan"]


# The smallest record of each variable-size layout, by vector width (f32, f64): the
# fixed part of the record with every inner count and string length zero.
_MIN_RECORD: dict[K, tuple[int, int]] = {
    K.EVENT_ADD: (4 + 1 + 2 * 12 + 4 + 2 + 2, 4 + 1 + 2 * 24 + 4 + 2 + 2),
    # id, 5 floats, a flag, 4 floats; the centre of mass; four u32 counts
    K.PHYSICS_CONTROL: (4 + 5 * 4 + 1 + 4 * 4 + 12 + 4 * 4,) * 2,
    K.WALKER_BONES: (4 + 2, 4 + 2),
    K.ANIM_VEHICLE_WHEELS: (4 + 4, 4 + 4),
}


def layout_misfit(kind: K, payload: bytes | memoryview, variant: Variant) -> str | None:
    """Whether a payload's *size* is one the layout of ``kind`` can have in ``variant``:
    ``None`` if it can, else what the layout implies (for a message).

    Only the outer shape is looked at, never the records' contents: a no-count layout
    has one exact size, a counted fixed-record layout ``2 + count * record_size``, and
    a variable-record layout at least ``2 + count * smallest_record`` (exactly 2 for
    no record). Variant detection ranks variants with it, so that a record that is
    malformed inside (a wheel count of 2^32-1) is a finding in the variant the rest of
    the file shows, not a reason to choose another variant.
    """
    size = len(payload)
    if kind is K.RAW or (kind is K.PHYSICS_CONTROL and variant.wheel_physics_size is None):
        return None  # kept as bytes: any size
    entry = _NO_COUNT.get(kind)
    if entry is not None:
        return None if size == entry[0].size else str(entry[0].size)
    if size < 2:
        return "at least 2"
    (count,) = _UNPACK_U16_FROM(payload, 0)
    if kind in _FIXED_RECORDS:
        expected = 2 + count * _RECORD_STRUCTS[kind, variant.vec_f64].size
        return None if size == expected else str(expected)
    smallest = 2 + count * _MIN_RECORD[kind][variant.vec_f64]
    if count == 0:
        return None if size == 2 else "2"
    return None if size >= smallest else f"at least {smallest}"


def record_chain_misfit(kind: K, payload: bytes | memoryview, variant: Variant) -> str | None:
    """For a variable-record layout, whether the record sizes its inner counts and string
    lengths imply add up to the payload: ``None`` if they do, else where they do not.

    Sizes only: no value is decoded or judged. It tells apart layouts that differ
    inside a record (PhysicsControl's 36- or 48-byte wheels, 12- or 24-byte vectors
    in EventAdd and WalkerBones); fixed layouts and raw payloads always pass here
    (:func:`layout_misfit` judges those).
    """
    if kind not in _MIN_RECORD or (kind is K.PHYSICS_CONTROL and variant.wheel_physics_size is None):
        return None
    if kind is K.EVENT_ADD and scan_event_add(bytes(payload), variant.vec_f64) is not None:
        return None  # the records add up; the walk below only says where they do not
    size = len(payload)
    if size < 2:
        return "at least 2 bytes"
    (count,) = _UNPACK_U16_FROM(payload, 0)
    vec = 24 if variant.vec_f64 else 12
    pos = 2
    try:
        for _ in range(count):
            if kind is K.ANIM_VEHICLE_WHEELS:
                (n,) = _UNPACK_U32_FROM(payload, pos + 4)
                pos += 8 + 9 * n
            elif kind is K.WALKER_BONES:
                (n,) = _UNPACK_U16_FROM(payload, pos + 4)
                pos += 6
                for _ in range(n):
                    (length,) = _UNPACK_U16_FROM(payload, pos)
                    pos += 2 + length + 2 * vec
                    if pos > size:
                        return f"bones past the end ({pos} > {size})"
            elif kind is K.EVENT_ADD:
                pos += 4 + 1 + 2 * vec + 4
                (length,) = _UNPACK_U16_FROM(payload, pos)
                pos += 2 + length
                (n,) = _UNPACK_U16_FROM(payload, pos)
                pos += 2
                left = n
                while left:
                    first = pos
                    pos += 1
                    for _ in range(2):
                        (length,) = _UNPACK_U16_FROM(payload, pos)
                        pos += 2 + length
                    if pos > size:
                        return f"attributes past the end ({pos} > {size})"
                    copies = count_repeats(payload, pos, bytes(payload[first:pos]), left - 1)
                    pos += copies * (pos - first)
                    left -= 1 + copies
            else:  # PhysicsControl
                pos += 41 + 12
                for step in (8, 12, 8, variant.wheel_physics_size or 48):
                    (n,) = _UNPACK_U32_FROM(payload, pos)
                    pos += 4 + step * n
                    if pos > size:
                        return f"records past the end ({pos} > {size})"
            if pos > size:
                return f"records past the end ({pos} > {size})"
    except struct.error:
        return f"a record count or length past the end of {size} bytes"
    return None if pos == size else f"{pos} bytes of records in {size}"


@dataclass(frozen=True, slots=True)
class EventAddScan:
    """An EventAdd payload's shape without its objects: per record ``(record offset,
    database_id, actor type, description start, description end, index of its first
    attribute, index after its last, end of the record)`` in ``records``, and per attribute
    the offsets of its type byte (``starts``) and of its value's length field (``values``),
    all in the payload, as arrays of C longs (no object an attribute). Attribute ``k``'s id is
    ``payload[starts[k] + 3:values[k]]`` and its value runs from ``values[k] + 2`` to the
    next attribute's start (or its record's end)."""

    payload: bytes
    records: list[tuple[int, int, int, int, int, int, int, int]]
    starts: array[int]
    values: array[int]

    def ids(self, lo: int, hi: int) -> list[bytes]:
        """The ids of attributes ``lo .. hi - 1``, as bytes."""
        buf = self.payload
        return list(map(buf.__getitem__, map(slice, map((3).__add__, self.starts[lo:hi]), self.values[lo:hi])))

    def value_texts(self, first: int, last: int) -> list[bytes]:
        """The values of the attributes of records ``first .. last - 1``, as bytes."""
        records = self.records[first:last]
        if not records:
            return []
        lo, hi = records[0][5], records[-1][6]
        ends = self.starts[lo + 1:hi]
        ends.append(0)
        for _, _, _, _, _, r_lo, r_hi, stop in records:
            if r_hi > r_lo:
                ends[r_hi - 1 - lo] = stop
        buf = self.payload
        return list(map(buf.__getitem__, map(slice, map((2).__add__, self.values[lo:hi]), ends)))

    def types(self, lo: int, hi: int) -> bytes:
        """The type bytes of attributes ``lo .. hi - 1``."""
        return bytes(map(self.payload.__getitem__, self.starts[lo:hi]))


_SCAN_CACHE: list[tuple[bytes, bool, EventAddScan | None]] = []
#: The answers about payloads of at most ``_SCAN_KEPT_PAYLOAD_MAX`` bytes, by (payload, vector width), kept
#: across logs up to ``_SCAN_KEPT_MAX`` of them (then forgotten all at once; at most 2 MiB of payloads and
#: their scans): a fuzzer's mutants and a folder's logs repeat their EventAdd packets. A scan is never
#: changed by the code that reads it, so one serves every copy.
_SCAN_KEPT_PAYLOAD_MAX = 4096
_SCAN_KEPT_MAX = 512
_SCAN_KEPT: BoundedMemo[tuple[bytes, bool], EventAddScan | None] = BoundedMemo(_SCAN_KEPT_MAX)


def scan_event_add(payload: bytes, vec_f64: bool) -> EventAddScan | None:
    """The shape of an EventAdd payload (see :class:`EventAddScan`), or ``None`` where
    :func:`decode_body` would raise (the payload does not hold exactly its records).

    One tight pass over the length fields, with no object per attribute: the fast
    path of the checker and of variant detection, which reads the same payloads. The
    answers about payloads of up to 4 KiB are kept (``_SCAN_KEPT``); of larger ones, the last two
    with records, so the walk does not scan again a payload detection scanned."""
    if len(payload) <= _SCAN_KEPT_PAYLOAD_MAX:
        key = (payload, vec_f64)
        if key in _SCAN_KEPT:
            return _SCAN_KEPT[key]
        return _SCAN_KEPT.keep(key, _scan_event_add(payload, vec_f64))
    for cached, f64, answer in tuple(_SCAN_CACHE):
        if f64 is vec_f64 and (cached is payload or cached == payload):
            return answer
    answer = _scan_event_add(payload, vec_f64)
    if len(payload) > 2:
        _SCAN_CACHE[:] = [*_SCAN_CACHE[-1:], (payload, vec_f64, answer)]  # detection asks for both widths
    return answer


def _scan_event_add(payload: bytes, vec_f64: bool) -> EventAddScan | None:
    size = len(payload)
    u16 = _UNPACK_U16_FROM
    head = _S_ID_TYPE.unpack_from
    fixed = 4 + 1 + 2 * (24 if vec_f64 else 12)
    records: list[tuple[int, int, int, int, int, int, int, int]] = []
    starts = array("L")
    values = array("L")
    add_start, add_value = starts.append, values.append
    try:
        if size < 2:
            return None
        (count,) = u16(payload, 0)
        pos = 2
        left = count
        while left:
            left -= 1
            at = pos
            database_id, actor_type = head(payload, pos)
            pos += fixed + 4
            (length,) = u16(payload, pos)
            desc = pos + 2
            pos = desc_end = desc + length
            (n,) = u16(payload, pos)
            pos += 2
            lo = len(starts)
            if n > _STRIDE_MIN:
                # attributes all of the first one's id and value lengths (the largest packets: 65,535 of
                # one size) lie at one stride: their length fields are compared as strided slices, their
                # offsets are ranges, and the loop below takes only what follows a differing one
                (id_len,) = u16(payload, pos + 1)
                (value_len,) = u16(payload, pos + 3 + id_len)
                stride = 5 + id_len + value_len
                k = _same_stride(payload, pos, stride, id_len, value_len, min(n, (size - pos) // stride))
                starts.extend(range(pos, pos + k * stride, stride))
                values.extend(range(pos + 3 + id_len, pos + k * stride, stride))
                pos += k * stride
                n -= k
            for _ in range(n):
                add_start(pos)
                (length,) = u16(payload, pos + 1)
                pos += 3 + length
                add_value(pos)
                (length,) = u16(payload, pos)
                pos += 2 + length
            if pos > size:
                return None
            records.append((at, database_id, actor_type, desc, desc_end, lo, len(starts), pos))
            width = pos - at
            a = len(starts) - lo  # attributes a record
            if left > a and payload[at + 4:pos] == payload[pos + 4:pos + width]:
                # records alike but for their ids (one actor's description and attributes added for many),
                # more of them than attributes a record: the rest of the run is the first one's shape
                # moved by a record's width at a time, a strided column per attribute (a record of many
                # attributes is quicker read again, at a stride)
                alike = alike_records(payload, pos, width, left)
                moved = range(width, (alike + 1) * width, width)  # each copy's distance from the first
                records.extend(zip(map(at.__add__, moved), record_ids(payload, pos, width, alike),
                                   repeat(actor_type), map(desc.__add__, moved), map(desc_end.__add__, moved),
                                   range(lo + a, lo + (alike + 1) * a, a or 1) if a else repeat(lo),
                                   range(lo + 2 * a, lo + (alike + 2) * a, a or 1) if a else repeat(lo),
                                   map(pos.__add__, moved)))
                for offsets in (starts, values):
                    copies = array("L", bytes(offsets.itemsize * a * alike))
                    for q, x in enumerate(offsets[lo:]):
                        copies[q::a] = array("L", range(x + width, x + (alike + 1) * width, width))
                    offsets.extend(copies)
                pos += alike * width
                left -= alike
    except struct.error:
        return None
    if pos != size:
        return None
    return EventAddScan(payload, records, starts, values)


def alike_records(buf: bytes, at: int, width: int, most: int) -> int:
    """How many EventAdd records from the one at ``at`` (``width`` bytes; at most ``most``, within
    ``buf``) are alike byte for byte but for their first four (the database id): then record ``k``
    starts at ``at + k * width``. Compared a window at a time, each window twice the last, with the
    ids blanked, so the cost is about twice the run's bytes."""
    most = min(most, (len(buf) - at) // width)
    if most < 2 or buf[at + 4:at + width] != buf[at + width + 4:at + 2 * width]:
        return min(most, 1)
    unit = bytes(4) + buf[at + 4:at + width]
    k, window = 2, 2
    while k < most:
        m = min(window, most - k)
        seg = _blank_ids(buf[at + k * width:at + (k + m) * width], width, m)
        if seg == unit * m:
            k += m
            window *= 2
            continue
        lo, hi = 0, m  # seg[:lo] records match, seg[:hi] do not
        while hi - lo > 1:
            mid = (lo + hi) // 2
            if seg[:mid * width] == unit * mid:
                lo = mid
            else:
                hi = mid
        return k + lo
    return k


def _blank_ids(seg: bytes, width: int, count: int) -> bytearray:
    """``seg`` (``count`` records of ``width`` bytes) with each record's first four bytes zeroed."""
    out = bytearray(seg)
    blank = bytes(count)
    for j in range(4):
        out[j::width] = blank
    return out


def record_ids(buf: bytes, at: int, width: int, count: int) -> list[int]:
    """The database ids (u32, the first four bytes) of ``count`` records of ``width`` bytes from ``at``."""
    raw = bytearray(4 * count)
    for j in range(4):
        raw[j::4] = buf[at + j:at + count * width:width]
    ids = array("I", raw)
    if sys.byteorder == "big":  # pragma: no cover - the log is little-endian
        ids.byteswap()
    return ids.tolist()


#: Records of more attributes than this try the strided reading first (_scan_event_add).
_STRIDE_MIN = 16


def _same_stride(payload: bytes, pos: int, stride: int, id_len: int, value_len: int, most: int) -> int:
    """How many attributes from ``pos`` on (at most ``most``, all within the payload) have an id of
    ``id_len`` bytes and a value of ``value_len``: then attribute ``k`` starts at ``pos + k * stride``. Each
    length field's two bytes are compared, at every attribute, as slices of stride ``stride``."""
    if most <= 0:
        return 0
    fields = ((pos + 1, id_len), (pos + 3 + id_len, value_len))
    k = most
    for at, length in fields:
        for byte, want in ((at, length & 0xFF), (at + 1, length >> 8)):
            column = payload[byte:byte + k * stride:stride]
            if column != bytes((want,)) * k:
                k = len(column) - len(column.lstrip(bytes((want,))))  # the first attribute that differs
    return k


def anim_wheel_ids(payload: bytes | memoryview, offset: int = 0, path: str = "") -> list[tuple[int, int]]:
    """AnimVehicleWheels without building the wheels: ``(record offset in payload, vehicle id)``
    per record. Raises :class:`Malformed` exactly where :func:`decode_body` would.

    The checker's fast path: a 0.9.15+ log carries one of these packets in every
    frame, 9 bytes per wheel, and decoding every wheel dominated the check time.
    """
    size = len(payload)
    if size < 2:
        raise _size_error(K.ANIM_VEHICLE_WHEELS, size, "at least 2", offset, path)
    (count,) = _UNPACK_U16_FROM(payload, 0)
    pos = 2
    out = []
    unpack = _S_ID_U32.unpack_from
    for i in range(count):
        if pos + 8 > size:
            raise Malformed(
                f"AnimVehicleWheels payload ends inside record {i} (needs 8 bytes, {size - pos} left)",
                offset + pos, f"{path}/record[{i}].database_id", rule="CARLA-PACKET-001",
            )
        database_id, n = unpack(payload, pos)
        end = pos + 8 + n * 9
        if end > size:
            raise Malformed(
                f"AnimVehicleWheels declares {n} wheels, more than the payload holds",
                offset + pos + 4, f"{path}/record[{i}].num_wheels", rule="CARLA-PACKET-001",
            )
        out.append((pos, database_id))
        pos = end
    if pos != size:
        raise _size_error(K.ANIM_VEHICLE_WHEELS, size, pos, offset, path)
    return out


#: A PhysicsControl record's bytes before its torque curve count: the id, 5 floats, a flag, 4 floats (41),
#: and the centre of mass (12).
_PHYSICS_HEAD = 41 + 12


def physics_control_ids(payload: bytes, wheel_size: int) -> list[int] | None:
    """PhysicsControl (wheels of ``wheel_size`` bytes, the variant's ``wheel_physics_size``) without building
    its records: each record's database id, when the sizes its counts imply add up to the payload, which is
    exactly when :func:`decode_body` decodes it; else None (the decoder says where it does not fit)."""
    size = len(payload)
    if size < 2:
        return None
    (count,) = _UNPACK_U16_FROM(payload, 0)
    pos = 2
    ids = []
    try:
        for _ in range(count):
            ids.append(_UNPACK_U32_FROM(payload, pos)[0])
            pos += _PHYSICS_HEAD
            for step in (8, 12, 8, wheel_size):  # torque curve, forward gears, steering curve, wheels
                (n,) = _UNPACK_U32_FROM(payload, pos)  # raises once a count lies past the end
                pos += 4 + step * n
    except struct.error:
        return None
    return ids if pos == size else None


def walker_bones_scan(payload: bytes, vec_f64: bool) -> tuple[list[int], list[bytes]] | None:
    """WalkerBones without building its records: each record's database id and each bone's name as stored
    (bytes, records in order), when the sizes its counts and lengths imply add up to the payload, which is
    exactly when :func:`decode_body` decodes it; else None (the decoder says where it does not fit)."""
    size = len(payload)
    if size < 2:
        return None
    (count,) = _UNPACK_U16_FROM(payload, 0)
    vectors = 2 * (24 if vec_f64 else 12)  # a bone's location and rotation
    pos = 2
    ids = []
    names = []
    try:
        for _ in range(count):
            database_id, bones = _S_ID_U16.unpack_from(payload, pos)
            ids.append(database_id)
            pos += 6
            for _ in range(bones):
                (length,) = _UNPACK_U16_FROM(payload, pos)
                names.append(payload[pos + 2:pos + 2 + length])
                pos += 2 + length + vectors
                if pos > size:
                    return None
    except struct.error:
        return None
    return (ids, names) if pos == size else None
