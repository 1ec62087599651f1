"""What every plugin's entry points share (``conformance/_plugin.py``), held to README.md: in a run of more than
256 files the default cross-check reads about 1 file in 16, chosen by a CRC-32 of the path, and every malformed
file; a file above the cross-check limit says it was skipped; ``recspec dump``'s JSON streams one unit a line
and ends with the decode error where there is one; a plugin's members load on first use."""

from __future__ import annotations

import gc
import io
import json
import sys
import textwrap
import zlib
from pathlib import Path

import pytest

from recspec.conformance import _plugin
from recspec.errors import DecodeError
from recspec.report import SAMPLED_OUT, FileReport, Verdict

PATHS = [f"run/{i:03d}.bin" for i in range(200)]


def _report(path: str, verdict: Verdict = Verdict.VALID) -> FileReport:
    return FileReport(path=path, format=None, variant=None, profile="spec", verdict=verdict)


def _read(path: str) -> bool:
    """Whether README's sample reads this path: a CRC-32 of 0 modulo 16."""
    return zlib.crc32(path.encode()) % 16 == 0


def test_the_readmes_sample_sizes() -> None:
    assert (_plugin.RUN_SAMPLE_FROM, _plugin.RUN_SAMPLE) == (256, 16)
    assert 0 < sum(map(_read, PATHS)) < len(PATHS)  # both kinds of path below


def test_a_run_of_more_than_256_files_reads_the_paths_whose_crc32_is_0_modulo_16() -> None:
    for run_files in (257, 10_000):
        left_out = {p for p in PATHS if _plugin.run_sampled_out(_report(p), run_files)}
        assert left_out == {p for p in PATHS if not _read(p)}


@pytest.mark.parametrize("run_files", [None, 1, 255, 256])
def test_a_file_alone_or_a_run_of_up_to_256_files_reads_every_file(run_files: int | None) -> None:
    assert not any(_plugin.run_sampled_out(_report(p), run_files) for p in PATHS)


def test_every_malformed_file_is_read_in_a_long_run() -> None:
    assert not any(_plugin.run_sampled_out(_report(p, Verdict.MALFORMED), 10_000) for p in PATHS)
    assert any(_plugin.run_sampled_out(_report(p, Verdict.INVALID), 10_000) for p in PATHS)


def _cross_check(size: int, limit: int = 1 << 20, **kw) -> tuple[FileReport, list[bool]]:
    """The report and, per run of the cross-check, whether the collector was on during it."""
    report = _report(kw.pop("path", PATHS[0]))
    ran: list[bool] = []
    _plugin.cross_check_within(report, enabled=kw.pop("enabled", True), size=size, limit=limit,
                               run=lambda: ran.append(gc.isenabled()), **kw)
    return report, ran


def test_a_file_up_to_the_limit_is_cross_checked_and_one_byte_more_is_skipped_saying_why() -> None:
    report, ran = _cross_check(1000, limit=1000)
    assert len(ran) == 1 and "cross_check" not in report.evidence
    report, ran = _cross_check(1001, limit=1000, reason="the parser's memory")
    assert ran == []
    assert report.evidence["cross_check"] == (
        "skipped: 1001 bytes is above the cross-check limit of 1000 bytes (the parser's memory)")
    report, _ = _cross_check(1001, limit=1000)
    assert report.evidence["cross_check"] == "skipped: 1001 bytes is above the cross-check limit of 1000 bytes"


def test_a_disabled_cross_check_runs_nothing_and_says_nothing() -> None:
    report, ran = _cross_check(10, enabled=False)
    assert ran == [] and report.evidence == {}


def test_the_default_cross_check_leaves_out_what_the_sample_leaves_out_and_says_so() -> None:
    out = next(p for p in PATHS if not _read(p))
    report, ran = _cross_check(10, path=out, sampled=True, run_files=10_000)
    assert ran == [] and report.evidence["cross_check"].startswith(SAMPLED_OUT)
    assert "1 file in 16" in report.evidence["cross_check"] and "256" in report.evidence["cross_check"]
    # not the default (--cross-check full), or not in a run: every file is read
    assert _cross_check(10, path=out, sampled=False, run_files=10_000)[1] == [False]
    assert _cross_check(10, path=out, sampled=True, run_files=None)[1] == [False]
    assert _cross_check(10, path=next(p for p in PATHS if _read(p)), sampled=True, run_files=10_000)[1] == [False]


