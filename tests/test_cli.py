"""The command line, the same for every format: check, dump, rules, explain and
corpus on each format's seed corpus, and the help. What is particular to one
format is in tests/test_<format>_cli.py."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from helpers import run_cli as run
from recspec.formats import FORMATS, FormatExamples, FormatInfo

CORPUS = Path(__file__).resolve().parents[1] / "corpus"
per_format = pytest.mark.parametrize("info", FORMATS.values(), ids=FORMATS.keys())

def _examples(info: FormatInfo) -> FormatExamples:
    """What the format's plugin gives the shared tests: a valid file and its profile, a rule to explain, ..."""
    return info.load().EXAMPLES


def _json(out: str) -> Any:
    """A JSON document, or a list of them for a dump written as JSON lines (NanoVer's ``--ksy``)."""
    try:
        return json.loads(out)
    except json.JSONDecodeError:
        return [json.loads(line) for line in out.splitlines()]


def _at(doc: Any, path: str) -> Any:
    """The value at a dot-separated path of keys and list indices (``packets.0.kind``)."""
    for key in path.split("."):
        doc = doc[int(key)] if isinstance(doc, list) else doc[key]
    return doc


@per_format
def test_valid_file_exits_0_and_table_names_it(info: FormatInfo) -> None:
    name = _examples(info).valid_file
    code, out, _ = run("check", str(CORPUS / info.id / "valid" / name))
    assert code == 0
    assert name in out and " valid " in out.splitlines()[1] + " "


@per_format
def test_json_contract_shape(info: FormatInfo) -> None:
    valid = CORPUS / info.id / "valid"
    code, out, _ = run("check", "--json", "--profile", _examples(info).valid_profile, str(valid))
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
    rule, words = _examples(info).explain
    code, out, _ = run("explain", rule)
    assert code == 0 and all(w in out for w in words), out


@per_format
def test_dump_and_ksy_dump_are_json(info: FormatInfo) -> None:
    examples = _examples(info)
    path = str(CORPUS / info.id / "valid" / examples.valid_file)
    code, out, _ = run("dump", path)
    assert code == 0
    doc = _json(out)
    code, out, _ = run("dump", "--ksy", path)
    assert code == 0
    tree = _json(out)
    assert [(p, _at(doc, p)) for p, _ in examples.dump_facts] == list(examples.dump_facts)
    assert [(p, _at(tree, p)) for p, _ in examples.ksy_dump_facts] == list(examples.ksy_dump_facts)


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
    assert "RECSPEC-UNRECOGNIZED" in ids and len(ids) > _examples(info).corpus_rules_more_than
    for rule in sorted(ids):
        assert run("explain", rule)[0] == 0, rule


def test_console_script_help_teaches():
    run_ = subprocess.run([sys.executable, "-m", "recspec", "check", "--help"], capture_output=True, text=True,
                          env={**os.environ, "COLUMNS": "100"})
    assert run_.returncode == 0
    assert "exit codes:" in run_.stdout and "examples:" in run_.stdout
