"""Start-up: recognising a file imports only the formats' light sniff modules, and the
command line imports nothing heavy before it knows what to check.

Speed itself is measured by ``benchmarks/bench_ratios.py`` (the start-up row); these
tests hold the structure that makes it fast."""

from __future__ import annotations

import importlib
import json
import subprocess
import sys

import pytest

from recspec.conformance.corpus import corpus_folder
from recspec.formats import FORMATS, FormatInfo

_PROBE = """
import json, sys
from recspec.formats import sniff
head = open(sys.argv[1], "rb").read(4096)
info, score = sniff(head, sys.argv[1])
print(json.dumps({"format": info.id if info else None,
                  "modules": sorted(m for m in sys.modules if m.startswith(("recspec.", "google.", "kaitaistruct",
                                                                            "bson", "msgpack", "multiprocessing")))}))
"""


@pytest.mark.parametrize("fmt", list(FORMATS))
def test_sniffing_imports_no_checker_no_codec_and_no_protobuf(fmt: str) -> None:
    sample = next(p for p in sorted((corpus_folder(fmt) / "valid").iterdir()) if p.is_file())
    out = json.loads(subprocess.run([sys.executable, "-c", _PROBE, str(sample)], capture_output=True, text=True,
                                    check=True).stdout)
    assert out["format"] == fmt
    heavy = [m for m in out["modules"] if m.startswith(("recspec.reference", "google.", "kaitaistruct", "bson",
                                                        "msgpack", "multiprocessing"))
             or m.endswith(("._check", "._format", "._xcheck", "._rules", "._detect"))]
    assert heavy == [], heavy


def test_the_cli_module_imports_no_multiprocessing() -> None:
    probe = "import sys, recspec.cli; print(json.dumps(sorted(sys.modules)))"
    mods = json.loads(subprocess.run([sys.executable, "-c", "import json; " + probe], capture_output=True, text=True,
                                     check=True).stdout)
    assert "multiprocessing" not in mods  # a serial run never starts a worker
    plugins = tuple(f"{info.module}._" for info in FORMATS.values())
    assert not [m for m in mods if m.startswith("recspec.reference") or m.startswith(plugins)]


@pytest.mark.parametrize("info", [i for i in FORMATS.values() if i.reference_module.startswith("recspec.reference.")],
                         ids=lambda i: i.id)
def test_the_reference_case_codec_loads_on_first_use(info: FormatInfo) -> None:
    # the built-in codecs' case names stay their package's public surface, loaded from its _case module when
    # asked for (a check never asks)
    codec = importlib.import_module(info.reference_module)
    case_module = importlib.import_module(info.reference_module + "._case")
    for name in ("to_case", "from_case", "case_schema", "CASE_TOLERANCES", "CASE_TOLERANCE_CHECKS"):
        assert name in codec.__all__ and getattr(codec, name) is getattr(case_module, name)
    with pytest.raises(AttributeError):
        codec.no_such_name  # noqa: B018


@pytest.mark.parametrize("info", list(FORMATS.values()), ids=lambda i: i.id)
def test_the_plugin_members_still_load_on_first_use(info: FormatInfo) -> None:
    plugin = importlib.import_module(info.module)

    assert callable(plugin.check) and plugin.RULES
    assert plugin.KAITAI.rule in plugin.RULES_BY_ID and plugin.KAITAI.rule.endswith("-XCHECK-001")


_CHECK_PROBE = """
import contextlib, io, json, sys
from recspec.cli import main
with contextlib.redirect_stdout(io.StringIO()):
    code = main(["check", sys.argv[1]])
print(json.dumps({"code": code, "modules": sorted(sys.modules)}))
"""


