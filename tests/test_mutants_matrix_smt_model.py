"""The Matrix-SMT typed model (``reference/matrix_smt/_model.py``): the values the format document gives.

The module holds no comparison, number or branch for ``tools/mutate.py`` to change (it makes no mutant
of it); what a bug there would change is a stored string or which fields take part in equality, so
those are held here to the document (/work/shared/formats/matrix_smt_record.md, docs/formats/matrix-smt.md):
the geometry names an object's ``type`` takes, the instance flags ``"i"``/``"d"``, the command kinds
``v``/``r``/``s``/``c``, and a recording's equality by content, not by how it was written.
"""

from __future__ import annotations

import dataclasses

import pytest

from recspec.reference.matrix_smt import (
    CommandKind,
    DebugCommand,
    Frame,
    Geometry,
    Presence,
    Recording,
    SceneObject,
    State,
)


def test_the_values_are_the_documents() -> None:
    assert {g.value for g in Geometry} == {"box", "sphere", "capsule", "convex"}
    assert (Presence.INSTANTIATED.value, Presence.DESTROYED.value) == ("i", "d")
    assert {k.name: k.value for k in CommandKind} == {"VECTOR": "v", "RAY": "r", "SPHERE": "s", "CUBE": "c"}
    assert Geometry("capsule") is Geometry.CAPSULE and CommandKind("c") is CommandKind.CUBE


def _recording(time: float = 0.5) -> Recording:
    box = SceneObject(1, "b", Geometry.BOX, (1.0, 0.0, 0.0), half_dimentions=(0.5, 0.5, 0.5))
    state = State(1, Presence.INSTANTIATED, "", (0.0, 0.0, 0.0), (0.0, 0.0, 0.0, 1.0))
    ray = DebugCommand(CommandKind.RAY, (0.0, 0.0, 0.0), end=(1.0, 0.0, 0.0))
    return Recording((box,), (Frame(time, (state,), (ray,)),))


def test_a_recording_is_equal_by_content_not_by_its_form() -> None:
    a = _recording()
    assert a == dataclasses.replace(a, form="compat", numbers=(("frames[0].t", "int32"),))
    assert a != _recording(0.25)
    assert a != dataclasses.replace(a, objects=())
    assert hash(a) == hash(dataclasses.replace(a, form="compat"))


def test_the_model_is_immutable() -> None:
    with pytest.raises(dataclasses.FrozenInstanceError):
        _recording().frames[0].time = 1.0  # type: ignore[misc]
    # static is optional; absent, the object moves (docs/formats/matrix-smt.md, decision 8)
    assert SceneObject(0, "s", Geometry.SPHERE, (0.0, 0.0, 0.0)).static is False
