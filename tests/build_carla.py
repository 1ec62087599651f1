"""CARLA recorder logs put together byte by byte, for the tests, from the layout in
docs/formats/carla.md: the info header (u16 version at 0, the magic string at 2, the i64 date at
18, the map string at 26), packets of a u8 id, a u32 size and the payload, counted payloads of a
u16 count and fixed-size records (Position 28 bytes, State 10, Collision 14, EventDel 4,
EventParent 8), EventAdd records in the UE4 layout. Packet ids are 0.9.4-0.9.5's (``OLD``).

``check`` and ``both`` run the checker on such a log; ``both`` holds the fast paths to the
packet-by-packet walk (``fast_path=False``), whose findings and counts must agree. ``offsets``
finds each packet by the framing (``helpers.carla_packets``), not by the code under test."""

from __future__ import annotations

import io
import struct

from helpers import carla_packets
from recspec.conformance.carla import check_stream
from recspec.reference.carla import VARIANTS

OLD = "0.9.4-0.9.5"  # ids 0-7: FrameStart 0, FrameEnd 1, EventAdd 2, EventDel 3, EventParent 4,
FS, FE, ADD, DEL, PARENT, COLLISION, POSITION, STATE = range(8)  # Collision 5, Position 6, State 7
POSITION_SIZE, STATE_SIZE, COLLISION_SIZE, DEL_SIZE = 28, 10, 14, 4
MAP = b"Town06"
HEADER_SIZE = 28 + len(MAP)  # "34 bytes for a six-letter name"
MAP_AT = 26
NOT_AN_ACTOR = 0xFFFFFFFF


def string(text: bytes) -> bytes:
    return struct.pack("<H", len(text)) + text


def header(version: int = 1, magic: bytes = b"CARLA_RECORDER", date: int = 1_700_000_000,
           map_name: bytes = MAP) -> bytes:
    return struct.pack("<H", version) + string(magic) + struct.pack("<q", date) + string(map_name)


def packet(pid: int, payload: bytes) -> bytes:
    return struct.pack("<BI", pid, len(payload)) + payload


def start(frame_id: int, duration: float, elapsed: float) -> bytes:
    return packet(FS, struct.pack("<Qdd", frame_id, duration, elapsed))


def end() -> bytes:
    return packet(FE, b"")


def counted(pid: int, records: list[bytes]) -> bytes:
    return packet(pid, struct.pack("<H", len(records)) + b"".join(records))


def position(actor: int) -> bytes:
    return struct.pack("<I6f", actor, 1.0, 2.0, 3.0, 0.0, 0.0, 90.0)


def state(actor: int, frozen: int = 0, light: int = 0) -> bytes:
    return struct.pack("<IBfB", actor, frozen, 1.5, light)


def collision(ident: int, a: int, b: int, hero1: int = 0, hero2: int = 0) -> bytes:
    return struct.pack("<IIIBB", ident, a, b, hero1, hero2)


def actor(ident: int, kind: int = 1, description: bytes = b"vehicle.a",
          attributes: tuple[tuple[int, bytes, bytes], ...] = ()) -> bytes:
    """An EventAdd record, UE4 layout: id, type, vec3, rot3, description uid, description id, attributes."""
    out = struct.pack("<IB6fI", ident, kind, 0, 0, 0, 0, 0, 0, 7) + string(description)
    out += struct.pack("<H", len(attributes))
    for t, name, value in attributes:
        out += struct.pack("<B", t) + string(name) + string(value)
    return out


def frame(i: int, *middle: bytes, last: bool = False) -> bytes:
    """Frame id i (from 1), 0.05 s steps: elapsed (i - 1) * 0.05 exactly as the writer sums it."""
    elapsed = 0.0
    for _ in range(i - 1):
        elapsed += 0.05
    return start(i, -1.0 if last else 0.05, elapsed) + b"".join(middle) + end()


def empty_middle() -> tuple[bytes, bytes]:
    return counted(POSITION, []), counted(STATE, [])


def log(*frames: bytes, head: bytes | None = None) -> bytes:
    return (header() if head is None else head) + b"".join(frames)


def check(data: bytes, variant: str | None = OLD, fast: bool = True, profile: str = "spec"):  # type: ignore[no-untyped-def]
    return check_stream(io.BytesIO(data), path="t.log", variant=None if variant is None else VARIANTS[variant],
                        profile=profile, size=len(data), fast_path=fast)


def found(report, rule: str) -> list[tuple[int | None, int | None, str]]:  # type: ignore[no-untyped-def]
    return [(f.offset, f.length, f.path) for f in report.findings if f.rule == rule]


def counts(report) -> dict[str, int]:  # type: ignore[no-untyped-def]
    return dict(report.verdicts[report.profile].rules)


def both(data: bytes, variant: str | None = OLD):  # type: ignore[no-untyped-def]
    """The report with the fast paths on, after checking that walking every packet finds the same."""
    fast, slow = check(data, variant, True), check(data, variant, False)
    assert [(f.rule, f.offset, f.length, f.path) for f in fast.findings] == \
        [(f.rule, f.offset, f.length, f.path) for f in slow.findings]
    assert counts(fast) == counts(slow)
    return fast


def offsets(data: bytes) -> list[int]:
    """Every packet's offset after the header, by the framing (u8 id, u32 size)."""
    return [at for at, _, _ in carla_packets(data)]
