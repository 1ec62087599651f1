"""The CARLA ``ref`` harness reaches the rules' edges and reads the decoder's fields a second way:

* the structure-aware mutator's boundary mutations (fuzz/_carla_mutate.py ``_op_boundary``) put a judged
  field at its range's edge as docs/formats/carla.md gives it (door 7, a flag of 2, the INVALID actor type,
  an EventParent naming a dead parent), and its repeated frames (``_op_repeat_frame``) make runs of alike
  frames whose ids and times follow, with such a value inside a later one, which the check still reports
  with its fast paths on;
* the model view (fuzz/carla.py ``model_view``) finds a decoder that swaps two fields of a record.
"""

from __future__ import annotations

import io
import json
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any
from unittest import mock

import pytest

from recspec._memo import BoundedMemo
from recspec.conformance.carla import check_stream
from recspec.fuzz import _carla_mutate as cm
from recspec.fuzz import carla
from recspec.reference import carla as m
from recspec.reference.carla import VARIANTS, decode
from recspec.reference.carla import PacketKind as K

CORPUS = Path(__file__).resolve().parents[1] / "corpus" / "carla" / "valid"


def _seed(name: str) -> bytes:
    return (CORPUS / f"{name}.log").read_bytes()


def _records(data: bytes, variant: str, cls: type) -> list[Any]:
    rec = decode(data, variant=VARIANTS[variant])
    return [r for p in rec.packets if isinstance(p.body, tuple) for r in p.body if type(r) is cls]


def _mutants(name: str, op: Callable[[random.Random, Any], bool], n: int = 400, seed: int = 3) -> list[bytes]:
    """``n`` single edits of the valid seed ``name`` by ``op`` (those that apply), under its own variant."""
    data = _seed(name)
    cm.use_variant(VARIANTS[name])
    try:
        rng = random.Random(seed)
        out = []
        for _ in range(n):
            draft = cm._Draft(cm._parse(data))
            if op(rng, draft):
                out.append(draft.encode())
        return out
    finally:
        cm.use_variant(None)


def _rules(data: bytes, variant: str, *, fast_path: bool = True) -> set[str]:
    report = check_stream(io.BytesIO(data), path="<t>", variant=VARIANTS[variant], profile="spec", fast_path=fast_path)
    return {f.rule for f in report.findings} | {r for v in report.verdicts.values() for r in v.rules}


def test_boundary_mutations_reach_the_document_ranges_edges() -> None:
    doors = {r.door for d in _mutants("0.9.16", cm._op_boundary) for r in _records(d, "0.9.16", m.VehicleDoor)}
    assert {6, 7} <= doors  # § Enumerations: doors 0..6; 7 is the first outside
    flags = {r.is_frozen for d in _mutants("0.9.15", cm._op_boundary)
             for r in _records(d, "0.9.15", m.TrafficLightState)}
    assert 2 in flags  # a bool is 0 or 1
    types = {r.type for d in _mutants("0.9.4-0.9.5", cm._op_boundary) for r in _records(d, "0.9.4-0.9.5", m.EventAdd)}
    assert 4 in types  # 0.9.4: 0..3 and 4 INVALID
    states = {r.state for d in _mutants("0.9.6-0.9.9", cm._op_boundary)
              for r in _records(d, "0.9.6-0.9.9", m.TrafficLightState)}
    assert {2, 3} <= states  # no Off (3) before 0.9.10


def test_boundary_mutations_name_a_dead_parent_of_a_live_child() -> None:
    """CARLA-ACTOR-001 on one field while the record's other actor id is alive (the child)."""
    found = False
    for d in _mutants("0.9.15", cm._op_boundary, n=600):
        rec = decode(d, variant=VARIANTS["0.9.15"])
        alive: set[int] = set()
        for p in rec.packets:
            if p.kind is K.EVENT_ADD:
                alive.update(r.database_id for r in p.body)  # type: ignore[union-attr]
            elif p.kind is K.EVENT_PARENT:
                found |= any(r.database_id in alive and r.database_id_parent not in alive for r in p.body)  # type: ignore[union-attr]
        if found:
            break
    assert found


