"""A format from another package: the toy plugin of tests/plugins/toy, installed as a distribution of its own
(``recspec-toy``, entry point ``recspec.formats``), run through every command with no edit to recspec.

The distribution is installed once per module by pip (offline: ``--no-index --no-build-isolation
--no-deps``) into a temporary folder, and each command runs in a subprocess with that folder on
``PYTHONPATH``: the registry of this test process stays the built-ins'. Every expected value is a fact of
the toy's layout (docs/toy.md: an 8-byte header, 8-byte records, the checksum at byte 6 of a record, the
reserved byte at 7) or of the file a test planted, not what recspec printed.
"""

from __future__ import annotations

import json
import os
import shutil
import struct
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from helpers import load_script

ROOT = Path(__file__).resolve().parents[1]
PLUGIN = ROOT / "tests" / "plugins" / "toy"
TESTEES = PLUGIN / "testees"

#: The first of the valid corpus: ids 1, 2, 7 with values 10, -5, 70000 (recspec_toy/conformance/_seeds.py).
THREE = [(1, 10), (2, -5), (7, 70000)]


def toy_bytes(records: list[tuple[int, int]], *, version: int = 1, flags: int = 0,
              sums: dict[int, int] | None = None, reserved: dict[int, int] | None = None) -> bytes:
    """A toy file written here from the layout, apart from the plugin's encoder."""
    out = b"TOYF" + struct.pack("<BBH", version, flags, len(records))
    for i, (rid, value) in enumerate(records):
        body = struct.pack("<Hi", rid, value)
        out += body + bytes([(sums or {}).get(i, sum(body) % 256), (reserved or {}).get(i, 0)])
    return out


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The folder the ``recspec-toy`` distribution is installed into."""
    src = tmp_path_factory.mktemp("toy-src") / "toy"
    shutil.copytree(PLUGIN, src, ignore=shutil.ignore_patterns("build", "*.egg-info", "__pycache__"))
    target = tmp_path_factory.mktemp("toy-site")
    done = subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-index", "--no-build-isolation",
                           "--no-deps", "--target", str(target), str(src)], capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
    assert (target / "recspec_toy" / "corpus" / "toy" / "manifest.json").is_file()
    return target


def _env(*paths: Path) -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([*(str(p) for p in paths), *filter(None, [env.get("PYTHONPATH")])])
    return env


def recspec(site: Path, *args: str, cwd: Path | None = None, extra: tuple[Path, ...] = (),
            timeout: float = 300) -> subprocess.CompletedProcess[str]:
    """``recspec ARGS`` with the toy installed (and ``extra`` folders on the path before it)."""
    return subprocess.run([sys.executable, "-m", "recspec", *args], capture_output=True, text=True,
                          env=_env(*extra, site), cwd=cwd, timeout=timeout)


def python(site: Path, code: str, *args: str, extra: tuple[Path, ...] = ()) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True,
                          env=_env(*extra, site) if site else _env(*extra))


@pytest.fixture(scope="module")
def corpus(site: Path) -> Path:
    return site / "recspec_toy" / "corpus" / "toy"


@pytest.fixture()
def planted(tmp_path: Path) -> Path:
    """A folder of toy files, each with one fault planted at a known byte."""
    files = {
        "good.toy": toy_bytes(THREE),
        "sum.toy": toy_bytes(THREE, sums={2: 0x00}),  # record 2's checksum: byte 8 + 2*8 + 6 = 30
        "reserved.toy": toy_bytes(THREE, reserved={1: 0x77}),  # record 1's reserved byte: 8 + 8 + 7 = 23
        "order.toy": toy_bytes([(5, 1), (3, 2)]),  # record 1's id does not increase: byte 16
        "old.toy": toy_bytes(THREE, version=0),  # the version byte: 4
        "long.toy": toy_bytes(THREE) + b"\x00\x00\x00",  # 3 bytes after the last record, which ends at 32
        "short.toy": toy_bytes(THREE)[:20],  # cut inside record 1, at byte 20
    }
    for name, data in files.items():
        (tmp_path / name).write_bytes(data)
    return tmp_path


def _findings(report: dict, name: str) -> list[tuple[str, int]]:
    entry = next(f for f in report["files"] if Path(f["path"]).name == name)
    return [(f["rule"], f["offset"]) for f in entry["findings"]]


def _file(report: dict, name: str) -> dict:
    return next(f for f in report["files"] if Path(f["path"]).name == name)


# --- the registry --------------------------------------------------------------------------------------------

def test_the_registry_loads_the_toy_from_its_entry_point_beside_the_built_ins(site: Path) -> None:
    done = python(site, "import json; from recspec.formats import FORMATS, BUILTIN_FORMATS; i = FORMATS['toy']; "
                        "print(json.dumps([list(FORMATS), list(BUILTIN_FORMATS), i.module, i.reference_module, "
                        "i.fuzz_module, FORMATS.problems]))")
    assert done.returncode == 0, done.stderr
    formats, builtins, module, reference, fuzz, problems = json.loads(done.stdout)
    assert formats == [*builtins, "toy"] and "toy" not in builtins
    assert (module, reference, fuzz) == ("recspec_toy.conformance", "recspec_toy.reference", "recspec_toy.fuzz")
    assert problems == [] and done.stderr == ""


def test_the_help_and_the_strategies_name_the_toy(site: Path) -> None:
    done = recspec(site, "check", "--help")
    assert done.returncode == 0, done.stderr
    text = " ".join(done.stdout.split())
    assert "matrix-smt, toy)" in text and "toy 1M" in text  # --format's list, --cross-check-limit's defaults
    assert "the Kaitai parser reads the whole file into objects" in text  # the entry's cross_check_note
    done = python(site, "import recspec.strategies as s; print(s.toy_files.__module__)")
    assert done.stdout.strip() == "recspec_toy.conformance._strategies", done.stderr


def test_without_a_plugin_the_registry_does_not_import_importlib_metadata(tmp_path: Path) -> None:
    """No distribution declares a recspec.formats entry point: the registry's look at entry_points.txt says so,
    and importlib.metadata (which imports email, zipfile, csv and socket) stays out of start-up."""
    code = ("import sys; from recspec.formats import FORMATS; n = len(FORMATS); "
            "print(n, 'importlib.metadata' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["4", "False"]


def _broken_distribution(where: Path, name: str, entry: str, module: str = "", source: str = "") -> None:
    """A distribution installed by hand: its dist-info (METADATA, entry_points.txt) and its module."""
    info = where / f"{name.replace('-', '_')}-0.1.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text(f"[recspec.formats]\n{entry}\n")
    if module:
        (where / f"{module}.py").write_text(source)


def test_a_broken_plugin_is_named_and_left_out_and_the_others_load(site: Path, tmp_path: Path,
                                                                 planted: Path) -> None:
    broken = tmp_path / "broken"
    _broken_distribution(broken, "fails-to-import", "boom = boom_plugin:FORMAT", "boom_plugin",
                         "raise RuntimeError('the plugin is broken')\n")
    _broken_distribution(broken, "not-a-format", "text = text_plugin:FORMAT", "text_plugin",
                         "FORMAT = 'a string'\n")
    _broken_distribution(broken, "takes-sig", "sigclash = clash_plugin:FORMAT", "clash_plugin",
                         "from recspec.formats import FormatInfo\n"
                         "FORMAT = FormatInfo(id='other', title='t', aliases=(), extensions=('.sig',), variants=(), "
                         "profiles=('spec', 'compat'), default_profile='spec', cross_check_limit=1, stats_keys=('x',), "
                         "module='clash_plugin')\n")
    _broken_distribution(broken, "takes-raskat", "named = named_plugin:FORMAT", "named_plugin",
                         "from recspec.formats import FormatInfo\n"
                         "FORMAT = FormatInfo(id='named', title='t', aliases=('RASKAT',), extensions=('.nm',), "
                         "variants=(), profiles=('spec',), default_profile='spec', cross_check_limit=1, "
                         "stats_keys=('x',), module='named_plugin')\n")
    _broken_distribution(broken, "module-missing", "lost = lost_entry:FORMAT", "lost_entry",
                         "from recspec.formats import FormatInfo\n"
                         "FORMAT = FormatInfo(id='lost', title='t', aliases=(), extensions=('.lost',), variants=(), "
                         "profiles=('spec',), default_profile='spec', cross_check_limit=1, stats_keys=('x',), "
                         "module='no_such_plugin_module')\n")
    done = recspec(site, "check", "--json", str(planted / "sum.toy"), extra=(broken,))
    assert "Traceback" not in done.stderr
    lines = [line for line in done.stderr.splitlines() if line.startswith("recspec: warning: format plugin")]
    assert len(lines) == 5, done.stderr
    said = "\n".join(lines)
    assert "'boom' (boom_plugin:FORMAT) of fails-to-import failed to import: RuntimeError: the plugin is broken" in said
    assert "'text' (text_plugin:FORMAT) of not-a-format is a str, not a recspec.formats.FormatInfo" in said
    assert "'sigclash' (clash_plugin:FORMAT) of takes-sig: the extension '.sig' is already raskat-signal's" in said
    assert "'named' (named_plugin:FORMAT) of takes-raskat: the name 'raskat' is already raskat-signal's" in said
    assert ("'lost' (lost_entry:FORMAT) of module-missing: its module no_such_plugin_module failed to import: "
            "ModuleNotFoundError") in said
    # the good plugin still loads: the planted checksum is found
    assert done.returncode == 1
    assert _findings(json.loads(done.stdout), "sum.toy") == [("TOY-CHECKSUM-001", 30)]


def test_a_plugin_module_that_reads_the_registry_as_it_is_imported_loads(tmp_path: Path) -> None:
    """The registry imports each plugin's module as it loads it; a module that reads FORMATS then sees the
    formats loaded so far instead of loading the plugins again."""
    _broken_distribution(tmp_path, "reads-registry", "reader = reader_plugin:FORMAT", "reader_plugin",
                         "from recspec.formats import FORMATS, FormatInfo\n"
                         "FIRST = next(iter(FORMATS.values())).id\n"
                         "SEEN = len(FORMATS)\n"
                         "def sniff(head):\n    return 0.0\n"
                         "FORMAT = FormatInfo(id='reader', title='t', aliases=(), extensions=('.rdr',), variants=(), "
                         "profiles=('spec',), default_profile='spec', cross_check_limit=1, stats_keys=('x',), "
                         "module='reader_plugin')\n")
    done = python(tmp_path, "import json; from recspec.formats import FORMATS, BUILTIN_FORMATS; "
                            "last = list(FORMATS)[-1]; import reader_plugin; "
                            "print(json.dumps([last, reader_plugin.SEEN == len(BUILTIN_FORMATS), FORMATS.problems]))")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == ["reader", True, []]
    assert done.stderr == ""  # no second, nested load (which would find the half-imported module)


# --- recspec check, both profiles, every report ------------------------------------------------------------

def test_check_finds_each_planted_fault_with_its_rule_and_offset(site: Path, planted: Path) -> None:
    done = recspec(site, "check", "--json", str(planted))
    assert done.returncode == 1, done.stderr  # spec: invalid files
    report = json.loads(done.stdout)
    assert {Path(f["path"]).name: f["format"] for f in report["files"]} == dict.fromkeys(
        ["good.toy", "sum.toy", "reserved.toy", "order.toy", "old.toy", "long.toy", "short.toy"], "toy")
    assert _findings(report, "good.toy") == []
    assert _findings(report, "sum.toy") == [("TOY-CHECKSUM-001", 30)]
    assert _findings(report, "reserved.toy") == [("TOY-RESERVED-001", 23)]
    assert _findings(report, "order.toy") == [("TOY-ORDER-001", 16)]
    assert _findings(report, "old.toy") == [("TOY-VERSION-001", 4)]
    assert _findings(report, "long.toy") == [("TOY-SIZE-001", 32)]
    assert _findings(report, "short.toy") == [("TOY-SIZE-001", 20)]
    assert _file(report, "short.toy")["verdict"] == "malformed" and _file(report, "long.toy")["verdict"] == "malformed"
    assert _file(report, "order.toy")["verdict"] == "valid"  # a warning
    assert _file(report, "good.toy")["stats"] == {"version": 1, "records": 3}


def test_check_under_compat(site: Path, planted: Path) -> None:
    """Under compat the reserved byte is not judged and version 0 is a warning: both files pass."""
    done = recspec(site, "check", "--json", "--profile", "compat", str(planted / "reserved.toy"),
                   str(planted / "old.toy"))
    assert done.returncode == 0, done.stdout + done.stderr
    report = json.loads(done.stdout)
    assert _file(report, "reserved.toy")["verdict"] == "valid" and _findings(report, "reserved.toy") == []
    old = _file(report, "old.toy")
    assert old["verdict"] == "valid" and [(f["rule"], f["severity"]) for f in old["findings"]] == [
        ("TOY-VERSION-001", "warning")]
    assert old["verdicts"]["spec"]["verdict"] == "invalid"


def test_check_by_extension_and_forced_format(site: Path, tmp_path: Path) -> None:
    """A file whose magic is damaged is named by its .toy extension and reported malformed at byte 0;
    ``--format toy-records`` (the plugin's alias) forces the format on another name."""
    bad = tmp_path / "damaged.toy"
    bad.write_bytes(b"TOYX" + toy_bytes(THREE)[4:])
    other = tmp_path / "data.bin"
    other.write_bytes(toy_bytes(THREE, sums={0: 1}))
    done = recspec(site, "check", "--json", str(bad))
    assert _findings(json.loads(done.stdout), "damaged.toy") == [("TOY-MAGIC-001", 0)]
    done = recspec(site, "check", "--json", "--format", "toy-records", str(other))
    assert _findings(json.loads(done.stdout), "data.bin") == [("TOY-CHECKSUM-001", 14)]


def test_a_parallel_run_reports_what_the_serial_one_does(site: Path, planted: Path) -> None:
    """-j 2 forks workers after the registry has loaded the plugin: they check the toy's files the same way."""
    serial = recspec(site, "check", "--json", str(planted))
    parallel = recspec(site, "check", "--json", "-j", "2", str(planted))
    assert parallel.returncode == serial.returncode == 1, parallel.stderr
    assert json.loads(parallel.stdout) == json.loads(serial.stdout)
    assert _findings(json.loads(parallel.stdout), "reserved.toy") == [("TOY-RESERVED-001", 23)]


def test_rules_lists_the_toys_catalog(site: Path) -> None:
    done = recspec(site, "rules", "toy")
    assert done.returncode == 0, done.stderr
    rows = {line.split()[0]: line.split()[1:3] for line in done.stdout.splitlines()[1:] if line.startswith("TOY-")}
    assert rows["TOY-RESERVED-001"] == ["error", "off"] and rows["TOY-VERSION-001"] == ["error", "warning"]
    assert set(rows) == {"TOY-MAGIC-001", "TOY-SIZE-001", "TOY-VERSION-001", "TOY-FLAGS-001", "TOY-CHECKSUM-001",
                         "TOY-RESERVED-001", "TOY-ORDER-001", "TOY-XCHECK-001"}


def test_every_report_format_carries_the_toys_findings(site: Path, planted: Path, tmp_path: Path) -> None:
    out = tmp_path / "reports"
    out.mkdir()
    args = [f"--report={kind}:{out / name}" for kind, name in
            (("json", "r.json"), ("junit", "r.xml"), ("sarif", "r.sarif"), ("html", "r.html"), ("markdown", "r.md"))]
    done = recspec(site, "check", *args, str(planted / "sum.toy"), str(planted / "good.toy"))
    assert done.returncode == 1, done.stderr
    assert _findings(json.loads((out / "r.json").read_text()), "sum.toy") == [("TOY-CHECKSUM-001", 30)]
    suites = ET.parse(out / "r.xml").getroot()
    failures = [tc for tc in suites.iter("testcase") if tc.find("failure") is not None]
    assert len(failures) == 1 and "sum.toy" in (failures[0].get("name", "") + failures[0].get("classname", ""))
    assert "TOY-CHECKSUM-001" in ET.tostring(failures[0], encoding="unicode")
    sarif = json.loads((out / "r.sarif").read_text())
    result = sarif["runs"][0]["results"][0]
    assert result["ruleId"] == "TOY-CHECKSUM-001"
    assert result["locations"][0]["physicalLocation"]["region"]["byteOffset"] == 30
    assert "TOY-RESERVED-001" in {r["id"] for r in sarif["runs"][0]["tool"]["driver"]["rules"]}
    html = (out / "r.html").read_text()
    assert "TOY-CHECKSUM-001" in html and "sum.toy" in html
    assert "TOY-CHECKSUM-001" in (out / "r.md").read_text()


def test_the_html_report_draws_the_toys_pictures(site: Path, planted: Path, tmp_path: Path) -> None:
    """The plugin's drawer (``picture``) draws each file with records from its trace (``TRACE``), the
    finding marked at its record (``FormatInfo.finding_index``)."""
    done = recspec(site, "check", f"--report=html:{tmp_path / 'r.html'}", str(planted / "sum.toy"),
                   str(planted / "good.toy"))
    assert done.returncode == 1, done.stderr
    html = (tmp_path / "r.html").read_text()
    assert html.count('aria-label="record values"') == 2
    assert "The values of 3 records" in html
    assert "no-picture" not in html
    # the mark of the checksum finding sits on the timeline (record 2), not in the file strip
    figure = html[html.index("sum.toy"):]
    figure = figure[figure.index("<figure>"):figure.index("</figure>")]
    assert "TOY-CHECKSUM-001" in figure and ">file:<" not in figure


# --- case, encode, dump, explain ------------------------------------------------------------------------------

def test_case_and_encode_round_trip(site: Path, corpus: Path, tmp_path: Path) -> None:
    three = corpus / "valid" / "three.toy"
    assert three.read_bytes() == toy_bytes(THREE)
    done = recspec(site, "case", str(three))
    assert done.returncode == 0, done.stderr
    case = json.loads(done.stdout)
    assert (case["format"], case["variant"], case["version"], case["flags"]) == ("toy", None, 1, 0)
    assert [(r["id"], r["value"]) for r in case["records"]] == THREE
    # a lossless case keeps a wrong checksum; encode writes it at byte 6 of its record
    case["records"][1]["checksum"] = 0x42
    (tmp_path / "case.json").write_text(json.dumps(case))
    done = recspec(site, "encode", str(tmp_path / "case.json"), "-o", str(tmp_path / "out.toy"))
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "out.toy").read_bytes() == toy_bytes(THREE, sums={1: 0x42})


