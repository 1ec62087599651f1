"""The Matrix-SMT ``ref`` harness reaches the rules' boundaries and sees what lies there (fuzz/matrix_smt.py's
boundary edits and edge seed; fuzz/_matrix_smt_facts.py's counts and model view).

* the edge seed is a valid recording (no finding under either profile) whose numbers sit at the format
  document's edges: sizes the smallest positive double, equal frame times, a ray's end one ulp from its
  origin;
* from it, the mutator's outputs reach the other side of each edge: a size of exactly 0, a frame time
  below the latest so far, a ray ending at its origin, one object twice in a frame, a boolean byte of 2;
  each judged here on the decoded output with this test's own reading, not the checker's;
* a finding lost where another of its rule still fires breaks ``Invariant:recounted``;
* a decoder that reads a value wrong breaks ``Invariant:model-view`` (pymongo reads the same bytes).
"""

from __future__ import annotations

import io
import random

import pytest

from recspec.conformance.matrix_smt import check_stream
from recspec.errors import DecodeError
from recspec.fuzz import _matrix_smt_facts as facts
from recspec.fuzz import matrix_smt as F
from recspec.fuzz._oracles import InvariantBroken, check_recounted
from recspec.reference import matrix_smt as b

#: Mutations of the edge seed tried per reach test (one mutate call each).
TRIES = 3000


@pytest.mark.parametrize("profile", ["spec", "compat"])
def test_the_edge_seed_is_valid(profile: str) -> None:
    report = check_stream(io.BytesIO(F.edge_seed()), path="edges", profile=profile)
    assert report.verdict.value == "valid", [f.rule for f in report.findings]


def test_the_edge_seed_sits_at_the_edges() -> None:
    doc = b.decode_document(F.edge_seed())
    boxes = [o for o in doc.get("objects").values if o.get("type") == "box"]
    assert boxes and all(v == 5e-324 for o in boxes for v in o.get("half_dimentions").values)
    times = [fr.get("t") for fr in doc.get("frames").values]
    assert len(times) >= 2 and len(set(times)) == 1
    rays = [c for fr in doc.get("frames").values for c in fr.get("cmd").values if c.get("t") == "r"]
    assert rays and all(c.get("ey") > c.get("oy") and c.get("ex") == c.get("ox") for c in rays)


def _outputs() -> list[b.Document]:
    rng = random.Random(20261128)
    seed = F.edge_seed()
    docs = []
    for _ in range(TRIES):
        try:
            docs.append(b.decode_document(F.mutate(seed, 1 << 16, rng.randrange(2**32))))
        except DecodeError:
            pass
    return docs


@pytest.fixture(scope="module")
def outputs() -> list[b.Document]:
    return _outputs()


def _frames(doc: b.Document) -> list[b.Document]:
    fr = doc.get("frames")
    return [f for f in fr.values if type(f) is b.Document] if type(fr) is b.Array else []


def test_a_size_reaches_zero(outputs: list[b.Document]) -> None:
    def zero_size(doc: b.Document) -> bool:
        objs = doc.get("objects")
        return type(objs) is b.Array and any(
            type(o) is b.Document and type(o.get("half_dimentions")) is b.Array
            and 0.0 in o.get("half_dimentions").values for o in objs.values)
    assert any(map(zero_size, outputs))


def test_a_frame_time_falls_below_the_latest(outputs: list[b.Document]) -> None:
    def falls(doc: b.Document) -> bool:
        times = [f.get("t") for f in _frames(doc)]
        return any(type(t) is float and any(type(u) is float and t < u for u in times[:i])
                   for i, t in enumerate(times))
    assert any(map(falls, outputs))


def test_a_ray_reaches_its_origin(outputs: list[b.Document]) -> None:
    def closed(doc: b.Document) -> bool:
        return any(type(c) is b.Document and c.get("t") == "r"
                   and [c.get(k) for k in ("ox", "oy", "oz")] == [c.get(k) for k in ("ex", "ey", "ez")]
                   for f in _frames(doc) if type(f.get("cmd")) is b.Array for c in f.get("cmd").values)
    assert any(map(closed, outputs))


def test_an_object_gets_two_states_in_a_frame(outputs: list[b.Document]) -> None:
    def twice(doc: b.Document) -> bool:
        for f in _frames(doc):
            states = f.get("states")
            ids = [s.get("id") for s in states.values if type(s) is b.Document] if type(states) is b.Array else []
            if len(ids) != len(set(map(repr, ids))) and states.keys == [str(i) for i in range(len(states.keys))]:
                return True
        return False
    assert any(map(twice, outputs))


def test_a_boolean_byte_of_two_is_made() -> None:
    rng = random.Random(7)
    seed = F.edge_seed()
    outs = (F.mutate(seed, 1 << 16, rng.randrange(2**32)) for _ in range(TRIES))
    assert any(b"\x08static\x00\x02" in out or b"\x08i\x00\x02" in out or b"\x08t\x00\x02" in out for out in outs)


def test_a_lost_finding_of_a_rule_that_still_fires_breaks_recounted() -> None:
    """Frame times 1.0, 0.1, 0.15: two frames below the latest time so far (the document's running maximum),
    two MATRIX-FRAME-002 findings. A checker that keeps one (the verdict alike) breaks the recount."""
    doc = b.decode_document(F.edge_seed())
    for f, t in zip(_frames(doc), (1.0, 0.1, 0.15)):
        f.values[f.keys.index("t")] = t
        f._map = None
    data = b.encode_document(doc)
    assert facts.facts_and_counts(b.decode_document(data))[1]["MATRIX-FRAME-002"] == 2
    report = check_stream(io.BytesIO(data), path="x", profile="spec")
    counted = facts.facts_and_counts(b.decode_document(data))[1]
    check_recounted(report, lambda: counted)  # the checker agrees
    report.verdicts["spec"].rules["MATRIX-FRAME-002"] = 1  # type: ignore[index]
    with pytest.raises(InvariantBroken) as e:
        check_recounted(report, lambda: counted)
    assert e.value.signature() == "Invariant:recounted:MATRIX-FRAME-002"


def test_a_value_read_wrong_breaks_model_view() -> None:
    data = F.edge_seed()
    assert facts.model_view(b.decode_document(data), data) is None
    wrong = b.decode_document(data)
    first = wrong.get("objects").values[0]
    first.values[first.keys.index("id")] = 4294967295  # an int32 of -1 read unsigned, say
    first._map = None
    view = facts.model_view(wrong, data)
    assert view is not None and set(view[0]) == {"objects[].id"}


def test_a_boolean_pymongo_refuses_breaks_model_view() -> None:
    data = bytearray(F.edge_seed())
    at = data.index(b"\x08static\x00") + len(b"\x08static\x00")
    doc = b.decode_document(bytes(data))
    data[at] = 2  # a reference decoder that let this through would hand the harness this document
    view = facts.model_view(doc, bytes(data))
    assert view is not None and set(view[0]) == {"document"}
