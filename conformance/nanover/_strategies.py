"""Hypothesis strategies for NanoVer recordings (re-exported by ``recspec.strategies``).

* ``nanover_values(*, max_depth=2)``: google.protobuf.Value contents;
* ``nanover_frames(*, min_particles=0, max_particles=4, reset=None)``: a ``Frame``
  whose standard arrays fit its own ``particle.count`` (a reset frame carries the
  topology), plus arbitrary extra keys;
* ``nanover_state_updates(*, max_keys=4)``;
* ``nanover_recordings(kind=None, *, min_records=0, max_records=4, min_particles=0, max_particles=4,
  deltas=False, removals=False)``: a ``Recording`` with increasing timestamps, the first frame a reset;
  delta frames and state key removals on request;
* ``nanover_cases(kind=None, *, ..., deltas=True, removals=True)``: the same as a case (``recspec case`` JSON);
* ``nanover_files(kind=None, *, min_records=0, max_records=4)``: (bytes, kind name).

Arguments are checked when drawn (``InvalidArgument``).
"""

from __future__ import annotations

import functools
from typing import Any

from hypothesis import strategies as st
from hypothesis.errors import InvalidArgument

from recspec.reference.nanover import (
    Array,
    ArrayKind,
    Frame,
    Kind,
    Record,
    Recording,
    StateUpdate,
    encode,
    to_case,
)

__all__ = ["nanover_cases", "nanover_files", "nanover_frames", "nanover_recordings", "nanover_state_updates",
           "nanover_values"]

_F32 = st.floats(width=32, allow_nan=False)
_U32 = st.integers(0, 2**32 - 1)
_TEXT = st.text(st.characters(codec="utf-8"), max_size=8)
_KEYS = st.text(st.characters(codec="utf-8"), min_size=1, max_size=12).filter(
    lambda k: not k.startswith(("particle.", "residue.", "chain.", "bond.", "system.", "energy.", "forces.",
                                "server.")))


def nanover_values(*, max_depth: int = 2) -> st.SearchStrategy[Any]:
    """Values a google.protobuf.Value holds: None, float (incl. inf), str, bool, dict, list."""
    if not isinstance(max_depth, int) or max_depth < 0:
        raise InvalidArgument(f"max_depth={max_depth!r} must be an int >= 0")
    leaves = st.none() | st.floats(allow_nan=False) | _TEXT | st.booleans()
    if max_depth == 0:
        return leaves
    return st.recursive(leaves, lambda inner: st.lists(inner, max_size=3)
                        | st.dictionaries(_TEXT, inner, max_size=3), max_leaves=4)


def _arrays() -> st.SearchStrategy[Array]:
    return st.one_of(
        st.lists(_F32, max_size=6).map(lambda v: Array(ArrayKind.FLOAT, tuple(v))),
        st.lists(_U32, max_size=6).map(lambda v: Array(ArrayKind.INDEX, tuple(v))),
        st.lists(_TEXT, max_size=4).map(lambda v: Array(ArrayKind.STRING, tuple(v))),
    )


#: The standard scalar values (docs/formats/nanover.md, "Standard keys") other than the counts: any of them may
#: ride in a frame, as NanoVer's servers write them (the Rust server writes every energy and counter each frame).
_STANDARD_SCALARS = ("system.simulation.time", "system.simulation.counter", "system.reset.counter",
                     "system.temperature", "energy.kinetic", "energy.potential", "energy.total",
                     "energy.potential_corrected", "energy.user.total", "forces.user.work_done", "server.timestamp")
#: The per-particle float arrays of 3N values besides the positions.
_PER_PARTICLE_3 = ("particle.velocities", "particle.forces", "particle.forces.system")
_WHOLE_IDS = st.integers(-9999, 99999)
_SCALAR_KEYS = st.lists(st.sampled_from(_STANDARD_SCALARS), unique=True, max_size=len(_STANDARD_SCALARS))
_PER_PARTICLE_KEYS = st.lists(st.sampled_from(_PER_PARTICLE_3), unique=True, max_size=3)
_COUNTER = st.integers(0, 2**31)
_TIME = st.floats(0, 1e6)
_FINITE = st.floats(allow_nan=False, allow_infinity=False)
_BOND_ORDER = st.sampled_from((1.0, 1.5, 2.0, 3.0)) | _F32
_ELEMENTS: dict[str, st.SearchStrategy[Any]] = {
    "f32": _F32, "text": _TEXT, "element": st.integers(0, 118), "id": _WHOLE_IDS, "bond order": _BOND_ORDER}


