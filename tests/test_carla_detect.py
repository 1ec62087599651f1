"""CARLA variant detection (``conformance/carla/_detect.py``): one pass over the prefix's
packet shapes, and corruption inside a packet cannot steer it.

The rule: a variant is chosen only if it explains every packet id and payload size of
the prefix; a packet malformed inside is a finding in the variant the rest of the file
shows, never a reason to pick another; ties are broken by a stated order.
"""

from __future__ import annotations

import io
import struct
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_carla_properties import mutations

import recspec
import recspec.errors
from recspec.conformance.carla import _detect, detect_variant
from recspec.conformance.carla._detect import PREFERENCE, RULE
from recspec.reference import carla as c
from recspec.reference.carla import VARIANTS
from recspec.report import Verdict
from recspec.strategies import carla_logs

CORPUS = Path(__file__).resolve().parents[1] / "corpus" / "carla"
LOG_0915 = (CORPUS / "valid" / "0.9.15.log").read_bytes()


def _payload_offset(data: bytes, packet_id: int, variant: str = "0.9.15") -> int:
    """The payload offset of the first packet with this id and at least one record."""
    f = io.BytesIO(data)
    _, offset = c.read_header(f)
    for raw in c.PacketReader(f, VARIANTS[variant], offset, len(data)):
        if raw.packet_id == packet_id and len(raw.payload) >= 2 and struct.unpack_from("<H", raw.payload)[0]:
            return raw.payload_offset
    raise AssertionError(f"no packet {packet_id} with records")


def _patched(data: bytes, at: int, fmt: str, value: int) -> bytes:
    out = bytearray(data)
    struct.pack_into(fmt, out, at, value)
    return bytes(out)


# record[0] of the packet: u16 count, then the record; the field's offset inside the record
CORRUPTIONS = {
    # AnimVehicleWheels (id 21 in 0.9.15): u32 vehicle id, u32 number of wheels
    "wheels 2^32-1": (21, 4, "<I", 0xFFFFFFFF),
    # WalkerBones (id 19): u32 walker id, u16 number of bones
    "bones 65,535": (19, 4, "<H", 0xFFFF),
    # PhysicsControl (id 15): 41-byte head, 12-byte centre of mass, then the u32 torque-curve count
    "torque curve 2^32-1": (15, 41 + 12, "<I", 0xFFFFFFFF),
}


@pytest.mark.parametrize("case", CORRUPTIONS)
def test_a_count_corrupted_to_its_maximum_is_malformed_in_the_files_own_variant(case: str) -> None:
    packet_id, field, fmt, value = CORRUPTIONS[case]
    data = _patched(LOG_0915, _payload_offset(LOG_0915, packet_id) + 2 + field, fmt, value)
    report = recspec.check(data, format="carla")  # auto-detection
    assert report.variant == "0.9.15", report.evidence["variant"]
    assert report.verdict is Verdict.MALFORMED
    assert [f.rule for f in report.findings if f.severity.value == "error"] == ["CARLA-PACKET-001"]


@pytest.mark.parametrize("name", sorted(n for n in VARIANTS))
def test_no_single_inner_count_corruption_moves_detection(name: str) -> None:
    """Every variable-record packet of every variant's valid corpus log, its first record's
    counts set to the maximum one at a time: the detected variant stays the file's."""
    data = (CORPUS / "valid" / f"{name}.log").read_bytes()
    v = VARIANTS[name]
    f = io.BytesIO(data)
    _, offset = c.read_header(f)
    fields = {c.PacketKind.ANIM_VEHICLE_WHEELS: [(4, "<I")], c.PacketKind.WALKER_BONES: [(4, "<H")],
              c.PacketKind.PHYSICS_CONTROL: [(53, "<I")] if v.wheel_physics_size else [],
              c.PacketKind.EVENT_ADD: [(4 + 1 + 2 * v.vec_size + 4, "<H")]}
    tried = 0
    for raw in c.PacketReader(f, v, offset, len(data)):
        if len(raw.payload) < 2 or not struct.unpack_from("<H", raw.payload)[0]:
            continue
        for at, fmt in fields.get(raw.kind, []):
            bad = _patched(data, raw.payload_offset + 2 + at, fmt, (1 << 8 * struct.calcsize(fmt)) - 1)
            g = io.BytesIO(bad)
            _, off = c.read_header(g)
            detected, evidence = detect_variant(g, off, len(bad))
            assert detected.name == name or name in evidence["also_fit_equally"] or \
                detected.name in _same_layout(name), (raw.kind, evidence)
            tried += 1
    assert tried, "the corpus log has no variable-record packet to corrupt"


def _same_layout(name: str) -> set[str]:
    """Variants whose corpus logs are byte-identical to this one's (nothing tells them apart)."""
    data = (CORPUS / "valid" / f"{name}.log").read_bytes()
    return {n for n in VARIANTS if (CORPUS / "valid" / f"{n}.log").read_bytes() == data}


def test_the_valid_corpus_logs_are_detected_with_every_packet_explained() -> None:
    for name in VARIANTS:
        data = (CORPUS / "valid" / f"{name}.log").read_bytes()
        report = recspec.check(data, format="carla")
        evidence = report.evidence["variant"]
        assert report.variant == name or name in evidence["also_fit_equally"], evidence
        assert evidence["candidates"][0]["fits"] is True
        assert evidence["rule"] == RULE