@pytest.mark.parametrize("fmt", list(FORMATS))
def test_a_serial_check_of_one_file_imports_no_process_no_hash_and_no_debug_parser(fmt: str) -> None:
    # what only other commands or options need: subprocess (recspec drive's testee; -j N uses
    # multiprocessing, see above), hashlib (--shard; it loads OpenSSL), the parsers' debug builds
    # (dump --ksy), difflib (the suggestion for a misspelt name), the reference's case codec (recspec case,
    # encode, drive). Each cost 1-3 ms of every run's start-up (the case codec more without a bytecode cache).
    sample = next(p for p in sorted((corpus_folder(fmt) / "valid").iterdir()) if p.is_file())
    out = json.loads(subprocess.run([sys.executable, "-c", _CHECK_PROBE, str(sample)], capture_output=True,
                                    text=True, check=True).stdout)
    assert out["code"] in (0, 1)  # a verdict (1: a finding under spec), not a usage or input error
    mods = out["modules"]
    assert "recspec.conformance." + FORMATS[fmt].package + "._xcheck" in mods  # the check and its cross-check ran
    unneeded = [m for m in mods if m in ("subprocess", "hashlib", "multiprocessing", "recspec.drive._testee", "difflib",
                                         "recspec._case_json", *_SERIAL_RUN_LEAVES_OUT)
                or m.startswith("recspec._ksy.") or m.endswith("._case")]
    assert unneeded == [], unneeded


#: What a `check` without -j N, --timeout or --expectations never uses: the worker pool (recspec/_parallel.py;
#: -j N and --timeout), the known deviations (recspec/expectations.py; --expectations), traceback (the line a
#: recspec bug's crash report quotes), textwrap (the help's and `recspec explain`'s paragraphs), the report
#: writers and the JSON and hexdump renderers (--report, --json, `recspec reproduce`), the classes of the formats'
#: seeds, damaged headers, equivalences and examples (the corpus tools, the shared tests, `recspec drive`).
_SERIAL_RUN_LEAVES_OUT = ("recspec._parallel", "recspec.expectations", "traceback", "textwrap",
                          "recspec.render._atomic", "recspec.render._write", "recspec.render._json",
                          "recspec.render._hexdump", "recspec._plugin_data")

_COMMAND_PROBE = """
import contextlib, io, sys
from recspec.cli import main
with contextlib.redirect_stdout(io.StringIO()):
    try:
        code = main(sys.argv[1:])
    except SystemExit as e:  # --help
        code = e.code
modules = sorted(sys.modules)  # before this probe imports json
import json
print(json.dumps({"code": code, "modules": modules}))
"""


@pytest.mark.parametrize("argv", [["--help"], ["check", "--help"], ["rules"], ["explain", "RECSPEC-INTERNAL"]],
                         ids=" ".join)
def test_a_command_that_checks_nothing_imports_no_run_machinery(argv: list[str]) -> None:
    # the first command a user types: neither the worker pool nor the temporary stores of a run (tempfile,
    # with random and weakref), nor a format's checker or codec (`rules` reads the plugins' rule tables)
    out = json.loads(subprocess.run([sys.executable, "-c", _COMMAND_PROBE, *argv], capture_output=True, text=True,
                                    check=True).stdout)
    assert out["code"] in (0, None)
    mods = out["modules"]
    plugins = tuple(f"{info.module}.{part}" for info in FORMATS.values() for part in ("_check", "_xcheck", "_format"))
    wraps_text = "--help" in argv or argv[0] == "explain"  # textwrap is theirs
    leaves_out = [m for m in _SERIAL_RUN_LEAVES_OUT if not (m == "textwrap" and wraps_text)]
    if "--help" in argv:
        leaves_out.append("json")  # the formats' plugins import it (`rules`, `explain`), the help loads none
    # the pipeline and the walk: no file is read (recspec.trace: the pictures' collection, the pipeline's)
    leaves_out += ["recspec.pipeline", "recspec.shard", "recspec.trace"]
    unneeded = [m for m in mods if m in ("multiprocessing", "subprocess", "hashlib", "tempfile", "difflib", *leaves_out)
                or m.startswith(("recspec.reference", "recspec._ksy", *plugins))]
    assert unneeded == [], unneeded


def test_the_contract_data_classes_are_the_registry_module_names() -> None:
    # recspec.formats gives them from recspec/_plugin_data.py on first use: the same classes either way
    import recspec._plugin_data as plugin_data
    import recspec.formats as formats

    for name in ("Seed", "HeaderDamage", "Equivalence", "FormatExamples"):
        assert name in formats.__all__ and getattr(formats, name) is getattr(plugin_data, name)
    with pytest.raises(AttributeError):
        formats.NoSuchName  # noqa: B018
