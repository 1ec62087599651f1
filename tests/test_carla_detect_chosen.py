"""Variant detection keeps its choice and evidence by the fits' columns (``_detect._CHOSEN``), not by file.

The ranking of the nine variants and the evidence for the report depend on each variant's counts (misfits,
undefined ids, record chains that do not add up, always-written packets missing, out-of-range types) and first
problem alone; the prefix's packet count is each file's own. A kept answer gives the evidence a cold detection
gives, and every call a dict of its own.
"""

from __future__ import annotations

import io
import random
from pathlib import Path

import pytest

from recspec.conformance.carla import _detect
from recspec.fuzz import carla as harness
from recspec.reference import carla as m
from recspec.reference.carla import VARIANTS, decode, encode

CORPUS = Path(__file__).resolve().parent.parent / "corpus" / "carla"


def _detect_in(data: bytes) -> tuple[str, dict]:  # type: ignore[type-arg]
    f = io.BytesIO(data)
    _, offset = m.read_header(f)
    variant, evidence = _detect.detect_variant(f, offset, len(data))
    return variant.name, evidence


def _logs() -> list[bytes]:
    files = sorted(p.read_bytes() for d in ("valid", "invalid") for p in (CORPUS / d).glob("*.log"))
    rng = random.Random(7)
    mutants = [harness.mutate(rng.choice(files), 65536, seed) for seed in range(150)]
    out = []
    for data in files + mutants:
        try:
            m.read_header(io.BytesIO(data))
        except Exception:  # noqa: BLE001 - no header: detection is not asked
            continue
        out.append(data)
    return out


def test_a_kept_answer_is_the_cold_one(monkeypatch: pytest.MonkeyPatch) -> None:
    logs = _logs()
    assert len(logs) > 150
    monkeypatch.setattr(_detect, "_CHOSEN", _detect.BoundedMemo(_detect._CHOSEN_MAX))
    cold = []
    for data in logs:
        _detect._CHOSEN.clear()
        cold.append(_detect_in(data))
    _detect._CHOSEN.clear()
    warm = [_detect_in(data) for data in logs]
    assert warm == cold
    assert len(_detect._CHOSEN) < len(logs)  # some answers were kept and given again


def _with_user_packet(data: bytes, variant: str) -> bytes:
    rec = decode(data, variant=VARIANTS[variant])
    user = m.Packet(m.PacketKind.RAW, b"\x01\x02\x03", 150)
    return encode(m.Recording(rec.header, (*rec.packets, user)), variant=VARIANTS[variant])


def test_the_packet_count_is_each_files_own(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_detect, "_CHOSEN", _detect.BoundedMemo(_detect._CHOSEN_MAX))
    data = (CORPUS / "valid" / "0.9.15.log").read_bytes()
    name, first = _detect_in(data)
    assert name == "0.9.15" and len(_detect._CHOSEN) == 1
    longer = _with_user_packet(data, name)  # a user packet (id 150) fits every variant: the same counts
    again, second = _detect_in(longer)
    assert again == name and len(_detect._CHOSEN) == 1  # the kept answer
    assert second["prefix_packets"] == first["prefix_packets"] + 1
    assert {k: v for k, v in second.items() if k != "prefix_packets"} == \
        {k: v for k, v in first.items() if k != "prefix_packets"}
    assert list(second) == list(first)  # the keys in the report's order


def test_each_call_gets_a_dict_of_its_own(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_detect, "_CHOSEN", _detect.BoundedMemo(_detect._CHOSEN_MAX))
    data = (CORPUS / "valid" / "0.9.15.log").read_bytes()
    _, first = _detect_in(data)
    first["method"] = "changed by a caller"
    first["cross_check"] = "added by a caller"
    _, second = _detect_in(data)
    assert second["method"] == "content" and "cross_check" not in second
