"""The Matrix-SMT recount (fuzz/_matrix_smt_facts.py ``facts_and_counts``, ``check_recounted``) covers every rule
the second opinion judges: each break one finding, counted under both profiles (``COUNTED``) or per profile
where the profiles read the break differently (``COUNTED_PER_PROFILE``). For each rule, a file written by
pymongo's ``bson.encode`` breaks it twice; the checker with every finding of that rule but its first dropped
(a finding lost while another still fires, so the verdict is unchanged) breaks ``Invariant:recounted:<rule>``,
and the unbroken checker passes. Counts per profile follow docs/formats/matrix-smt.md's profile table."""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any
from unittest import mock

import bson
import pytest

from recspec.conformance._sink import FindingSink
from recspec.fuzz import _matrix_smt_facts as facts
from recspec.fuzz import matrix_smt
from recspec.fuzz._oracles import InvariantBroken
from recspec.reference import matrix_smt as b

_STATE = {"id": 1, "i": "i", "m": "", "p": [0.0, 0.0, 0.0], "r": [0.0, 0.0, 0.0, 1.0]}
_SPHERE = {"t": "s", "ox": 0.0, "oy": 0.0, "oz": 0.0, "sr": 1.0}
BASE = {"objects": [{"id": 1, "name": "a", "type": "sphere", "color": [0.0, 0.0, 0.0], "radius": 1.0},
                    {"id": 2, "name": "b", "type": "sphere", "color": [0.0, 0.0, 0.0], "radius": 1.0}],
        "frames": [{"t": float(i), "states": [dict(_STATE)], "cmd": [dict(_SPHERE)]} for i in range(3)]}
_FLAT = [[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [1.0, 1.0, 0.0]]  # four points in one plane
_RAY_TO_ITSELF = {"t": "r", "ox": 1.0, "oy": 1.0, "oz": 1.0, "ex": 1.0, "ey": 1.0, "ez": 1.0}


def _edit(change: Callable[[dict[str, Any]], None]) -> bytes:
    doc = copy.deepcopy(BASE)
    change(doc)
    return bson.encode(doc)


def _frames(key: str, value: Any, frames: tuple[int, ...] = (0, 1)) -> Callable[[dict[str, Any]], None]:
    def change(doc: dict[str, Any]) -> None:
        for i in frames:
            doc["frames"][i][key] = value
    return change


def _states(key: str, value: Any) -> Callable[[dict[str, Any]], None]:
    def change(doc: dict[str, Any]) -> None:
        for i in (0, 1):
            doc["frames"][i]["states"][0][key] = value
    return change


def _objects(**fields: Any) -> Callable[[dict[str, Any]], None]:
    def change(doc: dict[str, Any]) -> None:
        for o in doc["objects"]:
            for k, v in fields.items():
                if v is None:
                    del o[k]
                else:
                    o[k] = v
    return change


def _time_under_time(doc: dict[str, Any]) -> None:
    for i in (1, 2):
        doc["frames"][i]["time"] = doc["frames"][i].pop("t")


def _destroyed_then_used(doc: dict[str, Any]) -> None:
    doc["frames"][0]["states"][0]["i"] = "d"


def _two_unknown_frame_keys(doc: dict[str, Any]) -> None:
    doc["frames"][0].update(x=1, y=2)


#: rule -> (the file, its findings under spec and compat)
CASES: dict[str, tuple[bytes, int, int]] = {
    "MATRIX-DOC-002": (_edit(_two_unknown_frame_keys), 2, 2),
    "MATRIX-NUM-001": (_edit(_states("p", ["x", 0.0, 0.0])), 2, 2),
    "MATRIX-NUM-002": (_edit(_states("p", [float("nan"), 0.0, 0.0])), 2, 2),
    "MATRIX-OBJ-001": (_edit(_objects(name=None)), 2, 2),
    "MATRIX-OBJ-002": (_edit(_objects(radius=-1.0)), 2, 2),
    "MATRIX-OBJ-004": (_edit(_objects(type="convex", radius=None, vertices=_FLAT)), 2, 2),
    "MATRIX-STATE-001": (_edit(_states("m", 5)), 2, 2),
    "MATRIX-STATE-003": (_edit(_states("i", "x")), 2, 2),
    "MATRIX-STATE-004": (_edit(_destroyed_then_used), 2, 2),
    "MATRIX-QUAT-001": (_edit(_states("r", [0.0, 0.0, 0.0, 2.0])), 2, 2),
    "MATRIX-FRAME-001": (_edit(_time_under_time), 2, 0),  # spec: the time under `time`
    "MATRIX-FRAME-005": (_edit(_time_under_time), 0, 2),  # compat: the time under `time` only
    "MATRIX-FRAME-003": (_edit(_frames("cmd", 5)), 2, 2),
    "MATRIX-CMD-002": (_edit(_frames("cmd", [{**_SPHERE, "sr": 0.0}])), 2, 2),
    "MATRIX-CMD-003": (_edit(_frames("cmd", [{**_SPHERE, "r": 2.0}])), 2, 2),
    "MATRIX-CMD-004": (_edit(_frames("cmd", [_RAY_TO_ITSELF])), 2, 2),
}


def test_every_judged_rule_is_counted() -> None:
    assert set(facts.COUNTED) | set(facts.COUNTED_PER_PROFILE) == set(facts.JUDGED)
    assert not set(facts.COUNTED) & set(facts.COUNTED_PER_PROFILE)


@pytest.mark.parametrize("rule", sorted(CASES))
def test_the_counts_are_the_files_breaks(rule: str) -> None:
    data, spec, compat = CASES[rule]
    counted = facts.facts_and_counts(b.decode_document(data))[1][rule]
    if rule in facts.COUNTED:
        assert spec == compat and counted == spec
    else:
        assert counted == {"spec": spec, "compat": compat}


@contextmanager
def _all_but_the_first(rule: str) -> Iterator[None]:
    """The checker with each finding of ``rule`` after the first in a check dropped (a sink per check)."""
    add = FindingSink.add
    seen: dict[int, int] = {}

    def add_once(self: FindingSink, rule_id: str, *args: Any, **kw: Any) -> None:
        if rule_id == rule:
            seen[id(self)] = seen.get(id(self), 0) + 1
            if seen[id(self)] > 1:
                return
        add(self, rule_id, *args, **kw)

    with mock.patch.object(FindingSink, "add", add_once):
        yield


@pytest.mark.parametrize("rule", sorted(CASES))
def test_a_finding_lost_beside_another_breaks_the_recount(monkeypatch: pytest.MonkeyPatch, rule: str) -> None:
    monkeypatch.setattr(matrix_smt, "SECOND_OPINION_ONE_IN", 1)
    data = CASES[rule][0]
    matrix_smt.fuzz_ref(data)  # the unbroken checker agrees
    with _all_but_the_first(rule), pytest.raises(InvariantBroken) as e:
        matrix_smt.fuzz_ref(data)
    assert e.value.signature() == f"Invariant:recounted:{rule}"
