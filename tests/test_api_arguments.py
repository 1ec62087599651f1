"""recspec.check and recspec.dump refuse the arguments they do not understand with a UsageError that
names the argument, and never turn a usage fault into a verdict `crash` or an InternalError."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import recspec
from helpers import example_valid_file, format_valid_by_default
from recspec.errors import InputError, InternalError, RecspecError, UsageError
from recspec.report import Verdict

#: the example format and its valid file (valid under every profile drawn here: GOOD["profile"])
INFO = format_valid_by_default()
VALID = example_valid_file(INFO)
SUF = VALID.suffix

#: Values each argument accepts (the drawn call must succeed with them) and values it must refuse.
GOOD: dict[str, list[Any]] = {
    "format": [None, INFO.id, INFO.id.upper()],  # a format's name in any case
    "profile": [None, "spec", "compat"],
    "cross_check": ["default", "full", "off", True, False],
    "cross_check_limit": [None, 0, 1, 1 << 20],
    "name": [None, f"x{SUF}", "plain"],
    "trace": [False, True],
}
BAD: dict[str, list[Any]] = {
    "format": [3, INFO.id.encode(), "nope", ""],
    "profile": [3, "strict", ["spec"]],
    "cross_check": ["on", "yes", "Off", 1, 0, None, "", "default "],
    "cross_check_limit": [-1, "1MB", 1.5, True, b"1"],
    "name": [123, f"x{SUF}".encode(), Path(f"x{SUF}"), ["x"]],
    "trace": ["x", 1, None],
}


def _source(kind: str) -> Any:
    if kind == "path":
        return VALID
    if kind == "str path":
        return str(VALID)
    if kind == "bytes":
        return VALID.read_bytes()
    if kind == "binary file":
        return open(VALID, "rb")
    if kind == "text file":
        return open(VALID, encoding="latin-1")
    if kind == "StringIO":
        return io.StringIO("not bytes")
    if kind == "NUL path":
        return f"bad\x00name{SUF}"
    if kind == "float":
        return 1.5
    raise AssertionError(kind)


GOOD_SOURCES = ["path", "str path", "bytes", "binary file"]
BAD_SOURCES = ["text file", "StringIO", "NUL path", "float"]


@st.composite
def _arguments(draw: st.DrawFn) -> tuple[str, dict[str, Any], set[str]]:
    """A source kind, keyword arguments, and the names of the arguments given a bad value."""
    bad: set[str] = set()
    kwargs: dict[str, Any] = {}
    for arg in GOOD:
        if draw(st.booleans()):
            continue  # left at its default
        if draw(st.integers(0, 4)) == 0:
            kwargs[arg] = draw(st.sampled_from(BAD[arg]))
            bad.add(arg)
        else:
            kwargs[arg] = draw(st.sampled_from(GOOD[arg]))
    if draw(st.integers(0, 4)) == 0:
        source = draw(st.sampled_from(BAD_SOURCES))
        bad.add("source")
    else:
        source = draw(st.sampled_from(GOOD_SOURCES))
    return source, kwargs, bad


@settings(deadline=None)
@given(_arguments())
def test_no_argument_value_makes_check_crash(drawn: tuple[str, dict[str, Any], set[str]]) -> None:
    kind, kwargs, bad = drawn
    source = _source(kind)
    try:
        report = recspec.check(source, **kwargs)
    except InternalError as e:  # a recspec.errors exception, but a bug: never the answer to a usage fault
        raise AssertionError(f"usage fault became an internal error: {e}") from e
    except UsageError as e:
        assert bad, f"refused a call whose arguments are all good: {e}"
        text = str(e)
        named = {arg for arg in bad if arg in text} | ({"source"} if "binary mode" in text else set())
        # "nope" or "strict" name the value the format registry refused
        named |= {arg for arg in bad if repr(kwargs.get(arg, None)) in text}
        assert named, f"{text!r} names none of the bad arguments {sorted(bad)}"
        return
    except RecspecError as e:
        raise AssertionError(f"{type(e).__name__} for an argument fault: {e}") from e
    finally:
        if hasattr(source, "close"):
            source.close()
    assert not bad, f"accepted bad arguments {sorted(bad)}: {kwargs}"
    assert report.verdict is Verdict.VALID, report.findings


@pytest.mark.parametrize("mode, ran", [("off", False), (False, False), ("default", True), (True, True), ("full", True)])
def test_cross_check_takes_the_command_line_modes(mode: object, ran: bool) -> None:
    report = recspec.check(VALID, cross_check=mode)  # type: ignore[arg-type]
    assert ("cross_check" in report.evidence) is ran


def test_a_text_mode_file_is_refused_with_the_fix() -> None:
    with open(VALID, encoding="latin-1") as f, pytest.raises(UsageError, match="open it in binary mode"):
        recspec.check(f)
    with open(VALID, encoding="latin-1") as f, pytest.raises(UsageError, match="open it in binary mode"):
        recspec.dump(f)


@pytest.mark.parametrize("kwargs, argument", [
    (dict(cross_check="on"), "cross_check"),
    (dict(cross_check_limit=-1), "cross_check_limit"),
    (dict(cross_check_limit="1MB"), "cross_check_limit"),
    (dict(name=123), "name"),
    (dict(format=3), "format"),
    (dict(trace="yes"), "trace"),
])
def test_a_bad_value_is_a_usage_error_naming_its_argument(kwargs: dict[str, Any], argument: str) -> None:
    with pytest.raises(UsageError, match=rf"^{argument}="):
        recspec.check(VALID.read_bytes(), **kwargs)


def test_dump_refuses_what_it_cannot_write_to_or_read() -> None:
    with pytest.raises(UsageError, match=r"^out="):
        recspec.dump(VALID, out=3)  # type: ignore[arg-type]
    with pytest.raises(UsageError, match=r"^ksy="):
        recspec.dump(VALID, ksy="yes")  # type: ignore[arg-type]
    with open(VALID, "rb") as f:
        f.close()
        with pytest.raises(UsageError, match=r"^source"):
            recspec.dump(f)
    with pytest.raises(InputError):
        recspec.dump(VALID.with_name(f"missing{SUF}"))


_ANY = st.one_of(st.none(), st.booleans(), st.integers(-(2**70), 2**70), st.floats(allow_nan=True),
                 st.text(max_size=12), st.binary(max_size=12), st.lists(st.integers(), max_size=2),
                 st.just(Path(f"x{SUF}")),
                 st.sampled_from(["default", "full", "off", INFO.id, "spec", "compat", *INFO.variants]))


@settings(deadline=None)
@given(kwargs=st.fixed_dictionaries({}, optional={arg: _ANY for arg in [*GOOD, "variant"]}),
       source=st.one_of(st.sampled_from(GOOD_SOURCES + BAD_SOURCES), _ANY))
def test_any_argument_values_give_a_report_or_a_recspec_usage_error(kwargs: dict[str, Any], source: Any) -> None:
    """Arbitrary values, no oracle of which are good: the call returns a report that is no crash, or raises a
    UsageError or InputError (a path that does not exist), never anything else."""
    source = _source(source) if isinstance(source, str) and source in GOOD_SOURCES + BAD_SOURCES else source
    try:
        report = recspec.check(source, **kwargs)
    except (UsageError, InputError):
        return
    finally:
        if hasattr(source, "close"):
            source.close()
    assert report.verdict is not Verdict.CRASH, report.findings
