"""The CI recipes work as written: every example installs a revision of recspec that exists, in one way,
publishes every report it writes, and its commands run.

The examples (docs/ci/github-actions.yml, docs/ci/github-actions-shards.yml, docs/ci/pre-commit-config.yaml)
pin one commit of recspec's main branch. Here recspec is installed the way the workflows' install step says,
with that step's own command line, from a local clone of this repository, and then every `run:` step of each
workflow (and the pre-commit hook's command) runs in a writer's repository made of corpus files. Only the
package downloads are spared: the venv sees this test's environment after its own packages (a .pth file), so
pip, the build backend and recspec's dependencies come from there (PIP_NO_DEPS, build isolation off), and the
install takes seconds and no network.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path
from typing import Any

import pytest
import yaml

from helpers import REPO

CI = REPO / "docs" / "ci"
WORKFLOWS = ["github-actions.yml", "github-actions-shards.yml"]
PRE_COMMIT = CI / "pre-commit-config.yaml"
RECORDINGS = ["corpus/carla/valid/0.9.15.log", "corpus/nanover/valid/rust-style.traj",
              "corpus/raskat-signal/valid/v3.tar.xz.sig", "corpus/carla/invalid/CARLA-FRAME-004.log"]
#: The one finding of those files, listed as a known deviation in the writer's expectations file.
KNOWN = {"CARLA-FRAME-004.log": {"CARLA-FRAME-004": "the seed breaks this rule on purpose"}}


def _workflow(name: str) -> dict[str, Any]:
    return yaml.safe_load((CI / name).read_text())


def _steps(wf: dict[str, Any]) -> list[tuple[str, dict[str, Any], dict[str, Any]]]:
    """(job name, job, step) of every step of every job, in order."""
    return [(name, job, step) for name, job in wf["jobs"].items() for step in job["steps"]]


def _install_commands() -> dict[str, tuple[str, dict[str, str]]]:
    """Each workflow's install step: its command and the environment it sees (workflow, job, step)."""
    found = {}
    for name in WORKFLOWS:
        wf = _workflow(name)
        for _, job, step in _steps(wf):
            if "pip install" in step.get("run", ""):
                found[name] = (step["run"].strip(), {**wf.get("env", {}), **job.get("env", {}), **step.get("env", {})})
    return found


def _pins() -> dict[str, str]:
    pins = {name: str(env["RECSPEC_REF"]) for name, (_, env) in _install_commands().items()}
    [repo] = yaml.safe_load(PRE_COMMIT.read_text())["repos"]
    pins[PRE_COMMIT.name] = str(repo["rev"])
    return pins


def _git(*args: str, cwd: Path = REPO) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, timeout=120)


def test_every_example_pins_the_same_commit_of_main() -> None:
    pins = _pins()
    assert set(pins) == {*WORKFLOWS, PRE_COMMIT.name}
    [pin] = set(pins.values())
    assert re.fullmatch(r"[0-9a-f]{40}", pin), f"{pin!r}: pin a full commit id (a tag like v0.1.0 does not exist)"
    assert _git("cat-file", "-e", f"{pin}^{{commit}}").returncode == 0, f"{pin} is not a commit of this repository"
    assert _git("merge-base", "--is-ancestor", pin, "HEAD").returncode == 0, f"{pin} is not in the main history"


def test_every_workflow_installs_recspec_the_same_way() -> None:
    commands = {name: command for name, (command, _) in _install_commands().items()}
    assert set(commands) == set(WORKFLOWS)
    assert len(set(commands.values())) == 1, commands
    [command] = set(commands.values())
    assert command == 'python -m pip install "recspec @ git+${RECSPEC_GIT}@${RECSPEC_REF}"'


@pytest.mark.parametrize("name", WORKFLOWS)
def test_every_report_a_workflow_writes_is_published(name: str) -> None:
    """JUnit to a test-results check run, SARIF to code scanning, Markdown to the job summary, and every
    report in the artifact: what the workflow's comment says it publishes."""
    for _, job, step in _steps(_workflow(name)):
        command = step.get("run", "")
        if not re.match(r"recspec (check|merge)\b.*--report junit", " ".join(command.split())):
            continue
        written = dict(re.findall(r"--report (\w+):(\S+)", command))
        assert set(written) == {"junit", "sarif", "html", "markdown"}
        uses = {s.get("uses", "").split("@")[0]: s for s in job["steps"]}
        assert uses["mikepenz/action-junit-report"]["with"]["report_paths"] == written["junit"]
        assert uses["github/codeql-action/upload-sarif"]["with"]["sarif_file"] == written["sarif"]
        assert any(f"cat {written['markdown']} >> \"$GITHUB_STEP_SUMMARY\"" in s.get("run", "") for s in job["steps"])
        assert set(uses["actions/upload-artifact"]["with"]["path"].split()) == set(written.values())
        assert job.get("permissions", _workflow(name)["permissions"])["checks"] == "write"
        return
    raise AssertionError(f"{name}: no step writes the reports")


