"""Fuzzing the CARLA recorder log: the harnesses and the seeds (the structure-aware
mutator and the libFuzzer dictionary are ``recspec.fuzz._carla_mutate``).

Harnesses (``TARGETS``), each ``(data: bytes) -> None``: it returns when its
invariant holds and raises when it does not. A :class:`recspec.errors.DecodeError`
from a decoder is the input's fault and is swallowed where the contract allows
it; anything else that leaves a harness is a finding.

* ``ref``: ``check_stream`` never raises, and ``decode`` raises only
  ``DecodeError`` subclasses;
* ``ksy``: the generated Kaitai parser (``kaitai_parse``) raises only
  ``KaitaiRejected``;
* ``diff``: the two readings agree (``differential`` is empty), else
  :class:`Divergent`.

The variant is chosen the way ``recspec check`` chooses it, by content
(``detect_variant``), not by a prefix byte: every input is a plain log, so a
saved crash replays with ``recspec check`` / ``recspec reproduce`` as it is.

The mutator (:func:`mutate`) is ``recspec.fuzz._carla_mutate``'s, re-exported here
with its dictionary, so that the runner finds a format's whole campaign in one module.
"""

from __future__ import annotations

import dataclasses
import functools
import io
import itertools
import json
import math
import operator
import re
import struct
from collections.abc import Callable
from typing import Any

from recspec.conformance.carla import RULES as _RULES
from recspec.conformance.carla import check_stream
from recspec.conformance.carla._xcheck import Divergence, differential, kaitai_parse
from recspec.errors import DecodeError, UsageError
from recspec.reference import carla as m
from recspec.reference.carla import (
    VARIANTS,
    Packet,
    Recording,
    Variant,
    decode,
    encode,
    encode_header,
    encode_packet,
)
from recspec.reference.carla import PacketKind as K

from . import _carla_doc as doc
from . import _carla_mutate as _mutator
from ._carla_mutate import (
    DEFAULT_VARIANT,
    _parse,
    _prefix,
    dictionary_entries,
    dictionary_text,
    mutate,
    variant_of,
)
from ._carla_variable import variable_view
from ._contract import ContractViolation, Divergent
from ._mutate import BYTE_MUTATION_RATE
from ._oracles import (
    check_located,
    check_model_view,
    check_paths_agree,
    check_profiles,
    check_rederived,
    check_refusal,
    check_round_trip,
    sampled,
)

__all__ = [
    "BYTE_MUTATION_RATE",
    "DEFAULT_VARIANT",
    "EXTENSION",
    "PREFIX_BYTES",
    "TARGETS",
    "ContractViolation",
    "Divergent",
    "derive_seeds",
    "describe_input",
    "dictionary_entries",
    "dictionary_text",
    "divergence_kind",
    "fuzz_diff",
    "fuzz_ksy",
    "fuzz_ref",
    "mutate",
    "synthetic_seeds",
    "use_variant",
    "variant_of",
]

#: File extension of saved crashes (so that ``recspec check`` recognises them).
EXTENSION = ".log"



# --- findings --------------------------------------------------------------------


#: What a :class:`Divergent` broke.
_COMPARED = ("recspec.reference.carla vs recspec._ksy.carla_recorder "
             "(compared by recspec.conformance.carla._xcheck.differential)")


def divergence_kind(d: Divergence) -> str:
    """A divergence's signature: without its numbers, values and parenthesised details."""
    text = d.message.split(": reference ", 1)[0] if d.message.startswith(".") else d.message
    while True:
        stripped = re.sub(r"\([^()]*\)", "", text)
        if stripped == text:
            break
        text = stripped
    text = re.sub(r"\d+", "N", text)
    text = re.sub(r"\s+", " ", text).strip()
    return f"Divergent:{d.path}:{text[:120]}"


# --- harnesses ---------------------------------------------------------------------


#: The campaign's variant (:func:`use_variant`); ``None``: every input's own, detected from content.
_fixed: Variant | None = None

