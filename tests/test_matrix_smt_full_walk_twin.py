"""``check_stream_and_full_walk`` (the fuzz harness's two walks of one recording): the top level and
the objects array walked once, the frames walked twice from a copy of what the walk held after them.
Each report is the one its own ``check_stream`` call gives, the fast path's and the full walk's
(``fast_path=False``): the same findings, verdicts, statistics and evidence, on valid, invalid,
mutated and cut recordings, with and without the decoded units; and no full walk where the caller
does not ask for one."""

from __future__ import annotations

import io
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from recspec.conformance.matrix_smt import check_stream
from recspec.conformance.matrix_smt._check import check_stream_and_full_walk
from recspec.errors import DecodeError
from recspec.fuzz.matrix_smt import mutate
from recspec.reference import matrix_smt as b
from recspec.strategies import matrix_files

SLOW = settings(suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def _shape(r: Any) -> Any:
    return ([(f.rule, f.severity, f.message, f.offset, f.length, f.path, f.expected, f.actual) for f in r.findings],
            r.verdict, r.verdicts, repr(r.stats), r.evidence, r.capped)


@SLOW
@given(st.one_of(matrix_files(max_frames=4), matrix_files(max_frames=4, valid=False)), st.integers(0, 2**32 - 1),
       st.integers(0, 3), st.booleans())
def test_each_report_is_its_own_walks(file: tuple[bytes, str], seed: int, cut: int, shared: bool) -> None:
    data = mutate(file[0], 1 << 16, seed) if seed % 3 else file[0]
    if cut:
        data = data[:len(data) * (4 - cut) // 4]
    units: dict[int, b.Document] | None = None
    if shared:
        units = {}
        try:
            b.decode_document(data, units=units)
        except DecodeError:
            pass
    fast = check_stream(io.BytesIO(data), path="x", profile=file[1], decoded=units)
    full = check_stream(io.BytesIO(data), path="x", profile=file[1], decoded=units, fast_path=False)
    asked: list[Any] = []
    one, two = check_stream_and_full_walk(io.BytesIO(data), path="x", profile=file[1], decoded=units,
                                          walk_too=lambda r: asked.append(r) or True)
    assert _shape(one) == _shape(fast)
    assert two is not None and _shape(two) == _shape(full)
    assert asked == [one]  # asked about the fast path's report
    alone, none = check_stream_and_full_walk(io.BytesIO(data), path="x", profile=file[1], decoded=units,
                                             walk_too=lambda r: False)
    assert none is None and _shape(alone) == _shape(fast)


def test_a_file_the_walker_cannot_open_gets_both_reports() -> None:
    # three bytes: no document length (MATRIX-BSON-007 at 0), the same report from both walks
    one, two = check_stream_and_full_walk(io.BytesIO(b"\x05\x00\x00"), path="x", profile="spec", decoded=None,
                                          walk_too=lambda r: True)
    assert two is not None and _shape(one) == _shape(two)
    assert [(f.rule, f.offset) for f in one.findings] == [("MATRIX-BSON-007", 0)]
