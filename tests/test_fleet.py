"""Checking at fleet scale: `recspec check --shard K/N` and `recspec merge`.

* the union of the N shards of a run is the unsharded run, no file twice (N = 1, 2, 7, over
  generated folder layouts);
* merging the shards' JSON reports gives reports byte-identical to the unsharded run's, in every
  report format, with and without known deviations, whatever the split;
* bad input to either command is a clear error (exit 2), never a traceback;
* the sharded GitHub Actions example and the README's shell recipe parse.
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import re
import shlex
import shutil
import subprocess
from pathlib import Path
from unittest import mock

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from helpers import example_valid_file, format_valid_by_default, run_cli
from recspec import __version__
from recspec.cli import _parser
from recspec.conformance import _plugin
from recspec.conformance.corpus import corpus_folder
from recspec.formats import FORMATS
from recspec.shard import shard_arg, shard_key, shard_of

ROOT = Path(__file__).resolve().parents[1]
#: the example format: sharding and merging are every format's, shown on one's valid file (valid under compat too)
INFO = format_valid_by_default()
SIGNAL = example_valid_file(INFO).read_bytes()
SUF = example_valid_file(INFO).suffix
#: the corpus folder of the first format, with valid, invalid and malformed files
FIRST = corpus_folder(next(iter(FORMATS)))
REPORT_KINDS = ("json", "junit", "sarif", "html", "markdown")


def _paths(report_text: str) -> list[str]:
    return [f["path"] for f in json.loads(report_text)["files"]]


# --- the split ------------------------------------------------------------------------------

_name = st.text(alphabet="abcxyz019-_.é", min_size=1, max_size=6).filter(lambda n: n not in (".", ".."))
_layout = st.lists(st.tuples(st.lists(_name, max_size=3), _name, st.booleans()), min_size=1, max_size=10,
                   unique_by=lambda t: tuple(t[0]) + (t[1],))


def _write_layout(root: Path, layout: list[tuple[list[str], str, bool]]) -> list[Path]:
    written = []
    for dirs, name, recognised in layout:
        folder = root.joinpath(*dirs)
        target = folder / name
        blocked = any(p.exists() and not p.is_dir() for p in [folder, *folder.parents] if root in p.parents)
        if blocked or target.is_dir():
            continue  # a generated name clashes with a folder of another entry
        folder.mkdir(parents=True, exist_ok=True)
        target.write_bytes(SIGNAL if recognised else b"not a recording")
        written.append(target)
    return written


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(layout=_layout, named_too=st.booleans())
def test_shards_partition_the_run(tmp_path_factory: pytest.TempPathFactory, layout, named_too: bool) -> None:
    root = tmp_path_factory.mktemp("layout")
    written = _write_layout(root / "detector", layout)
    args = [str(root / "detector")]
    if named_too and written:
        args.append(str(written[0]))  # a file named directly, also found in the folder: checked twice, on purpose
    code, whole, _ = run_cli("check", "--json", "--no-cross-check", "--profile", "compat", *args)
    unsharded = _paths(whole) if code != 2 else []
    for n in (1, 2, 7):
        seen: list[str] = []
        for k in range(1, n + 1):
            code, out, err = run_cli("check", "--json", "--no-cross-check", "--profile", "compat", *args,
                                     "--shard", f"{k}/{n}")
            assert code in (0, 1, 2), err
            if code == 2:  # only when the whole walk found nothing recognised at all
                assert not unsharded and "no recognised files" in err
                continue
            doc = json.loads(out)
            assert doc["shard"]["index"] == k and doc["shard"]["count"] == n
            seen += _paths(out)
        assert collections.Counter(seen) == collections.Counter(unsharded)  # each file exactly once
        assert len(seen) == len(unsharded)


def test_shard_key_is_the_posix_path_relative_to_the_argument() -> None:
    assert shard_key(Path("/mnt/a/detector/2025/06/x.sig"), "/mnt/a/detector") == "2025/06/x.sig"
    assert shard_key(Path("detector/2025/06/x.sig"), "detector/") == "2025/06/x.sig"
    assert shard_key(Path("x.sig"), None) == "x.sig"
    # a fixed value: the split must not change between releases, machines or Python builds
    assert [shard_of(k, 7) for k in ("a.sig", "2025/06/24/10/x.sig", "caf\udce9.sig")] == [
        shard_of(k, 7) for k in ("a.sig", "2025/06/24/10/x.sig", "caf\udce9.sig")]
    import hashlib

    key = "2025/06/24/10/x.sig"
    assert shard_of(key, 7) == int.from_bytes(hashlib.blake2b(key.encode(), digest_size=8).digest(), "big") % 7 + 1


def test_split_does_not_depend_on_where_the_folder_is(tmp_path: Path) -> None:
    for base in ("a", "b/c"):
        d = tmp_path / base / "detector" / "2025" / "06"
        d.mkdir(parents=True)
        for i in range(12):
            (d / f"{i:02d}{SUF}").write_bytes(SIGNAL)
    parts = []
    for base in ("a", "b/c"):
        _, out, _ = run_cli("check", "--json", "--no-cross-check", "--profile", "compat",
                            str(tmp_path / base / "detector"), "--shard", "2/3")
        parts.append([Path(p).name for p in _paths(out)])
    assert parts[0] == parts[1] and 0 < len(parts[0]) < 12


# --- merge ----------------------------------------------------------------------------------

_FILES = sorted(p for fmt in FORMATS
                for p in corpus_folder(fmt).glob("*/*") if p.is_file() and p.name != "manifest.json")


def _pick(indices: list[int]) -> list[Path]:
    return [_FILES[i % len(_FILES)] for i in indices]


def _reports(run_dir: Path, stem: str) -> list[str]:
    return [f"--report={kind}:{run_dir / f'{stem}.{kind}'}" for kind in REPORT_KINDS]


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(picked=st.lists(st.integers(0, 10_000), min_size=1, max_size=10, unique=True),
       names=st.lists(_name, min_size=10, max_size=10), n=st.integers(1, 5), order=st.randoms(use_true_random=False),
       expectations=st.sampled_from(["none", "shards", "merge"]))
def test_merged_shards_render_byte_identical_reports(tmp_path_factory: pytest.TempPathFactory, picked, names, n,
                                                     order, expectations) -> None:
    base = tmp_path_factory.mktemp("merge")
    data = base / "data"
    for i, (src, name) in enumerate(zip(_pick(picked), names)):
        dst = data / f"d{i % 3}" / f"f{name}{i}{src.suffix}"
        dst.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(src, dst)
    exp = base / "expectations.json"
    code, out, _ = run_cli("check", "--json", str(data))
    failing = [f for f in json.loads(out)["files"] if f["failed"]]
    listed = {str(Path(f["path"]).relative_to(base)): {f["findings"][0]["rule"]: "known"} for f in failing[:2]
              if f["findings"]}
    listed[f"gone{SUF}"] = {"X-NO-RULE-001": "a file that no longer exists"}
    if failing:
        listed.setdefault(str(Path(failing[0]["path"]).relative_to(base)), {})["X-NO-RULE-002"] = "stale here"
    exp.write_text(json.dumps({"recspec_expectations": 1, "files": listed}))
    with_exp = ["--expectations", str(exp)]
    whole, shards, merged = base / "whole", base / "shards", base / "merged"
    for d in (whole, shards, merged):
        d.mkdir()
    with mock.patch.object(_plugin, "RUN_SAMPLE_FROM", 2):  # long-run sampling, across shards too
        # merged HTML has no pictures (the JSON reports do not carry what they draw)
        code_whole, _, _ = run_cli("check", str(data), "--no-pictures", *(with_exp if expectations != "none" else ()),
                                   *_reports(whole, "r"))
        for k in range(1, n + 1):
            code, _, err = run_cli("check", str(data), "--shard", f"{k}/{n}",
                                   *(with_exp if expectations == "shards" else ()),
                                   f"--report=json:{shards / f'{k}.json'}")
            assert code in (0, 1), err
    given_order = [str(shards / f"{k}.json") for k in range(1, n + 1)]
    order.shuffle(given_order)  # the order of the arguments does not matter
    code_merged, _, err = run_cli("merge", *given_order, *(with_exp if expectations == "merge" else ()),
                                  *_reports(merged, "r"))
    assert code_merged == code_whole, err
    for kind in REPORT_KINDS:
        assert (merged / f"r.{kind}").read_bytes() == (whole / f"r.{kind}").read_bytes(), kind
    assert "shard" not in json.loads((merged / "r.json").read_text())


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs (POSIX)")
def test_members_passed_over_are_listed_once_by_the_shard_their_key_falls_in(tmp_path: Path) -> None:
    """Both kinds of folder member a run passes over (files no format claims, FIFOs) are split
    like files: each is listed by one shard, and the merged report is the unsharded one."""
    data = tmp_path / "data"
    for i in range(12):
        sub = data / f"d{i % 3}"
        sub.mkdir(parents=True, exist_ok=True)
        (sub / f"{i:02d}{SUF}").write_bytes(SIGNAL)
        (sub / f"notes{i:02d}.txt").write_text("not a recording\n")
        if i % 2:
            os.mkfifo(sub / f"pipe{i:02d}.log")
    code, whole, err = run_cli("check", "--json", "--profile", "compat", str(data))
    assert code == 0, err
    rep = json.loads(whole)
    assert rep["summary"]["unclaimed"] == 12 and rep["summary"]["not_regular"] == 6
    assert rep["unclaimed"] == sorted(rep["unclaimed"]) and rep["not_regular"] == sorted(rep["not_regular"])
    parts = []
    for k in (1, 2, 3):
        code, _, err = run_cli("check", "--profile", "compat", str(data), "--shard", f"{k}/3",
                               f"--report=json:{tmp_path / f'{k}.json'}")
        assert code == 0, err
        parts.append(json.loads((tmp_path / f"{k}.json").read_text()))
    for key in ("unclaimed", "not_regular"):
        listed = [p for part in parts for p in part.get(key, [])]
        assert sorted(listed) == rep[key]  # each once, in the shard its key falls in
        for k, part in enumerate(parts, 1):
            for p in part.get(key, []):
                assert shard_of(shard_key(p, str(data)), 3) == k
    code, merged, err = run_cli("merge", "--json", *(str(tmp_path / f"{k}.json") for k in (1, 2, 3)))
    assert code == 0 and merged == whole, err
    _, table, _ = run_cli("merge", "--verbose", *(str(tmp_path / f"{k}.json") for k in (1, 2, 3)))
    assert "12 unclaimed, 6 not regular" in table
    assert "unclaimed " + str(data / "d0" / "notes00.txt") in table and "not regular " in table


def test_merge_of_whole_runs_concatenates_them(tmp_path: Path) -> None:
    a, b = (corpus_folder(fmt) / "valid" for fmt in list(FORMATS)[:2])
    run_cli("check", str(a), f"--report=json:{tmp_path / 'a.json'}")
    run_cli("check", str(b), f"--report=json:{tmp_path / 'b.json'}")
    _, both, _ = run_cli("check", "--json", str(a), str(b))
    code, out, err = run_cli("merge", "--json", str(tmp_path / "a.json"), str(tmp_path / "b.json"))
    assert code == 0 and out == both, err


def test_an_empty_shard_is_not_an_error_and_merges(tmp_path: Path) -> None:
    f = tmp_path / f"one{SUF}"
    f.write_bytes(SIGNAL)
    codes = []
    for k in (1, 2, 3):
        code, out, err = run_cli("check", "--profile", "compat", str(f), "--shard", f"{k}/3",
                                 f"--report=json:{tmp_path / f'{k}.json'}")
        codes.append(code)
        assert f"shard {k}/3:" in err
    assert sorted(codes) == [0, 0, 0]
    assert sum(len(json.loads((tmp_path / f"{k}.json").read_text())["files"]) for k in (1, 2, 3)) == 1
    code, out, _ = run_cli("merge", *(str(tmp_path / f"{k}.json") for k in (1, 2, 3)))
    assert code == 0 and f"one{SUF}" in out


# --- errors ---------------------------------------------------------------------------------


@pytest.mark.parametrize("spec, says", [("3/2", "between 1 and N=2"), ("0/4", "between 1 and N=4"),
                                        ("2/0", "must be 1 or more"), ("two/7", "expected K/N"), ("2", "expected K/N")])
def test_bad_shard_argument(spec: str, says: str) -> None:
    code, _, err = run_cli("check", str(FIRST / "valid"), "--shard", spec)
    assert code == 2 and says in err and "Traceback" not in err
    with pytest.raises(argparse.ArgumentTypeError):
        shard_arg(spec)


@pytest.fixture(scope="module")
def shard_reports(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    d = tmp_path_factory.mktemp("shards")
    data = FIRST
    out = {}
    for k in (1, 2, 3):
        run_cli("check", str(data), "--shard", f"{k}/3", f"--report=json:{d / f's{k}.json'}")
        out[f"s{k}"] = d / f"s{k}.json"
    run_cli("check", str(data), "--shard", "1/3", "--profile", "compat", f"--report=json:{d / 'compat1.json'}")
    run_cli("check", str(data), "--shard", "1/2", f"--report=json:{d / 'half.json'}")
    run_cli("check", str(data / "valid"), f"--report=json:{d / 'whole.json'}")
    run_cli("check", str(data / "valid"), f"--report=sarif:{d / 'whole.sarif'}")
    out.update(compat1=d / "compat1.json", half=d / "half.json", whole=d / "whole.json", sarif=d / "whole.sarif")

    def edited(name: str, change) -> Path:
        doc = json.loads(out["s1"].read_text())
        change(doc)
        p = d / f"{name}.json"
        p.write_text(json.dumps(doc))
        return p

    out["schema2"] = edited("schema2", lambda doc: doc.update(report_schema=2))
    out["oldversion"] = edited("oldversion", lambda doc: doc.update(recspec_version="0.0.1"))
    out["cut"] = edited("cut", lambda doc: doc["files"].pop())
    out["badverdict"] = edited("badverdict", lambda doc: doc["files"][0].update(verdict="fine"))
    out["badfinding"] = edited("badfinding", lambda doc: doc["files"][0].update(findings=[{"rule": "X-1"}]))
    out["otherwalk"] = edited("otherwalk", lambda doc: doc["shard"].update(walk_digest="0" * 64))
    (d / "truncated.json").write_text(out["s1"].read_text()[:100])
    (d / "list.json").write_text("[1, 2]")
    (d / "exp.json").write_text('{"recspec_expectations": 1, "files": {}}')
    out.update(truncated=d / "truncated.json", list=d / "list.json", exp=d / "exp.json")
    return out


@pytest.mark.parametrize("names, says", [
    (["s1", "s2"], "1 of 3 shards missing: 3/3"),
    (["s1", "s2", "s3", "s2"], "shard 2/3 is given more than once"),
    (["compat1", "s2", "s3"], "differ in --profile"),
    (["half", "s2", "s3"], "differ in the number of shards"),
    (["s1", "whole"], "is a whole run"),
    (["schema2"], "report_schema 2; this recspec"),
    (["oldversion", "s2", "s3"], "differ in recspec_version"),
    (["oldversion"], "written by recspec 0.0.1"),
    (["cut", "s2", "s3"], "does not match its files"),
    (["badverdict"], "verdict 'fine' is not one of"),
    (["badfinding"], "findings[0]: 'severity' is missing"),
    (["otherwalk", "s2", "s3"], "walk_digest"),
    (["truncated"], "is not JSON"),
    (["list"], "is not a recspec JSON report"),
    (["sarif"], "a SARIF log, not a recspec JSON report"),
    (["exp"], "an expectations file, not a report"),
])
def test_merge_refuses_reports_that_do_not_belong_together(shard_reports, names, says) -> None:
    code, _, err = run_cli("merge", *(str(shard_reports[n]) for n in names))
    assert code == 2 and says in err, err
    assert "Traceback" not in err


def test_merge_errors_without_traceback(tmp_path: Path, shard_reports) -> None:
    for argv, says in [(["merge", str(tmp_path / "nope.json")], "no such report"),
                       (["merge", str(tmp_path)], "is a folder"),
                       (["merge", str(shard_reports["whole"]), "--update-expectations"], "needs --expectations"),
                       (["merge", str(shard_reports["whole"]), f"--report=html:{tmp_path / 'no' / 'r.html'}"],
                        "does not exist")]:
        code, _, err = run_cli(*argv)
        assert code == 2 and says in err and "Traceback" not in err, err
    code, _, err = run_cli("merge")
    assert code == 2 and "REPORT.json" in err


def test_merge_keeps_the_exit_code_rule(shard_reports) -> None:
    code, out, _ = run_cli("merge", str(shard_reports["whole"]))
    assert code == 0 and "valid" in out
    code, _, _ = run_cli("merge", *(str(shard_reports[f"s{k}"]) for k in (1, 2, 3)))
    assert code == 1  # the corpus has invalid files


def test_shard_report_section_matches_the_schema(shard_reports) -> None:
    jsonschema = pytest.importorskip("jsonschema")
    schema = json.loads((ROOT / "recspec" / "schemas" / "report-1.schema.json").read_text())
    doc = json.loads(shard_reports["s2"].read_text())
    jsonschema.validate(doc, schema)
    assert doc["recspec_version"] == __version__ and doc["shard"]["walked_files"] >= len(doc["files"])


# --- examples -------------------------------------------------------------------------------


def test_sharded_github_actions_example() -> None:
    wf = yaml.safe_load((ROOT / "docs" / "ci" / "github-actions-shards.yml").read_text())
    check, merge = wf["jobs"]["check"], wf["jobs"]["merge"]
    shards = check["strategy"]["matrix"]["shard"]
    n = int(check["env"]["SHARDS"])
    assert shards == list(range(1, n + 1)) and check["strategy"]["fail-fast"] is False
    for job in (check, merge):  # not on PyPI: installed from the repository (tests/test_ci_recipes.py runs it)
        [install] = [s["run"] for s in job["steps"] if s.get("name") == "Install recspec"]
        assert "recspec @ git+${RECSPEC_GIT}@${RECSPEC_REF}" in install
    [run] = [s["run"] for s in check["steps"] if "recspec check" in s.get("run", "")]
    [line] = [ln for ln in run.splitlines() if ln.startswith("recspec check")]
    line = line.split(" || ")[0].replace("${{ matrix.shard }}", "2").replace("$SHARDS", str(n))
    args = _parser().parse_args([a.replace('"$RECORDINGS"', "recordings/") for a in shlex.split(line)[1:]])
    assert str(args.shard) == f"2/{n}" and args.report == [("json", "recspec-shard-2.json")]
    uploads = [s for s in check["steps"] if s.get("uses", "").startswith("actions/upload-artifact")]
    assert uploads and uploads[0]["with"]["path"] == "recspec-shard-${{ matrix.shard }}.json"
    assert merge["needs"] == "check" and "cancelled" in merge["if"]
    [m] = [s["run"] for s in merge["steps"] if s.get("run", "").startswith("recspec merge")]
    margs = _parser().parse_args(shlex.split(m)[1:])
    assert margs.command == "merge" and margs.reports == ["shards/*.json"]
    reports = dict(margs.report)
    assert {"junit", "sarif"} <= set(reports)
    downloads = [s for s in merge["steps"] if s.get("uses", "").startswith("actions/download-artifact")]
    assert downloads[0]["with"]["path"] == "shards"
    sarif = [s for s in merge["steps"] if s.get("uses", "").startswith("github/codeql-action/upload-sarif")]
    assert sarif[0]["with"]["sarif_file"] == reports["sarif"]
    junit = [s for s in merge["steps"] if "junit" in s.get("uses", "")]
    assert junit[0]["with"]["report_paths"] == reports["junit"]
    assert merge["permissions"]["security-events"] == "write" and merge["permissions"]["checks"] == "write"


def _readme_section(title: str) -> str:
    text = (ROOT / "README.md").read_text()
    start = text.index(f"## {title}\n")
    end = text.find("\n## ", start + 1)
    return text[start:end]


def test_readme_shell_recipes_parse() -> None:
    section = _readme_section("Checking many files")
    blocks = re.findall(r"```sh\n(.*?)```", section, re.S)
    assert len(blocks) >= 2 and any("parallel" in b for b in blocks) and any("SBATCH" in b for b in blocks)
    bash = shutil.which("bash")
    if bash is None:
        pytest.skip("no bash")
    for block in blocks:
        proc = subprocess.run([bash, "-n"], input=block, text=True, capture_output=True)
        assert proc.returncode == 0, (block, proc.stderr)
        assert "--shard" in block or "recspec merge" in block


def test_json_report_written_a_file_at_a_time_is_the_contract_text(shard_reports) -> None:
    from recspec.merge import read_report
    from recspec.render import render_pieces
    from recspec.report import Report

    for name in ("s1", "whole"):
        _, report = read_report(str(shard_reports[name]))
        report.shard = json.loads(shard_reports[name].read_text()).get("shard")
        text = "".join(render_pieces("json", report))
        assert text == json.dumps(report.to_json(), indent=2) + "\n" == shard_reports[name].read_text()
    assert "".join(render_pieces("json", Report())) == json.dumps(Report().to_json(), indent=2) + "\n"
