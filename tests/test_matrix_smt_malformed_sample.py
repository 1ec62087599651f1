"""A long run's malformed Matrix-SMT file is cross-checked from the top-level value the check found malformed
(conformance/_plugin.py ``malformed_from``, conformance/matrix_smt/_xcheck.py ``malformed_tail``), and a reader
whose verdict the comparison leaves out does not read (``_xcheck.differential``).

In a run of more than RUN_SAMPLE_FROM files every malformed file is cross-checked; one that the path's hash did
not pick is read from its first structural finding: the document's length field, then the top-level element
that holds it and everything after it, byte for byte. The elements before it passed the check, as a valid
file's do. What stays as it was: a file named alone, a short run, ``--cross-check full``, a file the hash
picked, a file malformed in its first top-level element; and in every case the verdict and the check's own
findings. The layout the tests cut by is BSON's (bsonspec.org): an int32 length, then elements (a type byte,
a NUL-ended key, the value; an embedded document or array is an int32 length and its bytes), then a NUL.
"""

from __future__ import annotations

import struct
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from helpers import check_in_run, named_for_run_sample
from recspec.conformance import _plugin
from recspec.conformance.corpus import corpus_folder
from recspec.conformance.matrix_smt import _xcheck
from recspec.conformance.matrix_smt._rules import RULES_BY_ID
from recspec.formats import Divergence
from recspec.report import FileReport, Verdict

LONG = 10_000  # a run's size past RUN_SAMPLE_FROM
CORPUS = corpus_folder("matrix-smt")
#: objects, frames, then "extra": a document nested 101 deep (the seed's description)
DEEP = (CORPUS / "invalid" / "MATRIX-LIMIT-001.bson").read_bytes()
#: the key of objects[0].name read as element type 0x14 (no such type): a fault in the first top-level element
FIRST = (CORPUS / "invalid" / "MATRIX-BSON-002.bson").read_bytes()


def _elements(data: bytes) -> list[tuple[str, int, int]]:
    """(key, start, end) of each top-level element holding a document or an array (types 3 and 4)."""
    out, pos = [], 4
    while data[pos] in (3, 4):
        key_end = data.index(b"\x00", pos + 1)
        (n,) = struct.unpack_from("<i", data, key_end + 1)
        out.append((data[pos + 1:key_end].decode(), pos, key_end + 1 + n))
        pos = key_end + 1 + n
    return out


def test_the_seed_has_the_layout_the_tests_cut_by() -> None:
    elements = _elements(DEEP)
    assert [k for k, _, _ in elements] == ["objects", "frames", "extra"]
    assert elements[-1][2] == len(DEEP) - 1 and DEEP[-1] == 0


@pytest.fixture
def read(monkeypatch: pytest.MonkeyPatch) -> list[bytes]:
    """The bytes each cross-check reading was given (``_xcheck.differential``'s argument), in order."""
    given: list[bytes] = []
    differential = _xcheck.differential

    def counted(data: bytes) -> list[Divergence]:
        given.append(data)
        return differential(data)

    monkeypatch.setattr(_xcheck, "differential", counted)
    return given


def test_a_long_run_reads_a_malformed_file_from_its_malformed_value(tmp_path: Path, read: list[bytes]) -> None:
    path = named_for_run_sample(tmp_path, DEEP, ".bson", picked=False)
    report = check_in_run(path, LONG)
    assert report.verdict is Verdict.MALFORMED
    _, start, _ = _elements(DEEP)[2]
    rules = [(f.rule, f.path.count(".d")) for f in report.findings if f.rule.startswith("MATRIX-LIMIT")]
    assert rules == [("MATRIX-LIMIT-001", 100)]  # extra, then the 100 levels below it ("extra.d.d...")
    (length,) = struct.unpack_from("<i", DEEP)
    kept = DEEP[start:]
    assert read == [struct.pack("<i", length - (start - 4)) + kept]  # extra and the final NUL, its length fixed
    assert report.evidence["cross_check"].startswith(
        f"kaitai: agrees; pymongo: agrees on the document without its first 2 top-level value(s) "
        f"({4 + len(kept):,} of {len(DEEP):,} bytes: the top-level values from the one the check found malformed")


