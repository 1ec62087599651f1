"""The fast path's debug commands (``_fastpath._commands``): a frame whose ``cmd`` array holds commands in
the spec encoder's shape is accepted without decoding it, where no rule has anything to say about them; on
generated recordings, on recordings mutated or one edit away from a command's rules, the report (findings
with their offsets, lengths and paths, both profiles' verdicts, the counts) is the full walk's."""

from __future__ import annotations

import io
import math

import pytest
from build_matrix_smt import checked_both_ways
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from recspec.conformance.matrix_smt import check_stream
from recspec.conformance.matrix_smt._rules import CMD_COMMON, CMD_NEEDS, CMD_STYLE
from recspec.conformance.matrix_smt._seeds import BASE
from recspec.fuzz.matrix_smt import mutate
from recspec.reference import matrix_smt as b
from recspec.strategies import matrix_files

SLOW = settings(suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def _fast_frames(data: bytes, profile: str = "spec") -> int:
    return check_stream(io.BytesIO(data), path="x", profile=profile).evidence.get("fast_path_frames", 0)


def _recording(commands: list[b.Document], states: int = 2) -> bytes:
    """Objects 0..states-1 and one frame ``{states, cmd, t}`` (the spec encoder's order) with ``commands``."""
    objects = [b.Document.of(("id", i), ("name", f"o{i}"), ("color", b.Array.of_values([0.5, 0.5, 0.5])),
                             ("static", False), ("type", "sphere"), ("radius", 1.0)) for i in range(states)]
    frame_states = [b.Document.of(("id", i), ("i", "i"), ("m", ""), ("p", b.Array.of_values([1.0, 2.0, 3.0])),
                                  ("r", b.Array.of_values([0.0, 0.0, 0.0, 1.0]))) for i in range(states)]
    frame = b.Document.of(("states", b.Array.of_values(frame_states)), ("cmd", b.Array.of_values(commands)),
                          ("t", 0.5))
    return b.encode_document(b.Document.of(("objects", b.Array.of_values(objects)),
                                           ("frames", b.Array.of_values([frame]))))


def _command(kind: str, style: tuple[str, ...] = CMD_STYLE) -> b.Document:
    """A command of ``kind`` that breaks no rule: every field a double, in the encoder's order."""
    values = {"ox": 0.0, "oy": 1.0, "oz": 0.0, "vx": 0.0, "vy": 2.0, "vz": 0.0, "ex": 3.0, "ey": 1.0, "ez": 0.0,
              "sr": 0.25, "sx": 1.0, "sy": 2.0, "sz": 3.0, "rx": 0.0, "ry": 0.0, "rz": 0.0, "rw": 1.0,
              "r": 1.0, "g": 0.0, "b": 0.5, "o": 0.75}
    keys = [*CMD_COMMON, *CMD_NEEDS[kind], *style]
    return b.Document.of(("t", kind), *[(k, values[k]) for k in keys])


def test_a_frame_of_clean_commands_is_taken_by_the_fast_path() -> None:
    data = _recording([_command(kind) for kind in sorted(CMD_NEEDS)])
    report = check_stream(io.BytesIO(data), path="x", profile="spec")
    assert report.findings == [] and report.evidence["fast_path_frames"] == 1
    assert report.stats["commands"] == 4 and report.stats["states"] == 2
    # a command without its style, or with part of it, is the document's shape too
    assert _fast_frames(_recording([_command("s", ()), _command("v", ("o",))])) == 1


def test_the_spec_seed_with_commands_is_taken_whole() -> None:
    spec = b.encode(BASE, profile="spec")  # frame 1 holds one command of each kind
    report = check_stream(io.BytesIO(spec), path="x", profile="spec")
    assert report.evidence["fast_path_frames"] == report.stats["frames"] == 3
    assert report.stats["commands"] == 4


def test_a_command_the_rules_judge_is_left_to_the_full_walk() -> None:
    # sr 0: MATRIX-CMD-002 at the sr element, which the full walk locates
    cmd = _command("s")
    cmd.values[cmd.keys.index("sr")] = 0.0
    data = _recording([_command("v"), cmd])
    assert _fast_frames(data) == 0
    findings = check_stream(io.BytesIO(data), path="x", profile="spec").findings
    assert [(f.rule, f.offset, f.path) for f in findings] == [
        ("MATRIX-CMD-002", data.index(b"\x01sr\x00"), "frames[0].cmd[1].sr")]


def _edited(kind: str, **values: float) -> b.Document:
    cmd = _command(kind)
    for key, value in values.items():
        cmd.values[cmd.keys.index(key)] = value
    return cmd


@pytest.mark.parametrize(("cmd", "rule", "key"), [
    (_edited("s", o=1.5), "MATRIX-CMD-003", "o"),
    (_edited("v", r=-0.5), "MATRIX-CMD-003", "r"),
    (_edited("c", sy=-1.0), "MATRIX-CMD-002", "sy"),
    (_edited("c", rw=2.0), "MATRIX-QUAT-001", None),
    (_edited("r", ex=0.0, ey=1.0, ez=0.0), "MATRIX-CMD-004", None),
    (_edited("v", vx=math.nan), "MATRIX-NUM-002", "vx"),
    (_edited("v", oz=math.inf), "MATRIX-NUM-002", "oz"),
])
def test_each_command_rule_is_left_to_the_full_walk(cmd: b.Document, rule: str, key: str | None) -> None:
    data = _recording([_command("s"), cmd])
    assert _fast_frames(data) == 0
    fast = checked_both_ways(data, "spec")
    # the finding at the command (its element, 03 "1" 00 ...) or at the field's own element
    command_at = data.index(b"\x031\x00", data.index(b"\x04cmd\x00"))
    at = command_at if key is None else data.index(b"\x01" + key.encode() + b"\x00", command_at)
    assert [(f.rule, f.offset) for f in fast.findings] == [(rule, at)]


def test_a_field_twice_is_left_to_the_full_walk() -> None:
    cmd = _command("s")
    cmd.keys.append("ox")
    cmd.values.append(0.0)
    data = _recording([cmd])
    assert _fast_frames(data) == 0
    fast = checked_both_ways(data, "spec")
    assert [(f.rule, f.path) for f in fast.findings] == [("MATRIX-BSON-009", "frames[0].cmd[0].ox")]


def test_every_byte_of_the_commands_edited_gets_the_full_walks_report() -> None:
    # the lengths, keys and type bytes the pattern and the length checks pin down, each byte changed
    clean = _recording([_command("c"), _command("r", ("o",))], states=1)
    first = clean.index(b"\x04cmd\x00")
    last = clean.index(b"\x01t\x00", first)
    taken = 0
    for at in range(first, last):
        for delta in (1, 0x80):
            data = bytearray(clean)
            data[at] = (data[at] + delta) % 256
            taken += _fast_frames(bytes(data)) == 1
            checked_both_ways(bytes(data), "spec")
    assert 0 < taken < 2 * (last - first)  # (a number's low bytes: clean still)


_EDITS = ("value", "delete", "duplicate", "rename", "swap", "int32", "kind", "ray")
_NUMBERS = st.one_of(st.sampled_from([0.0, -0.0, 1.0, -1.0, 1.0000001, 0.9999999, 1.002, math.nan, math.inf,
                                      -math.inf, 5e-324, 1e308]), st.floats(-2.0, 2.0))


@SLOW
@given(st.lists(st.tuples(st.sampled_from(sorted(CMD_NEEDS)), st.sets(st.sampled_from(CMD_STYLE))), min_size=1,
                max_size=4), st.sampled_from(_EDITS), st.integers(0, 1000), _NUMBERS,
       st.sampled_from(["spec", "compat"]))
def test_a_command_one_edit_away_gets_the_full_walks_report(kinds, edit, where, number, profile) -> None:  # type: ignore[no-untyped-def]
    commands = [_command(kind, tuple(k for k in CMD_STYLE if k in style)) for kind, style in kinds]
    cmd = commands[where % len(commands)]
    at = 1 + where % (len(cmd.keys) - 1)  # a double field ("t", the kind, stays)
    if edit == "value":
        cmd.values[at] = number
    elif edit == "delete":
        del cmd.keys[at], cmd.values[at]
    elif edit == "duplicate":
        cmd.keys.append(cmd.keys[at])
        cmd.values.append(number)
    elif edit == "rename":
        cmd.keys[at] = ("zz", "r", "sr", "rw", "t")[where % 5]
    elif edit == "swap":
        other = 1 + (at + where // 7) % (len(cmd.keys) - 1)
        cmd.keys[at], cmd.keys[other] = cmd.keys[other], cmd.keys[at]
        cmd.values[at], cmd.values[other] = cmd.values[other], cmd.values[at]
    elif edit == "int32":
        cmd.values[at] = int(number) if math.isfinite(number) and abs(number) < 2**31 else 1
    elif edit == "kind":
        cmd.values[0] = ("x", "", "vv", "c", "r")[where % 5]
    elif "ex" in cmd.keys:  # a ray that ends where it starts
        for origin, end in zip(CMD_COMMON, CMD_NEEDS["r"]):
            cmd.values[cmd.keys.index(end)] = cmd.values[cmd.keys.index(origin)]
    cmd._map = None
    data = _recording(commands)
    checked_both_ways(data, profile)


@SLOW
@given(st.one_of(matrix_files(max_frames=3), matrix_files(max_frames=3, valid=False)), st.integers(0, 2**32 - 1),
       st.sampled_from(["spec", "compat"]))
def test_generated_recordings_mutated_get_the_full_walks_report(file, seed, profile) -> None:  # type: ignore[no-untyped-def]
    # (their commands and their objects array: fast_path=False turns both fast paths off)
    data = mutate(file[0], 1 << 16, seed) if seed % 4 else file[0]
    checked_both_ways(data, profile)