def test_an_undefined_id_everywhere_falls_back_to_the_variant_that_explains_the_most() -> None:
    data = bytearray(LOG_0915)
    at = _payload_offset(LOG_0915, 20) - 5  # the first VisualTime packet: id 20 -> 99 (undefined in every variant)
    data[at] = 99
    g = io.BytesIO(bytes(data))
    _, off = c.read_header(g)
    detected, evidence = detect_variant(g, off, len(data))
    assert detected.name == "0.9.15"
    assert "note" in evidence and not evidence["candidates"][0]["fits"]


def test_ties_follow_the_stated_order() -> None:
    """A log with no packet fits every variant equally: the stated order decides, and the
    evidence lists the candidates in it."""
    data = c.encode_header(c.Header(1, "CARLA_RECORDER", 1_600_000_000, "Town01"))
    g = io.BytesIO(data)
    _, off = c.read_header(g)
    detected, evidence = detect_variant(g, off, len(data))
    assert detected.name == PREFERENCE[0] == "0.9.15"
    assert [e["variant"] for e in evidence["candidates"]] == list(PREFERENCE)
    assert evidence["also_fit_equally"] == list(PREFERENCE[1:])
    assert set(PREFERENCE) == set(VARIANTS)


def test_detection_decodes_no_fixed_payload(monkeypatch: pytest.MonkeyPatch) -> None:
    """One pass over shapes: fixed-layout payloads are judged by size alone, never decoded per variant."""
    calls: list[object] = []
    real = c.decode_body

    def counting(kind, *a, **k):  # type: ignore[no-untyped-def]
        calls.append(kind)
        return real(kind, *a, **k)

    import recspec.conformance.carla._detect as detect

    monkeypatch.setattr(detect.dec, "decode_body", counting)
    monkeypatch.setattr(detect.dec, "unpack_flat", lambda *a, **k: pytest.fail("unpack_flat called"))
    g = io.BytesIO(LOG_0915)
    _, off = c.read_header(g)
    detect_variant(g, off, len(LOG_0915))
    assert set(calls) <= {c.PacketKind.EVENT_ADD}  # only EventAdd, for the actor/attribute types


# --- each shape judged once per distinct layout: the same answer as variant by variant -------------


def _both_ways(data: bytes) -> tuple[tuple[str, dict[str, object]], tuple[str, dict[str, object]]]:
    out = []
    for grouped in (True, False):
        g = io.BytesIO(data)
        _, off = c.read_header(g)
        variant, evidence = detect_variant(g, off, len(data), grouped=grouped)
        out.append((variant.name, evidence))
    return out[0], out[1]


def _corpus_and_real_logs() -> list[bytes]:
    from helpers import real_file

    logs = [p.read_bytes() for p in sorted(CORPUS.rglob("*.log"))]
    logs += [real_file(n).read_bytes() for n in ("carla_0910_DistanceToLaneCenter.log", "carla_0915_crash.log")]
    return logs


def test_grouped_detection_answers_as_variant_by_variant_on_the_corpus() -> None:
    tried = disagreeing = 0
    for data in _corpus_and_real_logs():
        try:
            c.read_header(io.BytesIO(data))
        except recspec.errors.DecodeError:
            continue  # no header: detection is not asked
        grouped, per_variant = _both_ways(data)
        assert grouped == per_variant
        tried += 1
        disagreeing += len({e["fits"] for e in grouped[1]["candidates"]}) > 1  # type: ignore[attr-defined]
    assert tried > 30 and disagreeing > 10  # the logs do tell variants apart


@given(data=st.data())
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_grouped_detection_answers_as_variant_by_variant(data: st.DataObject) -> None:
    """On valid, invalid, mutated and spliced logs of every variant (a spliced log: a log's
    packets followed by another variant's), with the verdicts kept from earlier files or
    not, the variant and the whole evidence are the per-variant loop's."""
    name = data.draw(st.sampled_from(sorted(VARIANTS)), label="variant")
    kind = data.draw(st.sampled_from(("valid", "mutated", "invalid", "spliced")), label="kind")
    blob, _ = data.draw(carla_logs(name, min_frames=1, max_frames=6, valid=kind != "invalid"), label="log")
    if kind == "spliced":
        other, _ = data.draw(carla_logs(data.draw(st.sampled_from(sorted(VARIANTS)), label="other"),
                                        min_frames=1, max_frames=4), label="other log")
        _, at = c.decode_header(other, 0)
        blob += other[at:]
    if kind in ("mutated", "spliced") and data.draw(st.booleans(), label="mutate"):
        blob = data.draw(mutations(blob), label="mutated")
    try:
        c.decode_header(blob, 0)
    except recspec.errors.DecodeError:
        return  # no header: detection is not asked
    if data.draw(st.booleans(), label="forget verdicts"):
        _detect._VERDICTS.clear()
    grouped, per_variant = _both_ways(blob)
    assert grouped == per_variant


def test_generated_logs_do_tell_variants_apart() -> None:
    """The property above is not vacuous: its logs leave some variants with payloads that do not
    fit or ids they do not define, and some with none."""
    seen: set[str] = set()

    @given(data=st.data())
    @settings(max_examples=60, deadline=None, database=None, derandomize=True,
              suppress_health_check=list(HealthCheck))
    def run(data: st.DataObject) -> None:
        blob, _ = data.draw(carla_logs(min_frames=2, max_frames=4), label="log")
        grouped, _ = _both_ways(blob)
        for e in grouped[1]["candidates"]:  # type: ignore[attr-defined]
            seen.update(r for r in ("payloads do not fit", "undefined ids", "every packet fits") if r in e["reason"])

    run()
    assert seen == {"payloads do not fit", "undefined ids", "every packet fits"}
