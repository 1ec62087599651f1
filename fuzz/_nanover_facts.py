"""The NanoVer ``ref`` harness's second opinion on the frame, state and header rules, and the
standard-key table its boundary mutations read: the facts of docs/formats/nanover.md
("Standard keys", "Semantics", the rules FRAME-001..006, PROTO-004/005, HEADER-002, LIMIT-004),
written here from the document and the decoded model alone. Nothing is taken from the checker
(``recspec.conformance.nanover``): a rule weakened, deleted or inverted there, or a finding lost in
one of its fast paths, is then a disagreement between the two.

Which rule is re-derived, and why the others are not, is :data:`COVERAGE`
(tests/test_nanover_oracle_coverage.py holds it to the catalogue, so a new rule cannot slip out).
"""

from __future__ import annotations

import math
from collections.abc import Collection, Iterable
from typing import Any

__all__ = ["ARRAYS", "COUNTS", "COVERAGE", "NUMBERS", "REFERS", "derive_facts"]

# --- docs/formats/nanover.md, "Standard keys" -----------------------------------------------------

#: The counts (``values``, a whole number >= 0): N particles, R residues, C chains.
COUNTS = ("particle.count", "residue.count", "chain.count")
#: Every standard key of the ``values`` map: a number.
NUMBERS = frozenset((*COUNTS, "system.simulation.time", "system.simulation.counter", "system.reset.counter",
                     "system.temperature", "energy.kinetic", "energy.potential", "energy.total",
                     "energy.potential_corrected", "energy.user.total", "forces.user.work_done",
                     "server.timestamp"))
#: Every standard key of the ``arrays`` map: its kind, and its length as (entries per unit, the unit): a count
#: key, "bond.pairs/2" (B, bonds), "forces.user.index" (n, the user's particles), or None (9 box floats).
ARRAYS: dict[str, tuple[str, tuple[int, str | None]]] = {
    "particle.positions": ("float", (3, "particle.count")),
    "particle.velocities": ("float", (3, "particle.count")),
    "particle.forces": ("float", (3, "particle.count")),
    "particle.forces.system": ("float", (3, "particle.count")),
    "particle.elements": ("index", (1, "particle.count")),
    "particle.names": ("string", (1, "particle.count")),
    "particle.residues": ("index", (1, "particle.count")),
    "residue.names": ("string", (1, "residue.count")),
    "residue.ids": ("string", (1, "residue.count")),
    "residue.chains": ("index", (1, "residue.count")),
    "chain.names": ("string", (1, "chain.count")),
    "bond.pairs": ("index", (2, "bonds")),
    "bond.orders": ("float", (1, "bonds")),
    "system.box.vectors": ("float", (9, None)),
    "forces.user.index": ("index", (1, "user")),
    "forces.user.sparse": ("float", (3, "user")),
}
#: The index arrays, the count each entry must stay below, and the rule that says so.
REFERS = {"particle.residues": ("residue.count", "NANOVER-FRAME-003"),
          "residue.chains": ("chain.count", "NANOVER-FRAME-003"),
          "bond.pairs": ("particle.count", "NANOVER-FRAME-002"),
          "forces.user.index": ("particle.count", "NANOVER-FRAME-001")}
#: NANOVER-LIMIT-004: past this many live state keys, deletions are no longer judged.
STATE_KEYS = 65_536
#: NANOVER-HEADER-002: the one version readers accept.
VERSION = 2

