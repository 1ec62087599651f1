"""Validating a Python Matrix-SMT writer built on a BSON library, from its own pytest suite (a Python callable).

    pytest docs/testees/test_matrix_writer.py

The writer under test here builds the recording's document as Python dicts and
lists and hands it to pymongo's ``bson.encode`` (a BSON library stands in for
yours: replace ``write_recording``). The adapter ``write(case, out_path)`` turns a
case (the JSON ``recspec case`` prints, as a dict) into the writer's own input.
The document's short keys (``id``, ``i``, ``m``, ``p``, ``r`` in a state; ``t``,
``ox``.. in a debug command) are docs/formats/matrix-smt.md's."""

from pathlib import Path

import bson
from hypothesis import given, settings

from recspec.strategies import matrix_cases
from recspec.testing import check_writer

# --- the writer under test -------------------------------------------------------------------------


def write_recording(objects: list[dict], frames: list[dict], out_path: Path) -> None:
    """One BSON document: {"objects": [...], "frames": [...]}; every number a double (Python float)."""
    out_path.write_bytes(bson.encode({"objects": objects, "frames": frames}))


# --- the adapter: a case in, the writer's input out --------------------------------------------

#: a debug command's case fields -> its document keys, per kind (v vector, r ray, s sphere, c cube)
_COMMAND_KEYS = {"v": [("vector", ("vx", "vy", "vz"))], "r": [("end", ("ex", "ey", "ez"))], "s": [("radius", "sr")],
                 "c": [("rotation", ("rx", "ry", "rz", "rw")), ("half_size", ("sx", "sy", "sz"))]}


def _command(c: dict) -> dict:
    doc = {"t": c["kind"], **dict(zip(("ox", "oy", "oz"), c["origin"]))}
    for field, keys in _COMMAND_KEYS[c["kind"]]:
        doc.update({keys: c[field]} if isinstance(keys, str) else dict(zip(keys, c[field])))
    if "color" in c:
        doc.update(zip(("r", "g", "b"), c["color"]))
    if "opacity" in c:
        doc["o"] = c["opacity"]
    return doc


def write(case: dict, out_path: Path) -> None:
    objects = [{k: o[k] for k in ("id", "name", "color", "static", "type", "half_dimentions", "radius",
                                  "half_height", "vertices") if k in o} for o in case["objects"]]
    frames = [{"states": [{"id": s["id"], "i": s["presence"], "m": s["metadata"], "p": s["position"],
                           "r": s["rotation"]} for s in f["states"]],
               "cmd": [_command(c) for c in f["commands"]], "t": f["time"]} for f in case["frames"]]
    write_recording(objects, frames, out_path)


# --- the tests ---------------------------------------------------------------------------------


def test_the_writer_writes_the_spec_encoders_bytes():
    """As a test of its own: every case drawn must come back the same, byte for byte the spec encoder's."""
    check_writer(write, format="matrix-smt", profile="spec", byte_exact=True, max_examples=25)


@settings(max_examples=25, deadline=None)
@given(matrix_cases(max_frames=3))
def test_inside_my_own_hypothesis_test(case):
    """Inside a Hypothesis test of yours: judge the case you drew; your test shrinks a failure."""
    check_writer(write, format="matrix-smt", case=case, byte_exact=True)
