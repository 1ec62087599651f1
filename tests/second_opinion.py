"""The shared steps of the ``ref`` harnesses' second-opinion tests (tests/test_fuzz_second_opinion.py says what
they show; each format's tests/test_<package>_second_opinion.py lists its judged rules from its format document
and runs these steps on its harness, its witnesses and its real files)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from types import ModuleType
from unittest import mock

import pytest
from hypothesis import HealthCheck, assume, settings

from helpers import REAL, SHIPPED_REAL
from recspec.conformance._sink import FindingSink
from recspec.formats import FORMATS
from recspec.fuzz._oracles import InvariantBroken

#: A format's second opinion on a file's bytes: rule -> why it is broken (None: it holds); {} when undecodable.
Expected = Callable[[bytes], "dict[str, str | None]"]

#: The lost-finding property's settings (witnesses are large and drawn with filters).
LOST_FINDING_SETTINGS = settings(suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much,
                                                        HealthCheck.data_too_large])


@contextmanager
def findings_of(rule: str, lost: bool) -> Iterator[None]:
    """The checker with every finding of ``rule`` dropped (``lost``), as a deleted rule would."""
    add, count = FindingSink.add, FindingSink.count

    def dropping_add(self: FindingSink, rule_id: str, *args: object, **kw: object) -> None:
        if rule_id != rule:
            add(self, rule_id, *args, **kw)  # type: ignore[arg-type]

    def dropping_count(self: FindingSink, rule_id: str, *args: object, **kw: object) -> None:
        if rule_id != rule:
            count(self, rule_id, *args, **kw)  # type: ignore[arg-type]

    if not lost:
        yield
        return
    with mock.patch.object(FindingSink, "add", dropping_add), mock.patch.object(FindingSink, "count", dropping_count):
        yield


def raises_invariant(harness: object, data: bytes) -> InvariantBroken | None:
    """The invariant the ``ref`` harness breaks on ``data``, or None when it holds."""
    try:
        harness.fuzz_ref(data)  # type: ignore[attr-defined]
    except InvariantBroken as e:
        return e
    return None


def seeds(fid: str) -> list:  # type: ignore[type-arg]
    return list(FORMATS[fid].load().seeds())


def agrees_on_real_file(harness: ModuleType, expected: Expected, name: str) -> None:
    """No false alarm: the second opinion judges the real file and the harness passes it in both profiles."""
    path = SHIPPED_REAL / name if (SHIPPED_REAL / name).is_file() else REAL / name
    if not path.is_file():
        pytest.skip(f"{name} is in neither corpus/real nor {REAL}")
    data = path.read_bytes()
    judged = expected(data)
    assert judged, f"the second opinion judges nothing on {name}"
    for d in (data, data + b"\x00"):  # both profiles (chosen by the length's parity)
        harness.fuzz_ref(d)


def seeds_are_judged(fid: str, expected: Expected) -> None:
    """On the format's seeds the second opinion judges some rule (it is not vacuous), and some seed breaks one;
    tests/test_fuzz_oracles.py runs the harnesses (this oracle included) over the same seeds."""
    judged = [expected(s.data) for s in seeds(fid) if len(s.data) < 1 << 20]
    assert any(judged), f"no seed of {fid} is judged by the second opinion"
    broken = {rule for j in judged for rule, why in j.items() if why is not None}
    assert broken, f"no seed of {fid} breaks a rule the second opinion judges"


def lost_finding_breaks_rederived(harness: ModuleType, expected: Expected, rule: str, blob: bytes) -> None:
    """The rule's witness passes the unbroken harness; with the rule's findings dropped it breaks
    ``Invariant:rederived:<rule>`` (run inside a Hypothesis test: a witness the second opinion cannot judge
    is assumed away)."""
    # a witness the second opinion cannot judge (a range the checker alone reads, such as
    # NANOVER-FRAME-002's indices past particle.count) is left to the rule witnesses
    assume(expected(blob).get(rule) is not None)
    assert raises_invariant(harness, blob) is None  # the unbroken checker agrees with the second opinion
    with findings_of(rule, lost=True):
        e = raises_invariant(harness, blob)
    assert e is not None, f"{rule} lost, and the second opinion did not notice"
    assert e.signature() == f"Invariant:rederived:{rule}"
