"""`recspec corpus export DIR`: the corpus as test vectors, checked the way an outside test suite runs them.

The export is checked against its schema (recspec/schemas/vectors-1.schema.json) and against facts of the
files themselves (bytes, sha256). A format's own facts in its export (a truncation's rule, a tar header's
mtime) and docs/testees/run_vectors.py, the outside runner, driving a reader of one format are tested in
tests/test_carla_vectors.py and tests/test_raskat_signal_vectors.py.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import jsonschema
import pytest

from recspec.cli import main
from recspec.conformance.corpus import corpus_folder
from recspec.formats import FORMATS

ROOT = Path(__file__).resolve().parents[1]
SCHEMA = json.loads((ROOT / "recspec" / "schemas" / "vectors-1.schema.json").read_text())
VALIDATOR = jsonschema.Draft202012Validator(SCHEMA)
#: two formats to export: what the export does is every format's
FIRST, LAST = next(iter(FORMATS)), list(FORMATS)[-1]


@pytest.fixture(scope="module")
def exported(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("vectors")
    assert main(["corpus", "export", str(out)]) == 0
    return out


def test_every_corpus_file_is_exported_with_a_sidecar_that_matches_the_schema(exported: Path) -> None:
    manifest = json.loads((exported / "manifest.json").read_text())
    VALIDATOR.validate(manifest)
    corpus_files = sorted(f"{fmt}/{e['path']}" for fmt in FORMATS
                          for e in json.loads((corpus_folder(fmt) / "manifest.json").read_text())["files"])
    assert sorted(v["file"] for v in manifest["vectors"]) == corpus_files
    for v in manifest["vectors"]:
        data = (exported / v["file"]).read_bytes()
        assert data == (corpus_folder(v["format"]) / v["file"].split("/", 1)[1]).read_bytes()
        assert v["sha256"] == hashlib.sha256(data).hexdigest()
        side = json.loads((exported / v["sidecar"]).read_text())
        VALIDATOR.validate(side)
        assert (side["canonical_case"] is None) == (side["no_case"] is not None)
        assert (side["case"] is not None) == v["has_case"] and (side["case"] or not side["canonical_case"])


def test_the_export_is_deterministic(tmp_path: Path) -> None:
    for name in ("a", "b"):
        assert main(["corpus", "export", str(tmp_path / name), "--format", FIRST]) == 0
    a = {p.relative_to(tmp_path / "a"): p.read_bytes() for p in (tmp_path / "a").rglob("*") if p.is_file()}
    b = {p.relative_to(tmp_path / "b"): p.read_bytes() for p in (tmp_path / "b").rglob("*") if p.is_file()}
    assert a == b and len(a) > 10


def test_exporting_over_a_previous_export_leaves_none_of_its_files(tmp_path: Path) -> None:
    """A second export into the same folder, of another format, holds that format's vectors alone: nothing of
    the first export (files, sidecars) is left for a runner that walks the folder to pick up."""
    out = tmp_path / "vectors"
    assert main(["corpus", "export", str(out), "--format", FIRST]) == 0
    assert main(["corpus", "export", str(out), "--format", LAST]) == 0
    manifest = json.loads((out / "manifest.json").read_text())
    assert {v["format"] for v in manifest["vectors"]} == {LAST}
    on_disk = {p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file()}
    listed = {v["file"] for v in manifest["vectors"]} | {v["sidecar"] for v in manifest["vectors"]}
    assert on_disk == listed | {"manifest.json"}


def test_exporting_into_a_folder_of_other_files_is_refused_and_deletes_nothing(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "mine"
    out.mkdir()
    (out / "notes.txt").write_text("not a vector")
    assert main(["corpus", "export", str(out), "--format", FIRST]) == 2
    assert "not empty" in capsys.readouterr().err
    assert [p.name for p in out.iterdir()] == ["notes.txt"]


def test_export_without_a_folder_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["corpus", "export"]) == 2
    assert "recspec corpus export DIR" in capsys.readouterr().err
