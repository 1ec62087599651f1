"""Fuzzing NanoVer recordings: harnesses, a structure-aware mutator, seeds and
the libFuzzer dictionary.

Harnesses (``TARGETS``), each ``(data: bytes) -> None``, return when their
invariant holds and raise when it does not:

* ``ref``: ``check_stream`` never raises, its report renders as standard JSON,
  and ``decode`` raises only ``DecodeError`` subclasses;
* ``ksy``: the generated Kaitai parser (``kaitai_records``) yields values or
  ``KaitaiRejected`` and raises nothing;
* ``diff``: the two readings agree (``differential`` is empty), else :class:`Divergent`.

The kind (traj/state) is chosen the way ``recspec check`` chooses it for a file
without a ``.traj``/``.state`` name, by content (``detect_kind``); crashes are
saved as ``.nanover`` files, which ``recspec check`` also reads by content.

The mutator (:func:`mutate`, atheris' ``custom_mutator`` signature) splits the
input into header and records, and edits one thing: one record (timestamp,
delete, duplicate, swap, truncate), one protobuf field anywhere in one
payload (its value, tag, body, or the field itself: delete, duplicate), or one
record's message on the edge of a rule (``_nanover_boundary.py``: a count equal
to what an array needs or an index refers to, or one off; an array one entry
off, of another kind or empty; a Value of another kind; a deletion), then
re-encodes the enclosing length prefixes and the record's length, so the edit
reaches the protobuf layer instead of dying at the framing. It falls back to
byte mutation when the header does not decode, and at random
(``BYTE_MUTATION_RATE``).
"""

from __future__ import annotations

import io
import json
import random
import struct
from collections.abc import Callable, Collection
from typing import Any

from recspec.conformance.nanover import RULES as _RULES
from recspec.conformance.nanover import check_stream, detect_kind
from recspec.conformance.nanover._check import _Walk  # private on purpose: the walk's fast-path switches
from recspec.conformance.nanover._xcheck import (
    Divergence,
    KaitaiRejected,
    differential,
    kaitai_records,
)
from recspec.errors import DecodeError, UsageError
from recspec.reference import nanover as _nanover
from recspec.reference.nanover import (
    HEADER_SIZE,
    MAGIC,
    UNSET,
    Array,
    ArrayKind,
    Frame,
    Kind,
    Record,
    Recording,
    decode,
    encode,
    encode_record,
)

from . import _mutate
from ._contract import ContractViolation, Divergent
from ._dictionary import render
from ._mutate import BYTE_MUTATION_RATE
from ._nanover_boundary import boundary_edit
from ._nanover_contents import CONTENTS_ONE_IN, contents_view
from ._nanover_facts import ARRAYS, NUMBERS, derive_facts
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
    "EXTENSION",
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
    "kind_of",
    "mutate",
    "synthetic_seeds",
    "use_variant",
]

EXTENSION = ".nanover"
#: Seed files longer than this are also cut to a prefix of whole records.
PREFIX_BYTES = 8192


#: What a :class:`Divergent` broke.
_COMPARED = "recspec.conformance.nanover._xcheck"


def divergence_kind(d: Divergence) -> str | None:
    """A divergence's signature: the record it is about (``None``: sign by traceback)."""
    text = str(d)
    return "divergence:" + text.split(":", 2)[1][:60] if ":" in text else None


#: The campaign's kind (:func:`use_variant`); ``None``: every input's own, detected from content.
_fixed: Kind | None = None


def use_variant(name: str | None) -> None:
    """Read every input as kind ``name`` (``traj`` or ``state``) from now on
    (``recspec fuzz nanover --variant``), or detect each input's kind (``None``)."""
    global _fixed
    try:
        _fixed = None if name is None else Kind(name)
    except ValueError:
        raise UsageError(f"unknown NanoVer kind {name!r}", "choose one of: traj, state") from None


