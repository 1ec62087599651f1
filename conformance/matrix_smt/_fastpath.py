"""The fast path of the frame walk: frames in the document's canonical shape.

A frame written by the spec profile's encoder, ``{states: [...], cmd: [], t}``
with every state ``{id: int32, i, m, p: [3 doubles], r: [4 doubles]}``, is
matched state by state with one compiled regular expression over its bytes; the
lengths the pattern cannot check (the state's document length, the two string
lengths) are compared in Python, and the numbers are unpacked with one struct
call per vector. The fast path *declines* a frame (returns False, having changed
nothing) as soon as anything differs from that shape or any rule could have
something to say (an unknown or destroyed id, a bad flag, a non-finite number,
a quaternion off unit length, a time going back, a second state for one id);
the caller then decodes the frame and checks it in full. So the findings are
the full path's by construction, and ``tests/test_matrix_check.py`` holds the
two paths to the same findings on generated and mutated files.
"""

from __future__ import annotations

import math
import re
import struct
from typing import TYPE_CHECKING

from recspec.reference.matrix_smt._bson import Entry

from ._rules import QUAT_TOLERANCE

if TYPE_CHECKING:
    from ._check import _Walk

__all__ = ["FrameMatcher"]

_STATE = re.compile(
    rb"\x03(\d{1,9})\x00(.{4})"
    rb"\x10id\x00(.{4})"
    rb"\x02i\x00(.{4})([^\x00]*)\x00"
    rb"\x02m\x00(.{4})([^\x00]*)\x00"
    rb"\x04p\x00\x26\x00\x00\x00(\x010\x00.{8}\x011\x00.{8}\x012\x00.{8})\x00"
    rb"\x04r\x00\x31\x00\x00\x00(\x010\x00.{8}\x011\x00.{8}\x012\x00.{8}\x013\x00.{8})\x00"
    rb"\x00",
    re.DOTALL,
)
_STATES_HEAD = b"\x04states\x00"
_TAIL = b"\x04cmd\x00\x05\x00\x00\x00\x00\x01t\x00"  # an empty cmd array, then the time key
_I32 = struct.Struct("<i").unpack
_I32_AT = struct.Struct("<i").unpack_from
_F64_AT = struct.Struct("<d").unpack_from
_P3 = struct.Struct("<3xd3xd3xd").unpack
_Q4 = struct.Struct("<3xd3xd3xd3xd").unpack
_INDEX = [str(i).encode() for i in range(4096)]
_LEN = [struct.pack("<i", n + 1) for n in range(256)]  # the length field of a string of n bytes


class FrameMatcher:
    """Checks canonical frames quickly; ``frame(entry)`` is False when it declines."""

    def __init__(self, walk: "_Walk") -> None:
        self.walk = walk
        self.matched = 0
        self.flags = {b"i": False, b"d": True}  # both profiles accept these two

    def frame(self, entry: Entry) -> bool:
        raw = entry.raw
        if raw is None:
            return False
        walk = self.walk
        index = walk.frames
        n = len(raw)
        if n < 38 or raw[4:12] != _STATES_HEAD or raw[n - 22:n - 9] != _TAIL or raw[n - 1] != 0:
            return False
        if entry.key != str(index):
            return False
        (states_len,) = _I32_AT(raw, 12)
        end = n - 22  # where the states array must end (its NUL is the byte before)
        if 12 + states_len != end or raw[end - 1] != 0:
            return False
        (t,) = _F64_AT(raw, n - 9)
        if t - t != 0.0 or t < 0.0:
            return False
        prev = walk.prev_time
        if prev is not None and t < prev:
            return False
        objects = walk.objects
        destroyed = walk.destroyed
        flags = self.flags
        seen: set[int] = set()
        removed: list[int] = []
        pos = 16
        last = end - 1
        k = 0
        match = _STATE.match
        sqrt = math.sqrt
        lo, hi = 1.0 - QUAT_TOLERANCE, 1.0 + QUAT_TOLERANCE
        while pos < last:
            m = match(raw, pos)
            if m is None:
                return False
            key, dlen, sid_b, ilen, flag, mlen, meta, pb, rb = m.groups()
            if k < 4096:
                if key != _INDEX[k]:
                    return False
            elif key != str(k).encode():
                return False
            pos = m.end()
            if _I32(dlen)[0] != pos - m.start(2):
                return False
            if len(flag) > 255 or ilen != _LEN[len(flag)] or len(meta) > 255 or mlen != _LEN[len(meta)]:
                return False
            destroys = flags.get(flag)
            if destroys is None:
                return False
            if not meta.isascii():
                try:
                    meta.decode("utf-8")
                except UnicodeDecodeError:
                    return False
            (sid,) = _I32(sid_b)
            if sid not in objects or sid in destroyed or sid in seen:
                return False
            seen.add(sid)
            if destroys:
                removed.append(sid)
            px, py, pz = _P3(pb)
            qx, qy, qz, qw = _Q4(rb)
            total = px + py + pz + qx + qy + qz + qw
            if total - total != 0.0:
                return False
            norm = sqrt(qx * qx + qy * qy + qz * qz + qw * qw)
            if not lo <= norm <= hi or not abs(norm - 1.0) <= QUAT_TOLERANCE:
                return False
            k += 1
        if pos != last:
            return False
        # accepted: apply what the full path would have recorded
        walk.frames += 1
        walk.states += k
        destroyed.update(removed)
        walk.prev_time = t if prev is None or t > prev else prev
        walk.last_time = t
        self.matched += 1
        return True
