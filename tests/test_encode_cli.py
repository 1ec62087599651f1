"""`recspec encode CASE.json` and `recspec case --canonical`: the reference encoder and decoder as tools.

A case the format cannot hold is refused with the JSON path and the reason, exit 2, never a traceback;
the messages are the ones `recspec drive` gives (CaseError, EncodeError).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from helpers import case_file, example_valid_file
from recspec.cli import main
from recspec.formats import FORMATS, FormatInfo

INFOS = list(FORMATS.values())


def test_encode_of_a_file_that_is_not_json_is_an_error_not_a_traceback(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{\"recspec_case\": 2,")
    assert main(["encode", str(bad), "-o", str(tmp_path / "x")]) == 2
    assert main(["encode", str(tmp_path / "missing.json"), "-o", str(tmp_path / "x")]) == 2
    err = capsys.readouterr().err
    assert "not JSON" in err and "missing.json" in err and "Traceback" not in err


def test_encode_help_teaches(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["encode", "--help"])
    text = capsys.readouterr().out
    assert "recspec case" in text and "--profile" in text and "JSON path" in text


@pytest.mark.parametrize("info", INFOS, ids=lambda i: i.id)
def test_case_then_encode_through_pipes_gives_the_file_back(info: FormatInfo) -> None:
    """`recspec case FILE | recspec encode -`: the lossless case of a valid file encodes to the same bytes,
    written to standard output."""
    valid = example_valid_file(info)
    case = subprocess.run([sys.executable, "-m", "recspec", "case", str(valid)], capture_output=True, timeout=120)
    assert case.returncode == 0 and b"Traceback" not in case.stderr, case.stderr
    assert json.loads(case.stdout)["format"] == info.id
    again = subprocess.run([sys.executable, "-m", "recspec", "encode", "-"], input=case.stdout, capture_output=True,
                           timeout=120)
    assert again.returncode == 0, again.stderr
    assert again.stdout == valid.read_bytes()


@pytest.mark.parametrize("info", INFOS, ids=lambda i: i.id)
def test_encode_refuses_each_formats_malformed_case_with_its_json_path(
        info: FormatInfo, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    case, path = info.load().EXAMPLES.malformed_case
    out = tmp_path / "never"
    assert main(["encode", str(case_file(tmp_path, case)), "-o", str(out)]) == 2
    err = capsys.readouterr().err
    assert f"{path}: " in err and "Traceback" not in err
    assert not out.exists()
