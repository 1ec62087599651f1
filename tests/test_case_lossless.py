"""Lossless cases (``recspec_case`` 2): ``encode(from_case(to_case(decode(f)))) == f``.

For every format and variant on files the strategies draw (valid and merely invalid ones, and with the
details a writer may choose: NaN bits, NanoVer map order, Matrix-SMT's compat form, a tar member's mtime),
and byte for byte for every real file (corpus/real/ and ../shared/real/, skipped with the reason where
absent). The canonical case (``canonical=True``) leaves each detail out; a version 1 case is still read.

Those details are each format's own: its tests are in tests/test_<package>_case_lossless.py. Here, what they
share: the round trip through a case's JSON text and through the CLI.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import HealthCheck, settings

from helpers import real_file
from recspec._case_json import CaseError
from recspec.cli import main
from recspec.errors import DecodeError
from recspec.formats import FORMATS

_SETTINGS = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _through_the_case(fmt: str, data: bytes, variant: str | None) -> bytes | None:
    """The file the lossless case of ``data`` encodes to (through JSON text), or None when the file has
    no case (it does not decode, or it has no frames to speak of: a finding, not a case)."""
    codec = FORMATS[fmt].load_reference()
    try:
        case = codec.to_case(codec.decode(data, variant=variant), variant=variant)
    except (DecodeError, CaseError):
        return None
    case = json.loads(json.dumps(case))
    assert case["recspec_case"] == 2
    return codec.encode(codec.from_case(case), variant=case["variant"])


def real_file_comes_back(name: str, fmt: str, tmp_path: Any, capsys: pytest.CaptureFixture[str]) -> None:
    """``recspec case`` then ``recspec encode`` give back the real file ``name`` of ``fmt`` byte for byte (each
    format's test_<package>_case_lossless.py names its real files)."""
    path = real_file(name)
    assert main(["case", "--format", fmt, str(path)]) == 0
    (tmp_path / "case.json").write_text(capsys.readouterr().out)
    assert main(["encode", str(tmp_path / "case.json"), "-o", str(tmp_path / "again")]) == 0
    assert (tmp_path / "again").read_bytes() == path.read_bytes()