@pytest.mark.parametrize("case", ["alone", "short run", "full", "picked", "first element"])
def test_every_byte_is_read_where_the_sample_does_not_apply(tmp_path: Path, case: str, read: list[bytes]) -> None:
    data = FIRST if case == "first element" else DEEP
    path = named_for_run_sample(tmp_path, data, ".bson", picked=case == "picked")
    run_files = {"alone": None, "short run": _plugin.RUN_SAMPLE_FROM}.get(case, LONG)
    report = check_in_run(path, run_files, "full" if case == "full" else True)
    assert report.verdict is Verdict.MALFORMED
    assert read == [data]
    assert report.evidence["cross_check"] == "kaitai: agrees; pymongo: agrees"


def test_a_divergence_in_the_read_values_is_reported_at_its_offset_in_the_file(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = named_for_run_sample(tmp_path, DEEP, ".bson", picked=False)
    _, start, _ = _elements(DEEP)[2]

    def diverges(data: bytes) -> list[Divergence]:
        return [Divergence("accepts what the reference rejects", 4 + 10, "extra.d", "kaitai")]

    monkeypatch.setattr(_xcheck, "differential", diverges)
    report = check_in_run(path, LONG)
    xcheck = [f for f in report.findings if f.rule == "MATRIX-XCHECK-001"]
    assert [(f.offset, f.path) for f in xcheck] == [(start + 10, "extra.d")]  # 10 bytes into extra in the file
    assert report.evidence["cross_check"].startswith("kaitai: 1 divergence(s) on the document without its first 2")


def test_a_fault_after_the_last_value_keeps_the_documents_end() -> None:
    """MATRIX-BSON-006's seed: a second, empty document after the first. The cut keeps the first one's final
    NUL and the bytes after it; the length field says 5 (itself and the NUL), as the first document's says
    its own length."""
    data = (CORPUS / "invalid" / "MATRIX-BSON-006.bson").read_bytes()
    (length,) = struct.unpack_from("<i", data)
    tail = _xcheck.malformed_tail(data, length)
    assert tail is not None
    assert tail.data == struct.pack("<i", 5) + data[length - 1:]
    assert tail.original_offset(4) == length - 1 and tail.original_offset(2) == 2
    assert _xcheck.differential(tail.data) == []  # the reference rejects the bytes after it, and so do the others


def test_no_cut_where_nothing_would_be_left_out() -> None:
    objects_end = _elements(DEEP)[0][2]
    assert _xcheck.malformed_tail(DEEP, 2) is None  # in the length field
    assert _xcheck.malformed_tail(DEEP[:4], 4) is None  # a length field alone: no element, no final NUL
    assert _xcheck.malformed_tail(DEEP, objects_end - 1) is None  # in the first element
    assert _xcheck.malformed_tail(DEEP + bytes(_xcheck.SAMPLE_ABOVE), len(DEEP) - 1) is None  # the default sample
    tail = _xcheck.malformed_tail(DEEP, objects_end)
    assert tail is not None and tail.units == 1


def _without_xcheck(report: FileReport) -> tuple[Verdict, list[tuple[str, int | None, str]]]:
    return report.verdict, [(f.rule, f.offset, f.message) for f in report.findings if f.rule != "MATRIX-XCHECK-001"]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.data())