def kind_of(data: bytes) -> Kind:
    """The kind ``recspec check`` would choose for ``data`` without a file extension
    (the campaign's, when it fixes one)."""
    if _fixed is not None:
        return _fixed
    f = io.BytesIO(data)
    f.seek(HEADER_SIZE)
    kind: Kind = detect_kind(f, len(data))[0]
    return kind


#: The rules whose errors make a file malformed (the structural/semantic split, ARCHITECTURE.md).
_STRUCTURAL = frozenset(r.id for r in _RULES if r.structural)


def fuzz_ref(data: bytes) -> None:
    # Invariant: for any bytes, check_stream() returns a FileReport and never
    # raises, and the report renders as standard JSON; decode() under the
    # checker's kind returns a Recording or raises a recspec.errors.DecodeError
    # subclass, nothing else. The profile alternates with the input's length.
    # The oracles (fuzz/_oracles.py): findings inside the file, in a record the walk counted;
    # spec never kinder than compat; malformed exactly when decode() refuses; a valid
    # recording's decoded records re-encode to the same bytes or to a file that checks valid; on an
    # eighth of the inputs, the walk's fast paths give the report of the walk without them; the header and
    # the records' timestamps in the model are those at the document's offsets, and on a quarter of the
    # inputs every key and value those of protobuf's parse of each payload (_nanover_contents.py); the rules
    # whose facts the decoded records decide fire exactly where those facts hold (the second opinion,
    # _nanover_facts.py).
    profile = "compat" if len(data) & 1 else "spec"
    report = _check(data, _fixed and _fixed.value, profile)
    # The file's report as the JSON report holds it (its "files" entry): the rest of a JSON report (the version,
    # the schema, the counts per verdict) is not made from the input, and building it cost 0.7 times as much again.
    json.dumps(report.to_json(), allow_nan=False)
    kind = Kind(report.variant) if report.variant else Kind.TRAJ
    try:
        decoded, refused = decode(data, variant=kind), None
    except DecodeError as e:
        decoded, refused = None, e
    stats = report.stats or {}
    check_located(report, len(data), {r"^record\[(\d+)\]": (stats.get("records") or 0) + 1})
    check_profiles(report)
    check_refusal(report, refused, _STRUCTURAL)
    if sampled(data):
        check_paths_agree(report, _walked(data, _fixed and _fixed.value, profile))
    if decoded is not None:
        check_model_view(lambda: framing_view(data, decoded), kind.value)
        if sampled(data, CONTENTS_ONE_IN):  # every key and value against protobuf's own parse of the payloads
            check_model_view(lambda: contents_view(data, decoded), kind.value)
    if decoded is not None and report.verdict.value != "malformed":
        check_rederived(report, lambda: rederived(decoded, _other_kind(report)))
    if decoded is not None and report.verdict.value == "valid":
        check_round_trip(data, decoded, encode, lambda again: _check(again, kind.value, profile), kind.value)


# --- the second opinion: facts of docs/formats/nanover.md re-derived from the decoded records ---------

#: NANOVER-TIME-003: a gap of this many microseconds or more starts a defective block (120 s).
_GAP_US = 120 * 1_000_000
#: NANOVER-LIMIT-004: past this many live state keys deletions are no longer checked.
_STATE_KEYS = 65_536