def test_encode_refuses_a_malformed_case_by_its_path(site: Path, tmp_path: Path) -> None:
    bad = {"recspec_case": 2, "format": "toy", "variant": None, "version": 1, "flags": 0,
           "records": [{"id": 1, "value": 2}, {"id": 70000, "value": 1}]}
    (tmp_path / "bad.json").write_text(json.dumps(bad))
    done = recspec(site, "encode", str(tmp_path / "bad.json"), "-o", str(tmp_path / "out.toy"))
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert "records[1].id" in done.stderr
    assert not (tmp_path / "out.toy").exists()


def test_dump_reference_and_kaitai(site: Path, corpus: Path) -> None:
    three = str(corpus / "valid" / "three.toy")
    for extra in ((), ("--ksy",)):
        done = recspec(site, "dump", *extra, three)
        assert done.returncode == 0, done.stderr
        dumped = json.loads(done.stdout)
        assert dumped["header"] == {"version": 1, "flags": 0, "count": 3}
        assert [(r["record_id"], r["value"]) for r in dumped["records"]] == THREE
        assert dumped["records"][1]["checksum"] == sum(struct.pack("<Hi", 2, -5)) % 256


def test_explain_and_rules(site: Path) -> None:
    done = recspec(site, "explain", "toy-reserved-001")
    assert done.returncode == 0, done.stderr
    assert "TOY-RESERVED-001" in done.stdout and "spec error, compat off" in done.stdout
    assert "recspec_toy/docs/toy.md#toy-reserved-001" in done.stdout


