"""The JSON report's text without the pure-Python encoder: ``dumps_indented`` writes what
``json.dumps(value, indent=2, allow_nan=False)`` writes, and raises where it raises."""

from __future__ import annotations

import enum
import json
import math
from collections import OrderedDict

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from recspec.conformance.corpus import corpus_folder
from recspec.formats import FORMATS
from recspec.pipeline import check_paths
from recspec.render._json import dumps_indented, iter_json

_SCALARS = (st.none() | st.booleans() | st.integers() | st.integers(min_value=-2**80, max_value=2**80)
            | st.floats(allow_nan=False, allow_infinity=False) | st.text()
            | st.text(alphabet=st.characters(max_codepoint=0x1F)) | st.sampled_from(["\ud800", "\U0001f600", ""]))
_JSON = st.recursive(_SCALARS, lambda inner: st.lists(inner, max_size=4) | st.tuples(inner, inner)
                     | st.dictionaries(st.text(max_size=6), inner, max_size=4), max_leaves=30)
_ENDS = st.sampled_from(["\n", "\n  ", "\n    "])


@given(_JSON, _ENDS)
@settings(max_examples=400, deadline=None)
def test_the_text_is_json_dumps_with_indent_2(value, end) -> None:
    assert dumps_indented(value, end) == json.dumps(value, indent=2, allow_nan=False).replace("\n", end)


class _Level(enum.IntEnum):
    LOW = 1


class _Name(str):
    pass


@pytest.mark.parametrize("value", [
    {1: "an int key", 2.5: "a float key", False: "a bool key", None: "a null key"},
    {"level": _Level.LOW, "name": _Name("sub"), "float": 1e300, "neg": -0.0, "tiny": 5e-324},
    OrderedDict([("b", 1), ("a", [OrderedDict()])]),
    [[], {}, (), [[[]]], {"": {"": ""}}],
    "\"quoted\" \\ back\tslash \x00 \x7f \u2028 \U0001f600",
    10**40,
])
def test_keys_and_subclasses_json_writes_its_own_way(value) -> None:
    assert dumps_indented(value, "\n  ") == json.dumps(value, indent=2, allow_nan=False).replace("\n", "\n  ")


@pytest.mark.parametrize("value", [math.nan, [1, math.inf], {"x": -math.inf}, {"x": object()}, [{1, 2}],
                                   {("a",): 1}, b"bytes"])
def test_what_json_refuses_is_refused_alike(value) -> None:
    with pytest.raises((ValueError, TypeError)) as expected:
        json.dumps(value, indent=2, allow_nan=False)
    with pytest.raises(expected.type):
        dumps_indented(value)


def test_a_cycle_is_refused_as_json_refuses_it() -> None:
    cycle: list[object] = []
    cycle.append(cycle)
    with pytest.raises(ValueError, match="Circular reference"):
        dumps_indented({"a": cycle})


def test_a_folder_report_is_written_without_the_pure_python_encoder(monkeypatch) -> None:
    """The files of a JSON report are each one call to ``dumps_indented``, not a token generator of
    ``json.encoder``; the text is still what ``json.dumps(report.to_json(), indent=2)`` makes."""
    report, _errors = check_paths([str(corpus_folder(fmt)) for fmt in FORMATS], cross_check=False)
    assert len(report.files) > 100
    expected = json.dumps(report.to_json(), indent=2, allow_nan=False) + "\n"
    made = []
    original = json.encoder._make_iterencode

    def counted(*args, **kwargs):
        made.append(1)
        return original(*args, **kwargs)

    monkeypatch.setattr(json.encoder, "_make_iterencode", counted)
    text = "".join(iter_json(report))
    assert made == []
    assert text == expected