@functools.lru_cache(maxsize=512)
def _exactly(element: str, k: int) -> st.SearchStrategy[list[Any]]:
    """Lists of exactly ``k`` elements of one kind, each strategy made once: a strategy made anew for every draw is
    validated anew, which cost more than the drawing."""
    return st.lists(_ELEMENTS[element], min_size=k, max_size=k)


@functools.lru_cache(maxsize=512)
def _below(n: int) -> st.SearchStrategy[int]:
    return st.integers(0, n - 1)


@functools.lru_cache(maxsize=512)
def _indices(n: int, k: int, unique: bool = False) -> st.SearchStrategy[list[int]]:
    """Lists of ``k`` indices below ``n`` (with ``unique``: up to ``k`` distinct ones)."""
    return st.lists(_below(n), unique=True, max_size=k) if unique else st.lists(_below(n), min_size=k, max_size=k)


@functools.lru_cache(maxsize=64)
def _pairs(n: int) -> st.SearchStrategy[list[tuple[int, int]]]:
    return st.lists(st.tuples(_below(n), _below(n)), max_size=4)


@functools.cache
def _extra_values() -> st.SearchStrategy[dict[str, Any]]:
    """At most one key beyond the standard ones, with any Value."""
    return st.dictionaries(_KEYS, nanover_values(max_depth=1), max_size=1)


@functools.cache
def _extra_arrays() -> st.SearchStrategy[dict[str, Array]]:
    """At most one key beyond the standard ones, with any ValueArray."""
    return st.dictionaries(_KEYS, _arrays(), max_size=1)


@functools.lru_cache(maxsize=16)
def _state_changes(max_keys: int) -> st.SearchStrategy[dict[str, Any]]:
    return st.dictionaries(_TEXT, nanover_values().filter(lambda v: v is not None), max_size=max_keys)


def _floats3(draw: Any, n: int) -> Array:
    return Array(ArrayKind.FLOAT, tuple(draw(_exactly("f32", 3 * n))))


def _scalars(draw: Any) -> dict[str, Any]:
    """Some of the standard scalars: counters as whole numbers, the others any finite double."""
    out: dict[str, Any] = {}
    for key in draw(_SCALAR_KEYS):
        if key.endswith("counter"):
            out[key] = float(draw(_COUNTER))
        elif key == "system.simulation.time":
            out[key] = draw(_TIME)
        else:
            out[key] = draw(_FINITE)
    return out


def _per_frame_arrays(draw: Any, n: int) -> dict[str, Array]:
    """The arrays a server may send in any frame of ``n`` particles: velocities and forces (3N floats each), the
    box (9 floats), and the user forces (an index array of particles and 3 floats for each)."""
    arrays: dict[str, Array] = {}
    for key in draw(_PER_PARTICLE_KEYS):
        arrays[key] = _floats3(draw, n)
    if draw(st.booleans()):
        arrays["system.box.vectors"] = Array(ArrayKind.FLOAT, tuple(draw(_exactly("f32", 9))))
    if draw(st.booleans()):
        users = draw(_indices(n, min(n, 3), unique=True)) if n else []
        arrays["forces.user.index"] = Array(ArrayKind.INDEX, tuple(users))
        arrays["forces.user.sparse"] = _floats3(draw, len(users))
    return arrays