@pytest.mark.parametrize("name", ["0.9.15", "0.9.16", "ue5"])
def test_repeated_frames_follow_on(name: str) -> None:
    """A valid seed with a frame repeated and nothing else changed stays free of the frame rules."""
    rng = random.Random(7)
    data = _seed(name)
    cm.use_variant(VARIANTS[name])
    try:
        for _ in range(20):
            draft = cm._Draft(cm._parse(data))
            with mock.patch.object(rng, "random", return_value=0.99):  # no boundary value, no record added
                assert cm._op_repeat_frame(rng, draft)
            out = draft.encode()
            starts = [p.body for p in decode(out, variant=VARIANTS[name]).packets if p.kind is K.FRAME_START]
            assert len(starts) > 1
            assert [s.frame_id for s in starts] == list(range(1, len(starts) + 1))  # type: ignore[union-attr]
            assert not {r for r in _rules(out, name) if r.startswith("CARLA-FRAME-")}
    finally:
        cm.use_variant(None)



def test_repeated_frames_do_not_compound_from_one_generation_to_the_next() -> None:
    """Each generation of a campaign's corpus mutates the last one's inputs: repeating frames of an input
    that repeats already would grow it without end, and every execution pays for the length. An input whose
    packets hold more than REPEAT_INPUT_MAX bytes gets no more copies, so fifty generations stay within
    one repeat's copies of that bound."""
    rng = random.Random(11)
    data = _seed("0.9.15")
    cm.use_variant(VARIANTS["0.9.15"])
    try:
        grown = refused = 0
        for _ in range(50):
            draft = cm._Draft(cm._parse(data))
            before = sum(len(slot.raw) for slot in draft.packets)
            if cm._op_repeat_frame(rng, draft):
                assert before <= cm.REPEAT_INPUT_MAX
                data = draft.encode()
                grown += 1
            else:
                assert before > cm.REPEAT_INPUT_MAX
                refused += 1
        assert grown and refused
        assert len(data) <= cm.REPEAT_INPUT_MAX + 2 * cm.REPEAT_BYTES  # the seed's frames are far below REPEAT_BYTES
    finally:
        cm.use_variant(None)

def test_a_flag_in_a_repeated_frame_is_reported_with_the_fast_paths_on() -> None:
    """The run of alike frames a repeat makes, with a flag of 2 in a later copy: the check reports
    CARLA-VALUE-001 with its bulk proofs on, as its walk does."""
    hits = 0
    for d in _mutants("0.9.15", cm._op_repeat_frame, n=300):
        if any(r.is_frozen > 1 for r in _records(d, "0.9.15", m.TrafficLightState)):
            hits += 1
            assert "CARLA-VALUE-001" in _rules(d, "0.9.15")
            assert "CARLA-VALUE-001" in _rules(d, "0.9.15", fast_path=False)
    assert hits


def test_the_model_view_agrees_on_the_seeds() -> None:
    # each seed's variant as the corpus manifest names it (the file names are not all variant names)
    manifest = json.loads((CORPUS.parent / "manifest.json").read_text())
    named = {entry["path"]: entry["variant"] for entry in manifest["files"]}
    seeds = sorted(CORPUS.glob("*.log"))
    assert seeds
    for path in seeds:
        data = path.read_bytes()
        variant = VARIANTS[named[f"{CORPUS.name}/{path.name}"]]
        assert carla.model_view(data, decode(data, variant=variant), variant.vec_f64) is None, path.name


def test_the_model_view_finds_a_decoder_that_swaps_two_fields() -> None:
    """§ State: the frozen flag is the byte at 4, the state the byte at 9 of a 10-byte record."""
    from recspec.reference.carla import _decode

    data = _seed("0.9.15")
    swapped = {**_decode._FLAT_CLASSES,
               K.STATE: lambda i, frozen, t, state: m.TrafficLightState(i, state, t, frozen)}
    builders = {**_decode._BUILDERS, K.STATE: lambda rows: (swapped[K.STATE](*r) for r in rows)}
    with mock.patch.object(_decode, "_FLAT_CLASSES", swapped), mock.patch.object(_decode, "_BUILDERS", builders), \
            mock.patch.object(_decode, "_BODIES", BoundedMemo(16)):  # none of the unchanged decoder's answers
        rec = decode(data, variant=VARIANTS["0.9.15"])
    states = _records(data, "0.9.15", m.TrafficLightState)
    assert any(s.state != s.is_frozen for s in states)  # the seed holds a light whose two fields differ
    view = carla.model_view(data, rec, False)
    assert view is not None
    model, read = view
    assert list(read) == ["TrafficLightState.is_frozen"]
    assert read["TrafficLightState.is_frozen"] == 0 != model["TrafficLightState.is_frozen"]
