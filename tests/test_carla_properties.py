"""Properties of the CARLA reference codec and checker, for every variant.

1. ``decode(encode(m), variant=v) == m`` for every recording the strategies draw,
   valid or not;
2. ``encode(decode(b), variant=v) == b`` for ``b = encode(m)`` and for the real logs
   in ``../shared/real``: decoded logs re-encode to the same bytes;
3. a log CARLA could have written (``carla_logs(valid=True)``) checks as
   ``valid`` with no error under the ``spec`` profile; it draws no finding at
   all (but the empty log's "no frame" warning) and variant detection keeps
   its variant among the best fits;
4. decoding never raises anything but ``DecodeError`` (invariant of every
   decoder in recspec, see ``recspec.errors``) and ``check_stream`` always
   returns a report, for arbitrary bytes and for mutated valid logs; when the
   decoder rejects a file, the checker calls it ``malformed``.
"""

from __future__ import annotations

import io
import struct
from dataclasses import fields, is_dataclass
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from helpers import carla_packets, real_file
from recspec.conformance.carla import check_stream
from recspec.errors import DecodeError
from recspec.reference.carla import (
    MAX_PACKET_SIZE,
    VARIANTS,
    Header,
    Packet,
    PacketKind,
    PhysicsControl,
    Recording,
    Variant,
    Vec3,
    WheelPhysics,
    decode,
    encode,
    encode_header,
)
from recspec.report import FileReport, Severity, Verdict
from recspec.strategies import carla_logs, carla_recordings

NAMES = tuple(VARIANTS)
per_variant = pytest.mark.parametrize("name", NAMES, ids=NAMES)

#: Recordings stay short here: the properties hold frame by frame, and short
#: recordings keep the whole file under a minute on two cores.
MAX_FRAMES = 4

REAL_LOGS = {  # file -> the variant PROVENANCE.md gives for it
    "carla_0910_DistanceToLaneCenter.log": "0.9.10-0.9.11",
    "carla_0915_crash.log": "0.9.15",
}


def any_recordings(v: Variant) -> st.SearchStrategy[Recording]:
    return st.one_of(carla_recordings(v, max_frames=MAX_FRAMES),
                     carla_recordings(v, max_frames=MAX_FRAMES, valid=False))


def check(blob: bytes, variant: Variant | None, profile: str = "spec") -> FileReport:
    return check_stream(io.BytesIO(blob), path="<hypothesis>", variant=variant, profile=profile)


# --- comparing recordings -----------------------------------------------------------

def _canonical(x: Any) -> Any:
    """``x`` with every float replaced by its IEEE bits: NaN equals itself and
    -0.0 differs from 0.0, which is what a byte-exact round trip means."""
    if isinstance(x, float):
        return ("f64", struct.pack("<d", x))
    if is_dataclass(x) and not isinstance(x, type):
        return (type(x).__name__, *(_canonical(getattr(x, f.name)) for f in fields(x)))
    if isinstance(x, (tuple, list)):
        return tuple(_canonical(y) for y in x)
    return x


def assert_same_recording(actual: Recording, expected: Recording) -> None:
    """Assert equality, naming the first packet that differs."""
    if _canonical(actual.header) != _canonical(expected.header):
        raise AssertionError(f"headers differ:\n  {actual.header}\n  {expected.header}")
    for i, (a, e) in enumerate(zip(actual.packets, expected.packets)):
        if _canonical(a) != _canonical(e):
            raise AssertionError(f"packet {i} differs:\n  got      {a}\n  expected {e}")
    if len(actual.packets) != len(expected.packets):
        raise AssertionError(f"{len(actual.packets)} packets, expected {len(expected.packets)}")


# --- 1. round trip ----------------------------------------------------------------------


@per_variant
@given(data=st.data())
def test_decode_inverts_encode(name: str, data: st.DataObject) -> None:
    v = VARIANTS[name]
    recording = data.draw(any_recordings(v), label="recording")
    assert_same_recording(decode(encode(recording, variant=v), variant=v), recording)


# --- 2. canonical bytes -----------------------------------------------------------------


@per_variant
@given(data=st.data())
def test_encode_inverts_decode(name: str, data: st.DataObject) -> None:
    valid = data.draw(st.booleans(), label="valid")
    blob, v = data.draw(carla_logs(name, max_frames=MAX_FRAMES, valid=valid), label="log")
    assert encode(decode(blob, variant=v), variant=v) == blob


@pytest.mark.requires_real_samples
@pytest.mark.parametrize("filename", sorted(REAL_LOGS), ids=sorted(REAL_LOGS))
def test_real_logs_reencode_to_the_same_bytes(filename: str) -> None:
    blob = real_file(filename).read_bytes()
    v = VARIANTS[REAL_LOGS[filename]]
    assert encode(decode(blob, variant=v), variant=v) == blob


