"""`recspec corpus export DIR`: the corpus as test vectors, checked the way an outside test suite runs them.

The export is checked against its schema (recspec/schemas/vectors-1.schema.json) and against facts of the
files themselves (bytes, a tar header's mtime, a truncation's rule); then docs/testees/run_vectors.py, a
runner that imports nothing of recspec, drives a reader program over it: the reference reader passes, a
reader that drops a sample fails, naming the file and the JSON path.
"""

from __future__ import annotations

import hashlib
import json
import lzma
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest

from recspec.cli import main

ROOT = Path(__file__).resolve().parents[1]
SCHEMA = json.loads((ROOT / "recspec" / "schemas" / "vectors-1.schema.json").read_text())
VALIDATOR = jsonschema.Draft202012Validator(SCHEMA)
RUNNER = ROOT / "docs" / "testees" / "run_vectors.py"
READER = ROOT / "tests" / "testees" / "reference_reader.py"


@pytest.fixture(scope="module")
def exported(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("vectors")
    assert main(["corpus", "export", str(out)]) == 0
    return out


def test_every_corpus_file_is_exported_with_a_sidecar_that_matches_the_schema(exported: Path) -> None:
    manifest = json.loads((exported / "manifest.json").read_text())
    VALIDATOR.validate(manifest)
    corpus_files = sorted(f"{fmt}/{e['path']}" for fmt in ("carla", "nanover", "raskat-signal", "matrix-smt")
                          for e in json.loads((ROOT / "corpus" / fmt / "manifest.json").read_text())["files"])
    assert sorted(v["file"] for v in manifest["vectors"]) == corpus_files
    for v in manifest["vectors"]:
        data = (exported / v["file"]).read_bytes()
        assert data == (ROOT / "corpus" / v["file"]).read_bytes()
        assert v["sha256"] == hashlib.sha256(data).hexdigest()
        side = json.loads((exported / v["sidecar"]).read_text())
        VALIDATOR.validate(side)
        assert (side["canonical_case"] is None) == (side["no_case"] is not None)
        assert (side["case"] is not None) == v["has_case"] and (side["case"] or not side["canonical_case"])


def test_a_truncated_log_has_no_case_and_says_where(exported: Path) -> None:
    """corpus/carla/invalid/CARLA-STREAM-001.log: the file ends inside its last packet."""
    side = json.loads((exported / "carla" / "invalid" / "CARLA-STREAM-001.log.json").read_text())
    assert side["case"] is None and side["no_case"]["rule"] == "CARLA-STREAM-001"
    assert side["no_case"]["offset"] < side["size"]
    assert side["expect"]["spec"] == {"verdict": "malformed", "rules": ["CARLA-STREAM-001"]}


def test_a_tar_xz_signals_case_holds_its_members_mtime(exported: Path) -> None:
    """The lossless case says what the tar header says (ustar: mtime is 12 octal bytes at 136)."""
    path = exported / "raskat-signal" / "valid" / "v3.tar.xz.sig"
    header = lzma.decompress(path.read_bytes())[:512]
    side = json.loads(path.with_name(path.name + ".json").read_text())
    assert side["case"]["mtime"] == int(header[136:147], 8) and side["case_is_exact"]
    assert side["case"]["member"] == header[:100].rstrip(b"\0").decode()
    assert "mtime" not in side["canonical_case"]


def test_the_export_is_deterministic(tmp_path: Path) -> None:
    for name in ("a", "b"):
        assert main(["corpus", "export", str(tmp_path / name), "--format", "raskat-signal"]) == 0
    a = {p.relative_to(tmp_path / "a"): p.read_bytes() for p in (tmp_path / "a").rglob("*") if p.is_file()}
    b = {p.relative_to(tmp_path / "b"): p.read_bytes() for p in (tmp_path / "b").rglob("*") if p.is_file()}
    assert a == b and len(a) > 10


def test_exporting_over_a_previous_export_leaves_none_of_its_files(tmp_path: Path) -> None:
    """A second export into the same folder, of another format, holds that format's vectors alone: nothing of
    the first export (files, sidecars) is left for a runner that walks the folder to pick up."""
    out = tmp_path / "vectors"
    assert main(["corpus", "export", str(out), "--format", "raskat-signal"]) == 0
    assert main(["corpus", "export", str(out), "--format", "matrix-smt"]) == 0
    manifest = json.loads((out / "manifest.json").read_text())
    assert {v["format"] for v in manifest["vectors"]} == {"matrix-smt"}
    on_disk = {p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file()}
    listed = {v["file"] for v in manifest["vectors"]} | {v["sidecar"] for v in manifest["vectors"]}
    assert on_disk == listed | {"manifest.json"}


def test_exporting_into_a_folder_of_other_files_is_refused_and_deletes_nothing(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "mine"
    out.mkdir()
    (out / "notes.txt").write_text("not a vector")
    assert main(["corpus", "export", str(out), "--format", "raskat-signal"]) == 2
    assert "not empty" in capsys.readouterr().err
    assert [p.name for p in out.iterdir()] == ["notes.txt"]


def test_export_without_a_folder_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["corpus", "export"]) == 2
    assert "recspec corpus export DIR" in capsys.readouterr().err


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
