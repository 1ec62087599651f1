"""What a finding and a report's plain JSON data cost, counted (no clock): a frozen ``Finding`` made without
setting each field by name, ``to_plain`` entered once per container (never for a plain leaf), a report's
findings pickled as rows of fields; and, for each, the values that must not change (the public API of
``Finding``, the plain data, a report read back from its pickle)."""

from __future__ import annotations

import dataclasses
import enum
import json
import pickle

import pytest

import recspec._plain as plain_module
from recspec.report import FileReport, Finding, ProfileVerdict, Severity, Verdict


def test_finding_init_sets_no_field_through_setattr() -> None:
    # a frozen dataclass's generated __init__ calls object.__setattr__(self, "name", value) once per field:
    # a global lookup, an attribute lookup and a call with the field's name, eight times a finding
    init = Finding.__init__
    assert "__setattr__" not in init.__code__.co_names
    assert "__dataclass_builtins_object__" not in init.__code__.co_names


def test_finding_keeps_its_public_api() -> None:
    f = Finding("CARLA-FRAME-001", Severity.ERROR, "frame too short", 16, 4, "frame[0]", 10, (1, 2))
    assert (f.rule, f.severity, f.message, f.offset, f.length, f.path, f.expected, f.actual) == (
        "CARLA-FRAME-001", Severity.ERROR, "frame too short", 16, 4, "frame[0]", 10, (1, 2))
    short = Finding("R-1", Severity.INFO, "m")
    assert (short.offset, short.length, short.path, short.expected, short.actual) == (None, None, "", None, None)
    assert Finding(rule="R-1", severity=Severity.INFO, message="m") == short
    with pytest.raises(dataclasses.FrozenInstanceError):
        f.offset = 3  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        del f.rule  # type: ignore[misc]
    moved = dataclasses.replace(f, offset=20)
    assert moved.offset == 20 and moved.rule == f.rule and moved.actual == (1, 2)
    assert dataclasses.asdict(f)["path"] == "frame[0]"
    assert [x.name for x in dataclasses.fields(Finding)] == ["rule", "severity", "message", "offset", "length",
                                                             "path", "expected", "actual"]
    assert f == Finding("CARLA-FRAME-001", Severity.ERROR, "frame too short", 16, 4, "frame[0]", 10, (1, 2))
    assert f != moved
    assert len({f, moved, dataclasses.replace(moved, offset=16)}) == 2
    assert pickle.loads(pickle.dumps(f, pickle.HIGHEST_PROTOCOL)) == f
    assert repr(short) == ("Finding(rule='R-1', severity=<Severity.INFO: 'info'>, message='m', offset=None, "
                           "length=None, path='', expected=None, actual=None)")
    assert not hasattr(f, "__dict__")


def _counting(monkeypatch: pytest.MonkeyPatch) -> list[object]:
    """Every value ``to_plain`` is entered with (its recursion goes through the module's name)."""
    seen: list[object] = []
    real = plain_module.to_plain

    def counted(value: object) -> object:
        seen.append(value)
        return real(value)

    monkeypatch.setattr(plain_module, "to_plain", counted)
    return seen


def test_to_plain_is_entered_once_per_container(monkeypatch: pytest.MonkeyPatch) -> None:
    # detection's evidence: nine candidates, each three plain values (conformance/carla/_detect.py)
    candidates = [{"variant": f"v{i}", "fits": i == 0, "reason": "every packet fits"} for i in range(9)]
    evidence = {"variant": {"method": "content", "rule": "r", "prefix_packets": 12, "also_fit_equally": [],
                            "candidates": candidates}}
    seen = _counting(monkeypatch)
    out = plain_module.to_plain(evidence)
    assert out == evidence
    # the containers: evidence, its "variant" dict, also_fit_equally, candidates and the nine candidates
    assert len(seen) == 1 + 1 + 1 + 1 + 9
    assert all(type(v) in (dict, list) for v in seen)


class _Colour(enum.Enum):
    RED = 1


class _Key(str):
    pass


def test_to_plain_values_unchanged() -> None:
    value = {_Key("k"): [1.5, float("nan"), float("inf"), -float("inf"), b"\x01\xff", (True, None), _Colour.RED],
             3: {"s": "x", 4.0: [bytearray(b"\x02")]}, "deep": [[["a"]], {}]}
    assert plain_module.to_plain(value) == {
        "k": [1.5, "NaN", "Infinity", "-Infinity", "01ff", [True, None], "RED"],
        "3": {"s": "x", "4.0": ["02"]}, "deep": [[["a"]], {}]}
    key = next(iter(plain_module.to_plain({_Key("k"): 1})))
    assert type(key) is str


def _reports() -> list[FileReport]:
    from helpers import example_invalid_file, example_valid_file
    from recspec.api import check
    from recspec.formats import FORMATS

    out = [check(path) for info in FORMATS.values()
           for path in (example_valid_file(info), example_invalid_file(info)[0])]
    many = FileReport("x.rec", "some-format", "v1", "spec", Verdict.INVALID,
                      [Finding("SOME-RULE-001", s, f"m{i}", i, 1, f"frame[{i}]", i, [i, "x"])
                       for i, s in enumerate([Severity.ERROR, Severity.WARNING, Severity.INFO] * 5)],
                      {"frames": 3}, {"variant": {"method": "--variant"}},
                      verdicts={"spec": ProfileVerdict(Verdict.INVALID, {"SOME-RULE-001": 15}, 5, 5, 5)})
    return [*out, many]


def test_report_reads_back_from_its_pickle_the_same() -> None:
    reports = _reports()
    assert sum(bool(fr.findings) for fr in reports) > len(reports) // 2  # every invalid example has some
    for fr in reports:
        back = pickle.loads(pickle.dumps(fr, pickle.HIGHEST_PROTOCOL))
        assert back == fr
        assert [type(f) for f in back.findings] == [Finding] * len(fr.findings)
        assert all(a.severity is b.severity for a, b in zip(back.findings, fr.findings))
        assert back.verdict is fr.verdict
        assert json.dumps(back.to_json()) == json.dumps(fr.to_json())


def test_report_pickles_its_findings_as_rows(monkeypatch: pytest.MonkeyPatch) -> None:
    # a finding's own __reduce__ is a Python call per finding when a report is stored; the report gives its
    # findings' fields as rows instead (made in C), and reads them back in one pass
    fr = _reports()[-1]
    calls = []
    real = Finding.__reduce__
    monkeypatch.setattr(Finding, "__reduce__", lambda self: calls.append(self) or real(self))
    data = pickle.dumps(fr, pickle.HIGHEST_PROTOCOL)
    assert calls == []
    assert pickle.loads(data) == fr
