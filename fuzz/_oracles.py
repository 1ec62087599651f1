"""Invariants of a report and of the reference codec that the ``ref`` harnesses assert
besides "nothing raises": each one is broken by a bug in a rule or a decoder that an
exception-free run hides (a missing, wrong or mislocated finding).

* **located**: every finding's offset and span lie inside the file (``0 <= offset``,
  ``offset + length <= size``), and the unit its path names (a frame, a record) is one
  the walk counted;
* **profiles**: the spec verdict is never better than the compat verdict (spec is the
  stricter profile; a format where the two read the bytes differently says so);
* **refusal**: the verdict is malformed exactly when the reference decoder refuses the
  bytes, except for structural rules the decoder keeps on purpose (listed per format,
  with the reason);
* **round trip**: a file the checker calls valid decodes, and re-encodes to itself or to
  its canonical form, which checks valid too;
* **second opinion** (``rederived``): facts the format document states (a count, an order, a range,
  a set of live ids) re-derived by the harness from the reference decoder's model with a few lines
  of its own, sharing nothing with the checker: a rule whose fact holds must have fired, and one
  whose fact does not hold must not have (a deleted, weakened or inverted rule, a lost finding in a
  bulk path, or a decoder that reads a field wrong, which the two readings then disagree on);
* **recounted** (``check_recounted``, Matrix-SMT): the second opinion's count of a rule's findings
  (per profile, the true totals) for rules each break of which is one finding: a finding lost in one
  unit while another unit still breaks the rule (a fast or bulk path, a running maximum) changes it;
* **model view** (``model-view``): the decoded model's named fields equal an independent reading of
  the same bytes at the positions the format document gives (a property that returns the wrong
  field, two fields swapped by the decoder; Matrix-SMT: the reference BSON decoder's document against
  pymongo's reading of the same bytes, a refusal by pymongo included, and the typed recording against
  that document; NanoVer: every key and value against protobuf's parse of each payload; CARLA: the
  header's strings and the variable-size records; raSkat: the samples too);
* **paths agree**: the checker's fast paths give the report of the locating walk (checked on a
  fixed eighth of the inputs, chosen by a hash of their bytes so that a crash reproduces: the
  walk costs as much as the check again).

A broken invariant raises :class:`InvariantBroken`, signed by the invariant and the rule
involved, so the runner saves one input per distinct bug and ``recspec fuzz --triage``
groups them like any other crash.
"""

from __future__ import annotations

import functools
import re
import zlib
from collections.abc import Callable, Collection, Mapping
from typing import Any

from recspec.report import FileReport, Verdict

from ._contract import ContractViolation

__all__ = [
    "InvariantBroken",
    "check_located",
    "check_model_view",
    "check_paths_agree",
    "check_profiles",
    "check_recounted",
    "check_rederived",
    "check_refusal",
    "check_round_trip",
    "fired_rules",
    "sampled",
]

#: How bad a verdict is, for comparing the profiles' verdicts.
_RANK = {Verdict.VALID: 0, Verdict.INVALID: 1, Verdict.MALFORMED: 2}


class InvariantBroken(ContractViolation):
    """A ``ref`` harness invariant does not hold: signed ``Invariant:<name>:<rule>``."""

    def __init__(self, invariant: str, message: str, variant: str | None = None, rule: str = "") -> None:
        super().__init__(f"invariant {invariant} broken: {message}", variant)
        self.invariant = invariant
        self.detail = message
        self.rule = rule

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), (self.invariant, self.detail, self.variant, self.rule))

    def signature(self) -> str:
        return f"Invariant:{self.invariant}:{self.rule}" if self.rule else f"Invariant:{self.invariant}"


def check_located(report: FileReport, size: int | None, units: Mapping[str, int] = {}) -> None:
    """Offsets within ``size`` bytes (``None``: the offsets are not in the file's bytes, e.g.
    inside a container), and each ``units`` pattern's index in a path (a regex with one group,
    ``frame\\[(\\d+)\\]``) below its count."""
    compiled = [(_compiled(pattern), count) for pattern, count in units.items()]
    for f in report.findings:
        if size is not None and f.offset is not None:
            end = f.offset + (f.length or 0)
            if f.offset < 0 or end > size:
                raise InvariantBroken("located", f"{f.rule} at @{f.offset}+{f.length} {f.path!r} lies outside "
                                      f"the file's {size} bytes", report.variant, f.rule)
        for regex, count in compiled:
            m = regex.match(f.path)
            if m is not None and int(m.group(1)) >= count:
                raise InvariantBroken("located", f"{f.rule} names {f.path!r}, but the walk counted {count}",
                                      report.variant, f.rule)


@functools.cache
def _compiled(pattern: str) -> re.Pattern[str]:
    """``check_located``'s unit patterns, compiled once per process (a harness passes the same few)."""
    return re.compile(pattern)


def check_profiles(report: FileReport, reread: Collection[str] = ()) -> None:
    """``reread``: rules the two profiles judge on different readings of the same bytes (raSkat's
    coordinates: the document's field order under spec, the writer's under compat), which
    may make compat the stricter one."""
    spec, compat = report.verdicts.get("spec"), report.verdicts.get("compat")
    if spec is None or compat is None or spec.verdict not in _RANK or compat.verdict not in _RANK:
        return
    if _RANK[spec.verdict] < _RANK[compat.verdict]:
        rules = sorted(set(compat.rules) - set(spec.rules))
        if rules and set(rules) <= set(reread):
            return
        raise InvariantBroken("profiles", f"spec says {spec.verdict.value}, compat {compat.verdict.value} "
                              f"(compat's rules: {sorted(compat.rules)})", report.variant,
                              rules[0] if rules else "")


