"""The NanoVer seed corpus, built by the reference encoder.

``seeds()`` yields every corpus file with what a correct checker must say about
it. The expectations are written here by hand, from what each file was built to
break, not computed by the checker; ``tools/make_corpus.py`` writes the files and
``corpus/nanover/manifest.json``.

Valid files: a small trajectory with every standard key and three resets' worth
of structure, a Rust-style one (empty reset record first, float residue ids), a
state recording with every Value kind, a header-only file. Invalid files: each
named after the one rule it breaks (rules whose level is a warning give the
verdict ``valid``).
"""

from __future__ import annotations

import struct
from collections.abc import Iterator

from recspec.formats import HeaderDamage, Seed
from recspec.reference.nanover import (
    MAGIC,
    Array,
    ArrayKind,
    Frame,
    Header,
    StateUpdate,
    encode_frame,
    encode_header,
    encode_record,
    encode_state_update,
    encode_varint,
)

__all__ = ["DAMAGED_HEADERS", "Seed", "every_key_frame", "seeds", "state_updates", "topology_frame"]

F, X, S = ArrayKind.FLOAT, ArrayKind.INDEX, ArrayKind.STRING


def topology_frame(n_res: int = 2, frame_index: int = 0) -> Frame:
    """A reset frame with the whole topology: n_res alanine-like residues of 3 atoms, one chain."""
    n = 3 * n_res
    return Frame(frame_index, {
        "particle.count": float(n), "residue.count": float(n_res), "chain.count": 1.0,
        "system.simulation.counter": 0.0, "system.simulation.time": 0.0,
    }, {
        "particle.positions": Array(F, tuple(float(i) * 0.125 for i in range(3 * n))),
        "particle.elements": Array(X, (7, 6, 8) * n_res),
        "particle.names": Array(S, ("N", "CA", "O") * n_res),
        "particle.residues": Array(X, tuple(i // 3 for i in range(n))),
        "residue.names": Array(S, ("ALA",) * n_res),
        "residue.ids": Array(S, tuple(str(i + 1) for i in range(n_res))),
        "residue.chains": Array(X, (0,) * n_res),
        "chain.names": Array(S, ("A",)),
        "bond.pairs": Array(X, tuple(x for i in range(n - 1) for x in (i, i + 1))),
        "system.box.vectors": Array(F, (5.0, 0.0, 0.0, 0.0, 5.0, 0.0, 0.0, 0.0, 5.0)),
        "forces.user.index": Array(X, ()),
        "forces.user.sparse": Array(F, ()),
    })


def every_key_frame() -> Frame:
    """A reset frame with every standard key of docs/formats/nanover.md, each with values that are not trivial:
    7 particles in 3 residues of 2 chains, every index array reaching its count's last value (a residue or
    chain index equal to the count is one mutation away), bond orders of each kind, the user's force on
    the last particle, and every number key."""
    n, res, chains = 7, 3, 2
    pairs = (0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6)
    return Frame(0, {
        "particle.count": float(n), "residue.count": float(res), "chain.count": float(chains),
        "system.simulation.time": 2.5, "system.simulation.counter": 1250.0, "system.reset.counter": 3.0,
        "system.temperature": 300.25, "energy.kinetic": 12.5, "energy.potential": -48.75, "energy.total": -36.25,
        "energy.potential_corrected": -47.5, "energy.user.total": 1.75, "forces.user.work_done": 0.375,
        "server.timestamp": 1_700_000_000.5,
    }, {
        "particle.positions": Array(F, tuple(0.25 * i - 1.0 for i in range(3 * n))),
        "particle.velocities": Array(F, tuple(0.5 - 0.125 * i for i in range(3 * n))),
        "particle.forces": Array(F, tuple(float(i % 5) - 2.0 for i in range(3 * n))),
        "particle.forces.system": Array(F, tuple(float(i % 3) * 0.75 for i in range(3 * n))),
        "particle.elements": Array(X, (7, 6, 6, 8, 1, 16, 118)),
        "particle.names": Array(S, ("N", "CA", "C", "O", "H", "SG", "OG")),
        "particle.residues": Array(X, (0, 0, 0, 1, 1, 2, 2)),
        "residue.names": Array(S, ("GLY", "CYS", "SER")),
        "residue.ids": Array(S, ("1", "2", "10")),
        "residue.chains": Array(X, (0, 1, 1)),
        "chain.names": Array(S, ("A", "B")),
        "bond.pairs": Array(X, pairs),
        "bond.orders": Array(F, (1.0, 2.0, 1.5, 3.0, 1.0, 1.0)),
        "system.box.vectors": Array(F, (4.0, 0.0, 0.0, 0.5, 4.0, 0.0, 0.0, 0.25, 4.0)),
        "forces.user.index": Array(X, (0, n - 1)),
        "forces.user.sparse": Array(F, (1.0, -2.0, 0.5, -0.25, 0.0, 3.0)),
    })


def _step(i: int, n: int = 6) -> Frame:
    return Frame(i, {"energy.kinetic": 1.5 * i, "energy.potential": -20.25, "system.simulation.time": 0.01 * i,
                     "energy.user.total": 0.0},
                 {"particle.positions": Array(F, tuple(float(j) * 0.125 + 0.5 * i for j in range(3 * n))),
                  "forces.user.index": Array(X, (1,)), "forces.user.sparse": Array(F, (1.0, -2.0, 0.5))})


def state_updates() -> list[StateUpdate]:
    return [
        StateUpdate({"scene": [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 1.0, 1.0, 1.0],
                     "imd.velocity_reset_available": False}),
        StateUpdate({"interaction.7f3a": {"interaction_type": "spring", "particles": [0.0, 3.0],
                                          "position": [0.5, 0.25, 1.0], "scale": 10.0, "mass_weighted": True,
                                          "reset_velocities": False, "max_force": float("inf")},
                     "avatar.c0de": {"name": "user", "color": [1.0, 0.5, 0.0, 1.0], "components": []}}),
        StateUpdate({"update.index.c0de": 3.0}),
        StateUpdate({"interaction.7f3a": None}),
    ]


def _file(records: list[tuple[int, bytes]], header: bytes | None = None) -> bytes:
    return (encode_header() if header is None else header) + b"".join(encode_record(t, p) for t, p in records)


def _traj(frames: list[Frame], t0: int = 1000, dt: int = 33_000) -> list[tuple[int, bytes]]:
    return [(t0 + i * dt, encode_frame(f)) for i, f in enumerate(frames)]


def _valid(*warnings: str, compat: tuple[str, ...] = ()) -> dict[str, tuple[str, tuple[str, ...]]]:
    return {"spec": ("valid", warnings), "compat": ("valid", compat)}


def _both(verdict: str, rule: str) -> dict[str, tuple[str, tuple[str, ...]]]:
    return {"spec": (verdict, (rule,)), "compat": (verdict, (rule,))}


def _good_traj() -> list[tuple[int, bytes]]:
    return _traj([topology_frame(), _step(1), _step(2), _step(3)])


def seeds() -> Iterator[Seed]:
    """Every NanoVer corpus file, valid ones first, in a stable order."""
    good = _good_traj()
    yield Seed("valid/small.traj", _file(good), "traj", _valid(),
               "a reset frame with every standard key, then three deltas")
    rust_topology = topology_frame()
    rust_arrays = dict(rust_topology.arrays)
    rust_arrays["residue.ids"] = Array(F, (1.0, 2.0))
    rust = [Frame(0), Frame(0, rust_topology.values, rust_arrays), _step(1)]
    yield Seed("valid/rust-style.traj", _file(_traj(rust)), "traj",
               _valid("NANOVER-FRAME-005"),
               "as the Rust server writes: an empty reset record (12 00), then the topology with float residue ids")
    yield Seed("valid/session.state", _file([(900 + 40_000 * i, encode_state_update(u))
                                              for i, u in enumerate(state_updates())]), "state", _valid(),
               "state updates with every Value kind (false, inf, nested struct and list, null deleting a key)")
    yield Seed("valid/header-only.traj", encode_header(), "traj", _valid(), "a header and no record")
    edges = every_key_frame()
    later = Frame(1, {"energy.kinetic": 13.0, "system.simulation.time": 2.51},
                  {"particle.velocities": Array(F, tuple(0.25 - 0.125 * i for i in range(21))),
                   "bond.orders": Array(F, (1.0, 1.0, 1.5, 2.0, 1.0, 3.0)), "forces.user.index": Array(X, (6,)),
                   "forces.user.sparse": Array(F, (0.5, 0.5, 0.5))})
    yield Seed("valid/every-key.traj", _file(_traj([edges, later])), "traj", _valid(),
               "a reset frame with every standard key (bond orders, velocities, forces, every energy), each index "
               "array reaching its count's last value, then a delta of velocities, bond orders and a user force")
    # Unpacked repeated fields: valid protobuf, an info finding only.
    yield Seed("valid/unpacked-floats.traj", _file([(5, _unpacked_positions_frame((1.0, 2.0, 3.0)))]), "traj",
               _valid(), "particle.positions written unpacked (one fixed32 field per float), which readers must accept")
    for rule, data, variant, expect, description in _invalid_cases(good):
        ext = "state" if variant == "state" else "traj"
        yield Seed(f"invalid/{rule}.{ext}", data, variant, expect, description)


def _unpacked_positions_frame(xyz: tuple[float, ...]) -> bytes:
    """A reset frame of one particle whose positions are written unpacked, by hand:
    GetFrameResponse.frame > FrameData.arrays entry > ValueArray.float_values > FloatArray
    with one ``0d`` (field 1, fixed32) per float, every length prefix computed here."""
    values_only = encode_frame(Frame(0, {"particle.count": 1.0}))[2:]  # FrameData holding the values map
    float_array = b"".join(b"\x0d" + struct.pack("<f", v) for v in xyz)
    value_array = b"\x0a" + encode_varint(len(float_array)) + float_array
    entry = b"\x0a\x12particle.positions\x12" + encode_varint(len(value_array)) + value_array
    frame_data = values_only + b"\x12" + encode_varint(len(entry)) + entry
    return b"\x12" + encode_varint(len(frame_data)) + frame_data


def _invalid_cases(good: list[tuple[int, bytes]]
                   ) -> Iterator[tuple[str, bytes, str, dict[str, tuple[str, tuple[str, ...]]], str]]:
    whole = _file(good)
    yield ("NANOVER-HEADER-001", struct.pack("<Q", MAGIC ^ 1) + whole[8:], "traj", _both("malformed",
           "NANOVER-HEADER-001"), "the magic's lowest bit flipped")
    yield ("NANOVER-HEADER-002", _file(good, encode_header(Header(MAGIC, 3))), "traj",
           _both("invalid", "NANOVER-HEADER-002"), "format version 3")
    yield ("NANOVER-HEADER-003", whole[16:], "traj", _both("malformed", "NANOVER-HEADER-003"),
           "a version-1 file: the records without the 16-byte header")
    yield ("NANOVER-STREAM-001", whole[:-7], "traj", _both("malformed", "NANOVER-STREAM-001"),
           "the last record's payload cut 7 bytes short")
    nested: object = 1.0
    for _ in range(40):
        nested = [nested]
    yield ("NANOVER-LIMIT-002", _file([(1, encode_state_update(StateUpdate({"deep": nested})))]), "state",
           _both("malformed", "NANOVER-LIMIT-002"), "a state value nested 40 lists deep")
    group = encode_frame(Frame(1, {"energy.kinetic": 1.0}))
    yield ("NANOVER-PROTO-001", _file(good + [(200_000, group + b"\x1e")]), "traj",
           _both("malformed", "NANOVER-PROTO-001"), "wire type 6 (undefined) after the last frame's fields")
    yield ("NANOVER-PROTO-006", _file(good + [(200_000, group + b"\x1b\x1c")]), "traj",
           _both("malformed", "NANOVER-PROTO-006"), "a group (wire types 3, 4) after the last frame's fields")
    yield ("NANOVER-PROTO-003", _file(good + [(200_000, group + b"\x78\x01")]), "traj",
           {"spec": ("valid", ("NANOVER-PROTO-003",)), "compat": ("valid", ())},
           "an unknown field 15 (varint) in a GetFrameResponse")
    noarray = encode_frame(Frame(1, {}, {"custom.thing": Array(None)}))
    yield ("NANOVER-PROTO-005", _file(good + [(200_000, noarray)]), "traj", _both("invalid", "NANOVER-PROTO-005"),
           "a ValueArray with no member set")
    yield ("NANOVER-PAYLOAD-001", _file(good + [(200_000, encode_state_update(StateUpdate({"scene": 1.0})))]),
           "traj", _both("invalid", "NANOVER-PAYLOAD-001"), "a StateUpdate record inside a .traj")
    yield ("NANOVER-TIME-001", _file(good + [((1 << 64) + 5, encode_frame(_step(4)))]), "traj",
           {"spec": ("invalid", ("NANOVER-TIME-001",)), "compat": ("valid", ("NANOVER-TIME-001",))},
           "a timestamp with a non-zero upper half")
    yield ("NANOVER-TIME-002", _file(good + [(500, encode_frame(_step(4)))]), "traj",
           _both("invalid", "NANOVER-TIME-002"), "a timestamp before the previous one")
    yield ("NANOVER-TIME-003", _file(good + [(good[-1][0], encode_frame(_step(4)))]), "traj",
           {"spec": ("valid", ("NANOVER-TIME-003",)), "compat": ("valid", ())}, "two records with the same timestamp")
    short = _step(4)
    short = Frame(4, short.values, {**short.arrays, "particle.positions": Array(F, (0.0,) * 17)})
    yield ("NANOVER-FRAME-001", _file(good + [(200_000, encode_frame(short))]), "traj",
           _both("invalid", "NANOVER-FRAME-001"), "17 positions for 6 particles (needs 18)")
    yield ("NANOVER-FRAME-002", _file(good + [(200_000, encode_frame(Frame(4, {}, {"bond.pairs": Array(X, (0, 6))})))]),
           "traj", _both("invalid", "NANOVER-FRAME-002"), "a bond to particle 6 of 6 (indices are 0..5)")
    residues = Array(X, (0, 0, 0, 1, 1, 2))
    yield ("NANOVER-FRAME-003", _file(good + [(200_000, encode_frame(Frame(4, {}, {"particle.residues": residues})))]),
           "traj", _both("invalid", "NANOVER-FRAME-003"), "a particle in residue 2 of 2 (indices are 0, 1)")
    yield ("NANOVER-FRAME-004", _file(good + [(200_000, encode_frame(Frame(4, {"particle.count": "6"})))]),
           "traj", _both("invalid", "NANOVER-FRAME-004"), "particle.count as a string")
    no_user_forces = Frame(4, {}, {"forces.user.index": Array(X, ()), "forces.user.sparse": Array(X, ())})
    yield ("NANOVER-FRAME-006", _file(good + [(200_000, encode_frame(no_user_forces))]),
           "traj", {"spec": ("invalid", ("NANOVER-FRAME-006",)), "compat": ("valid", ("NANOVER-FRAME-006",))},
           "no user forces: an empty forces.user.sparse written as an index array, as NanoVer's Python recorder "
           "writes an empty list")
    topo = topology_frame()
    floats = Frame(0, topo.values, {**topo.arrays, "residue.ids": Array(F, (1.0, 2.0))})
    yield ("NANOVER-FRAME-005", _file(_traj([floats, _step(1)])), "traj",
           {"spec": ("valid", ("NANOVER-FRAME-005",)), "compat": ("valid", ())},
           "residue.ids as floats, as NanoVer's Rust server writes them")
    yield ("NANOVER-STATE-001", _file([(1, encode_state_update(StateUpdate({"scene": 1.0}))),
                                       (2, encode_state_update(StateUpdate({"avatar.gone": None})))]), "state",
           {"spec": ("valid", ("NANOVER-STATE-001",)), "compat": ("valid", ())},
           "a null deleting a key the state never held")


#: Valid seeds with a damaged header: no sniffer recognises the first bytes, and the extension names the
#: format, whose header rule reports the bytes found (``corpus/nanover/damaged/``).
DAMAGED_HEADERS: tuple[HeaderDamage, ...] = (
    HeaderDamage("damaged/magic-zeroed.state", "valid/session.state", 0, bytes(8),
                 {"spec": ("malformed", ("NANOVER-HEADER-001",)), "compat": ("malformed", ("NANOVER-HEADER-001",))},
                 "the 8-byte magic zeroed"),
    HeaderDamage("damaged/raskat-lookalike.traj", "valid/small.traj", 0, b"\x03\x00",
                 {"spec": ("malformed", ("NANOVER-HEADER-001",)), "compat": ("malformed", ("NANOVER-HEADER-001",))},
                 "the magic's first two bytes made 03 00, a raSkat version-3 word: the extension "
                 "outweighs that guess"),
)