def test_a_file_of_up_to_64_kib_is_cross_checked_with_the_collector_off() -> None:
    was = gc.isenabled()
    gc.enable()  # as a run starts it; the check of a caller's collector left off is test_cross_check_collector's
    try:
        _small_and_large_cross_checks()
    finally:
        if not was:
            gc.disable()


def _small_and_large_cross_checks() -> None:
    assert _cross_check(64 * 1024)[1] == [False]
    assert _cross_check(64 * 1024 + 1)[1] == [True]
    assert gc.isenabled()


def _error() -> DecodeError:
    return DecodeError("a length field past the end", 12, "units[1].length", rule="X-LENGTH-001")


def test_a_decode_error_as_dump_prints_it() -> None:
    assert _plugin.decode_error_json(_error()) == {"rule": "X-LENGTH-001", "message": "a length field past the end",
                                                   "offset": 12}
    assert _plugin.decode_error_json(_error(), path=True)["path"] == "units[1].length"


def _dump(items) -> str:
    out = io.StringIO()
    _plugin.dump_json_stream(out, '{"format": "x",\n', "units", items)
    return out.getvalue()


def test_dump_streams_one_unit_a_line_and_ends_with_the_error() -> None:
    text = _dump(iter([{"a": 1}, {"b": [2]}]))
    assert json.loads(text) == {"format": "x", "units": [{"a": 1}, {"b": [2]}]}
    assert text.splitlines()[1:4] == [' "units": [', '  {"a": 1},', '  {"b": [2]}']

    def failing():
        yield {"a": 1}
        raise _error()

    assert json.loads(_dump(failing())) == {
        "format": "x", "units": [{"a": 1}],
        "error": {"rule": "X-LENGTH-001", "message": "a length field past the end", "offset": 12}}
    assert json.loads(_dump(iter([]))) == {"format": "x", "units": []}


@pytest.fixture
def package(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """A plugin package of its own whose members load lazily: the contract's RULES, an extra member, the
    strategies and the seeds, each in its own submodule."""
    root = tmp_path / "lazy_plugin_pkg"
    root.mkdir()
    (root / "__init__.py").write_text(textwrap.dedent("""
        from recspec.conformance._plugin import lazy_members
        __getattr__ = lazy_members(__name__, {"EXTRA": "_extra"})
    """))
    (root / "_rules.py").write_text("RULES = ('rule one',)\n")
    (root / "_extra.py").write_text("EXTRA = 42\n")
    (root / "_strategies.py").write_text("__all__ = ['cases', 'files']\ncases = 1\nfiles = 2\nhidden = 3\n")
    (root / "_seeds.py").write_text("def seeds():\n    return ['seed']\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    import importlib

    yield importlib.import_module("lazy_plugin_pkg")
    for name in [n for n in sys.modules if n.startswith("lazy_plugin_pkg")]:
        del sys.modules[name]


def test_a_plugins_members_load_on_first_use(package) -> None:
    assert "lazy_plugin_pkg._rules" not in sys.modules
    assert package.RULES == ("rule one",)
    assert "lazy_plugin_pkg._rules" in sys.modules and vars(package)["RULES"] == ("rule one",)  # a plain attribute now
    assert package.EXTRA == 42
    assert package.STRATEGIES == {"cases": 1, "files": 2}
    assert package.seeds() == ["seed"]


def test_a_name_no_table_holds_is_an_attribute_error(package) -> None:
    with pytest.raises(AttributeError, match="'lazy_plugin_pkg' has no attribute 'NOTHING'"):
        package.NOTHING  # noqa: B018
    assert not hasattr(package, "MISSING")