def check_refusal(report: FileReport, refused: BaseException | None, structural: Collection[str],
                  lenient: Collection[str] = ()) -> None:
    """``refused``: the reference decoder's DecodeError, or ``None`` when it decoded the bytes.
    ``structural``: the format's structural rules (an error of one makes the verdict malformed);
    ``lenient``: those the decoder accepts on purpose (it keeps the bytes for the rule to judge)."""
    malformed = report.verdict is Verdict.MALFORMED
    if refused is not None and not malformed:
        rule = getattr(refused, "rule", "") or ""
        raise InvariantBroken("refusal", f"the decoder refuses ({refused}) but the verdict is "
                              f"{report.verdict.value}", report.variant, rule)
    if malformed and refused is None:
        fired = {f.rule for f in report.findings if f.rule in structural}
        if not fired or fired - set(lenient):
            shown = sorted(fired - set(lenient)) or sorted({f.rule for f in report.findings})
            raise InvariantBroken("refusal", f"malformed ({shown}) but the decoder reads it",
                                  report.variant, shown[0] if shown else "")


def check_round_trip(data: bytes, model: Any, encode: Callable[[Any], bytes],
                     recheck: Callable[[bytes], FileReport], variant: str | None = None) -> None:
    """A valid file's decoded model re-encodes to the same bytes, or to a canonical form that
    checks valid too."""
    try:
        again = encode(model)
    except Exception as e:  # an EncodeError on a model the decoder made is the bug
        raise InvariantBroken("round-trip", f"the decoded model does not encode: {type(e).__name__}: {e}",
                              variant) from e
    if again == data:
        return
    report = recheck(again)
    if report.verdict is not Verdict.VALID:
        rules = sorted({f.rule for f in report.findings})
        raise InvariantBroken("round-trip", f"the canonical form of a valid file is {report.verdict.value} "
                              f"({rules[:3]})", variant, rules[0] if rules else "")


def sampled(data: bytes, one_in: int = 8) -> bool:
    """Whether ``data`` is among the inputs a costly oracle checks (the same answer every time)."""
    return zlib.crc32(data) % one_in == 0


def _shape(report: FileReport) -> tuple[Any, ...]:
    return ([(f.rule, f.severity, f.offset, f.length, f.path) for f in report.findings],
            {p: (v.verdict, dict(v.rules)) for p, v in report.verdicts.items()}, report.verdict,
            repr(report.stats))  # by repr: a NaN statistic (a log's duration) equals itself


def check_paths_agree(fast: FileReport, walk: FileReport) -> None:
    """The report with the fast paths equals the locating walk's (``fast_path=False``)."""
    a, b = _shape(fast), _shape(walk)
    if a != b:
        only = sorted(set(map(str, a[0])) ^ set(map(str, b[0])))
        rules = sorted({f.rule for f in fast.findings} ^ {f.rule for f in walk.findings})
        raise InvariantBroken("paths-agree", f"the fast path's report differs from the walk's: {only[:3]}",
                              fast.variant, rules[0] if rules else "")


def fired_rules(report: FileReport) -> set[str]:
    """Every rule with a finding under some profile (a rule off under the driving profile is still
    counted in the other profile's verdict)."""
    fired = {f.rule for f in report.findings}
    for v in report.verdicts.values():
        fired.update(v.rules)
    return fired


def check_rederived(report: FileReport, derive: Callable[[], Mapping[str, str | None]]) -> None:
    """The second opinion. ``derive()`` maps a rule to what breaks it in this input (a short
    reason: the rule must fire) or to ``None`` (its fact holds: the rule must not fire); rules
    left out are not judged. A callable, so that the work is the oracle's (and off with it)."""
    expected = derive()
    if not expected:
        return
    fired = fired_rules(report)
    for rule, broken in expected.items():
        if broken is not None and rule not in fired:
            raise InvariantBroken("rederived", f"{rule} did not fire, but {broken}", report.variant, rule)
        if broken is None and rule in fired:
            raise InvariantBroken("rederived", f"{rule} fired, but the fact it asserts holds", report.variant, rule)


def check_recounted(report: FileReport, derive: Callable[[], Mapping[str, int | Mapping[str, int]]]) -> None:
    """The second opinion, finer: ``derive()`` maps a rule to how many findings of it the input has under
    every profile (a rule whose findings both profiles count alike), or to a count per profile (a profile
    it leaves out is not judged). A finding lost where another of the same rule still fires (one frame's,
    in a fast or bulk path) leaves the verdict as it was and changes the count (``ProfileVerdict.rules``,
    the true totals past the per-rule cap)."""
    expected = derive()
    for profile, verdict in report.verdicts.items():
        for rule, counted in expected.items():
            count = counted if isinstance(counted, int) else counted.get(profile)
            if count is None:
                continue
            got = verdict.rules.get(rule, 0)
            if got != count:
                raise InvariantBroken("recounted", f"{rule} has {got} findings under {profile}, the input "
                                      f"breaks it {count} times", report.variant, rule)


def check_model_view(derive: Callable[[], tuple[Mapping[str, Any], Mapping[str, Any]] | None],
                     variant: str | None = None) -> None:
    """``derive()``: the model's named fields, and the same names read from the bytes without the
    model (at the document's positions); ``None``: no independent reading of this input. Equal by
    ``repr``, so that a NaN equals itself and ``1`` is not ``True``."""
    both = derive()
    if both is None:
        return
    view, read = both
    for name, value in read.items():
        if name in view and repr(view[name]) != repr(value):
            raise InvariantBroken("model-view", f"the model's {name} is {view[name]!r}, the bytes hold {value!r}",
                                  variant, name)