def rederived(rec: Recording, skipped: Collection[int] = ()) -> dict[str, str | None]:
    """What a decoded recording breaks, derived here from its records (``check_rederived``): the
    timestamps' TIME-001..003 and the state's STATE-001, and the frame, state and header rules of
    ``_nanover_facts`` (FRAME-001..006, PROTO-004/005, HEADER-002, LIMIT-004; its ``COVERAGE`` says how
    each rule of the catalogue is judged). ``skipped``: records the checker reads as the other kind's
    message (NANOVER-PAYLOAD-001), which the frame facts leave out."""
    out: dict[str, str | None] = {"NANOVER-TIME-001": None, "NANOVER-TIME-002": None, "NANOVER-TIME-003": None}
    prev: int | None = None
    for i, r in enumerate(rec.records):
        ts = r.timestamp_us
        if ts >= 1 << 64:
            out["NANOVER-TIME-001"] = f"record[{i}]'s timestamp {ts} needs more than 64 bits"
        if prev is not None:
            if ts < prev:
                out["NANOVER-TIME-002"] = f"record[{i}]'s timestamp {ts} is before {prev}"
            elif (ts == prev or ts - prev >= _GAP_US) and max(ts, prev) < 1 << 64:
                out["NANOVER-TIME-003"] = f"record[{i}]'s timestamp {ts} follows {prev}"
        prev = ts
    if rec.kind is Kind.STATE:
        out["NANOVER-STATE-001"] = _deleted_missing(rec)
        if out["NANOVER-STATE-001"] == "":
            del out["NANOVER-STATE-001"]  # past NANOVER-LIMIT-004: not judged
    out.update(derive_facts(rec.records, rec.kind.value, rec.header.version, UNSET, skipped))
    return out


def _other_kind(report: Any) -> set[int]:
    """The records a report names under NANOVER-PAYLOAD-001 (the other kind's message, not judged further)."""
    return {int(f.path[7:f.path.index("]")]) for f in report.findings
            if f.rule == "NANOVER-PAYLOAD-001" and f.path.startswith("record[") and "]" in f.path}


_RECORD_HEAD = struct.Struct("<QQQ")


def framing_view(data: bytes, rec: Recording) -> tuple[dict[str, Any], dict[str, Any]]:
    """The model's header and timestamps, and the same read at the document's offsets (``model-view``):
    the version at byte 8, then per record a u128 timestamp (low half first) and a u64 payload length."""
    view = {"version": rec.header.version, "records": len(rec.records),
            "timestamps": tuple(r.timestamp_us for r in rec.records)}
    stamps = []
    at = HEADER_SIZE
    while at + _RECORD_HEAD.size <= len(data):
        low, high, n = _RECORD_HEAD.unpack_from(data, at)
        stamps.append(high << 64 | low)
        at += _RECORD_HEAD.size + n
    read = {"version": struct.unpack_from("<Q", data, 8)[0], "records": len(stamps), "timestamps": tuple(stamps)}
    return view, read


def _deleted_missing(rec: Recording) -> str | None:
    """The first deletion of a key the state does not hold (``None``: none; ``""``: too many keys to tell)."""
    live: set[str] = set()
    for i, r in enumerate(rec.records):
        changes = getattr(r.message, "changes", {})
        for key, value in changes.items():
            if value is None:
                if key not in live:
                    return f"record[{i}] deletes {key!r}, which the state does not hold"
                live.discard(key)
            else:
                live.add(key)
        if len(live) > _STATE_KEYS:
            return ""
    return None


#: The walk's fast paths (frame templates, the upb proof of a clean payload, the timestamp shortcut).
_SWITCHES = ("fast_records", "fast_wire", "fast_rules")


def _walked(data: bytes, variant: str | None, profile: str) -> Any:
    """The report with every fast path of the walk switched off (class attributes, restored after)."""
    saved = {name: getattr(_Walk, name) for name in _SWITCHES}
    try:
        for name in _SWITCHES:
            setattr(_Walk, name, False)
        return _check(data, variant, profile)
    finally:
        for name, value in saved.items():
            setattr(_Walk, name, value)


def _check(data: bytes, variant: str | None, profile: str) -> Any:
    try:
        return check_stream(io.BytesIO(data), path="<fuzz>", variant=variant, profile=profile, size=len(data))
    except DecodeError as e:
        raise ContractViolation(f"check_stream raised {type(e).__name__}: {e}") from e


def fuzz_ksy(data: bytes) -> None:
    # Invariant: for any bytes, the generated Kaitai parser read record by record
    # yields values or a KaitaiRejected (a DecodeError) and raises nothing else.
    for _, value in kaitai_records(io.BytesIO(data), kind_of(data)):
        assert value is not None and (isinstance(value, (tuple, KaitaiRejected)))