def test_reproduce_sets_the_kaitai_reading_beside_the_reference(site: Path, planted: Path) -> None:
    done = recspec(site, "reproduce", str(planted / "sum.toy"))
    assert done.returncode == 0, done.stderr
    assert "TOY-CHECKSUM-001 @30" in done.stdout and "the readings agree" in done.stdout
    assert "kaitai:    accepts (3 records)" in done.stdout
    done = recspec(site, "reproduce", str(planted / "short.toy"))
    assert "kaitai:    rejects" in done.stdout and "TOY-SIZE-001 @20" in done.stdout


# --- corpus ---------------------------------------------------------------------------------------------------

def test_corpus_check_reads_the_plugins_own_corpus(site: Path) -> None:
    done = recspec(site, "corpus", "--format", "toy", "-v")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "toy: 9 files, 18 checks, 18 as expected, 0 not" in done.stdout
    assert "toy/invalid/reserved.toy [compat] valid" in done.stdout
    assert "toy/damaged/magic-zeroed.toy [spec] malformed" in done.stdout  # named by its extension


def test_corpus_check_fails_when_a_file_disagrees_with_the_manifest(site: Path, corpus: Path,
                                                                     tmp_path: Path) -> None:
    copy = tmp_path / "corpora" / "toy"
    shutil.copytree(corpus, copy)
    (copy / "valid" / "three.toy").write_bytes(toy_bytes(THREE, reserved={0: 1}))  # now invalid under spec
    done = recspec(site, "corpus", "--format", "toy", "--dir", str(tmp_path / "corpora"))
    assert done.returncode == 1
    assert "three.toy" in done.stdout + done.stderr and "TOY-RESERVED-001" in done.stdout + done.stderr


