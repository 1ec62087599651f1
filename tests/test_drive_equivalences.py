"""`recspec drive` judges a read-back case by the profile's value equivalences (recspec/drive/_equivalences.py):
under compat, what `recspec check --profile compat` accepts as the same value; under spec, exact.

The writers of each format's own file (tests/test_<package>_drive_equivalences.py) store values the way real
writers do and the compat profile accepts: raSkat's C++ writer packs a whole-number double as a MessagePack
integer (RSIG-FIELDS-003), a Matrix-SMT writer stores whole numbers as integers (docs/formats/matrix-smt.md
decision 2: -0.0 becomes 0), NanoVer's Python recorder writes an empty array as an index array
(NANOVER-FRAME-006). Each passes `drive --profile compat` and fails `--profile spec`; there too, each
format's equivalences value by value, and the reference codec passing compat with nothing excused. Here, the
table of every format's equivalences and what those files share."""

from __future__ import annotations

import sys
from typing import Any

from helpers import REPO, TESTEES, drive_report
from recspec.drive._cases import compare
from recspec.drive._equivalences import all_equivalences
from recspec.formats import FORMATS
from recspec.report import Severity

PY = sys.executable


def _error_rules(report: dict[str, Any]) -> set[str]:
    return {f["rule"] for fr in report["files"] for f in fr["findings"] if f["severity"] == "error"}


def test_spec_has_no_equivalence_and_each_basis_is_below_an_error_under_its_profiles() -> None:
    assert all("spec" not in e.profiles for e in all_equivalences())
    for e in all_equivalences():
        assert e.format in FORMATS and e.explanation
        if e.basis.startswith("docs/"):
            path, anchor = e.basis.split("#")
            assert f'id="{anchor}"' in (REPO / path).read_text(encoding="utf-8")
            continue
        rule = FORMATS[e.format].load().RULES_BY_ID[e.basis]
        for profile in e.profiles:
            assert rule.level(profile) is not Severity.ERROR, (e.name, profile)
        assert rule.level("spec") is not rule.level("compat") or rule.level("spec") is not Severity.ERROR


def _same(fmt: str, profile: str, expected: Any, actual: Any) -> bool:
    return compare(FORMATS[fmt], expected, actual, (), profile) is None


def reference_codec_passes_compat(fmt: str, variant: str | None) -> None:
    """The reference codec as a writer of ``variant`` passes ``drive --profile compat`` with nothing excused (each
    format's test_<package>_drive_equivalences.py runs it on one variant)."""
    pick = ["--variant", variant] if variant else []
    code, report = drive_report("writer", fmt, *pick, "--profile", "compat", "--max-examples", "10", "--seed", "3",
                                "--", PY, str(TESTEES / "reference_writer.py"), "{case}", "{out}", "compat")
    assert code == 0, report
    assert not report["files"][0].get("known_deviations")
