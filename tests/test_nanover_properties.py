"""The four properties for NanoVer, on the strategies of ``recspec.strategies``:
round trip (comparing parsed messages: map order is not canonical), canonical
bytes of the encoder's own output, differential against the Kaitai parser,
robustness of decode and check on any bytes."""

from __future__ import annotations

import io
import json

from hypothesis import given
from hypothesis import strategies as st

from recspec.conformance.nanover import check_stream
from recspec.conformance.nanover._xcheck import differential
from recspec.errors import DecodeError
from recspec.fuzz.nanover import mutate
from recspec.reference.nanover import Kind, decode, encode, same_value
from recspec.report import Report
from recspec.strategies import nanover_files, nanover_recordings


@given(nanover_recordings())
def test_round_trip(rec) -> None:  # type: ignore[no-untyped-def]
    back = decode(encode(rec), variant=rec.kind)
    assert same_value(back.records, rec.records)


@given(nanover_recordings())
def test_canonical_bytes(rec) -> None:  # type: ignore[no-untyped-def]
    data = encode(rec)
    assert encode(decode(data, variant=rec.kind)) == data


@given(nanover_files(), st.integers(0, 2**32 - 1))
def test_differential_on_valid_and_mutated_files(f, seed: int) -> None:  # type: ignore[no-untyped-def]
    data, kind = f
    assert differential(data, Kind(kind)) == []
    assert [str(d) for d in differential(mutate(data, 1 << 16, seed), Kind(kind))] == []


@given(nanover_files())
def test_valid_files_check_valid(f) -> None:  # type: ignore[no-untyped-def]
    data, kind = f
    report = check_stream(io.BytesIO(data), path=f"x.{kind}", size=len(data))
    assert report.verdict.value == "valid", [x.to_json() for x in report.findings]


@given(st.binary(max_size=300) | nanover_files().map(lambda f: f[0][: len(f[0]) // 2]))
def test_any_bytes_give_findings_never_another_exception(data: bytes) -> None:
    """What the decoder refuses (only with a DecodeError) the checker reports as an error finding."""
    for kind in Kind:
        try:
            decode(data, variant=kind)
            refused = None
        except DecodeError as e:
            refused = e
        report = check_stream(io.BytesIO(data), path="x", variant=kind.value, size=len(data))
        json.dumps(Report([report]).to_json(), allow_nan=False)
        if refused is not None:
            assert report.verdict.value != "valid", refused
            assert any(f.severity.value == "error" for f in report.findings), refused


def _same_value_elementwise(a, b) -> bool:  # type: ignore[no-untyped-def]
    """same_value as it reads without its shortcut for arrays of scalars: the oracle."""
    import math

    from recspec.reference.nanover import Array, Frame, StateUpdate

    if isinstance(a, float) and isinstance(b, float):
        return a == b or (math.isnan(a) and math.isnan(b))
    if type(a) is not type(b):
        return False
    if isinstance(a, (tuple, list)):
        return len(a) == len(b) and all(_same_value_elementwise(x, y) for x, y in zip(a, b))
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(_same_value_elementwise(a[k], b[k]) for k in a)
    if isinstance(a, (Array, Frame, StateUpdate)):
        return all(_same_value_elementwise(getattr(a, f), getattr(b, f)) for f in a.__slots__)
    return bool(a == b)


_SCALAR = st.sampled_from([0, 1, True, False, 0.0, 1.0, -0.0, float("nan"), float("inf"), "a", b"a", None])
_NESTED = st.recursive(_SCALAR, lambda inner: st.lists(inner, max_size=3) | st.lists(inner, max_size=3).map(tuple)
                       | st.dictionaries(st.sampled_from("ab"), inner, max_size=2), max_leaves=6)


_EQUAL_OTHER_TYPE = {(int, 0): False, (int, 1): 1.0, (bool, True): 1, (bool, False): 0.0, (float, 1.0): True,
                     (float, 0.0): 0, (float, -0.0): False}


def _twisted(value, flips):  # type: ignore[no-untyped-def]
    """``value`` with some scalars replaced by an equal value of another type (``1`` by ``1.0`` or ``True``)
    and some NaNs by another NaN object: equal under ``==``, not always under same_value."""
    if isinstance(value, (list, tuple)):
        out = [_twisted(v, flips) for v in value]
        return out if isinstance(value, list) else tuple(out)
    if isinstance(value, dict):
        return {k: _twisted(v, flips) for k, v in value.items()}
    if flips and flips.pop():
        if isinstance(value, float) and value != value:
            return float("nan")
        return _EQUAL_OTHER_TYPE.get((type(value), value), value)
    return value


@given(_NESTED, _NESTED, st.lists(st.booleans(), max_size=8))
def test_same_value_shortcut_decides_as_the_elementwise_comparison(a, b, flips) -> None:  # type: ignore[no-untyped-def]
    twisted = _twisted(a, flips)
    for x, y in ((a, b), (a, a), (a, twisted), ([a], [twisted]), ((a, 1), (twisted, 1))):
        assert same_value(x, y) == _same_value_elementwise(x, y)
