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
from collections.abc import Callable

from helpers import carla_packets
from recspec.conformance.carla import check_stream
from recspec.reference.carla import VARIANTS, PacketReader

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


def packet_reader(data: bytes, size: int | None, variant: str = "0.9.15") -> PacketReader:
    """The reference's packet reader over ``data`` from offset 0, the file's size ``size`` (None: unknown)."""
    return PacketReader(io.BytesIO(data), VARIANTS[variant], 0, size)


def after_first(data: bytes, size: int | None) -> tuple[PacketReader, int]:
    """A 0.9.15 packet reader over ``data`` that has read its first packet, and where that packet ends."""
    reader = packet_reader(data, size)
    first = next(iter(reader))
    return reader, first.end


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


# -- a steady run of frames (conformance/carla/_frames.py proves such runs in bulk)

FRAMES = 80
STEP = 0.5  # exact in binary: elapsed (i - 1) * STEP adds up bit for bit


def frame_starts(data: bytes) -> list[int]:
    """The offset of each FrameStart (id 0), by the packet framing."""
    return [at for at, pid, _ in carla_packets(data) if pid == 0]


Edit = Callable[[int, dict], None]


def steady(edit: Edit | None = None, frames: int = FRAMES, rotate: bool = False, events: bool = False) -> bytes:
    """Frame 1 adds actors 1, 2, 3; every frame holds their Positions and the States of 1 and 2
    (frozen 0 and 1, light states 0 and 1 of the three 0.9.4-0.9.5 has); ``edit(i, parts)`` may
    change frame i's parts first. ``rotate``: the Positions' actor ids change places from frame to
    frame (same shape, other bytes: a reference frame proves none of them, the template does).
    ``events``: every frame holds the four event packets, empty but for frame 1's EventAdd, as the
    0.9.4-0.9.5 writer writes them ("all always")."""
    out = [header()]
    for i in range(1, frames + 1):
        ids = [1 + (i + r) % 3 for r in range(3)] if rotate else [1, 2, 3]
        parts = {"id": i, "duration": -1.0 if i == frames else STEP, "elapsed": (i - 1) * STEP,
                 "positions": ids, "states": [(1, 0, 0), (2, 1, 1)]}
        if edit is not None:
            edit(i, parts)
        if parts.get("short"):  # a FrameStart without its elapsed time
            body = packet(0, struct.pack("<Qd", parts["id"], parts["duration"]))
        else:
            body = start(parts["id"], parts["duration"], parts["elapsed"])
        if i == 1:
            body += counted(ADD, [actor(1), actor(2), actor(3)])
        elif events:
            body += counted(ADD, [])
        if events:
            body += counted(DEL, []) + counted(PARENT, []) + counted(COLLISION, [])
        if parts.get("deleted"):
            body += counted(DEL, [struct.pack("<I", a) for a in parts["deleted"]])
        body += counted(POSITION, [position(a) for a in parts["positions"]])
        body += counted(STATE, [state(*s) for s in parts["states"]]) * (2 if parts.get("twice") else 1) + end()
        out.append(body)
    return b"".join(out)