#: Every rule of the catalogue: how the second opinion judges it. ``both``: the rule fires iff the fact the
#: harness derives holds; ``fires``: it must fire where the fact holds (the fact's absence says nothing);
#: otherwise why it is not re-derived, and which invariant covers it instead.
COVERAGE: dict[str, str] = {
    "NANOVER-HEADER-001": "structural: the decoder refuses the file (refusal)",
    "NANOVER-HEADER-002": "both",
    "NANOVER-HEADER-003": "structural: the decoder refuses the file (refusal)",
    "NANOVER-STREAM-001": "structural: the decoder refuses the file (refusal)",
    "NANOVER-LIMIT-001": "structural: the decoder refuses the file (refusal)",
    "NANOVER-LIMIT-002": "structural: the decoder refuses the file (refusal)",
    "NANOVER-LIMIT-003": "structural: the decoder refuses the file (refusal)",
    "NANOVER-LIMIT-004": "both",
    "NANOVER-PROTO-001": "structural: the decoder refuses the file (refusal)",
    "NANOVER-PROTO-006": "structural: the decoder refuses the file (refusal)",
    "NANOVER-PROTO-003": "the decoded model keeps no unknown field (round trip: a valid file re-encodes to a "
                         "file that checks valid)",
    # the model names the arrays written all unpacked (one written half packed it does not), and an array holding
    # numbers it names was written so: PROTO-004 must fire there
    "NANOVER-PROTO-004": "fires",
    "NANOVER-PROTO-005": "both",
    "NANOVER-PAYLOAD-001": "the model reads the other kind's message as an empty one of the file's kind; the "
                           "records it names are left out of the frame facts",
    "NANOVER-TIME-001": "both",
    "NANOVER-TIME-002": "both",
    "NANOVER-TIME-003": "both",
    "NANOVER-FRAME-001": "both",
    "NANOVER-FRAME-002": "both",
    "NANOVER-FRAME-003": "both",
    "NANOVER-FRAME-004": "both",
    "NANOVER-FRAME-005": "both",
    "NANOVER-FRAME-006": "both",
    "NANOVER-STATE-001": "both",
    "NANOVER-XCHECK-001": "the Kaitai cross-check is not run by the ref harness (the diff harness compares the "
                          "two readings)",
}

#: The model's Values that hold others.
_NESTED = (dict, list)
#: A count present but not a whole number >= 0 (or not a number): the facts that need it are not judged.
_UNUSABLE = object()


def _has_unset(value: Any, unset: Any) -> bool:
    if value is unset:
        return True
    if isinstance(value, dict):
        return any(_has_unset(v, unset) for v in value.values())
    if isinstance(value, list):
        return any(_has_unset(v, unset) for v in value)
    return False


def _whole(x: Any) -> bool:
    return type(x) is float and math.isfinite(x) and x >= 0 and x == int(x)


