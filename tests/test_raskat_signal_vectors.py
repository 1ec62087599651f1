"""`recspec corpus export` of the raSkat corpus: a tar.xz signal's case in its vectors, and
docs/testees/run_vectors.py, a runner that imports nothing of recspec, driving a raSkat reader over them: the
reference reader passes, a reader that drops a sample fails, naming the file and the JSON path."""

from __future__ import annotations

import json
import lzma
import subprocess
import sys
from pathlib import Path

import pytest

from recspec.cli import main

ROOT = Path(__file__).resolve().parents[1]
RUNNER = ROOT / "docs" / "testees" / "run_vectors.py"
READER = ROOT / "tests" / "testees" / "reference_reader.py"


@pytest.fixture(scope="module")
def exported(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The export of this format's corpus alone."""
    out = tmp_path_factory.mktemp("vectors")
    assert main(["corpus", "export", str(out), "--format", "raskat-signal"]) == 0
    return out


def test_a_tar_xz_signals_case_holds_its_members_mtime(exported: Path) -> None:
    """The lossless case says what the tar header says (ustar: mtime is 12 octal bytes at 136)."""
    path = exported / "raskat-signal" / "valid" / "v3.tar.xz.sig"
    header = lzma.decompress(path.read_bytes())[:512]
    side = json.loads(path.with_name(path.name + ".json").read_text())
    assert side["case"]["mtime"] == int(header[136:147], 8) and side["case_is_exact"]
    assert side["case"]["member"] == header[:100].rstrip(b"\0").decode()
    assert "mtime" not in side["canonical_case"]


def _run(exported: Path, *reader: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(RUNNER), str(exported), "--format", "raskat-signal", "--",
                           *reader], capture_output=True, text=True, timeout=300)


#: the raSkat corpus files valid under the spec profile, as its manifest states by hand (each decodes)
SPEC_VALID = sum(e["expect"]["spec"]["verdict"] == "valid" for e in json.loads(
    (ROOT / "corpus" / "raskat-signal" / "manifest.json").read_text())["files"])


def test_an_outside_runner_passes_a_correct_reader(exported: Path) -> None:
    done = _run(exported, sys.executable, str(READER), "{format}", "{variant}", "{file}")
    assert done.returncode == 0, done.stdout + done.stderr
    assert SPEC_VALID >= 3 and f"{SPEC_VALID} of {SPEC_VALID} vectors read as expected" in done.stdout


def test_an_outside_runner_fails_a_reader_that_drops_a_sample(exported: Path, tmp_path: Path) -> None:
    wrong = tmp_path / "wrong_reader.py"
    wrong.write_text(
        "import json, subprocess, sys\n"
        f"done = subprocess.run([sys.executable, {str(READER)!r}, *sys.argv[1:]], capture_output=True, text=True)\n"
        "case = json.loads(done.stdout)\n"
        "case['samples'] = case['samples'][:-1]\n"
        "print(json.dumps(case))\n")
    done = _run(exported, sys.executable, str(wrong), "{format}", "{variant}", "{file}")
    assert done.returncode == 1
    assert "FAIL raskat-signal/valid/v2.tar.xz.sig: samples: expected 12 elements, got 11" in done.stdout
    assert f"0 of {SPEC_VALID} vectors read as expected" in done.stdout