def test_corpus_export_writes_the_toys_vectors(site: Path, tmp_path: Path) -> None:
    done = recspec(site, "corpus", "export", str(tmp_path / "vectors"), "--format", "toy")
    assert done.returncode == 0, done.stderr
    manifest = json.loads((tmp_path / "vectors" / "manifest.json").read_text())
    assert "toy/valid/three.toy" in json.dumps(manifest)
    sidecar = json.loads((tmp_path / "vectors" / "toy" / "valid" / "three.toy.json").read_text())
    assert [(r["id"], r["value"]) for r in sidecar["case"]["records"]] == THREE
    assert (tmp_path / "vectors" / "toy" / "invalid" / "truncated.toy").read_bytes() == toy_bytes(THREE)[:27]


# --- drive ----------------------------------------------------------------------------------------------------

def test_drive_writer_passes_a_right_writer_and_fails_a_planted_bug(site: Path) -> None:
    writer = str(TESTEES / "toy_writer.py")
    done = recspec(site, "drive", "writer", "toy", "--max-examples", "10", "--seed", "1", "--",
                   sys.executable, writer, "{case}", "{out}")
    assert done.returncode == 0, done.stdout + done.stderr
    done = recspec(site, "drive", "writer", "toy", "--max-examples", "10", "--seed", "1", "--",
                   sys.executable, writer, "{case}", "{out}", "--bug-reserved")
    assert done.returncode == 1, done.stdout + done.stderr
    assert "TOY-RESERVED-001 @15" in done.stdout  # the smallest case: one record, its reserved byte at 8 + 7


