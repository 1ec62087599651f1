"""The SARIF report is one GitHub code scanning can place: the SARIF SDK's validator, with its GitHub rules
(GH1xxx) turned on, finds nothing in it; each result's region has the line GitHub needs and keeps the byte
offset and length the finding names."""

from __future__ import annotations

import copy
import json
import os
import stat
import subprocess
from pathlib import Path

import pytest

from helpers import (
    NPM_PACKAGES,
    REPO,
    example_invalid_file,
    example_valid_file,
    format_valid_by_default,
    manifest_files,
    run_cli,
)
from recspec.conformance.corpus import corpus_folder
from recspec.formats import FORMATS

MULTITOOL = NPM_PACKAGES / "@microsoft" / "sarif-multitool-linux" / "Sarif.Multitool"
GITHUB_RULES = REPO / "tests" / "data" / "sarif-github-rules.xml"


def _inputs() -> list[str]:
    """Findings of every kind, from every format's corpus (relative paths, as in CI): its example invalid file,
    its first file the manifest expects malformed, and its first damaged header."""
    out = []
    for info in FORMATS.values():
        folder = corpus_folder(info.id)
        malformed = [e["path"] for e in manifest_files(info) if e["path"].startswith("invalid/")
                     and e["expect"][info.default_profile]["verdict"] == "malformed"]
        damaged = sorted(p for p in (folder / "damaged").glob("*") if p.is_file()) if (folder / "damaged").is_dir() \
            else []
        for path in [example_invalid_file(info)[0], *(folder / m for m in malformed[:1]), *damaged[:1]]:
            out.append(os.path.relpath(path, REPO))
    return list(dict.fromkeys(out))


INPUTS = _inputs()
#: a valid file, and a rule of its format that it does not break: a stale expectation
VALID_INFO = format_valid_by_default()
VALID = os.path.relpath(example_valid_file(VALID_INFO), REPO)
STALE_RULE = example_invalid_file(VALID_INFO)[1]

pytestmark = pytest.mark.requires_npm_packages


def _validate(sarif: Path, out: Path) -> list[dict]:
    """The validator's results for ``sarif`` under the SARIF and GitHub rules, notes included."""
    if not os.access(MULTITOOL, os.X_OK):  # the package's postinstall only does this chmod
        os.chmod(MULTITOOL, os.stat(MULTITOOL).st_mode | stat.S_IXUSR)
    proc = subprocess.run([str(MULTITOOL), "validate", str(sarif), "--config", str(GITHUB_RULES),
                           "--rule-kind", "Sarif;Gh", "--level", "Error;Warning;Note", "--log", "ForceOverwrite",
                           "--output", str(out)], capture_output=True, text=True, timeout=180)
    assert "Analysis completed successfully" in proc.stdout, proc.stdout + proc.stderr
    return json.loads(out.read_text())["runs"][0]["results"]


@pytest.fixture(scope="module")
def sarif_run(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict, dict]:
    out = tmp_path_factory.mktemp("sarif")
    expectations = out / "expectations.json"  # one stale entry: a result about the expectations file
    expectations.write_text(json.dumps({"recspec_expectations": 1, "files": {
        str(Path(os.path.relpath(REPO, out)) / VALID): {STALE_RULE: "stale"}}}))
    cwd = Path.cwd()
    os.chdir(REPO)  # relative paths, as in CI: code scanning resolves them against the checkout
    try:
        run_cli("check", *INPUTS, VALID, "--expectations", os.path.relpath(expectations),
                "--report", f"sarif:{out / 'r.sarif'}", "--report", f"json:{out / 'r.json'}")
    finally:
        os.chdir(cwd)
    return out, json.loads((out / "r.sarif").read_text()), json.loads((out / "r.json").read_text())


def test_github_rules_find_nothing(sarif_run: tuple[Path, dict, dict]) -> None:
    out, _, _ = sarif_run
    remarks = _validate(out / "r.sarif", out / "validation.sarif")
    github = [(r["ruleId"], r["message"]["arguments"][:1]) for r in remarks if r["ruleId"].startswith("GH")]
    assert github == []
    assert not [r for r in remarks if r.get("level") == "error"]


def test_the_github_rules_are_on(sarif_run: tuple[Path, dict, dict], tmp_path: Path) -> None:
    """Not vacuous: a result with only a byte region (as recspec wrote them before) fails GH1003, one
    located by an absolute file URI fails GH1006."""
    sarif = copy.deepcopy(sarif_run[1])
    results = sarif["runs"][0]["results"]
    del results[0]["locations"][0]["physicalLocation"]["region"]["startLine"]
    results[1]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] = "file:///elsewhere/run.log"
    (tmp_path / "broken.sarif").write_text(json.dumps(sarif))
    fired = {r["ruleId"] for r in _validate(tmp_path / "broken.sarif", tmp_path / "validation.sarif")}
    assert {"GH1003", "GH1006"} <= fired


def test_each_region_has_line_1_and_the_findings_bytes(sarif_run: tuple[Path, dict, dict]) -> None:
    _, sarif, report = sarif_run
    by_file = {f["path"]: f["findings"] for f in report["files"]}
    seen = 0
    for result in sarif["runs"][0]["results"]:
        phys = result["locations"][0]["physicalLocation"]
        assert phys["region"]["startLine"] == 1
        uri = phys["artifactLocation"]["uri"]
        if uri not in by_file:
            assert result["ruleId"] == "RECSPEC-STALE-EXPECTATION"
            continue
        finding = next(f for f in by_file[uri] if f["rule"] == result["ruleId"])
        assert phys["region"]["byteOffset"] == finding["offset"]
        assert phys["region"].get("byteLength") == finding.get("length")
        assert f"(at byte {finding['offset']}" in result["message"]["text"]  # what GitHub shows of the place
        seen += 1
    assert seen >= len(INPUTS)