def use_variant(name: str | None) -> None:
    """Read every input under variant ``name`` from now on (``recspec fuzz carla --variant``),
    or detect each input's variant again (``None``, the default).

    Detection reads the first frames under every variant; a campaign that fixes
    one saves that work in every execution and every mutation. Raises
    :class:`recspec.errors.UsageError` for an unknown variant.
    """
    global _fixed
    if name is None:
        _fixed = None
    elif name in VARIANTS:
        _fixed = VARIANTS[name]
    else:
        raise UsageError(f"unknown CARLA variant {name!r}", f"choose one of: {', '.join(VARIANTS)}")
    _mutator.use_variant(_fixed)


def _harness_variant(data: bytes) -> Variant:
    """The variant a harness reads ``data`` under: the campaign's, else ``recspec check``'s choice."""
    return _fixed if _fixed is not None else variant_of(data) or DEFAULT_VARIANT


#: The rules whose errors make a file malformed (the structural/semantic split, ARCHITECTURE.md).
_STRUCTURAL = frozenset(r.id for r in _RULES if r.structural)


def fuzz_ref(data: bytes) -> None:
    # Invariant: for any bytes, check_stream() returns a FileReport and never
    # raises (a bad file is a verdict, not an exception: not even a DecodeError
    # may leave it), and decode() under the variant the checker chose returns a
    # Recording or raises a recspec.errors.DecodeError subclass, nothing else.
    # The report it returns renders as standard JSON (no NaN/Infinity tokens).
    # The profile alternates with the input's length so both are fuzzed.
    # The oracles (fuzz/_oracles.py): findings inside the file, in a frame or packet the walk
    # counted; spec never kinder than compat; malformed exactly when decode() refuses (but
    # for invalid UTF-8, which the decoder keeps); a valid log's decoded recording re-encodes
    # to the same bytes or to a log that checks valid; on an eighth of the inputs, the bulk frame
    # proofs give the packet-by-packet walk's report. The second opinion (rederived) judges every rule
    # the decoded model decides, from the document's tables (_carla_doc.py), on every input the decoder
    # reads; the model view reads the fixed fields at the document's positions, on the sampled eighth.
    profile = "compat" if len(data) & 1 else "spec"
    report = _check(data, _fixed, profile)
    # the file's entry (all of a one-file report that the input sets), a fresh tree: no cycle to look for
    json.dumps(report.to_json(), allow_nan=False, check_circular=False)
    variant = VARIANTS[report.variant] if report.variant is not None else DEFAULT_VARIANT
    try:
        decoded, refused = decode(data, variant=variant), None
    except DecodeError as e:
        decoded, refused = None, e
    stats = report.stats or {}
    check_located(report, len(data), {r"^frame\[(\d+)\]": stats.get("frames", 0) + 1,
                                      r"^packet@(\d+)": stats.get("packets", 0) + 1})
    check_profiles(report)
    check_refusal(report, refused, _STRUCTURAL, _LENIENT)
    if sampled(data):
        # under the variant the check detected: detection is the same code in both walks (no fast path of
        # its own) and its evidence is not compared, so running it again would only cost time
        walked_variant = variant if report.variant is not None else _fixed
        check_paths_agree(report, _check(data, walked_variant, profile, fast_path=False))
    if decoded is not None:  # malformed only by the rules the decoder keeps (check_refusal): judged too
        check_rederived(report, lambda: rederived(decoded, variant.name))
        if sampled(data):  # a decoder that swaps fields does so in most inputs: an eighth of them is enough
            check_model_view(lambda: model_view(data, decoded, variant.vec_f64), variant.name)
            # the header's strings and the variable-size records (_carla_variable.py)
            check_model_view(lambda: variable_view(data, decoded, variant.vec_f64), variant.name)
    if decoded is not None and report.verdict.value == "valid":
        check_round_trip(data, decoded, functools.partial(encode, variant=variant),
                         lambda again: _check(again, variant, profile), variant.name)


