"""The walk keeps the fixed-record payloads it judged clean from their plan's fields, across files
(``_check._CLEAN_FIXED``): a payload met again is judged by its actor ids alone. Its ids are tested
against the actors alive in the file being walked, not in the one that kept it; a payload with a flag
or an enum out of bounds is never kept; the Position records a kept payload counts are counted again.
Over the corpus and mutants, a walk with every payload kept gives the report of a walk that keeps
nothing and of the packet-by-packet walk."""

from __future__ import annotations

import random
from pathlib import Path

from build_carla import POSITION, STATE, actor, both, check, counted, found, frame, log, offsets, position, state

from recspec.conformance.carla import _check
from recspec.fuzz import carla
from recspec.fuzz._oracles import _shape
from recspec.reference.carla import VARIANTS

REPO = Path(__file__).resolve().parent.parent
CORPUS = sorted((REPO / "corpus" / "carla").glob("*/*.log"))
ADD = 2  # EventAdd's id in 0.9.4-0.9.5


def test_a_kept_payload_whose_actor_is_not_alive_in_this_file_is_a_finding() -> None:
    _check._CLEAN_FIXED.clear()
    moves = counted(POSITION, [position(5)])
    alive_there = log(frame(1, counted(ADD, [actor(5)]), moves, counted(STATE, []), last=True))
    not_here = log(frame(1, moves, counted(STATE, []), last=True))
    assert not both(alive_there).findings  # actor 5 added before it moves: the payload is kept clean
    assert len(_check._CLEAN_FIXED["0.9.4-0.9.5"]) >= 1
    report = both(not_here)  # the same payload, no actor 5 in this file
    position_at = offsets(not_here)[1]  # FrameStart, then the Position packet
    # the record (28 bytes) after the packet header and the u16 count
    assert found(report, "CARLA-ACTOR-001") == [
        (position_at + 5 + 2, 28, "frame[0]/packet[1]:Position/record[0].database_id")]


def test_a_kept_payload_counts_its_position_records_again() -> None:
    _check._CLEAN_FIXED.clear()
    data = log(frame(1, counted(ADD, [actor(5), actor(6)]), counted(POSITION, [position(5), position(6)]),
                     counted(STATE, []), last=True))
    assert check(data).stats["position_records"] == 2
    assert check(data).stats["position_records"] == 2  # the payload kept now


def test_a_flag_out_of_bounds_is_found_every_time() -> None:
    _check._CLEAN_FIXED.clear()
    data = log(frame(1, counted(ADD, [actor(5)]), counted(POSITION, []), counted(STATE, [state(5, frozen=2)]),
                     last=True))
    for _ in range(2):
        assert [f.rule for f in check(data).findings] == ["CARLA-VALUE-001"]
    assert all(len(payload) != 2 + 10 for _, payload in _check._CLEAN_FIXED.get("0.9.4-0.9.5", {}))


def test_walks_with_payloads_kept_and_without_give_one_report() -> None:
    files = [p.read_bytes()[:8192] for p in CORPUS]
    rng = random.Random(5)
    inputs = files + [carla.mutate(rng.choice(files), 8192, i) for i in range(150)]
    compared = kept = 0
    for data in inputs:
        detected = both(data, None)
        if detected.variant is None:
            continue
        variant = detected.variant
        _check._CLEAN_FIXED.clear()
        cold = check(data, variant)
        warm = check(data, variant)  # its own payloads kept now, and those of the inputs before it
        slow = check(data, variant, fast=False)
        assert _shape(cold) == _shape(warm) == _shape(slow), data[:40]
        assert cold.stats == warm.stats == slow.stats
        compared += 1
        kept += len(_check._CLEAN_FIXED.get(variant, {}))
    assert compared >= len(CORPUS)
    assert kept >= compared  # most inputs had payloads kept before their warm walk


def test_a_variant_of_its_own_keeps_nothing_across_files() -> None:
    import dataclasses

    own = dataclasses.replace(VARIANTS["0.9.4-0.9.5"])
    _check._CLEAN_FIXED.clear()
    assert _check._clean_fixed(own) is not _check._clean_fixed(own)
    assert not _check._CLEAN_FIXED



def test_a_stream_that_reads_bytearrays_is_checked_as_a_file() -> None:
    import io

    from recspec.conformance.carla import check_stream

    class Bytearrays(io.BytesIO):
        def read(self, n: int | None = -1) -> bytearray:  # type: ignore[override]
            return bytearray(super().read(n))

    data = CORPUS[0].read_bytes()
    expected = check_stream(io.BytesIO(data), path="x", variant=None, profile="spec")
    got = check_stream(Bytearrays(data), path="x", variant=None, profile="spec")
    assert got.to_json() == expected.to_json()