def test_negative_zero_wheel_stiffness_reencodes() -> None:
    # Regression: the encoder once wrote ``x or 0.0`` here, turning -0.0 into +0.0.
    v = VARIANTS["0.9.12-0.9.13"]
    zero = Vec3(0.0, 0.0, 0.0)
    wheel = WheelPhysics(0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.5, 2.5, 3.5, zero)
    control = PhysicsControl(7, *(0.0,) * 5, 0, *(0.0,) * 4, zero, (), (), (), (wheel,))
    header = Header(1, "CARLA_RECORDER", 1_600_000_000, "Town01")
    blob = encode(Recording(header, (Packet(PacketKind.PHYSICS_CONTROL, (control,), 15),)), variant=v)
    stiffness = struct.pack("<3f", 1.5, 2.5, 3.5)
    assert blob.count(stiffness) == 1
    blob = blob.replace(stiffness, struct.pack("<3f", -0.0, -0.0, -0.0))
    assert encode(decode(blob, variant=v), variant=v) == blob


# --- 3. valid logs check valid ------------------------------------------------------------


@per_variant
@given(data=st.data())
def test_valid_logs_check_valid(name: str, data: st.DataObject) -> None:
    blob, v = data.draw(carla_logs(name, max_frames=MAX_FRAMES), label="log")
    report = check(blob, v)
    errors = [f for f in report.findings if f.severity is Severity.ERROR]
    assert errors == []
    assert report.verdict is Verdict.VALID


@per_variant
@given(data=st.data())
def test_valid_logs_draw_no_finding_and_keep_their_variant(name: str, data: st.DataObject) -> None:
    blob, v = data.draw(carla_logs(name, max_frames=MAX_FRAMES), label="log")
    report = check(blob, v)
    expected = ["CARLA-FRAME-009"] if report.stats["frames"] == 0 else []
    assert [f.rule for f in report.findings] == expected, report.findings
    detected = check(blob, None)
    best = [detected.variant, *detected.evidence["variant"]["also_fit_equally"]]
    assert v.name in best, detected.evidence["variant"]


# --- 4. robustness ----------------------------------------------------------------------------

_A_HEADER = encode_header(Header(1, "CARLA_RECORDER", 1_600_000_000, "Town01"))


def _framed(packets: list[tuple[int, bytes]]) -> bytes:
    return b"".join(struct.pack("<BI", i, len(p)) + p for i, p in packets)


#: Bytes at three depths: anything; a good header then anything; a good header
#: then correctly framed packets of (mostly defined) ids with random payloads.
ARBITRARY_BYTES = st.one_of(
    st.binary(max_size=512),
    st.binary(max_size=512).map(lambda b: _A_HEADER + b),
    st.lists(st.tuples(st.integers(0, 30) | st.integers(0, 255), st.binary(max_size=64)), max_size=12)
    .map(lambda ps: _A_HEADER + _framed(ps)),
)


@st.composite
def mutations(draw: Any, blob: bytes) -> bytes:
    """``blob`` after one to three edits: a cut, bit flips, a packet size rewritten."""
    data = bytearray(blob)
    for _ in range(draw(st.integers(1, 3), label="edits")):
        edit = draw(st.sampled_from(("truncate", "flip", "size")), label="edit")
        if edit == "truncate":
            del data[draw(st.integers(0, len(data)), label="cut at"):]
        elif edit == "flip" and data:
            for pos in draw(st.lists(st.integers(0, len(data) - 1), min_size=1, max_size=8), label="positions"):
                data[pos] ^= 1 << draw(st.integers(0, 7))
        elif edit == "size":
            try:
                offsets = [off for off, _, _ in carla_packets(bytes(data))]
            except DecodeError:
                continue  # the header itself was cut or broken by an earlier edit
            if not offsets:
                continue
            at = draw(st.sampled_from(offsets), label="packet at") + 1
            (old,) = struct.unpack_from("<I", data, at)
            new = draw(st.one_of(
                st.sampled_from((0, 1, 2, 0xFFFFFFFF, MAX_PACKET_SIZE, MAX_PACKET_SIZE + 1)),
                st.integers(-8, 8).map(lambda d: min(max(old + d, 0), 0xFFFFFFFF)),  # noqa: B023 - drawn at once
                st.integers(0, 0xFFFFFFFF),
            ), label="new size")
            struct.pack_into("<I", data, at, new)
    return bytes(data)


def assert_robust(blob: bytes, v: Variant, profile: str) -> None:
    """decode raises only DecodeError; check_stream returns a report, with and
    without the variant; a file decode rejects is malformed for the checker."""
    try:
        decode(blob, variant=v)
        rejected = None
    except DecodeError as e:
        rejected = e
    report = check(blob, v, profile)
    assert isinstance(report, FileReport)
    if rejected is not None and profile == "spec":
        assert report.verdict is Verdict.MALFORMED, (rejected, report.findings)
    assert isinstance(check(blob, None, profile), FileReport)


@per_variant
@given(blob=ARBITRARY_BYTES, profile=st.sampled_from(("spec", "compat")))
def test_arbitrary_bytes(name: str, blob: bytes, profile: str) -> None:
    assert_robust(blob, VARIANTS[name], profile)


@per_variant
@given(data=st.data(), profile=st.sampled_from(("spec", "compat")))
def test_mutated_logs(name: str, data: st.DataObject, profile: str) -> None:
    blob, v = data.draw(carla_logs(name, max_frames=3), label="log")
    assert_robust(data.draw(mutations(blob), label="mutated"), v, profile)
