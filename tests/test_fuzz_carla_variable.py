"""CARLA's ``ref`` harness reads the header's strings and the variable-size records back from the bytes
(fuzz/_carla_variable.py ``variable_view``): the magic and map name, EventAdd (blueprint id, attributes),
WalkerBones (bone names and transforms) and AnimVehicleWheels, at docs/formats/carla.md's positions. A
decoder that alters one (planted here by patching the reference decoder) breaks
``Invariant:model-view:<Class.field>``; the unbroken decoder passes on the corpus seeds and drawn valid logs."""

from __future__ import annotations

import dataclasses
import struct
import zlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import witness_carla
from hypothesis import given

from recspec._memo import BoundedMemo
from recspec.errors import DecodeError
from recspec.formats import FORMATS
from recspec.fuzz import carla
from recspec.fuzz._carla_variable import variable_view
from recspec.fuzz._oracles import InvariantBroken, check_model_view
from recspec.reference.carla import _decode
from recspec.reference.carla import _model as m

CORPUS = Path(__file__).resolve().parents[1] / "corpus" / "carla" / "valid"
#: 0.9.15 (f32 vectors) and ue5 (f64 vectors): both hold EventAdd with attributes, WalkerBones and
#: AnimVehicleWheels packets
LOGS = ("0.9.15.log", "ue5.log")


def _view(data: bytes) -> tuple[dict[str, str], dict[str, str]] | None:
    v = carla.variant_of(data)
    return variable_view(data, carla.decode(data, variant=v), v.vec_f64)


def _broken(data: bytes) -> InvariantBroken | None:
    try:
        check_model_view(lambda: _view(data))
    except InvariantBroken as e:
        return e
    return None


@pytest.mark.parametrize("name", LOGS)
def test_the_unbroken_decoder_agrees(name: str) -> None:
    assert _view((CORPUS / name).read_bytes()) is None


def _wrapped(monkeypatch: pytest.MonkeyPatch, name: str, change: Callable[[Any], Any]) -> None:
    original = getattr(_decode, name)
    monkeypatch.setattr(_decode, name, lambda *a, **k: change(original(*a, **k)))
    # decode's kept answers are the unchanged decoder's: the changed one starts with none, and keeps its own
    # apart from them (the next test finds the unchanged decoder's answers again)
    monkeypatch.setattr(_decode, "_BODIES", BoundedMemo(_decode._BODIES_MAX))
    monkeypatch.setattr(_decode, "_LARGE_BODIES", BoundedMemo(_decode._LARGE_BODIES_MAX))
    monkeypatch.setattr(_decode, "_HEADERS", BoundedMemo(_decode._HEADERS_MAX))  # the headers' too


def _attributes_swapped(attrs: tuple[m.ActorAttribute, ...]) -> tuple[m.ActorAttribute, ...]:
    return tuple(m.ActorAttribute(a.type, a.value, a.id) for a in attrs)


def _bones_swapped(w: m.WalkerBones) -> m.WalkerBones:
    return dataclasses.replace(w, bones=tuple(dataclasses.replace(
        b, location=m.Vec3(b.rotation.roll, b.rotation.pitch, b.rotation.yaw),
        rotation=m.Rotator(b.location.x, b.location.y, b.location.z)) for b in w.bones))


def _wheels_swapped(v: m.AnimVehicleWheels) -> m.AnimVehicleWheels:
    return dataclasses.replace(v, wheels=tuple(m.WheelAnim(w.location, w.tire_rotation, w.steering_angle)
                                               for w in v.wheels))


@pytest.mark.parametrize("name", LOGS)
@pytest.mark.parametrize(("function", "change", "field"), [
    ("_attributes", _attributes_swapped, "EventAdd.attributes"),
    ("_event_add", lambda e: dataclasses.replace(e, description_id=e.description_id[:5]), "EventAdd.description_id"),
    ("decode_string", lambda r: (r[0][:-1], r[1]), "Header.magic"),
    ("_walker_bones", _bones_swapped, "WalkerBones.bones"),
    ("_walker_bones", lambda w: dataclasses.replace(w, bones=w.bones[:-1]), "WalkerBones.bones"),
    ("_anim_wheels", _wheels_swapped, "AnimVehicleWheels.wheels"),
])
def test_a_decoder_that_alters_a_variable_field_breaks_the_view(monkeypatch: pytest.MonkeyPatch, name: str,
                                                                 function: str, change: Callable[[Any], Any],
                                                                 field: str) -> None:
    data = (CORPUS / name).read_bytes()
    _wrapped(monkeypatch, function, change)
    e = _broken(data)
    assert e is not None and e.signature() == f"Invariant:model-view:{field}"


def test_the_ref_harness_reads_the_variable_fields_of_its_share(monkeypatch: pytest.MonkeyPatch) -> None:
    base = (CORPUS / "0.9.15.log").read_bytes()
    n = struct.unpack_from("<H", base, 2)[0]  # the date (i64) follows the magic string
    date = struct.unpack_from("<q", base, 4 + n)[0]
    data = next(d for d in (base[:4 + n] + struct.pack("<q", date + s) + base[12 + n:] for s in range(1, 400))
                if zlib.crc32(d) % 8 == 0)
    carla.fuzz_ref(data)
    _wrapped(monkeypatch, "_attributes", _attributes_swapped)
    with pytest.raises(InvariantBroken) as e:
        carla.fuzz_ref(data)
    assert e.value.signature() == "Invariant:model-view:EventAdd.attributes"


def test_silent_on_the_seeds() -> None:
    checked = 0
    for seed in FORMATS["carla"].load().seeds():
        try:
            assert _view(seed.data) is None, seed.name
        except DecodeError:
            continue
        checked += 1
    assert checked >= 10


@given(w=witness_carla.valid_files())
def test_silent_on_drawn_valid_logs(w: Any) -> None:
    assert _view(w.data) is None
