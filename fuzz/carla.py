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
import re
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
from ._contract import ContractViolation, Divergent
from ._mutate import BYTE_MUTATION_RATE
from ._oracles import (
    check_located,
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
    # proofs give the packet-by-packet walk's report.
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
    if decoded is not None and report.verdict.value != "malformed":
        check_rederived(report, lambda: rederived(decoded))
    if decoded is not None and report.verdict.value == "valid":
        check_round_trip(data, decoded, functools.partial(encode, variant=variant),
                         lambda again: _check(again, variant, profile), variant.name)


def _check(data: bytes, variant: Any, profile: str, *, fast_path: bool = True) -> Any:
    try:
        return check_stream(io.BytesIO(data), path="<fuzz>", variant=variant, profile=profile, fast_path=fast_path)
    except DecodeError as e:
        raise ContractViolation(f"check_stream raised {type(e).__name__}: {e}") from e


# --- the second opinion: facts of docs/formats/carla.md re-derived from the decoded packets ------------

#: CARLA-VALUE-001: the one-byte booleans, by record class and field (0 or 1).
_FLAGS = {m.Collision: ("is_actor1_hero", "is_actor2_hero"), m.TrafficLightState: ("is_frozen",),
          m.AnimVehicle: ("handbrake",), m.SceneLight: ("is_on",), m.VehicleDoor: ("is_open",)}
#: CARLA-ENUM-003 and -004: (record class, field) -> number of values (doors 0..6, light groups 0..4).
_ENUMS = {(m.VehicleDoor, "door", "CARLA-ENUM-003"): 7, (m.SceneLight, "light_group", "CARLA-ENUM-004"): 5}


def rederived(rec: Recording) -> dict[str, str | None]:
    """What a decoded log's frame times, actor lifetimes, flags and two enumerations break, derived
    here from its packets in file order (``check_rederived``), each rule both ways."""
    out: dict[str, str | None] = dict.fromkeys(
        ("CARLA-FRAME-003", "CARLA-FRAME-004", "CARLA-FRAME-005", "CARLA-FRAME-006", "CARLA-FRAME-008",
         "CARLA-ACTOR-002", "CARLA-ACTOR-003", "CARLA-VALUE-001", "CARLA-ENUM-003", "CARLA-ENUM-004"))

    def broken(rule: str, why: str) -> None:
        if out[rule] is None:
            out[rule] = why

    starts: list[Any] = [p.body for p in rec.packets if p.kind is K.FRAME_START]
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
    alive: set[int] = set()
    for p in rec.packets:
        if not isinstance(p.body, tuple):
            continue
        r: Any
        for r in p.body:
            if p.kind is K.EVENT_ADD:
                if r.database_id in alive:
                    broken("CARLA-ACTOR-002", f"actor {r.database_id} is added again while alive")
                alive.add(r.database_id)
            elif p.kind is K.EVENT_DEL:
                if r.database_id not in alive:
                    broken("CARLA-ACTOR-003", f"actor {r.database_id} is deleted while not alive")
                alive.discard(r.database_id)
            for name in _FLAGS.get(type(r), ()):
                if getattr(r, name) > 1:
                    broken("CARLA-VALUE-001", f"a {type(r).__name__}'s {name} is {getattr(r, name)}")
            for (cls, name, rule), size in _ENUMS.items():
                if type(r) is cls and getattr(r, name) >= size:
                    broken(rule, f"a {cls.__name__}'s {name} is {getattr(r, name)}, above {size - 1}")
    return out


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


