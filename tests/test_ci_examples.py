"""The CI examples in the repository parse, and the recspec commands they run are valid."""

from __future__ import annotations

import io
import re
import shlex
import sys
from pathlib import Path

import yaml

from helpers import example_valid_file, format_valid_by_default
from recspec.cli import _parser, main

ROOT = Path(__file__).resolve().parents[1]


def test_github_actions_example_is_a_workflow_that_writes_every_report():
    wf = yaml.safe_load((ROOT / "docs" / "ci" / "github-actions.yml").read_text())
    on = wf.get("on", wf.get(True))  # YAML 1.1 reads the key `on` as True
    assert wf["name"] and set(on) == {"push", "pull_request"}
    steps = wf["jobs"]["recspec"]["steps"]
    assert all("uses" in s or "run" in s for s in steps)
    [check] = [s["run"] for s in steps if "run" in s and s["run"].startswith("recspec check")]
    argv = shlex.split(check)
    args = _parser().parse_args(argv[1:])  # every flag the example uses exists and parses
    assert args.command == "check"
    assert sorted(kind for kind, _ in args.report) == ["html", "junit", "markdown", "sarif"]
    uploads = [s for s in steps if s.get("uses", "").startswith("github/codeql-action/upload-sarif")]
    assert uploads and uploads[0]["with"]["sarif_file"] == dict(args.report)["sarif"]
    assert any("GITHUB_STEP_SUMMARY" in s.get("run", "") and dict(args.report)["markdown"] in s["run"] for s in steps)
    assert wf["permissions"]["security-events"] == "write"


def test_pre_commit_hook_definition_runs_recspec_check_on_staged_files():
    hooks = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text())
    [hook] = hooks
    assert {"id", "name", "entry", "language"} <= set(hook)
    assert hook["language"] == "python" and hook["entry"].startswith("recspec check")
    pattern = re.compile(hook["files"])
    assert pattern.search("recordings/run1.log") and pattern.search("x.traj") and not pattern.search("README.md")
    # pre-commit runs `entry` with the staged file names appended
    # (a valid file of a format whose files are valid under its default profile, the one the hook checks with)
    argv = shlex.split(hook["entry"])[1:] + [str(example_valid_file(format_valid_by_default()))]
    out, err = io.StringIO(), io.StringIO()
    old = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = out, err
    try:
        assert main(argv) == 0
    finally:
        sys.stdout, sys.stderr = old


def test_clusterfuzzlite_workflow_builds_with_the_project_files_and_fuzzes_prs_and_batches():
    wf = yaml.safe_load((ROOT / "docs" / "ci" / "clusterfuzzlite.yml").read_text())
    on = wf.get("on", wf.get(True))  # YAML 1.1 reads the key `on` as True
    assert {"pull_request", "schedule"} <= set(on) and on["schedule"][0]["cron"]
    modes = {}
    for name, job in wf["jobs"].items():
        uses = [s.get("uses", "") for s in job["steps"]]
        assert uses[0].startswith("google/clusterfuzzlite/actions/build_fuzzers@"), name
        assert uses[1].startswith("google/clusterfuzzlite/actions/run_fuzzers@"), name
        assert job["steps"][0]["with"]["language"] == "python"
        run = job["steps"][1]["with"]
        assert int(run["fuzz-seconds"]) > 0 and run["sanitizer"] == job["steps"][0]["with"]["sanitizer"]
        modes[run["mode"]] = job["if"]
        # the crashes reach the user: inputs as an artifact, findings in code scanning
        assert run["output-sarif"] is True, name
        artifact = next(s for s in job["steps"] if s.get("uses", "").startswith("actions/upload-artifact@"))
        assert artifact["with"]["path"] == "./out/artifacts" and "failure()" in artifact["if"], name
        sarif = next(s for s in job["steps"] if s.get("uses", "").startswith("github/codeql-action/upload-sarif@"))
        assert sarif["with"]["sarif_file"] == "cifuzz-sarif/results.sarif", name
        assert "always()" in sarif["if"] and job["permissions"]["security-events"] == "write", name
    assert modes == {"code-change": "github.event_name == 'pull_request'",
                     "batch": "github.event_name != 'pull_request'"}
    # the project files the actions build with
    project = yaml.safe_load((ROOT / ".clusterfuzzlite" / "project.yaml").read_text())
    assert project["language"] == "python"
    assert "fuzz/oss-fuzz/build.sh" in (ROOT / ".clusterfuzzlite" / "build.sh").read_text()
    assert (ROOT / ".clusterfuzzlite" / "Dockerfile").read_text().startswith("#") and \
        "FROM gcr.io/oss-fuzz-base/base-builder-python" in (ROOT / ".clusterfuzzlite" / "Dockerfile").read_text()
    oss_fuzz = yaml.safe_load((ROOT / "fuzz" / "oss-fuzz" / "project.yaml").read_text())
    assert oss_fuzz["language"] == "python" and "libfuzzer" in oss_fuzz["fuzzing_engines"]


def test_github_actions_example_installs_recspec_from_its_repository_not_the_package_index():
    """recspec is not on the package index: `pip install recspec` would fail (or install another project)."""
    wf = yaml.safe_load((ROOT / "docs" / "ci" / "github-actions.yml").read_text())
    [install] = [s["run"] for s in wf["jobs"]["recspec"]["steps"] if "pip install" in s.get("run", "")]
    assert "git+" in install and not re.search(r"pip install recspec\b", install)
