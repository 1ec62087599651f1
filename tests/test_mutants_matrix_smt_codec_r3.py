"""The typed codec of Matrix-SMT (reference/matrix_smt/_codec.py) at two edges: compat writes a whole
number as int32 only where it fits int32 (-2^31 .. 2^31 - 1, the module's docstring and the BSON
int32 type), other numbers as doubles; and a ModelError of a state's vector is located at the top-level
document (offset 0) or at the element its path names, never inside the document's length field.
Recordings are pymongo's ``bson.encode``; the written bytes are read back with pymongo's ``bson``."""

from __future__ import annotations

from typing import Any

import bson
import pytest
from build_matrix_smt import element_offsets

from recspec.reference.matrix_smt import _codec


def _recording(p: list[Any], r: Any = None) -> dict[str, Any]:
    return {"objects": [{"id": 0, "name": "b", "type": "sphere", "color": [1.0, 0.0, 0.0], "radius": 1.0}],
            "frames": [{"states": [{"id": 0, "i": "i", "m": "", "p": p, "r": [0.0, 0.0, 0.0, 1.0] if r is None else r}],
                        "cmd": [], "t": 0.0}]}


def test_compat_writes_int32_only_within_its_range() -> None:
    top, bottom = 2.0 ** 31, -(2.0 ** 31)
    rec = _codec.decode(bson.encode(_recording([top, top - 1, bottom])))
    out = bson.decode(_codec.encode(rec, "compat"))
    p = out["frames"][0]["states"][0]["p"]
    assert [(type(x), x) for x in p] == [(float, top), (int, 2 ** 31 - 1), (int, -(2 ** 31))]
    rec = _codec.decode(bson.encode(_recording([bottom - 1, 2.0 ** 32, 0.5])))
    p = bson.decode(_codec.encode(rec, "compat"))["frames"][0]["states"][0]["p"]
    assert [type(x) for x in p] == [float, float, float]


@pytest.mark.parametrize(("p", "r", "path"), [
    ("x", None, "frames[0].states[0].p"),
    ([1.0, 2.0], None, "frames[0].states[0].p"),
    ([1.0, 2.0, 3.0], [0.0, 1.0], "frames[0].states[0].r"),
    ([1.0, 2.0, 3.0], "q", "frames[0].states[0].r"),
])
def test_a_states_bad_vector_is_located_at_the_document_or_its_element(p: Any, r: Any, path: str) -> None:
    data = bson.encode(_recording(p, r))
    with pytest.raises(_codec.ModelError) as e:
        _codec.decode(data)
    assert (e.value.rule, e.value.path) == ("MATRIX-MODEL", path)
    assert e.value.offset in (0, element_offsets(data)[path])