def test_the_check_is_the_same_and_the_comparison_reads_from_the_malformed_value(
        tmp_path_factory: pytest.TempPathFactory, data: st.DataObject) -> None:
    """On the spec seed with bytes changed or cut: the verdict and the check's findings are those of the file
    named alone; a malformed file's reading starts at the top-level element that holds the first structural
    finding, or reads every byte."""
    seed = (CORPUS / "valid" / "spec.bson").read_bytes()
    buf = bytearray(seed)
    for _ in range(data.draw(st.integers(1, 4))):
        at = data.draw(st.integers(4, len(buf) - 1))
        buf[at] = data.draw(st.integers(0, 255))
    if data.draw(st.booleans()):
        del buf[data.draw(st.integers(5, len(buf) - 1)):]
    folder = tmp_path_factory.mktemp("m")
    path = named_for_run_sample(folder, bytes(buf), ".bson", picked=False)
    alone, in_run = check_in_run(path, None), check_in_run(path, LONG)
    assert _without_xcheck(in_run) == _without_xcheck(alone)
    start = _plugin.malformed_from(in_run, LONG, RULES_BY_ID)
    tail = None if start is None else _xcheck.malformed_tail(bytes(buf), start)
    if tail is None:
        if in_run.verdict is Verdict.MALFORMED:  # a file that is not is out of the run's sample (1 in 16)
            assert in_run.evidence["cross_check"] == alone.evidence["cross_check"]
    else:
        assert in_run.evidence["cross_check"].endswith(f"{tail.units} top-level value(s) ({len(tail.data):,} of "
                                                       f"{len(buf):,} bytes: the top-level values from the one the "
                                                       "check found malformed, since in a run of more than 256 files "
                                                       "a malformed file is cross-checked where it is malformed, "
                                                       "and the values before that passed the check; --cross-check "
                                                       "full reads every byte)") or "divergence" in \
            in_run.evidence["cross_check"]
        assert tail.data[4:] == bytes(buf)[tail.original_offset(4):]


# --- a reader whose verdict is not compared does not read -------------------------------------------------


def _counting(monkeypatch: pytest.MonkeyPatch) -> dict[str, int]:
    calls = {"kaitai": 0, "pymongo": 0}
    kaitai_parse, pymongo_decode = _xcheck.kaitai_parse, _xcheck.pymongo_decode

    def k(data: bytes) -> object:
        calls["kaitai"] += 1
        return kaitai_parse(data)

    def p(data: bytes) -> object:
        calls["pymongo"] += 1
        return pymongo_decode(data)

    monkeypatch.setattr(_xcheck, "kaitai_parse", k)
    monkeypatch.setattr(_xcheck, "pymongo_decode", p)
    return calls


@pytest.mark.parametrize(("seed", "kaitai", "pymongo"), [
    ("invalid/MATRIX-LIMIT-001.bson", 1, 0),  # pymongo does not bound the nesting depth
    ("regressions/array-key-not-utf8.bson", 1, 0),  # pymongo skips array keys undecoded
    ("invalid/MATRIX-BSON-002.bson", 1, 1),  # an element type no reader knows: all three compared
    ("valid/spec.bson", 1, 1),
])
def test_only_the_compared_readers_read(monkeypatch: pytest.MonkeyPatch, seed: str, kaitai: int,
                                        pymongo: int) -> None:
    calls = _counting(monkeypatch)
    assert _xcheck.differential((CORPUS / seed).read_bytes()) == []
    assert calls == {"kaitai": kaitai, "pymongo": pymongo}


def test_neither_reads_past_a_limit_neither_enforces(monkeypatch: pytest.MonkeyPatch) -> None:
    """MATRIX-LIMIT-002 (elements in one buffered unit) is recspec's own limit: with it lowered to 10, the spec
    seed (far more elements) is refused by the reference alone, and nothing else is read."""
    from recspec.reference.matrix_smt import _bson

    monkeypatch.setattr(_bson, "MAX_ELEMENTS", 10)
    calls = _counting(monkeypatch)
    assert _xcheck.differential((CORPUS / "valid" / "spec.bson").read_bytes()) == []
    assert calls == {"kaitai": 0, "pymongo": 0}
