"""Matrix-SMT's ``ref`` harness reads the typed recording back from the bytes (fuzz/_matrix_smt_typed.py
``typed_view``): the reference codec's ``from_document`` against pymongo's reading of the same bytes, field
by field with docs/formats/matrix-smt.md's layout. A typed reader that takes a wrong default, flag, key or
component order (planted here by patching the codec) breaks ``Invariant:model-view:<field>``; the unbroken
codec passes on the corpus seeds and drawn valid files. The files are written by pymongo's ``bson.encode``."""

from __future__ import annotations

import dataclasses
import zlib
from collections.abc import Callable
from typing import Any

import bson
import pytest
import witness_matrix_smt
from hypothesis import given

from recspec.errors import DecodeError
from recspec.formats import FORMATS
from recspec.fuzz import matrix_smt
from recspec.fuzz._matrix_smt_typed import typed_view
from recspec.fuzz._oracles import InvariantBroken, check_model_view
from recspec.reference import matrix_smt as b
from recspec.reference.matrix_smt import _codec


def _recording(extra: int = 0) -> bytes:
    """Two objects (one without ``static``), a frame with both ``t`` and ``time`` (``t`` wins), a state whose
    quaternion has four distinct components, compat's ``"destroyed"``, a ray without ``ey`` (the viewer's
    default 1), a cube with colour and opacity."""
    return bson.encode({
        "objects": [
            {"id": 1, "name": "box", "type": "box", "color": [0.1, 0.2, 0.3], "static": False,
             "half_dimentions": [0.5, 1.0, 1.5]},
            {"id": 2, "name": "ball", "type": "sphere", "color": [1, 0, 0], "radius": 0.25},
        ],
        "frames": [
            {"t": 0.0 + extra, "time": 5.0, "states": [
                {"id": 1, "i": "i", "m": "", "p": [1.0, 2.0, 3.0], "r": [0.1, 0.2, 0.3, 0.927362]}],
             "cmd": [{"t": "r", "ox": 0.0, "oy": 0.0, "oz": 0.0, "ex": 2.0, "ez": 0.5},
                     {"t": "c", "ox": 1.0, "oy": 1.0, "oz": 1.0, "sx": 0.5, "sy": 0.5, "sz": 0.5, "rx": 0.0,
                      "ry": 0.0, "rz": 0.0, "rw": 1.0, "r": 0.5, "g": 0.5, "b": 0.5, "o": 0.75}]},
            {"t": 1.0, "states": [{"id": 1, "i": "destroyed", "m": "gone", "p": [0, 0, 0], "r": [0, 0, 0, 1]}],
             "cmd": ""},
        ],
    })


DATA = _recording()


def _view(data: bytes) -> tuple[dict[str, str], dict[str, str]] | None:
    return typed_view(b.decode(data), bson.decode(data))


def _broken(data: bytes) -> InvariantBroken | None:
    try:
        check_model_view(lambda: _view(data))
    except InvariantBroken as e:
        return e
    return None


def test_the_unbroken_codec_agrees() -> None:
    assert _view(DATA) is None


def _wrapped(monkeypatch: pytest.MonkeyPatch, name: str, change: Callable[[Any], Any]) -> None:
    original = getattr(_codec, name)
    monkeypatch.setattr(_codec, name, lambda *a: change(original(*a)))


@pytest.mark.parametrize(("plant", "field"), [
    (lambda mp: mp.setitem(_codec.CMD_DEFAULTS, "ey", 0.0), "frames[].cmd[].end"),
    (lambda mp: mp.setitem(_codec._PRESENCE, "destroyed", _codec.Presence.INSTANTIATED), "frames[].states[].i"),
    (lambda mp: _wrapped(mp, "_read_state", lambda s: dataclasses.replace(s, rotation=s.rotation[::-1])),
     "frames[].states[].r"),
    (lambda mp: _wrapped(mp, "_read_state", lambda s: dataclasses.replace(s, metadata=s.metadata.upper())),
     "frames[].states[].m"),
    (lambda mp: _wrapped(mp, "_read_object", lambda o: dataclasses.replace(o, static=not o.static)),
     "objects[].static"),
    (lambda mp: _wrapped(mp, "_read_object", lambda o: dataclasses.replace(o, color=o.color[::-1])),
     "objects[].color"),
    (lambda mp: _wrapped(mp, "read_frame", lambda f: dataclasses.replace(f, time=5.0 if f.time == 0 else f.time)),
     "frames[].time"),
    (lambda mp: _wrapped(mp, "read_frame", lambda f: dataclasses.replace(f, commands=f.commands[:-1])),
     "frames[].cmd"),
    (lambda mp: _wrapped(mp, "_read_command", lambda c: dataclasses.replace(c, opacity=None)),
     "frames[].cmd[].opacity"),
])
def test_a_typed_reader_bug_breaks_the_view(monkeypatch: pytest.MonkeyPatch, plant: Callable[[Any], Any],
                                            field: str) -> None:
    assert _broken(DATA) is None
    plant(monkeypatch)
    e = _broken(DATA)
    assert e is not None and e.signature() == f"Invariant:model-view:{field}"


def test_the_ref_harness_reads_the_typed_recording_of_its_share(monkeypatch: pytest.MonkeyPatch) -> None:
    data = next(d for d in map(_recording, range(1, 200)) if zlib.crc32(d) % matrix_smt.MODEL_VIEW_ONE_IN == 0)
    matrix_smt.fuzz_ref(data)
    monkeypatch.setitem(_codec.CMD_DEFAULTS, "ey", 0.0)
    with pytest.raises(InvariantBroken) as e:
        matrix_smt.fuzz_ref(data)
    assert e.value.signature() == "Invariant:model-view:frames[].cmd[].end"


def test_silent_on_the_seeds() -> None:
    checked = 0
    for seed in FORMATS["matrix-smt"].load().seeds():
        try:
            rec = b.decode(seed.data)
            other = bson.decode(seed.data)
        except (DecodeError, bson.errors.BSONError):
            continue
        assert typed_view(rec, other) is None, seed.name
        checked += 1
    assert checked >= 5


@given(w=witness_matrix_smt.valid_files())
def test_silent_on_drawn_valid_files(w: Any) -> None:
    assert _view(w.data) is None


def test_a_static_that_is_not_a_boolean_is_left_to_its_rule() -> None:
    """An object whose ``static`` holds another BSON type is MATRIX-OBJ-006's finding; what the typed reading makes
    of it is not documented (the reference model's BSON undefined is truthy, pymongo reads it as None), so the view
    compares booleans only. A campaign found this false alarm: ``static`` of type undefined (0x06)."""
    null = bson.encode({"objects": [{"id": 1, "name": "box", "type": "box", "color": [0.1, 0.2, 0.3],
                                     "static": None, "half_dimentions": [0.5, 1.0, 1.5]}], "frames": []})
    undefined = null.replace(b"\x0astatic\x00", b"\x06static\x00")  # null and undefined both hold no value bytes
    assert undefined != null and len(undefined) == len(null)
    for data in (null, undefined):
        assert _broken(data) is None
    assert _broken(DATA.replace(b"\x08static\x00\x00", b"\x08static\x00\x01")) is None  # a boolean is compared