def _check(data: bytes, variant: Any, profile: str, *, fast_path: bool = True) -> Any:
    try:
        return check_stream(io.BytesIO(data), path="<fuzz>", variant=variant, profile=profile, fast_path=fast_path)
    except DecodeError as e:
        raise ContractViolation(f"check_stream raised {type(e).__name__}: {e}") from e


# --- the second opinion: facts of docs/formats/carla.md re-derived from the decoded packets ------------

#: The rules the second opinion judges, both ways (``tests/test_carla_second_opinion.py`` lists every rule of
#: the catalog as judged here or not, with the reason).
REDERIVED = (
    "CARLA-HEADER-001", "CARLA-HEADER-002", "CARLA-HEADER-003", "CARLA-HEADER-004", "CARLA-STRING-001",
    "CARLA-STRING-002", "CARLA-PACKET-002", "CARLA-PACKET-003", "CARLA-PACKET-004", "CARLA-FRAME-001",
    "CARLA-FRAME-002", "CARLA-FRAME-003", "CARLA-FRAME-004", "CARLA-FRAME-005", "CARLA-FRAME-006", "CARLA-FRAME-007",
    "CARLA-FRAME-008", "CARLA-FRAME-009", "CARLA-FRAME-010", "CARLA-FRAME-011", "CARLA-ORDER-001", "CARLA-ORDER-002",
    "CARLA-ACTOR-001", "CARLA-ACTOR-002", "CARLA-ACTOR-003", "CARLA-ENUM-001", "CARLA-ENUM-002", "CARLA-ENUM-003",
    "CARLA-ENUM-004", "CARLA-ENUM-005", "CARLA-VALUE-001")

#: The packets the frame rules do not count as a frame's kind (CARLA-ORDER-002, -FRAME-011): kept bytes.
_BRACKETS = frozenset((K.FRAME_START, K.FRAME_END))