def test_drive_reader_passes_a_right_reader_and_fails_a_planted_bug(site: Path) -> None:
    reader = str(TESTEES / "toy_reader.py")
    done = recspec(site, "drive", "reader", "toy", "--max-examples", "10", "--seed", "1", "--",
                   sys.executable, reader, "{file}")
    assert done.returncode == 0, done.stdout + done.stderr
    done = recspec(site, "drive", "reader", "toy", "--max-examples", "10", "--seed", "1", "--",
                   sys.executable, reader, "{file}", "--bug-trailing")
    assert done.returncode == 1, done.stdout + done.stderr
    assert "DRIVE-READER-006" in done.stdout and "TOY-SIZE-001" in done.stdout


def test_the_toys_drive_cases_encode_to_valid_files(site: Path) -> None:
    """The plugin's ``drive_cases`` member (what drive hands a writer): each drawn case is one the reference
    encodes, into a file the checker finds valid under both profiles, and its field paths drop the index."""
    code = """
import io, json
from hypothesis import given, settings
from recspec.formats import FORMATS
info = FORMATS["toy"]
plugin, codec = info.load(), info.load_reference()
sizes = []
@settings(max_examples=30, database=None)
@given(plugin.drive_cases(None, "spec", 3))
def run(case):
    data = codec.encode(codec.from_case(case))
    sizes.append(len(case["records"]))
    assert len(data) == 8 + 8 * len(case["records"])
    for profile in ("spec", "compat"):
        r = plugin.check(io.BytesIO(data), path="x.toy", variant=None, profile=profile, size=len(data),
                         cross_check=True)
        assert r.verdict.value == "valid", [f.rule for f in r.findings]
run()
print(json.dumps([max(sizes), plugin.field_path("records[3].value"), list(plugin.EQUIVALENCES)]))
"""
    done = python(site, code)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == [3, "records.value", []]


