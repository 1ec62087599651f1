"""The ``ref`` harnesses' second opinion (fuzz/_oracles.py ``rederived`` and ``model-view``).

Each harness re-derives, from the reference decoder's model and with a few lines of its
own, facts the format document states (fuzz/<format>.py ``rederived``), and raSkat's harness
reads the body's fields with the ``msgpack`` package and ``struct`` at the document's
positions (``read_fields``). These tests show that:

* the oracles hold on every real file (no false alarm; the corpus seeds are run by
  tests/test_fuzz_oracles.py);
* a lost finding fires ``Invariant:rederived:<rule>``: the checker's findings of one rule are
  dropped (``FindingSink.add``/``count`` patched), and the harness is run on that rule's witness
  (tests/witness_<format>.py, files drawn to break exactly that rule);
* a spurious finding fires it too (a range check patched to always complain, on a valid file);
* a model that reads a field wrong fires ``Invariant:model-view:<field>``.

Those are each format's facts, in its own tests/test_<package>_second_opinion.py (the rules each harness
judges, listed from its format document, not taken from the harness, so that a rule dropped from a
``rederived`` fails a test; its witnesses; its real files), with the shared steps in tests/second_opinion.py.
Here: the two invariants themselves, on reports and views made up for them.
"""

from __future__ import annotations

import pytest

from recspec.formats import FORMATS
from recspec.fuzz._oracles import InvariantBroken, check_model_view, check_rederived
from recspec.report import FileReport, ProfileVerdict, Verdict

# --- the invariants themselves -------------------------------------------------------------------------


def _report(rules: dict[str, int]) -> FileReport:
    r = FileReport("x", next(iter(FORMATS)), None, "spec", Verdict.INVALID if rules else Verdict.VALID, [])
    r.verdicts = {"spec": ProfileVerdict(r.verdict, rules), "compat": ProfileVerdict(r.verdict, {})}
    return r


def test_rederived_reads_the_counts_of_every_profile() -> None:
    check_rederived(_report({"CARLA-FRAME-003": 1}), lambda: {"CARLA-FRAME-003": "ids 1, 3"})
    check_rederived(_report({}), lambda: {"CARLA-FRAME-003": None, "CARLA-FRAME-004": None})
    with pytest.raises(InvariantBroken) as lost:
        check_rederived(_report({}), lambda: {"CARLA-FRAME-003": "ids 1, 3"})
    assert lost.value.signature() == "Invariant:rederived:CARLA-FRAME-003"
    with pytest.raises(InvariantBroken) as spurious:
        check_rederived(_report({"CARLA-FRAME-004": 2}), lambda: {"CARLA-FRAME-004": None})
    assert spurious.value.signature() == "Invariant:rederived:CARLA-FRAME-004"


def test_model_view_compares_by_repr() -> None:
    check_model_view(lambda: ({"vref": float("nan")}, {"vref": float("nan")}))
    check_model_view(lambda: None)
    with pytest.raises(InvariantBroken) as e:
        check_model_view(lambda: ({"flags": True}, {"flags": 1}))
    assert e.value.signature() == "Invariant:model-view:flags"
