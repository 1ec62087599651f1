"""The CARLA cross-check's model comparison (``same``) and its text walk (``_has_bad_text``).

``same`` tries ``==`` first: that is sound only while every model dataclass
compares all its fields in ``__eq__``, which the first test holds the model to.
"""

from __future__ import annotations

import dataclasses

from recspec.conformance.carla._xcheck import _has_bad_text, same
from recspec.reference import carla as m
from recspec.reference.carla import PacketKind as K


def nan() -> float:
    """A NaN of its own (``math.nan`` is one object, which ``==`` on tuples finds equal to itself)."""
    return float("nan")


def test_every_model_dataclass_compares_all_its_fields() -> None:
    classes = [vars(m)[n] for n in m.__all__ if dataclasses.is_dataclass(vars(m).get(n))]
    assert len(classes) > 30
    for cls in classes:
        assert cls.__dataclass_params__.eq, cls  # type: ignore[attr-defined]
        assert all(f.compare for f in dataclasses.fields(cls)), cls


def _position(x: float, yaw: float = 90.0) -> m.Position:
    return m.Position(7, m.Vec3(x, 2.0, 3.0), m.Rotator(0.0, 0.0, yaw))


def test_nan_read_twice_is_the_same() -> None:
    a = m.Packet(K.POSITION, (_position(nan()), _position(1.0, nan())), 3)
    b = m.Packet(K.POSITION, (_position(nan()), _position(1.0, nan())), 3)
    assert a != b  # NaN != NaN: the walk decides
    assert same(a, b)


def test_a_difference_anywhere_is_found() -> None:
    a = m.Packet(K.POSITION, (_position(1.0), _position(2.0)), 3)
    assert same(a, m.Packet(K.POSITION, (_position(1.0), _position(2.0)), 3))
    assert not same(a, m.Packet(K.POSITION, (_position(1.0), _position(2.5)), 3))
    assert not same(a, m.Packet(K.POSITION, (_position(1.0),), 3))
    assert not same(a, m.Packet(K.POSITION, (_position(1.0), _position(2.0)), 4))
    assert not same(m.Vec3(1.0, 2.0, 3.0), m.Rotator(1.0, 2.0, 3.0))  # the same values in another class
    assert not same(m.Vec3(nan(), 2.0, 3.0), m.Vec3(nan(), 2.0, 4.0))


def test_text_that_is_not_utf8_is_found_however_deep() -> None:
    bone = m.WalkerBone("pelvis", m.Vec3(0.0, 0.0, 0.0), m.Rotator(0.0, 0.0, 0.0))
    bad = dataclasses.replace(bone, name=b"pel\xffvis".decode("utf-8", "surrogateescape"))
    assert not _has_bad_text(m.WalkerBones(1, (bone, bone)))
    assert not _has_bad_text(m.WalkerBones(1, (dataclasses.replace(bone, name="bassin ü"),)))
    assert _has_bad_text(m.WalkerBones(1, (bone, bad)))
    assert _has_bad_text(m.Header(16, "CARLA_RECORDER", 0, "\udcff"))
    assert not _has_bad_text(m.WalkerBone)  # a class, not a model value