# --- fuzz -----------------------------------------------------------------------------------------------------

def test_the_fuzz_harnesses_hold_on_mutants(site: Path) -> None:
    """The harness module satisfies ``recspec.fuzz.FuzzHarness``; each target holds on the synthetic seeds
    and 300 mutants of them (the structure-aware mutator and the byte mutator)."""
    code = """
import json, random
from recspec.formats import FORMATS
from recspec.fuzz import FuzzHarness
mod = FORMATS["toy"].load_fuzz()
assert isinstance(mod, FuzzHarness)
seeds = [d for _, d in mod.synthetic_seeds()]
ran = 0
for i in range(300):
    data = mod.mutate(seeds[i % len(seeds)], 256, i)
    assert len(data) <= 256 and data == mod.mutate(seeds[i % len(seeds)], 256, i)
    for target in mod.TARGETS.values():
        target(data)
        ran += 1
print(json.dumps([sorted(mod.TARGETS), ran, mod.EXTENSION]))
"""
    done = python(site, code)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == [["diff", "ksy", "ref"], 900, ".toy"]


def test_the_ref_harness_catches_a_checker_that_disagrees_with_the_decoder(site: Path) -> None:
    """The ref target is not vacuous: a file the decoder refuses but a broken checker passes is a
    ContractViolation."""
    code = """
from recspec.formats import FORMATS
mod = FORMATS["toy"].load_fuzz()
import recspec_toy.fuzz as h
from recspec.report import Verdict
real = h.check_bytes
def lenient(data, **kw):
    r = real(data, **kw)
    r.verdict = Verdict.VALID
    return r
h.check_bytes = lenient
try:
    mod.fuzz_ref(b"TOYF\\x01\\x00\\x01\\x00")  # one record announced, none there
except mod.ContractViolation as e:
    print("caught:", e)
"""
    done = python(site, code)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("caught: decode refuses (TOY-SIZE-001")


