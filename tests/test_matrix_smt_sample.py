"""The default Matrix-SMT cross-check reads a sample of the frames above 64 KiB
(``conformance/matrix_smt/_xcheck.py`` ``sample_frames``): the sample is a document
of its own, its bytes map back to the original's, and it reaches the verdict the
full reading reaches."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

import recspec
from helpers import real_file
from recspec.conformance.matrix_smt._xcheck import SAMPLE_STRIDE, differential, sample_frames
from recspec.reference.matrix_smt import decode_document
from recspec.strategies import matrix_files


def assert_maps_back(sample_data: bytes, data: bytes, original_offset) -> None:  # type: ignore[no-untyped-def]
    """Every byte of the sample but the two recomputed lengths is the original byte its offset maps to."""
    frames_len_at = sample_data.index(b"\x04frames\x00") + len(b"\x04frames\x00")
    patched = set(range(4)) | set(range(frames_len_at, frames_len_at + 4))
    assert all(sample_data[i] == data[original_offset(i)] for i in range(len(sample_data)) if i not in patched)


@given(matrix_files(min_frames=3, max_frames=12), st.integers(1, 4))
@settings(max_examples=80, deadline=None)
def test_the_sample_is_a_document_of_the_chosen_frames(f: tuple[bytes, str], stride: int) -> None:
    data = f[0]
    s = sample_frames(data, stride)
    assert s is not None
    whole, part = decode_document(data), decode_document(s.data)
    frames, sampled = whole.map()["frames"], part.map()["frames"]
    assert s.units == len(frames.values) and s.chosen == len(sampled.values)
    assert set(sampled.keys) <= set(frames.keys) and {frames.keys[0], frames.keys[-1]} <= set(sampled.keys)
    assert [k for k in whole.keys if k != "frames"] == [k for k in part.keys if k != "frames"]
    assert_maps_back(s.data, data, s.original_offset)
    assert differential(s.data) == []


def test_a_cut_document_is_read_whole() -> None:
    """No sample of what the walk cannot frame: the cross-check reads every byte of it."""
    assert sample_frames(b"\x05\x00\x00\x00") is None
    assert sample_frames(b"\x10\x00\x00\x00\x04frames\x00\x05\x00\x00") is None


def test_scene1_is_sampled_and_says_so() -> None:
    path = real_file("Scene1.bson")
    report = recspec.check(path)
    evidence = report.evidence["cross_check"]
    assert evidence.startswith("kaitai: agrees; pymongo: agrees on a sample of ")
    assert f"about 1 in {SAMPLE_STRIDE}" in evidence
    full = recspec.check(path, cross_check="full")
    assert full.evidence["cross_check"] == "kaitai: agrees; pymongo: agrees"
    assert full.verdict == report.verdict
    s = sample_frames(path.read_bytes())
    assert s is not None and 0 < s.chosen < s.units
    assert_maps_back(s.data, path.read_bytes(), s.original_offset)
