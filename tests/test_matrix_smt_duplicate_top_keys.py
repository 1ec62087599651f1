"""Repeated top-level keys (MATRIX-BSON-009): a dict-building reader keeps the last value of a
repeated key, so the last ``frames`` and the last ``objects`` are the recording the checker walks,
counts (``stats``) and indexes in its paths (``frames[i]``, ``objects[i]``). An earlier value of a
repeated key is still checked against the BSON rules, under the path ``KEY#N`` (its N-th
occurrence), so none of its findings names a frame or an object the walk counted."""

from __future__ import annotations

import io
import re
import struct
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from recspec.conformance.matrix_smt import RULES, check_stream
from recspec.conformance.matrix_smt._strategies import matrix_files
from recspec.fuzz.matrix_smt import fuzz_ref
from recspec.reference import matrix_smt as b

REGRESSION = Path(__file__).resolve().parent.parent / "corpus" / "matrix-smt" / "regressions" / \
    "two-frames-keys-truncated.bson"
_FRAME = re.compile(r"^frames\[(\d+)\]")
_OBJECT = re.compile(r"^objects\[(\d+)\]")
_STRUCTURAL = frozenset(r.id for r in RULES if r.structural)


def _findings(data: bytes, profile: str = "spec") -> tuple[list, dict]:
    report = check_stream(io.BytesIO(data), path="<test>", profile=profile)
    return report.findings, report.stats


def test_a_finding_in_an_earlier_frames_array_names_that_occurrence() -> None:
    """The fuzz-found file: a top-level ``frames`` array of three frames at byte 757, whose third
    frame's ``states`` has the keys "0", "2", "1" (the "2" at byte 2507), then a second ``frames``
    key at byte 2787 whose value is cut off by the end of the file (2799 bytes of a declared 4824)."""
    data = REGRESSION.read_bytes()
    assert len(data) == 2799 and struct.unpack_from("<i", data)[0] == 4824
    assert data[757:765] == b"\x04frames\x00" and data[2787:2795] == b"\x04frames\x00"
    findings, stats = _findings(data)
    assert stats["frames"] == 0  # the kept (last) frames array holds no complete frame
    by_rule = {f.rule: f for f in findings}
    assert by_rule["MATRIX-BSON-009"].offset == 2787 and by_rule["MATRIX-BSON-009"].path == "frames"
    bad_key = by_rule["MATRIX-BSON-008"]
    assert (bad_key.offset, bad_key.path, bad_key.expected, bad_key.actual) == (2507, "frames#1[2].states", "1", "2")
    assert by_rule["MATRIX-BSON-007"].path.startswith("frames")
    fuzz_ref(data)  # the located oracle: every frame a path names is one the walk counted
    fuzz_ref(data + b"\x00")  # and under the other profile (the harness picks it by the length's parity)


def _scramble(value: object) -> object:
    """``value`` with the first two keys of every array in it swapped (MATRIX-BSON-008 in each)."""
    if not isinstance(value, b.Document):
        return value
    keys = list(value.keys)
    if isinstance(value, b.Array) and len(keys) >= 2:
        keys[0], keys[1] = keys[1], keys[0]
    return type(value)(keys, [_scramble(v) for v in value.values])


@given(matrix_files(max_frames=3, valid=False), matrix_files(max_frames=3, valid=False),
       st.sampled_from(["frames", "objects", "extra"]), st.booleans(), st.booleans(), st.data())
def test_every_path_indexes_a_counted_unit(first: tuple[bytes, str], second: tuple[bytes, str], key: str,
                                           before: bool, scramble: bool, data: st.DataObject) -> None:
    """A recording with one top-level key repeated (the extra value taken from another recording,
    before or after the first, its arrays' keys scrambled or not), cut at every length: no
    traceback, and every ``frames[i]`` or ``objects[i]`` a finding names is below the count of
    the walk."""
    (blob, profile), (other, _) = first, second
    doc, extra = b.decode_document(blob), b.decode_document(other)
    if key == "extra":
        added = [("extra", extra.get("frames")), ("extra", extra.get("objects"))]
    else:
        added = [(key, extra.get(key))]
    if scramble:
        added = [(k, _scramble(v)) for k, v in added]
    pairs = list(zip(doc.keys, doc.values))
    pairs = added + pairs if before else pairs + added
    whole = b.encode_document(b.Document([k for k, _ in pairs], [v for _, v in pairs]))
    step = data.draw(st.integers(1, 7), label="step")  # every length for most drawn files, a stride for the rest
    for n in range(len(whole), 0, -step):
        cut = whole[:n]
        findings, stats = _findings(cut, profile)
        for f in findings:
            m = _FRAME.match(f.path)
            assert m is None or int(m.group(1)) <= stats["frames"], (n, f)
            m = _OBJECT.match(f.path)
            # (a decode fault inside the kept objects array names its place there, and leaves the count at 0)
            assert m is None or int(m.group(1)) < stats["objects"] or f.rule in _STRUCTURAL, (n, f)
        if key != "extra" and n == len(whole):
            assert any(f.rule == "MATRIX-BSON-009" and f.path == key for f in findings)


def test_a_decode_fault_in_an_earlier_frames_array_names_that_occurrence() -> None:
    """The same file with the type byte of the first array's frame "1" (byte 1329) made 0x00, not a
    BSON type: the fault is in the array readers drop, so it is at ``frames#1[1]``, and its message
    does not speak of the kept array's frames."""
    data = bytearray(REGRESSION.read_bytes())
    assert data[1329:1332] == b"\x031\x00"
    data[1329] = 0
    findings, stats = _findings(bytes(data))
    fault = next(f for f in findings if f.rule == "MATRIX-BSON-002" and f.offset == 1329)
    assert fault.path == "frames#1[1]" and "complete frame" not in fault.message
    assert stats["frames"] == 0
    fuzz_ref(bytes(data))
    fuzz_ref(bytes(data) + b"\x00")
