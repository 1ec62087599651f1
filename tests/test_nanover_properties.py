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
    for kind in Kind:
        try:
            decode(data, variant=kind)
        except DecodeError:
            pass
        report = check_stream(io.BytesIO(data), path="x", variant=kind.value, size=len(data))
        json.dumps(Report([report]).to_json(), allow_nan=False)
