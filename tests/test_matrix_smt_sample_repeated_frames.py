"""The default cross-check's sample of a recording with its top-level ``frames`` key repeated
(``conformance/matrix_smt/_xcheck.py`` ``sample_frames``). Each ``frames`` array is a frames array
to the checker (the last one is the recording, an earlier one is checked as ``frames#N``), so each
is cut the same way: its first and last frame and about one in ``stride``. The documents are
pymongo's bytes, spliced at element boundaries (pymongo writes a key once; BSON allows it twice)."""

from __future__ import annotations

import struct

import bson
from build_matrix_smt import document, pymongo_elements

from recspec.conformance.matrix_smt._xcheck import differential, sample_frames


def _frame(i: int, t: float) -> dict:
    return {"states": [{"id": 0, "i": "i", "m": "", "p": [float(i), 0.5, -1.0], "r": [0.0, 0.0, 0.0, 1.0]}],
            "cmd": [], "t": t}


def _frames_arrays(data: bytes) -> list[tuple[int, int]]:
    """(offset of the length field, length) of each top-level ``frames`` array, walked by hand."""
    out = []
    pos = 4
    while data[pos] != 0:
        t = data[pos]
        key_end = data.index(b"\x00", pos + 1)
        key = data[pos + 1:key_end]
        v = key_end + 1
        assert t in (0x03, 0x04)  # the documents here hold only documents and arrays at the top level
        (n,) = struct.unpack_from("<i", data, v)
        if key == b"frames":
            out.append((v, n))
        pos = v + n
    return out


def test_every_repeated_frames_array_is_sampled() -> None:
    objects = {"objects": [{"id": 0, "name": "o", "type": "sphere", "color": [0.0, 0.5, 1.0], "radius": 1.0}]}
    first = {"frames": [_frame(i, i / 60) for i in range(40)]}
    second = {"frames": [_frame(i, i / 30) for i in range(50)]}
    data = document(pymongo_elements(objects), pymongo_elements(first), pymongo_elements(second))
    arrays = _frames_arrays(data)
    assert len(arrays) == 2
    # pymongo keeps the last value of a repeated key: the second array is the recording
    assert len(bson.decode(data)["frames"]) == 50

    s = sample_frames(data, 4)
    assert s is not None
    assert s.units == 40 + 50
    cut = _frames_arrays(s.data)
    assert len(cut) == 2
    (first_at, first_len), (second_at, second_len) = cut
    # each array keeps its own first and last frame and fewer than all of its frames
    kept_first = _array_keys(s.data, first_at, first_len)
    kept_second = _array_keys(s.data, second_at, second_len)
    assert kept_first[0] == "0" and kept_first[-1] == "39" and len(kept_first) < 40
    assert kept_second[0] == "0" and kept_second[-1] == "49" and len(kept_second) < 50
    assert s.chosen == len(kept_first) + len(kept_second)
    assert len(bson.decode(s.data)["frames"]) == len(kept_second)
    # every byte but the three recomputed lengths is the original byte its offset maps to
    patched = set(range(4)) | set(range(first_at, first_at + 4)) | set(range(second_at, second_at + 4))
    assert all(s.data[i] == data[s.original_offset(i)] for i in range(len(s.data)) if i not in patched)
    # and each array's length field maps to the original's
    assert [s.original_offset(first_at), s.original_offset(second_at)] == [at for at, _ in arrays]
    assert differential(s.data) == []


def _array_keys(data: bytes, at: int, n: int) -> list[str]:
    """The keys of the array whose length field is at ``at`` (elements are documents)."""
    keys = []
    pos, last = at + 4, at + n - 1
    while pos < last:
        assert data[pos] == 0x03
        key_end = data.index(b"\x00", pos + 1)
        keys.append(data[pos + 1:key_end].decode())
        (dn,) = struct.unpack_from("<i", data, key_end + 1)
        pos = key_end + 1 + dn
    assert pos == last and data[last] == 0
    return keys