def fuzz_diff(data: bytes) -> None:
    # Invariant: for any bytes, the reference decoder and the Kaitai parser agree:
    # both accept a record with equal values, or both reject it (differential()
    # returns no divergence; Divergent otherwise), and differential() raises nothing.
    kind = kind_of(data)
    divergences = differential(data, kind)
    if divergences:
        raise Divergent(divergences, kind.value, _COMPARED, divergence_kind)


TARGETS: dict[str, Callable[[bytes], None]] = {"ref": fuzz_ref, "ksy": fuzz_ksy, "diff": fuzz_diff}


def describe_input(data: bytes) -> dict[str, Any]:
    try:
        return {"variant": kind_of(data).value, "variant_note": "detected from content"}
    except Exception as e:
        return {"variant": None, "variant_note": f"detection failed: {type(e).__name__}: {e}"}


# --- a generic protobuf tree for the mutator -----------------------------------------------

#: The mutator's own copy of the reference codec (framing, varints, record encoding), left out of
#: a campaign's coverage instrumentation: the mutator runs in every execution, and what it runs is
#: not what is tested (``recspec.fuzz._mutate.uninstrumented_copy``). The harnesses use the
#: instrumented one.
_codec = _mutate.uninstrumented_copy(_nanover)

# A field node is [tag_bytes, wire_type, body] where body is an int (varint), bytes
# (fixed, or length-delimited that is not parsed further) or a list of nodes
# (length-delimited that parses as a message).
_MAX_TREE_DEPTH = 12


def _parse_message(buf: bytes, depth: int = 0) -> list[list[Any]] | None:
    nodes: list[list[Any]] = []
    off = 0
    try:
        while off < len(buf):
            start = off
            tag, off = _codec.read_varint(buf, off, len(buf), 5)
            wt = tag & 7
            tag_bytes = buf[start:off]
            if wt == 0:
                v, off = _codec.read_varint(buf, off, len(buf))
                nodes.append([tag_bytes, 0, v])
            elif wt in (1, 5):
                n = 8 if wt == 1 else 4
                if off + n > len(buf):
                    return None
                nodes.append([tag_bytes, wt, buf[off:off + n]])
                off += n
            elif wt == 2:
                n, off = _codec.read_varint(buf, off, len(buf))
                if off + n > len(buf):
                    return None
                body = buf[off:off + n]
                off += n
                sub = _parse_message(body, depth + 1) if depth < _MAX_TREE_DEPTH and body else None
                nodes.append([tag_bytes, 2, sub if sub else body])
            else:
                return None
    except DecodeError:
        return None
    return nodes


def _serialize(nodes: list[list[Any]]) -> bytes:
    out = bytearray()
    for tag_bytes, wt, body in nodes:
        out += tag_bytes
        if wt == 0:
            out += _codec.encode_varint(body)
        elif wt == 2:
            b = _serialize(body) if isinstance(body, list) else body
            out += _codec.encode_varint(len(b)) + b
        else:
            out += body
    return bytes(out)


def _all_fields(nodes: list[list[Any]], out: list[tuple[list[list[Any]], int]]) -> None:
    for i, node in enumerate(nodes):
        out.append((nodes, i))
        if isinstance(node[2], list):
            _all_fields(node[2], out)


_INTS = (0, 1, 2, 3, 7, 8, 0x7F, 0x80, 0xFF, 0x3FFF, 0x4000, 2**31 - 1, 2**31, 2**32 - 1, 2**32, 2**63, 2**64 - 1)
_TAGS = (0x08, 0x0A, 0x0D, 0x11, 0x12, 0x1A, 0x20, 0x2A, 0x32, 0x0B, 0x0C, 0x0E, 0x0F, 0x78, 0x00)