def test_a_short_fuzz_campaign(site: Path, tmp_path: Path) -> None:
    pytest.importorskip("atheris", reason="atheris is not installed (pip install -e '.[fuzz]'): no campaign")
    done = recspec(site, "fuzz", "toy", "--target", "ref", "--time", "5", "--out", str(tmp_path / "crashes"),
                   timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "recspec fuzz toy --target ref" in done.stdout + done.stderr
    assert "no new crashes" in done.stdout + done.stderr
    crashes = tmp_path / "crashes"
    assert not crashes.exists() or not any(crashes.iterdir())


# --- the plugin's own generated parts -------------------------------------------------------------------------

@pytest.mark.requires_node
def test_the_committed_parser_is_what_the_pinned_compiler_makes_of_the_ksy(tmp_path: Path) -> None:
    gen = load_script("tools/generate_parsers.py", "_recspec_generate_parsers")
    ksy = PLUGIN / "recspec_toy" / "ksy" / "toy.ksy"
    written = gen.generate(tmp_path, [ksy.relative_to(ROOT)], debug=False)
    assert [p.name for p in written] == ["toy.py"]
    assert (tmp_path / "toy.py").read_text() == (PLUGIN / "recspec_toy" / "_ksy" / "toy.py").read_text(), \
        "recspec_toy/_ksy/toy.py differs from the compiler's output: regenerate it (ARCHITECTURE.md, Adding a format)"


def test_the_committed_corpus_is_what_the_seeds_build(site: Path) -> None:
    done = subprocess.run([sys.executable, str(PLUGIN / "make_corpus.py"), "--check"], capture_output=True,
                          text=True, env=_env(PLUGIN, site))
    assert done.returncode == 0, done.stderr


def test_the_toy_fulfils_the_format_contract(site: Path) -> None:
    """Every member of recspec.formats' protocols, as tests/test_format_contract.py asks of the built-ins."""
    code = """
import json
from recspec.formats import FORMATS, FormatModule, KaitaiComparison, ReferenceCodec
def members(protocol):
    return {n for n in vars(protocol) if not n.startswith("_")} | set(getattr(protocol, "__annotations__", {}))
info = FORMATS["toy"]
plugin, codec = info.load(), info.load_reference()
missing = sorted(n for n in members(FormatModule) if not hasattr(plugin, n))
missing += sorted("KAITAI." + n for n in members(KaitaiComparison) if not hasattr(plugin.KAITAI, n))
missing += sorted("codec." + n for n in members(ReferenceCodec) if not hasattr(codec, n))
from recspec_toy.conformance._sniff import MAGIC
from recspec._case_json import CaseError
from pathlib import Path
ex = plugin.EXAMPLES
case, path = ex.malformed_case
try:
    codec.from_case(case)
    missing += ["EXAMPLES.malformed_case: accepted"]
except CaseError as e:
    missing += [] if e.path == path else ["EXAMPLES.malformed_case: " + e.path]
missing += [] if (Path(info.corpus) / "valid" / ex.valid_file).is_file() else ["EXAMPLES.valid_file"]
missing += [] if ex.explain[0] in plugin.RULES_BY_ID else ["EXAMPLES.explain"]
print(json.dumps([missing, codec.iter_records is codec.iter_units, codec.UNIT, MAGIC == codec.MAGIC,
                  plugin.KAITAI.rule in plugin.RULES_BY_ID, sorted(plugin.STRATEGIES)]))
"""
    done = python(site, code)
    assert done.returncode == 0, done.stderr
    missing, same, unit, magic, xcheck, strategies = json.loads(done.stdout)
    assert missing == [] and same and unit == "record" and magic and xcheck
    assert strategies == ["toy_cases", "toy_files", "toy_models"]


def test_the_shared_contract_test_passes_on_the_toy(site: Path) -> None:
    """tests/test_format_contract.py itself, run with the toy installed, on the toy's entries: it finds the toy's
    code, corpus and document through the registry entry, not under recspec's checkout."""
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-k", "toy",
                           str(ROOT / "tests" / "test_format_contract.py")], capture_output=True, text=True,
                          env=_env(site), cwd=ROOT, timeout=300)
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    # every contract test parametrised over all the formats ran on the toy and passed
    per_format = (ROOT / "tests" / "test_format_contract.py").read_text().count('parametrize("info", FORMAT_INFOS,')
    assert per_format and f"{per_format} passed" in done.stdout, done.stdout[-2000:]