def _bad_utf8(text: str) -> bool:
    """A string the decoder kept with bytes that are not UTF-8 (as lone surrogates)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


def rederived(rec: Recording, variant: str) -> dict[str, str | None]:
    """What a decoded log breaks of the rules in ``REDERIVED``, derived here from its header and its
    packets in file order with the facts of ``_carla_doc`` (the document's tables, not the checker's),
    each rule both ways (``check_rederived``): read under ``variant`` (a name), the one the check chose."""
    out: dict[str, str | None] = dict.fromkeys(REDERIVED)

    def broken(rule: str, why: str) -> None:
        if out[rule] is None:
            out[rule] = why

    h = rec.header
    if h.magic != "CARLA_RECORDER":
        broken("CARLA-HEADER-001", f"the magic is {h.magic!r}")
    if h.version != 1:
        broken("CARLA-HEADER-002", f"the version is {h.version}")
    if not doc.DATE_RANGE[0] <= h.date < doc.DATE_RANGE[1]:
        broken("CARLA-HEADER-003", f"the date is {h.date}")
    if not h.map_name:
        broken("CARLA-HEADER-004", "the map name is empty")
    strings = [h.magic, h.map_name]

    order, required, plans = _plan(variant)
    actor_types, attribute_types = doc.ACTOR_TYPES[variant], doc.ATTRIBUTE_TYPES[variant]
    alive: set[int] = set()
    starts: list[Any] = []
    in_frame = False
    kinds: set[K] = set()
    last = -1
    start, end, raw, counter, add, delete = (K.FRAME_START, K.FRAME_END, K.RAW, K.FRAME_COUNTER, K.EVENT_ADD,
                                             K.EVENT_DEL)
    for p in rec.packets:
        kind = p.kind
        if kind is start:
            if in_frame:
                broken("CARLA-FRAME-002", f"frame[{len(starts)}] starts inside frame[{len(starts) - 1}]")
            in_frame, kinds, last = True, set(), -1
            starts.append(p.body)
            continue
        if not in_frame:
            broken("CARLA-FRAME-001", f"a {kind.name} packet lies outside a frame")
        elif kind is end:
            if not required <= kinds:
                broken("CARLA-FRAME-011", f"frame[{len(starts) - 1}] lacks {sorted(k.name for k in required - kinds)}")
        elif kind is not raw:
            if kind in kinds:
                broken("CARLA-ORDER-002", f"a second {kind.name} in frame[{len(starts) - 1}]")
            kinds.add(kind)
            pos = order.get(kind, last)  # raw, unknown and FrameCounter packets are not ordered
            if pos < last:
                broken("CARLA-ORDER-001", f"{kind.name} after a packet written later in frame[{len(starts) - 1}]")
            else:
                last = pos
        if kind is end:
            in_frame = False
            continue
        body: Any = p.body
        if kind is raw:
            pid = p.packet_id if p.packet_id is not None else -1
            broken("CARLA-PACKET-003" if pid >= 100 else "CARLA-PACKET-002", f"a packet has id {pid}")
        elif kind is counter:
            broken("CARLA-PACKET-004", "a FrameCounter packet")
        elif not body or not isinstance(body, tuple):
            continue
        elif kind is add:
            r: Any
            for r in body:
                if r.database_id in alive:
                    broken("CARLA-ACTOR-002", f"actor {r.database_id} is added again while alive")
                alive.add(r.database_id)
                if r.type >= actor_types:
                    broken("CARLA-ENUM-001", f"an actor's type is {r.type}, in {variant} 0..{actor_types - 1}")
                strings.append(r.description_id)
                for a in r.attributes:
                    if a.type not in attribute_types:
                        broken("CARLA-ENUM-005", f"an attribute's type is {a.type}")
                    strings += (a.id, a.value)
        elif kind is delete:
            for r in body:
                if r.database_id not in alive:
                    broken("CARLA-ACTOR-003", f"actor {r.database_id} is deleted while not alive")
                alive.discard(r.database_id)
        else:
            ids, ranges = plans.get(type(body[0]), ((), ()))  # every record of a packet is of one class
            for name, get in ids:
                dead = set(map(get, body)) - alive
                if kind is K.COLLISION:
                    dead.discard(doc.NOT_AN_ACTOR)
                if dead:
                    broken("CARLA-ACTOR-001", f"a {kind.name} record's {name} {min(dead)} is not alive")
            for rule, name, get, size in ranges:
                if (top := max(map(get, body))) >= size:
                    broken(rule, f"a {kind.name} record's {name} is {top}, outside 0..{size - 1}")
            if kind is K.WALKER_BONES:
                strings += (b.name for r in body for b in r.bones)
    if in_frame:
        broken("CARLA-FRAME-007", f"frame[{len(starts) - 1}] has no FrameEnd")
    if not starts:
        broken("CARLA-FRAME-009", "no FrameStart")
    for s in strings:
        if _bad_utf8(s):
            broken("CARLA-STRING-001", f"the string {s!r} is not UTF-8")
        elif "\x00" in s:
            broken("CARLA-STRING-002", f"the string {s!r} holds a NUL")
    _frame_times(starts, broken)
    return out


@functools.cache
def _plan(variant: str) -> tuple[dict[K, int], frozenset[K], dict[type, tuple[Any, Any]]]:
    """``rederived``'s tables for ``variant``: the writer's order (kind -> place), the kinds every frame
    holds, and per record class its actor-id fields ((name, getter), ...) and its ranged fields ((rule,
    name, getter, number of values), ...: a flag has two values, an enum the document's count)."""
    ranged: dict[type, list[tuple[str, str, Any, int]]] = {}
    for cls, names in doc.FLAGS.items():
        ranged.setdefault(cls, []).extend(("CARLA-VALUE-001", name, _getter(name), 2) for name in names)
    for (cls, name, rule), size in doc.ENUMS.items():
        ranged.setdefault(cls, []).append((rule, name, _getter(name), size))
    ranged.setdefault(m.TrafficLightState, []).append(("CARLA-ENUM-002", "state", _getter("state"),
                                                       doc.LIGHT_STATES[variant]))
    plans = {cls: (tuple((name, _getter(name)) for name in doc.ACTOR_FIELDS.get(cls, ())), tuple(ranged.get(cls, ())))
             for cls in {*doc.ACTOR_FIELDS, *ranged}}
    return {k: i for i, k in enumerate(doc.WRITER_ORDER[variant])}, doc.ALWAYS[variant], plans


def _frame_times(starts: list[Any], broken: Callable[[str, str], None]) -> None:
    """CARLA-FRAME-003..006, -008 and -010 from the FrameStarts in file order."""
    for n, s in enumerate(starts):
        if not (math.isfinite(s.duration_this) and math.isfinite(s.elapsed)):
            broken("CARLA-FRAME-010", f"frame[{n}]'s times are {s.duration_this!r}, {s.elapsed!r}")
    if starts:
        if starts[0].frame_id != 1:
            broken("CARLA-FRAME-003", f"the first frame's id is {starts[0].frame_id}")
        if starts[0].elapsed != 0:
            broken("CARLA-FRAME-005", f"the first frame's elapsed is {starts[0].elapsed!r}")
        if starts[-1].duration_this != -1:
            broken("CARLA-FRAME-006", f"the last frame's durationThis is {starts[-1].duration_this!r}")
    for n, (a, b) in enumerate(itertools.pairwise(starts)):
        if b.frame_id != a.frame_id + 1:
            broken("CARLA-FRAME-003", f"frame id {b.frame_id} follows {a.frame_id}")
        if a.duration_this < 0:  # an unpatched placeholder: the sum is not judged
            broken("CARLA-FRAME-008", f"frame[{n}] is not the last and has durationThis {a.duration_this!r}")
        elif a.elapsed + a.duration_this != b.elapsed:
            broken("CARLA-FRAME-004", f"frame[{n + 1}]'s elapsed {b.elapsed!r} != {a.elapsed!r} + {a.duration_this!r}")


# --- the model view: the decoded fields against the document's byte positions ---------------------------

#: § Payload layouts, the packets with fixed fields: kind -> (struct format, with V a vector (3 x f32, UE5
#: 3 x f64), the model's field names in that order, a vector's three names as one).
_LAYOUTS: dict[K, tuple[str, tuple[str, ...]]] = {
    K.FRAME_START: ("Qdd", ("frame_id", "duration_this", "elapsed")),
    K.PLATFORM_TIME: ("d", ("time",)), K.VISUAL_TIME: ("d", ("time",)), K.FRAME_COUNTER: ("Q", ("frame_counter",)),
}
#: The same for the counted packets' records (after the u16 count).
_RECORDS: dict[K, tuple[str, tuple[str, ...]]] = {
    K.EVENT_DEL: ("I", ("database_id",)),
    K.EVENT_PARENT: ("II", ("database_id", "database_id_parent")),
    K.COLLISION: ("IIIBB", ("collision_id", "database_id1", "database_id2", "is_actor1_hero", "is_actor2_hero")),
    K.POSITION: ("IVV", ("database_id", "location", "rotation")),
    K.STATE: ("IBfB", ("database_id", "is_frozen", "elapsed_time", "state")),
    K.ANIM_VEHICLE: ("IfffBi", ("database_id", "steering", "throttle", "brake", "handbrake", "gear")),
    K.ANIM_WALKER: ("If", ("database_id", "speed")),
    K.VEHICLE_LIGHT: ("II", ("database_id", "state")),
    K.SCENE_LIGHT: ("if4fBB", ("light_id", "intensity", "color", "is_on", "light_group")),
    K.KINEMATICS: ("IVV", ("database_id", "linear_velocity", "angular_velocity")),
    K.BOUNDING_BOX: ("IVV", ("database_id", "origin", "extent")),
    K.TRAFFIC_LIGHT_TIME: ("Ifff", ("database_id", "green_time", "yellow_time", "red_time")),
    K.TRIGGER_VOLUME: ("IVV", ("database_id", "origin", "extent")),
    K.ANIM_BIKER: ("Iff", ("database_id", "forward_speed", "engine_rotation")),
    K.VEHICLE_DOOR: ("IBB", ("database_id", "door", "is_open")),
}


@functools.cache
def _layout(fmt: str, vec_f64: bool) -> struct.Struct:
    return struct.Struct("<" + fmt.replace("V", "3d" if vec_f64 else "3f"))


#: A vector's, a rotation's and a colour's numbers, in the document's order.
_PARTS = {"location": ("x", "y", "z"), "rotation": ("roll", "pitch", "yaw"), "linear_velocity": ("x", "y", "z"),
          "angular_velocity": ("x", "y", "z"), "origin": ("x", "y", "z"), "extent": ("x", "y", "z"),
          "color": ("r", "g", "b", "a")}


@functools.cache
def _flat_names(names: tuple[str, ...]) -> tuple[str, ...]:
    """The dotted names of a record's numbers (``location.x``), for one ``attrgetter``."""
    return tuple(f"{n}.{part}" if n in _PARTS else n for n in names for part in _PARTS.get(n, ("",)))


@functools.cache
def _getter(*names: str) -> Callable[[Any], Any]:
    return operator.attrgetter(*names)


def model_view(data: bytes, rec: Recording, vec_f64: bool) -> tuple[dict[str, Any], dict[str, Any]] | None:
    """For ``check_model_view``: the first fixed value or record whose decoded fields differ from the
    same bytes read here at the document's positions (§ Info header, § Packets, § Payload layouts), as
    ``({"Class.field": model value}, {"Class.field": read value})``; ``None`` when all agree (or the
    framing read here does not pair with the decoded packets, which ``refusal`` judges)."""
    h = rec.header
    n = _U16(data, 2)[0]
    version, date = _U16(data, 0)[0], _I64(data, 4 + n)[0]
    if (version, date) != (h.version, h.date):
        return {"Header.version": h.version, "Header.date": h.date}, {"Header.version": version, "Header.date": date}
    at = 4 + n + 8
    at += 2 + _U16(data, at)[0]
    for p in rec.packets:
        if at + 5 > len(data):
            return None
        size = _U32(data, at + 1)[0]
        payload = data[at + 5:at + 5 + size]
        at += 5 + size
        if p.kind in _LAYOUTS:
            fmt, names = _LAYOUTS[p.kind]
            layout = _layout(fmt, vec_f64)
            if len(payload) != layout.size:
                return None
            values: list[Any] = [p.body]
            read = [layout.unpack(payload)]
        elif p.kind in _RECORDS and isinstance(p.body, tuple) and p.body:
            fmt, names = _RECORDS[p.kind]
            layout = _layout(fmt, vec_f64)
            if len(payload) != 2 + len(p.body) * layout.size:
                return None
            values, read = list(p.body), list(layout.iter_unpack(payload[2:]))
        else:
            continue
        flat_names = _flat_names(names)
        get = _getter(*flat_names)
        model = list(map(get, values)) if len(flat_names) > 1 else [(get(v),) for v in values]
        if model != read and repr(model) != repr(read):  # repr: a NaN equals itself, 1 is not True
            for one, other in zip(model, read, strict=True):
                for name, a, b in zip(flat_names, one, other, strict=True):
                    if repr(a) != repr(b):
                        key = f"{type(values[0]).__name__}.{name}"
                        return {key: a}, {key: b}
    return None


_U16, _U32, _I64 = struct.Struct("<H").unpack_from, struct.Struct("<I").unpack_from, struct.Struct("<q").unpack_from


#: Structural rules decode() accepts on purpose: the header keeps the magic string as read, and strings keep
#: invalid UTF-8 (surrogateescape), for the rules to judge.
_LENIENT = frozenset({"CARLA-HEADER-001", "CARLA-STRING-001"})


def fuzz_ksy(data: bytes) -> None:
    # Invariant: for any bytes, the generated Kaitai parser (kaitai_parse) returns
    # a Recording or raises KaitaiRejected, a recspec.errors.DecodeError; no
    # other exception leaves it (struct.error, IndexError, a Kaitai runtime
    # error that the adapter does not wrap...).
    variant = _harness_variant(data)
    try:
        kaitai_parse(data, variant)
    except DecodeError:
        pass


def fuzz_diff(data: bytes) -> None:
    # Invariant: for any bytes, the reference decoder and the Kaitai parser
    # agree: both accept with equal values, or both reject at the same packet
    # (differential() returns no divergence; Divergent otherwise), and
    # differential() itself raises nothing.
    variant = _harness_variant(data)
    divergences = differential(data, variant)
    if divergences:
        raise Divergent(divergences, variant.name, _COMPARED, divergence_kind)


TARGETS: dict[str, Callable[[bytes], None]] = {"ref": fuzz_ref, "ksy": fuzz_ksy, "diff": fuzz_diff}


def describe_input(data: bytes) -> dict[str, Any]:
    """What the runner records about a crashing input besides the exception."""
    if _fixed is not None:
        return {"variant": _fixed.name, "variant_note": "fixed for the campaign (--variant)"}
    try:
        variant = variant_of(data)
    except Exception as e:  # detection itself may be what broke
        return {"variant": None, "variant_note": f"detection failed: {type(e).__name__}: {e}"}
    if variant is None:
        return {"variant": DEFAULT_VARIANT.name, "variant_note": "header does not decode; default variant"}
    return {"variant": variant.name, "variant_note": "detected from content"}


def synthetic_seeds() -> list[tuple[str, bytes]]:
    """One small log per variant with every packet kind the variant defines:
    the corpus's own valid logs, built in memory by the same builder
    (``recspec.conformance.carla._seeds``), so that a campaign starts with every
    layout of every variant even when ``corpus/carla/`` is missing.
    """
    from recspec.conformance.carla._seeds import HEADER, valid_packets

    return [(f"synthetic-{v.name}", encode(Recording(HEADER, tuple(valid_packets(v))), variant=v))
            for v in VARIANTS.values()]


# --- seeds -------------------------------------------------------------------------------


def _compact(data: bytes) -> bytes | None:
    """One frame holding the first packet of every id in the log, each with at most two records."""
    parsed = _parse(data)
    if parsed is None:
        return None
    v = parsed.variant
    decoded = [slot.packet(v) for slot in parsed.packets]
    start = next((p for p in decoded if p.kind is K.FRAME_START), None)
    packets = [start] if start is not None else []
    seen = {v.id_of[K.FRAME_START], v.id_of[K.FRAME_END]}
    for p in decoded:
        if p.packet_id in seen:
            continue
        seen.add(p.packet_id)  # type: ignore[arg-type]
        packets.append(dataclasses.replace(p, body=p.body[:2]) if isinstance(p.body, tuple) else p)
    packets.append(Packet(K.FRAME_END, m.FrameEnd()))
    try:
        return encode_header(parsed.header) + b"".join(encode_packet(p, v) for p in packets)
    except Exception:
        return None


#: Seed files longer than this are also cut to a prefix of at most this size.
PREFIX_BYTES = 8192


def derive_seeds(data: bytes, max_len: int) -> list[bytes]:
    """Small inputs made from one seed file: a prefix of at most
    ``min(max_len, PREFIX_BYTES)`` bytes ending at a frame boundary (when the file
    is longer), and a compact one-frame digest of every packet id it uses.

    Short inputs make many more executions per second: the harnesses cost about
    0.1 s (ref) to 0.4 s (diff) on 64 KiB, uninstrumented, and a few ms on 1 KiB.
    """
    out = []
    limit = min(max_len, PREFIX_BYTES)
    if len(data) > limit:
        out.append(_prefix(data, limit))
    try:
        compact = _compact(data)
    except Exception:
        compact = None
    if compact is not None and compact != data and len(compact) <= max_len:
        out.append(compact)
    return [d for d in out if d]