@st.composite
def nanover_frames(draw: st.DrawFn, *, min_particles: int = 0, max_particles: int = 4,
                   reset: bool | None = None) -> Frame:
    """A frame whose standard arrays fit its own particle.count; ``reset`` (frame_index 0) frames carry the whole
    topology: elements, names, residues (names, ids as strings or, as NanoVer's Rust server writes them, whole
    floats, chains), chains, bond pairs and perhaps their orders. Any frame may hold velocities, forces, the box,
    user forces and any of the standard scalars; extra keys of any type ride along."""
    if not (isinstance(min_particles, int) and isinstance(max_particles, int) and 0 <= min_particles <= max_particles):
        raise InvalidArgument(f"need 0 <= min_particles <= max_particles, got {min_particles}, {max_particles}")
    is_reset = draw(st.booleans()) if reset is None else reset
    index = 0 if is_reset else draw(st.integers(1, 2**32 - 1))
    n = draw(st.integers(min_particles, max_particles))
    values: dict[str, Any] = {"particle.count": float(n), "system.simulation.time": draw(_TIME)}
    arrays: dict[str, Array] = {"particle.positions": _floats3(draw, n)}
    if is_reset:
        n_res = draw(st.integers(1 if n else 0, max(n, 0)))
        n_chains = draw(st.integers(1, 2)) if n_res else draw(st.integers(0, 1))
        values["residue.count"] = float(n_res)
        values["chain.count"] = float(n_chains)
        arrays["particle.elements"] = Array(ArrayKind.INDEX, tuple(draw(_exactly("element", n))))
        arrays["particle.names"] = Array(ArrayKind.STRING, tuple(draw(_exactly("text", n))))
        arrays["particle.residues"] = Array(ArrayKind.INDEX, tuple(draw(_indices(n_res, n)) if n_res else ()))
        arrays["residue.names"] = Array(ArrayKind.STRING, tuple(draw(_exactly("text", n_res))))
        ids = draw(_exactly("id", n_res))
        if draw(st.booleans()):  # the Rust server's float ids (NANOVER-FRAME-005: a warning under spec)
            arrays["residue.ids"] = Array(ArrayKind.FLOAT, tuple(float(i) for i in ids))
        else:
            arrays["residue.ids"] = Array(ArrayKind.STRING, tuple(str(i) for i in ids))
        arrays["residue.chains"] = Array(ArrayKind.INDEX, tuple(
            draw(_indices(n_chains, n_res)) if n_chains else (0,) * n_res))
        arrays["chain.names"] = Array(ArrayKind.STRING, tuple(draw(_exactly("text", n_chains))))
        pairs = draw(_pairs(n)) if n else []
        arrays["bond.pairs"] = Array(ArrayKind.INDEX, tuple(x for p in pairs for x in p))
        if draw(st.booleans()):
            arrays["bond.orders"] = Array(ArrayKind.FLOAT, tuple(draw(_exactly("bond order", len(pairs)))))
    values.update(_scalars(draw))
    arrays.update(_per_frame_arrays(draw, n))
    values.update(draw(_extra_values()))
    arrays.update(draw(_extra_arrays()))
    return Frame(index, values, arrays)


@st.composite
def nanover_state_updates(draw: st.DrawFn, *, max_keys: int = 4) -> StateUpdate:
    """A state update setting up to ``max_keys`` keys (no deletions: see ``nanover_recordings``)."""
    if not isinstance(max_keys, int) or max_keys < 0:
        raise InvalidArgument(f"max_keys={max_keys!r} must be an int >= 0")
    return StateUpdate(draw(_state_changes(max_keys)))


def _delta(draw: Any, index: int, n: int) -> Frame:
    """A delta frame (frame_index > 0) for an aggregate of ``n`` particles: perhaps new positions, velocities,
    forces, box, user forces and standard scalars, and one extra key; every other key keeps its aggregate
    value."""
    values: dict[str, Any] = {}
    arrays: dict[str, Array] = {}
    if draw(st.booleans()):
        arrays["particle.positions"] = _floats3(draw, n)
    values.update(_scalars(draw))
    arrays.update(_per_frame_arrays(draw, n))
    values.update(draw(_extra_values()))
    arrays.update(draw(_extra_arrays()))
    return Frame(index, values, arrays)