def _mutate_field(rng: random.Random, nodes: list[list[Any]]) -> bool:
    fields: list[tuple[list[list[Any]], int]] = []
    _all_fields(nodes, fields)
    if not fields:
        nodes.append([bytes([rng.choice(_TAGS)]), 0, rng.choice(_INTS)])
        return True
    parent, i = rng.choice(fields)
    node = parent[i]
    op = rng.randrange(6)
    if op == 0:  # the value
        if node[1] == 0:
            node[2] = rng.choice(_INTS)
        elif node[1] in (1, 5):
            n = len(node[2])
            node[2] = rng.choice((struct.pack("<f", float("nan")), struct.pack("<f", float("inf")), b"\x00" * 4,
                                  b"\xff" * 4, struct.pack("<d", -1.0), b"\x00" * 8))[:n].ljust(n, b"\x00")
        elif isinstance(node[2], list):
            node[2] = _serialize(node[2])[: rng.randrange(len(_serialize(node[2])) + 1)]
        else:
            b = bytearray(node[2])
            if b and rng.random() < 0.6:
                b[rng.randrange(len(b))] = rng.choice((0x80, 0xFF, 0xC0, 0xED, 0x00, 0x0A, rng.randrange(256)))
            else:
                b += bytes(rng.randrange(256) for _ in range(rng.randint(1, 5)))
            node[2] = bytes(b)
    elif op == 1:  # the tag: another field number or wire type, keeping the body where it fits
        tag = rng.choice(_TAGS)
        node[0] = bytes([tag])
        if tag & 7 != node[1]:
            node[1] = tag & 7
            node[2] = {0: 1, 1: b"\x00" * 8, 2: b"", 5: b"\x00" * 4}.get(tag & 7, b"")
            if tag & 7 in (3, 4, 6, 7):
                node[1] = 5  # body written raw after the bad tag
                node[2] = b""
    elif op == 2:
        del parent[i]
    elif op == 3:
        parent.insert(i, [node[0], node[1], node[2]])
    elif op == 4:  # an overlong tag encoding
        t = _codec.read_varint(node[0], 0, len(node[0]), 5)[0]
        node[0] = bytes([(t & 0x7F) | 0x80, 0x00 | (t >> 7)])
    else:  # an unknown field beside it
        tag_bytes = _codec.encode_varint(rng.randint(3, 1000) << 3 | rng.choice((0, 2, 5)))
        parent.insert(i, [tag_bytes, 0, rng.choice(_INTS)])
        tag = parent[i][0][-1] & 7
        parent[i][1] = {0: 0, 2: 2, 5: 5}[tag]
        parent[i][2] = {0: 1, 2: b"x", 5: b"\x00" * 4}[tag]
    return True


def _split(data: bytes) -> tuple[bytes, list[tuple[int, bytes]], bytes] | None:
    try:
        _codec.decode_header(data)
    except DecodeError:
        return None
    f = io.BytesIO(data)
    f.seek(HEADER_SIZE)
    reader = _codec.RecordReader(f, HEADER_SIZE, len(data))
    records = []
    try:
        for raw in reader:
            records.append((raw.timestamp_us, raw.payload))
    except DecodeError:
        pass
    return data[:HEADER_SIZE], records, data[reader.tell():]