# --- installed and run as written ------------------------------------------------------------------


@pytest.fixture(scope="module")
def pinned(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """recspec at the examples' pin, installed by the workflows' install command from a local clone."""
    root = tmp_path_factory.mktemp("ci")
    clone = root / "recspec"
    done = _git("clone", "--quiet", str(REPO), str(clone))
    assert done.returncode == 0, done.stderr
    venv = root / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True, timeout=300)
    bin_dir = venv / "bin"
    target = subprocess.run([str(bin_dir / "python"), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"
                             ], capture_output=True, text=True, check=True).stdout.strip()
    # pip, setuptools and recspec's dependencies from this environment, after the venv's own packages
    Path(target, "test-dependencies.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    [(command, env)] = {c: e for c, e in _install_commands().values()}.items()
    env = {k: _expand(str(v), {"vars.RECSPEC_GIT": f"file://localhost{clone}"}) for k, v in env.items()}
    # PIP_NO_BUILD_ISOLATION=0 turns isolation off (pip reads the variable as the value of --build-isolation)
    shell_env = {**os.environ, **env, "PATH": f"{bin_dir}:{os.environ['PATH']}", "PIP_NO_DEPS": "1",
                 "PIP_NO_BUILD_ISOLATION": "0", "PIP_DISABLE_PIP_VERSION_CHECK": "1"}
    shell_env.pop("PYTHONPATH", None)
    installed = subprocess.run(["bash", "-eo", "pipefail", "-c", command], env=shell_env, capture_output=True,
                               text=True, timeout=600)
    assert installed.returncode == 0, installed.stdout + installed.stderr
    where = subprocess.run([str(bin_dir / "python"), "-c", "import recspec; print(recspec.__file__)"], cwd=root,
                           capture_output=True, text=True, check=True).stdout
    assert where.startswith(target), where  # the pinned recspec, not this checkout's
    return {"bin": bin_dir, "clone": clone, "rev": env["RECSPEC_REF"], "env": shell_env}


def _expand(text: str, values: dict[str, str]) -> str:
    """GitHub's ``${{ expr }}`` for the expressions the examples use; any other one fails the test."""
    def one(m: re.Match[str]) -> str:
        expr = m.group(1).strip()
        assert expr in values, f"the test does not know the expression {expr!r}: add it"
        return values[expr]
    return re.sub(r"\$\{\{(.*?)\}\}", one, text)


def _writer_repo(folder: Path, recordings: str) -> Path:
    """A writer's repository: recordings (corpus files) and its expectations file with a reason per entry."""
    (folder / recordings).mkdir(parents=True)
    for name in RECORDINGS:
        shutil.copy(REPO / name, folder / recordings / Path(name).name)
    (folder / "recspec-expectations.json").write_text(json.dumps({"recspec_expectations": 1, "files": {
        f"{recordings.rstrip('/')}/{name}": rules for name, rules in KNOWN.items()}}))
    return folder


def _run_job(job: dict[str, Any], env: dict[str, str], cwd: Path, values: dict[str, str]) -> list[int]:
    """Run a job's `run:` steps as a runner does (bash -eo pipefail; after a failure only the steps
    whose `if:` is `!cancelled()`); the exit code of each step run."""
    codes: list[int] = []
    failed = False
    for step in job["steps"]:
        if "run" not in step:
            continue
        condition = step.get("if", "")
        if failed and "!cancelled()" not in condition:
            continue
        if "pip install" in step["run"]:
            continue  # done once by the fixture, with this command
        own = {**job.get("env", {}), **step.get("env", {})}
        step_env = {**env, **{k: _expand(str(v), values) for k, v in own.items()}}
        done = subprocess.run(["bash", "-eo", "pipefail", "-c", _expand(step["run"], values)], cwd=cwd, env=step_env,
                              capture_output=True, text=True, timeout=600)
        assert "Traceback" not in done.stderr, done.stderr
        codes.append(done.returncode)
        failed = failed or done.returncode != 0
    return codes


def _published(job: dict[str, Any], cwd: Path) -> None:
    """Every file a `uses:` step of the job publishes exists."""
    publishers = ("actions/upload-artifact", "github/codeql-action/upload-sarif", "mikepenz/action-junit-report")
    for step in job["steps"]:
        if not step.get("uses", "").startswith(publishers):
            continue
        given = step.get("with", {})
        for key in ("report_paths", "sarif_file", "path"):
            for path in str(given.get(key, "")).split():
                if "${{" not in path:
                    assert (cwd / path).is_file(), f"{step.get('name')}: {path} was not written"


def test_the_workflow_runs_as_written(pinned: dict[str, Any], tmp_path: Path) -> None:
    wf = _workflow("github-actions.yml")
    writer = _writer_repo(tmp_path / "writer", "test-recordings/")
    summary = tmp_path / "summary.md"
    env = {**pinned["env"], **{k: str(v) for k, v in wf.get("env", {}).items()}, "GITHUB_STEP_SUMMARY": str(summary)}
    [job] = wf["jobs"].values()
    assert _run_job(job, env, writer, {"vars.RECSPEC_GIT": "unused", "!cancelled()": "true"}) == [0, 0]
    _published(job, writer)
    assert "4 files" in summary.read_text()
    junit = (writer / "recspec-junit.xml").read_text()
    assert 'failures="0"' in junit and "CARLA-FRAME-004" in junit  # the known deviation, skipped


def test_the_sharded_workflow_runs_as_written(pinned: dict[str, Any], tmp_path: Path) -> None:
    wf = _workflow("github-actions-shards.yml")
    writer = _writer_repo(tmp_path / "writer", wf["env"]["RECORDINGS"])
    summary = tmp_path / "summary.md"
    env = {**pinned["env"], **{k: _expand(str(v), {"vars.RECSPEC_GIT": "unused"}) for k, v in wf["env"].items()},
           "GITHUB_STEP_SUMMARY": str(summary)}
    check, merge = wf["jobs"]["check"], wf["jobs"]["merge"]
    shards = check["strategy"]["matrix"]["shard"]
    assert int(check["env"]["SHARDS"]) == len(shards)
    for k in shards:
        assert _run_job(check, env, writer, {"matrix.shard": str(k)}) == [0]
        assert (writer / f"recspec-shard-{k}.json").is_file()
    (writer / "shards").mkdir()  # actions/download-artifact with merge-multiple: every shard's report here
    for k in shards:
        shutil.move(writer / f"recspec-shard-{k}.json", writer / "shards")
    assert _run_job(merge, env, writer, {"!cancelled()": "true"}) == [0, 0]
    _published(merge, writer)
    assert "4 files" in summary.read_text()


def test_the_pre_commit_hook_runs_as_configured(pinned: dict[str, Any], tmp_path: Path) -> None:
    """What pre-commit does with docs/ci/pre-commit-config.yaml: the hook as defined at `rev` in recspec's
    .pre-commit-hooks.yaml, its `entry` with the config's `args` and the staged files its `files` match."""
    [repo] = yaml.safe_load(PRE_COMMIT.read_text())["repos"]
    shown = _git("show", f"{repo['rev']}:.pre-commit-hooks.yaml", cwd=pinned["clone"])
    assert shown.returncode == 0, shown.stderr
    defined = {h["id"]: h for h in yaml.safe_load(shown.stdout)}
    [configured] = repo["hooks"]
    hook = {**defined[configured["id"]], **configured}
    assert hook["language"] == "python"  # pre-commit pip-installs the repository at rev, as the fixture did
    writer = _writer_repo(tmp_path / "writer", "test-recordings/")
    staged = ["README.md", *(f"test-recordings/{Path(n).name}" for n in RECORDINGS), "notes/run1.log"]
    files = [f for f in staged if re.search(hook["files"], f)]
    assert files == [f"test-recordings/{Path(n).name}" for n in RECORDINGS]
    argv = shlex.split(hook["entry"])
    done = subprocess.run([str(pinned["bin"] / argv[0]), *argv[1:], *hook.get("args", []), *files], cwd=writer,
                          env=pinned["env"], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "4 files" in done.stdout


def test_the_clusterfuzzlite_example_builds_the_checkout_it_runs_in() -> None:
    """The one example that installs no pinned recspec: it runs in recspec's own repository and builds the
    fuzzers from that checkout (.clusterfuzzlite/build.sh), so there is no revision to pin."""
    text = (CI / "clusterfuzzlite.yml").read_text()
    assert "pip install" not in text and "RECSPEC_REF" not in text
    steps = [s for _, _, s in _steps(yaml.safe_load(text))]
    # the fuzzers are built and run by ClusterFuzzLite's actions; GitHub's own actions only carry the results out
    # (the crashing inputs as an artifact, the SARIF to code scanning)
    uses = [s["uses"] for s in steps if "uses" in s]
    assert all(u.startswith(("google/clusterfuzzlite/actions/", "actions/upload-artifact@",
                             "github/codeql-action/upload-sarif@")) for u in uses), uses
    assert sum(u.startswith("google/clusterfuzzlite/actions/") for u in uses) == 4  # build and run, two jobs
    assert "fuzz/oss-fuzz/build.sh" in (REPO / ".clusterfuzzlite" / "build.sh").read_text()
