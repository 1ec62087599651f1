"""Validating a Python NanoVer writer from its own pytest suite (a Python callable).

    pytest docs/testees/test_nanover_writer.py

The writer under test here is ``RecordingWriter``, the incremental writer of
recspec's NanoVer reference (it writes the header, then one record per call, as
NanoVer's recorder does); put your own in its place. The adapter turns a case
(the JSON ``recspec case`` prints, as a dict) into the writer's own calls: one
``write(timestamp, message)`` per record."""

from pathlib import Path

from hypothesis import given, settings

from recspec.reference.nanover import Array, ArrayKind, Frame, RecordingWriter, StateUpdate
from recspec.strategies import nanover_cases
from recspec.testing import check_writer


def _value(v):
    """A case's Value as the writer's: non-finite numbers come as {"$number": ...}, numbers as floats."""
    if isinstance(v, dict):
        if set(v) == {"$number"}:
            return float(v["$number"].replace("Infinity", "inf"))
        inner = v["$struct"] if set(v) == {"$struct"} else v
        return {k: _value(x) for k, x in inner.items()}
    if isinstance(v, list):
        return [_value(x) for x in v]
    return float(v) if isinstance(v, (int, float)) and not isinstance(v, bool) else v


def _array(a):
    (kind, values), = a.items()
    if kind == "float":
        values = [float(str(x).replace("Infinity", "inf")) for x in values]
    return Array(ArrayKind(kind), tuple(values))


def write(case, out_path: Path) -> None:
    """The adapter: the case in, the writer's calls out."""
    with open(out_path, "wb") as f:
        writer = RecordingWriter(f)
        for record in case["records"]:
            if "frame" in record:
                fr = record["frame"]
                message = Frame(fr["frame_index"], {k: _value(v) for k, v in fr["values"].items()},
                                {k: _array(a) for k, a in fr["arrays"].items()})
            else:
                message = StateUpdate({k: _value(v) for k, v in record["update"].items()})
            writer.write(record["timestamp_us"], message)


def test_the_writer_writes_every_case_it_is_given():
    """As a test of its own: recspec draws the cases (every kind), shrinks a failure, raises with it."""
    check_writer(write, format="nanover", profile="spec", max_examples=25)


@settings(max_examples=25, deadline=None)
@given(nanover_cases("traj", min_records=1, deltas=True))
def test_inside_my_own_hypothesis_test(case):
    """Inside a Hypothesis test of yours: judge the case you drew; your test shrinks a failure."""
    check_writer(write, format="nanover", case=case)
