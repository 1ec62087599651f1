"""A witness for every rule: for each catalogued rule, a strategy draws files that break
exactly that rule (otherwise valid under the rule's profile), and the property checks
that the rule fires at the offset and path where the break is.

The witnesses live in tests/witness_<package>.py (the format's package name, found by
that name for every registered format), each with its ``UNWITNESSABLE`` rules and the
reason no file can break them; ``test_every_rule_has_a_witness`` keeps both lists exact
against the catalog.
"""

from __future__ import annotations

import contextlib
import importlib
import io
from unittest import mock

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from witness_common import Witness

from recspec.catalog import all_rules
from recspec.formats import FORMATS
from recspec.pipeline import check_stream
from recspec.report import CORE_RULES, Severity

#: format id -> its witness module (tests/witness_<package>.py); a format without one is a failure to import
MODULES = {fid: importlib.import_module(f"witness_{info.package}") for fid, info in FORMATS.items()}

#: recspec's own rules, which no file's content breaks
CORE_UNWITNESSABLE = {
    "RECSPEC-UNRECOGNIZED": "not a format's rule: it names a file no format claims (tests/test_pipeline.py)",
    "RECSPEC-INTERNAL": "fires when recspec itself raises: a bug in recspec, not a property of a file",
    "RECSPEC-TIMEOUT": "fires when the per-file time limit runs out: a property of the run, not of the file",
    "RECSPEC-STALE-EXPECTATION": "judges an expectations file against a report, not a recording",
}

WITNESSES = {rule: (fid, make) for fid, module in MODULES.items() for rule, make in module.WITNESSES.items()}
UNWITNESSABLE = {**CORE_UNWITNESSABLE, **{r: why for m in MODULES.values() for r, why in m.UNWITNESSABLE.items()}}
LOUD = (Severity.ERROR, Severity.WARNING)


def test_every_rule_has_a_witness() -> None:
    catalog = {rule.id for _, rule in all_rules()}
    assert not set(WITNESSES) & set(UNWITNESSABLE)
    assert sorted(catalog - set(WITNESSES) - set(UNWITNESSABLE)) == [], "rules without a witness"
    assert sorted((set(WITNESSES) | set(UNWITNESSABLE)) - catalog) == [], "witnesses of rules not in the catalog"
    assert {r.id for r in CORE_RULES} == set(CORE_UNWITNESSABLE)


def check_witness(fid: str, w: Witness) -> None:
    info = FORMATS[fid]
    rules = info.load().RULES_BY_ID
    with contextlib.ExitStack() as limits:
        for module, name, value in w.limits:
            limits.enter_context(mock.patch.object(importlib.import_module(module), name, value))
        report = check_stream(io.BytesIO(w.data), name=w.name, size=len(w.data), fmt=info, variant=w.variant,
                              profile=w.profile, cross_check=False)
    level = rules[w.rule].levels[w.profile]
    assert level is not Severity.OFF, f"{w.rule} is off under {w.profile}: the witness picked the wrong profile"
    hits = [(f.offset, f.path) for f in report.findings if f.rule == w.rule]
    assert (w.offset, w.path) in hits, f"{w.rule} not reported at @{w.offset} {w.path!r}; its findings: {hits}"
    others = sorted({f.rule for f in report.findings if f.severity in LOUD} - {w.rule} - w.also)
    assert others == [], f"the witness of {w.rule} breaks other rules too"


@pytest.mark.parametrize("rule", sorted(WITNESSES))
@settings(suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much, HealthCheck.data_too_large])
@given(data=st.data())
def test_witness_fires_where_the_break_is(rule: str, data: st.DataObject) -> None:
    fid, make = WITNESSES[rule]
    w = data.draw(make(), label="witness")
    assert w.rule == rule
    check_witness(fid, w)


@pytest.mark.parametrize("fid", sorted(MODULES))
@settings(suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_the_unbroken_files_break_no_rule(fid: str, data: st.DataObject) -> None:
    # the witnesses' starting points: a witness that breaks its rule in an already broken file proves nothing
    w = data.draw(MODULES[fid].valid_files(), label="file")
    info = FORMATS[fid]
    report = check_stream(io.BytesIO(w.data), name=w.name, size=len(w.data), fmt=info, variant=w.variant,
                          profile=w.profile, cross_check=False)
    assert [(f.rule, f.offset, f.path) for f in report.findings if f.severity in LOUD] == []
