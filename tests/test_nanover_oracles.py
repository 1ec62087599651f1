"""What the fuzz oracles (recspec/fuzz/_oracles.py) found in the NanoVer checker, kept as its regression tests
(the oracles themselves are tested on every format in tests/test_fuzz_oracles.py)."""

from __future__ import annotations

import io

import pytest

from recspec.conformance.nanover import check_stream as nanover_check


@pytest.mark.parametrize("n", range(16))
def test_a_nanover_header_cut_short_is_located_inside_the_file(n: int) -> None:
    # found by the located oracle: the finding spanned the 16 header bytes past a shorter file's end
    data = (6661355757386708963).to_bytes(8, "little") + (2).to_bytes(8, "little")
    report = nanover_check(io.BytesIO(data[:n]), path="x.traj", profile="spec", size=n)
    (f,) = report.findings
    assert f.rule == "NANOVER-STREAM-001" and f.offset == 0 and f.length == n
