"""`recspec encode` and `recspec case` on raSkat .sig cases: facts of the raSkat .sig layout (the behaviour
every format shares is tests/test_encode_cli.py's)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from helpers import case_file
from recspec.cli import main


def _v2(latitude: Any) -> dict[str, Any]:
    return {"recspec_case": 2, "format": "raskat-signal", "variant": "v2", "container": "raw",
            "time": "20250624100658", "microseconds": 5, "longitude": 128.012345, "latitude": latitude,
            "altitude": 12.0, "sample_rate": 1000, "flags": 2, "samples": [1, -2]}


def test_encode_writes_the_file_the_case_describes(tmp_path: Path) -> None:
    """raSkat v2 layout (research notes): version u16 LE, 14-byte time, ... the samples last as i16 LE."""
    out = tmp_path / "golden.sig"
    assert main(["encode", str(case_file(tmp_path, _v2(70.5))), "-o", str(out)]) == 0
    data = out.read_bytes()
    assert data[:2] == b"\x02\x00" and data[2:16] == b"20250624100658"
    assert data[-4:] == b"\x01\x00\xfe\xff" and len(data) == 47 + 4


def test_encode_refuses_a_case_the_format_cannot_hold_with_the_path_and_why(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "never.sig"
    assert main(["encode", str(case_file(tmp_path, _v2(-70.5))), "-o", str(out)]) == 2
    err = capsys.readouterr().err
    assert "latitude is -70.5" in err and "cannot be written" in err and "Traceback" not in err
    assert not out.exists()


@pytest.mark.parametrize(("case", "where"), [
    ({**_v2(70.5), "samples": [1, 40000]}, "samples[1]: 40000 is outside -32768 .. 32767"),
    ({**_v2(70.5), "recspec_case": 3}, "recspec_case: recspec_case must be one of 1, 2"),
    ({**_v2({"nan": "0x3f800000"})}, "latitude.nan: 0x3f800000 is not the bits of a NaN"),
    ({"recspec_case": 2, "format": "png"}, "format: format must be one of"),
])
def test_encode_refuses_a_malformed_case_with_its_json_path(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], case: dict, where: str) -> None:
    assert main(["encode", str(case_file(tmp_path, case)), "-o", str(tmp_path / "x")]) == 2
    err = capsys.readouterr().err
    assert where in err and "Traceback" not in err


def test_encode_takes_format_and_variant_from_options_and_refuses_a_disagreement(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bare = {k: v for k, v in _v2(70.5).items() if k not in ("format", "variant")}
    assert main(["encode", "--format", "raskat-signal", "--variant", "v2", str(case_file(tmp_path, bare)),
                 "-o", str(tmp_path / "a.sig")]) == 0
    assert main(["encode", str(case_file(tmp_path, _v2(70.5), "b.json")), "-o", str(tmp_path / "b.sig")]) == 0
    assert (tmp_path / "a.sig").read_bytes() == (tmp_path / "b.sig").read_bytes()
    capsys.readouterr()
    assert main(["encode", "--variant", "v3", str(case_file(tmp_path, _v2(70.5))), "-o", str(tmp_path / "c")]) == 2
    assert "variant: the case is for variant 'v2', not 'v3'" in capsys.readouterr().err


def test_encode_writes_to_standard_output_through_a_pipe(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "recspec", "encode", str(case_file(tmp_path, _v2(70.5)))],
                          capture_output=True)
    assert done.returncode == 0 and done.stdout[:2] == b"\x02\x00" and len(done.stdout) == 51