def test_a_campaign_seeds_from_the_toys_own_corpus_and_saves_crashes_there(site: Path, corpus: Path,
                                                                           tmp_path: Path) -> None:
    """The seed corpus of ``recspec fuzz toy`` is the registry's ``FormatInfo.corpus`` folder: every file of its
    valid/ and invalid/ is read (and none of recspec's own corpus/); crashes and merged inputs go beside them."""
    code = """
import io, json, sys
from pathlib import Path
from recspec.formats import FORMATS
from recspec.fuzz import _paths
from recspec.fuzz._seeds import prepare_corpus
mod = FORMATS["toy"].load_fuzz()
read, written = prepare_corpus(mod, "toy", Path(sys.argv[1]), 1 << 20, (), io.StringIO())
print(json.dumps([str(_paths.corpus_dir("toy")), str(_paths.default_crash_dir("toy")),
                  str(_paths.default_merge_dir("toy")), read, written]))
"""
    done = python(site, code, str(tmp_path / "work"))
    assert done.returncode == 0, done.stderr
    where, crashes, merged, read, written = json.loads(done.stdout)
    assert Path(where) == corpus and Path(crashes) == corpus / "regressions" and Path(merged) == corpus / "fuzz"
    seeds = [p for sub in ("valid", "invalid", "regressions", "fuzz") if (corpus / sub).is_dir()
             for p in (corpus / sub).rglob("*") if p.is_file() and p.suffix != ".json"]
    assert seeds and read == len(seeds)
    assert written >= len({p.read_bytes() for p in seeds if p.stat().st_size})
