"""The public codec of the Matrix-SMT reference (``reference/matrix_smt/_api.py``): one layout, so no variant;
a file's form (docs/formats/matrix-smt.md: the document writes ``objects`` first, the producer sorts its keys
so ``frames`` comes first) kept by ``decode`` so that ``encode`` gives the same bytes back, also where a writer
stored a number as another BSON type than its form; frames streamed from the ``frames`` array only."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

import recspec.reference.matrix_smt as msmt
from helpers import real_file
from recspec.errors import UsageError

VALID = Path(__file__).resolve().parent.parent / "corpus" / "matrix-smt" / "valid"
SPEC = (VALID / "spec.bson").read_bytes()
COMPAT = (VALID / "compat.bson").read_bytes()
NO_FRAMES = (VALID / "no-frames.bson").read_bytes()


def test_the_corpus_files_first_keys_are_as_the_document_says() -> None:
    # BSON: i32 length, then type 0x04 (array) and the key, NUL-terminated
    assert SPEC[4:13] == b"\x04objects\x00" and COMPAT[4:12] == b"\x04frames\x00"


@pytest.mark.parametrize("data", [SPEC, COMPAT, NO_FRAMES], ids=["spec", "compat", "no-frames"])
def test_each_form_comes_back_byte_for_byte(data: bytes) -> None:
    assert msmt.encode(msmt.decode(data)) == data


def test_the_producers_form_is_kept_and_the_documents_is_the_default() -> None:
    assert msmt.decode(COMPAT).form == "compat"
    assert msmt.decode(SPEC).form != "compat"
    spec_model = msmt.decode(SPEC)
    assert msmt.encode(spec_model, profile="spec") == SPEC
    assert msmt.encode(msmt.decode(COMPAT), profile="spec") != COMPAT  # the other form's bytes
    assert msmt.encode(msmt.decode(COMPAT), profile="compat") == COMPAT


def test_the_real_recording_is_the_producers_form_and_comes_back() -> None:
    data = real_file("Scene1.bson").read_bytes()
    model = msmt.decode(data)
    assert model.form == "compat" and msmt.encode(model) == data


def _retyped_compat() -> bytes:
    """compat.bson with one whole number (a rotation's 0, int32 in the producer's form) stored as a double:
    the 4-byte int32 element becomes an 8-byte double, so each enclosing length grows by 4."""
    from recspec.reference.matrix_smt import Array, Document, decode_document, encode_document

    def retype(value, path):
        if path == ("frames", "0", "states", "0", "r", "0"):
            assert type(value) is int and value == 0
            return 0.0
        if isinstance(value, Document):
            items = [(k, retype(v, (*path, k))) for k, v in zip(value.keys, value.values)]
            return [v for _, v in items] if isinstance(value, Array) else dict(items)
        return value

    data = encode_document(retype(decode_document(COMPAT), ()))
    assert len(data) == len(COMPAT) + 4
    return data


def test_a_number_stored_as_another_type_keeps_the_form_and_comes_back() -> None:
    data = _retyped_compat()
    model = msmt.decode(data)
    assert model.form == "compat" and model.numbers == (("frames[0].states[0].r[0]", "double"),)
    assert msmt.encode(model) == data


@pytest.mark.parametrize(("data", "count"), [(SPEC, 3), (COMPAT, 3), (NO_FRAMES, 0)],
                         ids=["spec", "compat", "no-frames"])
def test_streaming_reads_the_frames_array_whichever_key_comes_first(data: bytes, count: int) -> None:
    frames = list(msmt.iter_frames(io.BytesIO(data)))
    assert len(frames) == count and frames == list(msmt.decode(data).frames)
    assert msmt.iter_units is msmt.iter_frames and msmt.UNIT == "frame"


@pytest.mark.parametrize("call", [
    lambda: msmt.decode(SPEC, variant="spec"),
    lambda: msmt.encode(msmt.decode(SPEC), variant="compat"),
    lambda: list(msmt.iter_frames(io.BytesIO(SPEC), variant="")),
])
def test_any_variant_is_a_usage_error(call) -> None:
    with pytest.raises(UsageError) as e:
        call()
    assert "no variants" in e.value.message and e.value.hint == "leave out variant="
