"""The command line, the same for every format: check, dump, rules, explain and
corpus on each format's seed corpus, and the help. What is particular to one
format is in tests/test_<format>_cli.py."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from helpers import run_cli as run
from recspec.formats import FORMATS, FormatInfo

CORPUS = Path(__file__).resolve().parents[1] / "corpus"
per_format = pytest.mark.parametrize("info", FORMATS.values(), ids=FORMATS.keys())

#: A profile under which every file of corpus/<id>/valid/ is valid (the writers' own
#: files break the spec profile of raSkat and Matrix-SMT, see their manifests).
VALID_PROFILE = {"carla": "spec", "nanover": "spec", "raskat-signal": "compat", "matrix-smt": "compat"}

#: A valid seed file per format.
VALID_FILE = {"carla": "0.9.15.log", "nanover": "small.traj", "raskat-signal": "v4.tar.xz.sig",
              "matrix-smt": "spec.bson"}

#: A rule `explain` is asked about (any case), and words its explanation holds.
EXPLAIN = {
    "carla": ("carla-packet-001", ("size is 14", "roll, pitch, yaw")),
    "nanover": ("NANOVER-FRAME-005", ("residue.ids", "Rust")),
    "raskat-signal": ("RSIG-SAMPLES-002", ("+1000", "docs/formats/raskat-signal.md#decision-2")),
    "matrix-smt": ("MATRIX-FRAME-001", ("under t", "docs/formats/matrix-smt.md#matrix-frame-001")),
}


#: The number of rule ids a check of the whole seed corpus reports more than.
MORE_THAN = {"carla": 20, "nanover": 15, "raskat-signal": 20, "matrix-smt": 20}


def _json(out: str) -> Any:
    """A JSON document, or a list of them for a dump written as JSON lines (NanoVer's ``--ksy``)."""
    try:
        return json.loads(out)
    except json.JSONDecodeError:
        return [json.loads(line) for line in out.splitlines()]


def _carla_dump(doc: dict, tree: dict) -> None:
    assert doc["packets"][0] == {**doc["packets"][0], "offset": doc["header"]["length"], "kind": "FrameStart"}
    assert tree["packets"][0]["payload"]["start"] == doc["header"]["length"] + 5


def _raskat_dump(doc: dict, tree: dict) -> None:
    for d in (doc, tree):
        assert d["container"] == "tar.xz" and d["version"] == 4
        assert d["signal"]["fields"][12] == 643


def _no_more(doc: dict, tree: dict) -> None:
    """Both dumps are JSON documents of the format (checked by the caller)."""


#: What the reference dump and the Kaitai dump (``--ksy``) of the valid file show, past being JSON.
DUMP: dict[str, Callable[[Any, Any], None]] = {
    "carla": _carla_dump, "nanover": _no_more, "raskat-signal": _raskat_dump, "matrix-smt": _no_more,
}


@per_format
def test_valid_file_exits_0_and_table_names_it(info: FormatInfo) -> None:
    name = VALID_FILE[info.id]
    code, out, _ = run("check", str(CORPUS / info.id / "valid" / name))
    assert code == 0
    assert name in out and " valid " in out.splitlines()[1] + " "


@per_format
def test_json_contract_shape(info: FormatInfo) -> None:
    valid = CORPUS / info.id / "valid"
    code, out, _ = run("check", "--json", "--profile", VALID_PROFILE[info.id], str(valid))
    assert code == 0
    report = json.loads(out)
    assert set(report) == {"recspec_version", "report_schema", "files", "summary"}
    assert report["summary"]["files"] == len(report["files"]) == len([p for p in valid.iterdir() if p.is_file()])
    for f in report["files"]:
        assert {"path", "format", "variant", "profile", "verdict", "findings", "stats"} <= set(f)
        assert f["format"] == info.id
        assert set(info.stats_keys) <= set(f["stats"])


@per_format
def test_rules_and_explain(info: FormatInfo) -> None:
    code, out, _ = run("rules", info.id)
    assert code == 0
    assert [r.id for r in info.load().RULES if r.id not in out] == []
    rule, words = EXPLAIN[info.id]
    code, out, _ = run("explain", rule)
    assert code == 0 and all(w in out for w in words), out


@per_format
def test_dump_and_ksy_dump_are_json(info: FormatInfo) -> None:
    path = str(CORPUS / info.id / "valid" / VALID_FILE[info.id])
    code, out, _ = run("dump", path)
    assert code == 0
    doc = _json(out)
    code, out, _ = run("dump", "--ksy", path)
    assert code == 0
    DUMP[info.id](doc, _json(out))


@per_format
def test_corpus_command_matches_manifest(info: FormatInfo) -> None:
    code, out, _ = run("corpus", "--format", info.id)
    assert code == 0, out
    assert "0 not" in out.splitlines()[-1]


@per_format
def test_every_reported_rule_can_be_explained(info: FormatInfo, tmp_path: Path) -> None:
    junk = tmp_path / "junk.bin"
    junk.write_bytes(b"\x00" * 64)
    code, out, _ = run("check", "--json", str(CORPUS / info.id), str(junk))
    assert code == 1
    ids = {f["rule"] for fr in json.loads(out)["files"] for f in fr["findings"]}
    assert "RECSPEC-UNRECOGNIZED" in ids and len(ids) > MORE_THAN[info.id]
    for rule in sorted(ids):
        assert run("explain", rule)[0] == 0, rule


def test_console_script_help_teaches():
    run_ = subprocess.run([sys.executable, "-m", "recspec", "check", "--help"], capture_output=True, text=True,
                          env={**os.environ, "COLUMNS": "100"})
    assert run_.returncode == 0
    assert "exit codes:" in run_.stdout and "examples:" in run_.stdout