def _mutate_structure(rng: random.Random, split: tuple[bytes, list[tuple[int, bytes]], bytes],
                      max_size: int) -> bytes | None:
    header, records, tail = split
    op = rng.choices(range(7), weights=(50, 10, 8, 8, 8, 6, 60))[0]
    if op == 6 and records:  # one record's message on the edge of a rule (_nanover_boundary.py)
        edited = boundary_edit(rng, _codec, [payload for _, payload in records])
        if edited is None:
            return None
        i, payload = edited
        records[i] = (records[i][0], payload)
    elif op == 0 or not records:  # one protobuf field of one payload
        if not records:
            records.append((1, b"\x12\x00"))
        i = rng.randrange(len(records))
        ts, payload = records[i]
        nodes = _parse_message(payload) if payload else []
        if nodes is None:
            return None
        _mutate_field(rng, nodes)
        records[i] = (ts, _serialize(nodes))
    elif op == 1:  # a timestamp, or one on an edge of the previous one's (equal, one before, the 120 s gap +-1)
        i = rng.randrange(len(records))
        ts = records[i][0]
        prev = records[i - 1][0] if i else ts
        records[i] = (rng.choice((0, ts - 1, ts + 1, ts + 120_000_001, 1 << 64, (1 << 64) + ts, (1 << 128) - 1,
                                  (1 << 64) - 1, prev, prev - 1, prev + _GAP_US - 1, prev + _GAP_US,
                                  prev + _GAP_US + 1)) % (1 << 128), records[i][1])
    elif op == 2:
        del records[rng.randrange(len(records))]
    elif op == 3:
        i = rng.randrange(len(records))
        records.insert(i, records[i])
    elif op == 4 and len(records) > 1:
        i, j = rng.sample(range(len(records)), 2)
        records[i], records[j] = records[j], records[i]
    else:  # the header's version, or a cut-off tail
        if rng.random() < 0.5:
            header = _codec.encode_header().replace(b"\x02\x00", bytes([rng.choice((0, 1, 3, 255)), 0]), 1)
            header = struct.pack("<Q", MAGIC) + header[8:]
        else:
            body = b"".join(_codec.encode_record(t, p) for t, p in records)
            return (header + body)[: rng.randrange(HEADER_SIZE, len(header) + len(body) + 1)][:max_size]
    out = header + b"".join(_codec.encode_record(t & ((1 << 128) - 1), p) for t, p in records) + tail
    return out[:max_size] if len(out) > max_size else out


def mutate(data: bytes, max_size: int, seed: int, *,
           byte_mutate: Callable[[bytes, int], bytes] | None = None) -> bytes:
    """atheris custom mutator: ``(data, max_size, seed) -> bytes`` of at most ``max_size`` bytes.

    Structure-aware when the header decodes (see the module docstring), else
    byte mutation (``recspec.fuzz._mutate``: the same outer logic for every format).
    """
    return _mutate.mutate(data, max_size, seed, parse=_split, mutate_structure=_mutate_structure, tokens=_TOKENS,
                          byte_mutate=byte_mutate)


# --- seeds -----------------------------------------------------------------------------------


def synthetic_seeds() -> list[tuple[str, bytes]]:
    """The corpus generator's valid files, and a topology that holds every standard array (bond.orders,
    which no corpus file holds, among them) at the length its counts give it: the boundary edits start
    from arrays that fit, where one entry more or less breaks a rule."""
    from recspec.conformance.nanover._seeds import seeds

    return [(s.name, s.data) for s in seeds() if s.name.startswith("valid/")] + [
        ("boundary/every-standard-array.traj", _every_standard_array())]


def _every_standard_array() -> bytes:
    """Four particles in two residues of one chain, two bonds, a user force on one particle, a box; then a
    delta that moves the particles and sets the scalars (the numbers from docs/formats/nanover.md's table)."""
    floats, index, strings = ArrayKind.FLOAT, ArrayKind.INDEX, ArrayKind.STRING
    topology = Frame(0, {"particle.count": 4.0, "residue.count": 2.0, "chain.count": 1.0}, {
        "particle.positions": Array(floats, (0.0,) * 12), "particle.velocities": Array(floats, (0.0,) * 12),
        "particle.forces": Array(floats, (0.0,) * 12), "particle.forces.system": Array(floats, (0.0,) * 12),
        "particle.elements": Array(index, (6, 1, 8, 1)), "particle.names": Array(strings, ("C", "H", "O", "H")),
        "particle.residues": Array(index, (0, 0, 1, 1)), "residue.names": Array(strings, ("ALA", "GLY")),
        "residue.ids": Array(strings, ("1", "2")), "residue.chains": Array(index, (0, 0)),
        "chain.names": Array(strings, ("A",)), "bond.pairs": Array(index, (0, 1, 2, 3)),
        "bond.orders": Array(floats, (1.0, 2.0)), "system.box.vectors": Array(floats, (1.0,) + (0.0,) * 8),
        "forces.user.index": Array(index, (3,)), "forces.user.sparse": Array(floats, (0.5, 0.0, 0.0))})
    step = Frame(1, {"system.simulation.time": 0.002, "energy.kinetic": 1.5, "server.timestamp": 10.0},
                 {"particle.positions": Array(floats, (0.1,) * 12)})
    data: bytes = encode(Recording(Kind.TRAJ, (Record(1_000, topology), Record(41_000, step))))
    return data