def _state_updates_with_removals(draw: Any, n: int, max_keys: int = 4) -> list[StateUpdate]:
    """``n`` state updates where a key set earlier may be removed (a null value) and set again later."""
    held: set[str] = set()
    updates = []
    for _ in range(n):
        changes = dict(draw(_state_changes(max_keys)))
        removable = sorted(held - set(changes))
        for key in draw(st.lists(st.sampled_from(removable), unique=True, max_size=2)) if removable else []:
            changes[key] = None
        held = {k for k in held | set(changes) if changes.get(k, True) is not None}
        updates.append(StateUpdate(changes))
    return updates


@st.composite
def nanover_recordings(draw: st.DrawFn, kind: str | None = None, *, min_records: int = 0, max_records: int = 4,
                       min_particles: int = 0, max_particles: int = 4, deltas: bool = False,
                       removals: bool = False) -> Recording:
    """A recording that checks valid: timestamps strictly increasing; the first frame a reset carrying its own
    topology. ``deltas``: later frames may be deltas (frame_index counting up from the last reset, new positions
    for the same particle count, a new time or an extra key) as well as resets. ``removals``: a state update may
    remove (null) keys that an earlier update set. ``min_particles``/``max_particles`` bound every reset frame."""
    if kind not in (None, "traj", "state"):
        raise InvalidArgument(f"kind={kind!r} must be 'traj', 'state' or None")
    if not (isinstance(min_records, int) and isinstance(max_records, int) and 0 <= min_records <= max_records):
        raise InvalidArgument(f"need 0 <= min_records <= max_records, got {min_records}, {max_records}")
    if not (isinstance(min_particles, int) and isinstance(max_particles, int) and 0 <= min_particles <= max_particles):
        raise InvalidArgument(f"need 0 <= min_particles <= max_particles, got {min_particles}, {max_particles}")
    for name, flag in (("deltas", deltas), ("removals", removals)):
        if not isinstance(flag, bool):
            raise InvalidArgument(f"{name}={flag!r} must be a bool")
    k = Kind(kind) if kind else draw(st.sampled_from(Kind))
    n = draw(st.integers(min_records, max_records))
    ts = draw(st.lists(st.integers(0, 10_000_000), min_size=n, max_size=n))
    t0 = draw(st.integers(0, 2**40))
    times, t = [], t0
    for dt in ts:
        t += dt + 1
        times.append(t)
    msgs: list[Any] = []
    if k is Kind.TRAJ:
        index, particles = 0, 0
        for i in range(n):
            if i and deltas and draw(st.booleans()):
                index += 1
                msgs.append(_delta(draw, index, particles))
            else:
                frame = draw(nanover_frames(min_particles=min_particles, max_particles=max_particles, reset=True))
                index, particles = 0, len(frame.arrays["particle.positions"].values) // 3
                msgs.append(frame)
    elif removals:
        msgs = _state_updates_with_removals(draw, n)
    else:
        msgs = [draw(nanover_state_updates()) for _ in range(n)]
    return Recording(k, tuple(Record(t, m) for t, m in zip(times, msgs)))


@st.composite
def nanover_cases(draw: st.DrawFn, kind: str | None = None, *, min_records: int = 0, max_records: int = 4,
                  min_particles: int = 0, max_particles: int = 4, deltas: bool = True,
                  removals: bool = True) -> dict[str, Any]:
    """The case (``recspec case`` JSON, as a dict) of a recording from ``nanover_recordings``; deltas and
    key removals are drawn by default."""
    rec = draw(nanover_recordings(kind, min_records=min_records, max_records=max_records,
                                  min_particles=min_particles, max_particles=max_particles, deltas=deltas,
                                  removals=removals))
    return to_case(rec, canonical=True)


@st.composite
def nanover_files(draw: st.DrawFn, kind: str | None = None, *, min_records: int = 0,
                  max_records: int = 4) -> tuple[bytes, str]:
    """(bytes, kind name) of a recording drawn from ``nanover_recordings``."""
    rec = draw(nanover_recordings(kind, min_records=min_records, max_records=max_records))
    return encode(rec), rec.kind.value