class _Aggregate:
    """The aggregate frame as the document defines it (a delta per key, reset on index 0), keeping of
    each standard array only its kind as read, its length and its largest entry."""

    def __init__(self) -> None:
        self.numbers: dict[str, Any] = {}
        self.arrays: dict[str, tuple[int, int]] = {}  # key -> (length, largest entry or -1)

    def length(self, key: str) -> int | None:
        a = self.arrays.get(key)
        return None if a is None else a[0]

    def facts(self, where: str, out: dict[str, str | None]) -> None:
        """FRAME-001..003 on the aggregate: the first break of each rule, named."""
        no_particle_count = "particle.count" not in self.numbers
        count = {k: (None if self.numbers.get(k, _UNUSABLE) is _UNUSABLE else int(self.numbers[k])) for k in COUNTS}
        bonds, user = self.length("bond.pairs"), self.length("forces.user.index")
        for key, (_, (per, unit)) in ARRAYS.items():
            got = self.length(key)
            if got is None or unit is None:
                continue
            rule = "NANOVER-FRAME-003" if unit in ("residue.count", "chain.count") else (
                "NANOVER-FRAME-002" if unit == "bonds" else "NANOVER-FRAME-001")
            if unit == "particle.count" and no_particle_count:
                _first(out, rule, f"{where}: {key} present without particle.count")
                continue
            if unit == "bonds":
                want = None if bonds is None else (bonds // 2) * per
                if key == "bond.pairs" and got % 2:
                    _first(out, rule, f"{where}: bond.pairs holds {got} indices")
                    continue
            elif unit == "user":
                want = None if key == "forces.user.index" or user is None else 3 * user
            else:
                c = count[unit]
                want = None if c is None else per * c
            if want is not None and got != want:
                _first(out, rule, f"{where}: {key} holds {got} entries, not {want}")
        for key, (bound, rule) in REFERS.items():
            if not self.length(key):
                continue
            c = count[bound]
            if bound not in self.numbers:
                if bound != "particle.count":  # without particle.count only the per-particle arrays are judged
                    _first(out, rule, f"{where}: {key} present without {bound}")
            elif c is not None and self.arrays[key][1] >= c:
                _first(out, rule, f"{where}: {key} refers to {self.arrays[key][1]}, {bound} is {c}")


def _first(out: dict[str, str | None], rule: str, why: str) -> None:
    if out.get(rule) is None:
        out[rule] = why


def derive_facts(records: Iterable[Any], kind: str, version: int, unset: Any, skipped: Collection[int] = ()
                 ) -> dict[str, str | None]:
    """The frame, state and header rules of a decoded recording: each rule of :data:`COVERAGE` judged
    ``both`` or ``fires`` mapped to what breaks it (the first place) or ``None`` (``fires`` rules only
    when broken). ``records``: the model's records (``.message`` a frame with ``frame_index``,
    ``values``, ``arrays`` (``.kind.value``, ``.values``) and ``unpacked``, or a state update with
    ``changes``); ``unset``: the model's Value with no kind; ``skipped``: records the checker reads
    as the other kind's message (NANOVER-PAYLOAD-001), left out."""
    out: dict[str, str | None] = {"NANOVER-HEADER-002": None if version == VERSION else f"the version is {version}",
                                  "NANOVER-PROTO-005": None}
    if kind == "traj":
        out.update(dict.fromkeys(("NANOVER-FRAME-001", "NANOVER-FRAME-002", "NANOVER-FRAME-003", "NANOVER-FRAME-004",
                                  "NANOVER-FRAME-005", "NANOVER-FRAME-006")))
        _frames(records, unset, skipped, out)
    else:
        out["NANOVER-LIMIT-004"] = None
        _state(records, unset, out)
    return out


def _frames(records: Iterable[Any], unset: Any, skipped: Collection[int], out: dict[str, str | None]) -> None:
    agg = _Aggregate()
    unpacked = None
    for i, r in enumerate(records):
        if i in skipped:
            continue
        frame = r.message
        where = f"record[{i}]"
        if frame.unpacked and unpacked is None:
            # an array that holds numbers: the model also calls "unpacked" an array whose only field has the
            # wrong wire type (a varint in a float array), which holds none and is PROTO-003's, not PROTO-004's
            held = [k for k in frame.unpacked if k in frame.arrays and frame.arrays[k].values]
            unpacked = f"{where} writes {held[0]} unpacked" if held else None
        if frame.frame_index == 0:
            agg = _Aggregate()
        touched = False
        for key, value in frame.values.items():
            if value is unset or (type(value) in _NESTED and _has_unset(value, unset)):
                _first(out, "NANOVER-PROTO-005", f"{where}: value {key!r} holds a Value with no kind")
            if key not in NUMBERS:
                continue
            touched = True
            if type(value) is not float:
                _first(out, "NANOVER-FRAME-004", f"{where}: {key} is {type(value).__name__}, not a number")
                agg.numbers[key] = _UNUSABLE
            elif key in COUNTS and not _whole(value):
                _first(out, "NANOVER-FRAME-004", f"{where}: {key} is {value}")
                agg.numbers[key] = _UNUSABLE
            else:
                agg.numbers[key] = value
        for key, a in frame.arrays.items():
            if a.kind is None:
                _first(out, "NANOVER-PROTO-005", f"{where}: array {key!r} has no member set")
                agg.arrays.pop(key, None)
                continue
            if key not in ARRAYS:
                continue
            touched = True
            want, got, values = ARRAYS[key][0], a.kind.value, a.values
            if got != want:
                if got == "index" and not values:
                    _first(out, "NANOVER-FRAME-006", f"{where}: {key} is an empty index array, not {want}")
                elif key == "residue.ids" and got == "float":
                    _first(out, "NANOVER-FRAME-005", f"{where}: residue.ids holds floats")
                else:
                    _first(out, "NANOVER-FRAME-004", f"{where}: {key} is a {got} array, not {want}")
                    agg.arrays.pop(key, None)
                    continue
            agg.arrays[key] = (len(values), max(values) if values and key in REFERS else -1)
            if key == "system.box.vectors" and len(values) != 9:
                _first(out, "NANOVER-FRAME-004", f"{where}: system.box.vectors holds {len(values)} floats")
        if touched:
            agg.facts(where, out)
    if unpacked is not None:
        out["NANOVER-PROTO-004"] = unpacked


def _state(records: Iterable[Any], unset: Any, out: dict[str, str | None]) -> None:
    live: set[str] = set()
    for i, r in enumerate(records):
        for key, value in r.message.changes.items():
            if _has_unset(value, unset):
                _first(out, "NANOVER-PROTO-005", f"record[{i}]: state key {key!r} holds a Value with no kind")
        if len(live) <= STATE_KEYS:
            live.update(k for k, v in r.message.changes.items() if v is not None)
            live.difference_update(k for k, v in r.message.changes.items() if v is None)
            if len(live) > STATE_KEYS:
                _first(out, "NANOVER-LIMIT-004", f"record[{i}] leaves more than {STATE_KEYS} keys")