def derive_seeds(data: bytes, max_len: int) -> list[bytes]:
    """A prefix of whole records of at most ``min(max_len, PREFIX_BYTES)`` bytes, and
    the header with only the first record and with only the last record."""
    split = _split(data)
    if split is None:
        return []
    header, records, _ = split
    out = []
    limit = min(max_len, PREFIX_BYTES)
    if len(data) > limit:
        body, n = b"", len(header)
        for t, p in records:
            rec = encode_record(t, p)
            if n + len(rec) > limit:
                break
            body += rec
            n += len(rec)
        out.append(header + body)
    for t, p in records[:1] + records[-1:]:
        one = header + encode_record(t, p)
        if len(one) <= max_len and one != data:
            out.append(one)
    return out


# --- dictionary -------------------------------------------------------------------------------


def dictionary_entries() -> list[tuple[str, bytes]]:
    """The libFuzzer dictionary (``fuzz/dictionaries/nanover.dict`` renders it)."""
    entries = [
        ("magic", struct.pack("<Q", MAGIC)),
        ("version_2", struct.pack("<Q", 2)),
        ("version_1", struct.pack("<Q", 1)),
        ("empty_frame", b"\x12\x00"),
        ("empty_struct", b"\x0a\x00"),
        ("null_value", b"\x08\x00"),
        ("bool_false", b"\x20\x00"),
        ("empty_float_array", b"\x0a\x00"),
        ("empty_index_array", b"\x12\x00"),
        ("group_start", b"\x0b"),
        ("group_end", b"\x0c"),
        ("wire_type_6", b"\x0e"),
        ("varint_10", b"\xff" * 9 + b"\x01"),
        ("varint_11", b"\xff" * 10 + b"\x01"),
        ("inf_f64", struct.pack("<d", float("inf"))),
        ("nan_f32", struct.pack("<f", float("nan"))),
    ]
    first = ("particle.count", "particle.positions", "particle.elements", "particle.names", "particle.residues",
             "residue.count", "residue.ids", "residue.chains", "chain.count", "bond.pairs", "system.box.vectors",
             "forces.user.index", "forces.user.sparse", "imd.velocity_reset_available")
    # then every other standard key of docs/formats/nanover.md (the second opinion's table)
    for key in (*first, *sorted((set(NUMBERS) | set(ARRAYS)) - set(first))):
        entries.append((f"key_{key.replace('.', '_')}", b"\x0a" + bytes([len(key)]) + key.encode()))
    # a Value of each kind, for a standard number: a number's tag, a bool, a string
    entries += [("number_tag", b"\x11"), ("bool_true", b"\x20\x01"), ("string_value", b"\x1a\x01x")]
    return entries


def dictionary_text() -> str:
    return render([
        "libFuzzer dictionary for NanoVer recordings: the magic, versions, protobuf",
        "tags and standard keys. Generated by recspec.fuzz.nanover.dictionary_text();",
        "tests/test_fuzz_nanover.py checks that this file matches it. Do not edit by hand.",
    ], dictionary_entries())


_TOKENS = tuple(value for _, value in dictionary_entries())
