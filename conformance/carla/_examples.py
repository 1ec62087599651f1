"""What the shared tests (tests/test_cli.py, test_case.py, ...) take from the CARLA plugin: facts about its
own corpus, rules and cases (``recspec.formats.FormatExamples``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from recspec.formats import FORMATS, FormatExamples

if TYPE_CHECKING:
    from hypothesis import strategies as st

__all__ = ["EXAMPLES"]


def _small_cases(variant: str | None) -> st.SearchStrategy[dict[str, Any]]:
    from ._strategies import carla_cases

    return carla_cases(variant, max_frames=3)


EXAMPLES = FormatExamples(
    valid_file="0.9.15.log",
    valid_profile="spec",
    invalid_file=("CARLA-FRAME-004.log", "CARLA-FRAME-004"),
    explain=("carla-packet-001", ("size is 14", "roll, pitch, yaw")),
    corpus_rules_more_than=20,
    # this file's header is 40 bytes, so its first packet, a FrameStart, starts there and the packet's payload
    # 5 bytes later (after its id byte and size word)
    dump_facts=(("header.length", 40), ("packets.0.offset", 40), ("packets.0.kind", "FrameStart")),
    ksy_dump_facts=(("packets.0.payload.start", 45),),
    case_targets=tuple((v, {}) for v in FORMATS["carla"].variants),
    small_cases=_small_cases,
    malformed_case=({"recspec_case": 1, "format": "carla", "variant": "0.9.15", "header": {
        "version": 1, "magic": "CARLA_RECORDER", "date": 0, "map_name": "x"}, "frames": [{
            "frame_id": 1, "duration_this": -1.0, "elapsed": 0.0, "packets": [{"kind": "Position", "records": [
                {"database_id": 1, "location": [0.0, 0.0], "rotation": [0.0, 0.0, 0.0]}]}]}]},
        "frames[0].packets[0].records[0].location"),
    unseeded_rules={
        "CARLA-LIMIT-001": "needs a packet declaring more than 4 MiB; tested in tests/test_carla_limits.py",
        "CARLA-PACKET-003": "an info-level rule; seeded as valid/0.9.15-user-packet.log",
        "CARLA-XCHECK-001": "fires only when recspec's two readers disagree, which the corpus must never show",
    },
)
