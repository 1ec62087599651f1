"""The Matrix-SMT typed codec (reference/matrix_smt/_codec.py) after its typed numbers were made
faster: a number stored as an int32 or an int64 at both ends of the type's range (BSON 1.1: int32 is a
signed 32-bit integer, int64 a signed 64-bit one), read back by pymongo's ``bson``, and ids near
int32's edge that pymongo writes as int32 (no ``numbers`` entry: it is the form's own type). Written
against the survivors tools/mutate.py found in the module when it was measured again."""

from __future__ import annotations

import bson
import pytest

from recspec.errors import EncodeError
from recspec.reference.matrix_smt import _codec
from recspec.reference.matrix_smt._model import Geometry, Recording, SceneObject


def _obj(first: float, oid: int = 1) -> SceneObject:
    return SceneObject(oid, "box", Geometry.BOX, (first, 0.0, 0.0), False, (0.5, 0.5, 0.5))


@pytest.mark.parametrize(("name", "x", "kind"), [
    ("int32", -(2**31), int), ("int32", 2**31 - 1, int), ("int32", 2**30, int),
    ("int64", 2**31, bson.Int64), ("int64", -(2**31) - 1, bson.Int64),
    ("int64", 2**62, bson.Int64), ("int64", -(2**63), bson.Int64),
])
def test_a_whole_number_inside_the_types_range_is_stored_as_that_type(name: str, x: int, kind: type) -> None:
    data = _codec.encode(Recording((_obj(float(x)),), (), numbers=(("objects[0].color[0]", name),)))
    value = bson.decode(data)["objects"][0]["color"][0]
    assert value == x and type(value) is kind


@pytest.mark.parametrize(("name", "x"), [
    ("int32", 2**31), ("int32", -(2**31) - 1), ("int64", 2**63), ("int64", -(2**63) - 2**11),
])
def test_a_whole_number_past_the_types_range_is_refused(name: str, x: int) -> None:
    with pytest.raises(EncodeError):
        _codec.encode(Recording((_obj(float(x)),), (), numbers=(("objects[0].color[0]", name),)))


@pytest.mark.parametrize("oid", [2**30, 2**31 - 1, -(2**31), 2**31, 2**32 - 1, -(2**31) - 1])
def test_an_id_as_pymongo_stores_it_is_the_forms_own_type(oid: int) -> None:
    rec = Recording((_obj(1.0, oid),), ())
    canonical = _codec.to_document(rec, "spec")
    doc = bson.decode(_codec.encode(rec, "spec"))
    data = bson.encode(doc)  # pymongo writes an int inside int32's range as an int32 (0x10), else an int64 (0x12)
    assert data[data.index(b"id\x00") - 1] == (0x10 if -(2**31) <= oid < 2**31 else 0x12)
    assert _codec.number_types(_codec.decode_document(data), canonical) == []
