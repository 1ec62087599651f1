"""Rule witnesses for NanoVer recordings (see tests/witness_common.py).

Files are put together here: the 16-byte header (u64 magic, u64 version 2), records
of a u128 timestamp, a u64 length and a payload, all little-endian (docs/formats/
nanover.md), with payloads serialised by the protobuf runtime from
proto/recspec_nanover.proto, not by the reference encoder. A finding about a payload
names the record (``record[k]``, or the map entry under it) at the payload's start.
"""

from __future__ import annotations

import functools
import struct
from dataclasses import dataclass, field
from typing import Any

from build_nanover import varint
from google.protobuf import struct_pb2
from hypothesis import strategies as st
from witness_common import Witness, Witnesses

from recspec._pb import recspec_nanover_pb2 as pb

MAGIC = 6661355757386708963
HEADER = 16
RECORD_HEAD = 24  # u128 timestamp, u64 payload length
MAX_GAP = 120_000_000  # us: NANOVER-TIME-003's largest step


@dataclass
class File:
    kind: str  # "traj" or "state"
    payloads: list[bytes]
    times: list[int]
    version: int = 2
    magic: int = MAGIC
    headerless: bool = False
    lengths: dict[int, int] = field(default_factory=dict)  # a declared length other than the payload's

    def bytes(self) -> bytes:
        out = bytearray() if self.headerless else bytearray(struct.pack("<QQ", self.magic, self.version))
        for i, (t, p) in enumerate(zip(self.times, self.payloads)):
            out += t.to_bytes(16, "little") + struct.pack("<Q", self.lengths.get(i, len(p))) + p
        return bytes(out)

    def record_at(self, k: int) -> int:
        return (0 if self.headerless else HEADER) + sum(RECORD_HEAD + len(p) for p in self.payloads[:k])

    def payload_at(self, k: int) -> int:
        return self.record_at(k) + RECORD_HEAD


def frame(index: int, values: dict[str, Any] | None = None, arrays: dict[str, tuple[str, list[Any]]] | None = None,
          ) -> bytes:
    msg = pb.GetFrameResponse(frame_index=index)
    msg.frame.SetInParent()
    for k, v in (values or {}).items():
        msg.frame.values[k].CopyFrom(value(v))
    for k, (kind, xs) in (arrays or {}).items():
        arr = msg.frame.arrays[k]
        getattr(arr, f"{kind}_values").values.extend(xs)
        getattr(arr, f"{kind}_values").SetInParent()
    return msg.SerializeToString(deterministic=True)


def value(v: Any) -> struct_pb2.Value:
    out = struct_pb2.Value()
    if v is None:
        out.null_value = struct_pb2.NULL_VALUE
    elif isinstance(v, bool):
        out.bool_value = v
    elif isinstance(v, (int, float)):
        out.number_value = v
    elif isinstance(v, str):
        out.string_value = v
    elif isinstance(v, list):
        out.list_value.SetInParent()
        for x in v:
            out.list_value.values.add().CopyFrom(value(x))
    else:
        out.struct_value.SetInParent()
        for k, x in v.items():
            out.struct_value.fields[k].CopyFrom(value(x))
    return out


def update(changes: dict[str, Any]) -> bytes:
    msg = pb.StateUpdate()
    msg.changed_keys.SetInParent()
    for k, v in changes.items():
        msg.changed_keys.fields[k].CopyFrom(value(v))
    return msg.SerializeToString(deterministic=True)


_F32 = st.floats(-1000.0, 1000.0, width=32)


@st.composite
def times(draw: st.DrawFn, n: int) -> list[int]:
    t = draw(st.integers(0, 10**9))
    out = []
    for _ in range(n):
        out.append(t)
        t += draw(st.integers(1, MAX_GAP - 1))
    return out


@st.composite
def topology(draw: st.DrawFn) -> tuple[dict[str, Any], dict[str, tuple[str, list[Any]]]]:
    """A reset frame's values and arrays: N particles, bonds between them, residues and chains."""
    n = draw(st.integers(1, 5))
    chains = draw(st.integers(1, 2))
    residues = draw(st.integers(1, 3))
    bonds = draw(st.lists(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1)), max_size=3))
    values = {"particle.count": n, "residue.count": residues, "chain.count": chains}
    arrays = {"particle.positions": ("float", draw(st.lists(_F32, min_size=3 * n, max_size=3 * n))),
              "particle.elements": ("index", draw(st.lists(st.integers(1, 118), min_size=n, max_size=n))),
              "particle.residues": ("index", draw(st.lists(st.integers(0, residues - 1), min_size=n, max_size=n))),
              "residue.chains": ("index", draw(st.lists(st.integers(0, chains - 1), min_size=residues,
                                                        max_size=residues))),
              "residue.names": ("string", ["ALA"] * residues),
              "bond.pairs": ("index", [i for pair in bonds for i in pair])}
    return values, arrays


@st.composite
def trajectories(draw: st.DrawFn, min_records: int = 1) -> tuple[File, int]:
    """A valid .traj and its particle count: a reset frame, then frames moving the particles."""
    values, arrays = draw(topology())
    n = values["particle.count"]
    count = draw(st.integers(min_records, 4))
    payloads = [frame(0, values, arrays)]
    for i in range(1, count):
        payloads.append(frame(i, arrays={"particle.positions": ("float", draw(
            st.lists(_F32, min_size=3 * n, max_size=3 * n)))}))
    return File("traj", payloads, draw(times(count))), n


@st.composite
def states(draw: st.DrawFn, min_records: int = 1) -> File:
    """A valid .state: updates setting keys, and nulls only for keys that exist."""
    count = draw(st.integers(min_records, 4))
    live: set[str] = set()
    payloads = []
    for _ in range(count):
        changes: dict[str, Any] = {}
        for key in draw(st.lists(st.sampled_from(("avatar.a", "avatar.b", "scene", "play")), max_size=3, unique=True)):
            if key in live and draw(st.booleans()):
                changes[key] = None
                live.discard(key)
            else:
                changes[key] = draw(st.one_of(st.floats(-1e6, 1e6), st.text(max_size=4), st.booleans()))
                live.add(key)
        payloads.append(update(changes))
    return File("state", payloads, draw(times(count)))


def witness(rule: str, f: File, offset: int, path: str, *, profile: str = "spec", **kw: Any) -> Witness:
    return Witness(rule, f.bytes(), profile, offset, path, name=f"witness.{f.kind}", **kw)


def some_file() -> st.SearchStrategy[File]:
    return st.one_of(trajectories().map(lambda t: t[0]), states())


# --- the witnesses ----------------------------------------------------------------------

@st.composite
def _magic(draw: st.DrawFn) -> Witness:
    f = draw(some_file())
    f.magic = draw(st.integers(0, 2**64 - 1).filter(lambda m: m != MAGIC))
    return witness("NANOVER-HEADER-001", f, 0, "header.magic")


@st.composite
def _version(draw: st.DrawFn) -> Witness:
    f = draw(some_file())
    f.version = draw(st.integers(1, 2**64 - 1).filter(lambda v: v != 2))
    return witness("NANOVER-HEADER-002", f, 8, "header.version")


@st.composite
def _headerless(draw: st.DrawFn) -> Witness:
    # version 1 (2023): no header, and the trajectory payload a bare FrameData
    traj, _ = draw(trajectories())
    traj.headerless = True
    traj.payloads = [pb.GetFrameResponse.FromString(p).frame.SerializeToString(deterministic=True)
                     for p in traj.payloads]
    traj.times = [t % 2**64 for t in traj.times]
    return witness("NANOVER-HEADER-003", traj, 0, "header")


@st.composite
def _cut(draw: st.DrawFn) -> Witness:
    f = draw(some_file())
    data = f.bytes()
    k = draw(st.integers(0, len(f.payloads) - 1))
    start = f.record_at(k)
    end = start + RECORD_HEAD + len(f.payloads[k])
    cut = draw(st.integers(start + 1, end - 1))  # inside record k's header or payload
    return Witness("NANOVER-STREAM-001", data[:cut], "spec", start, f"record[{k}]", name=f"witness.{f.kind}")


@st.composite
def _too_long(draw: st.DrawFn) -> Witness:
    """A record whose payload is all in the file but longer than the limit (MAX_PAYLOAD_SIZE, lowered below
    it and at or above every earlier payload: a real 64 MiB payload is too big for a test). A length above
    the limit that the file does not hold is a damaged length (NANOVER-STREAM-001), not this rule."""
    f = draw(some_file().filter(lambda f: any(f.payloads)))
    longest_before = [max((len(p) for p in f.payloads[:i]), default=0) for i in range(len(f.payloads))]
    k = draw(st.sampled_from([i for i, p in enumerate(f.payloads) if len(p) > longest_before[i]]))
    limit = draw(st.integers(longest_before[k], len(f.payloads[k]) - 1))
    # at the declared length, after the record's timestamp
    return witness("NANOVER-LIMIT-001", f, f.record_at(k) + 16, f"record[{k}]",
                   limits=(("recspec.reference.nanover._framing", "MAX_PAYLOAD_SIZE", limit),))


@st.composite
def _damaged_length(draw: st.DrawFn) -> Witness:
    """A record length above the limit and past the end of the file: a damaged length field."""
    f = draw(some_file())
    k = draw(st.integers(0, len(f.payloads) - 1))
    f.lengths[k] = draw(st.integers(64 * 1024 * 1024 + 1, 2**64 - 1))
    # at the length field, after the record's timestamp
    return witness("NANOVER-STREAM-001", f, f.record_at(k) + 16, f"record[{k}]")


def _nested(depth: int) -> tuple[bytes, list[int]]:
    """A StateUpdate whose one key holds lists nested ``depth`` deep (each level: Value.list_value (6) >
    ListValue.values (1) > Value), and the offset in the payload of each Value's contents, outermost first."""
    inner = b"\x08\x00"  # the innermost Value{null_value: 0}
    heads = []  # bytes from a Value's contents to the next Value's contents, innermost level first
    for _ in range(depth):
        listvalue = b"\x0a" + varint(len(inner)) + inner
        outer = b"\x32" + varint(len(listvalue)) + listvalue
        heads.append(len(outer) - len(inner))
        inner = outer
    entry = b"\x0a\x01k" + b"\x12" + varint(len(inner)) + inner
    struct_ = b"\x0a" + varint(len(entry)) + entry
    payload = b"\x0a" + varint(len(struct_)) + struct_
    at = [len(payload) - len(inner)]
    for head in reversed(heads):
        at.append(at[-1] + head)
    return payload, at


@st.composite
def _deep(draw: st.DrawFn) -> Witness:
    f = draw(states())
    payload, values = _nested(draw(st.integers(33, 40)))
    k = draw(st.integers(0, len(f.payloads)))
    f.payloads.insert(k, payload)
    f.times = draw(times(len(f.payloads)))
    # MAX_NESTING = 32 Structs and ListValues: changed_keys is the first, so the Value holding the 32nd
    # ListValue (the 32nd Value from the key's) is the one nested too deep
    return witness("NANOVER-LIMIT-002", f, f.payload_at(k) + values[31], f"record[{k}]")


@functools.cache
def _many_values(n: int) -> bytes:
    # a StateUpdate with one key holding a list of n nulls: n list elements and one map entry
    element = b"\x0a\x02\x08\x00"
    listvalue = element * n
    value_ = b"\x32" + varint(len(listvalue)) + listvalue
    entry = b"\x0a\x01k" + b"\x12" + varint(len(value_)) + value_
    struct_ = b"\x0a" + varint(len(entry)) + entry
    return b"\x0a" + varint(len(struct_)) + struct_


def _values() -> st.SearchStrategy[Witness]:
    # a payload of over 2^18 values is about 1 MB and takes a while to walk: two files, not fifty
    def make(before: int) -> Witness:
        f = File("state", [update({"scene": 1.0})] * before + [_many_values((1 << 18) + 1)], list(range(before + 1)))
        k = before
        # MAX_VALUES = 2^18: the map entry is the first value, so list element 2^18 - 1 is one too many
        first = f.payloads[k].index(b"\x0a\x02\x08\x00")
        return witness("NANOVER-LIMIT-003", f, f.payload_at(k) + first + 4 * ((1 << 18) - 1), f"record[{k}]")
    return st.sampled_from((0, 1)).map(make)


_CHECK = "recspec.conformance.nanover._check"


@st.composite
def _state_keys(draw: st.DrawFn) -> Witness:
    limit = draw(st.integers(1, 4))
    f = File("state", [], [])
    keys = [f"key.{i}" for i in range(limit + 1)]
    split = draw(st.integers(1, limit + 1))  # the record whose keys take the state past the limit
    f.payloads = [update({k: 1.0 for k in keys[:split - 1]}), update({k: 1.0 for k in keys[split - 1:]})]
    f.times = draw(times(2))
    return witness("NANOVER-LIMIT-004", f, f.payload_at(1), "record[1]", limits=((_CHECK, "MAX_STATE_KEYS", limit),))


@st.composite
def _group(draw: st.DrawFn) -> Witness:
    traj, _ = draw(trajectories())
    k = draw(st.integers(0, len(traj.payloads) - 1))
    good = traj.payloads[k]
    # a start-group tag (wire type 3), which proto3 does not have: refused by recspec's policy
    traj.payloads[k] = good + varint(draw(st.integers(1, 1000)) << 3 | 3)
    return witness("NANOVER-PROTO-006", traj, traj.payload_at(k) + len(good), f"record[{k}]")


@st.composite
def _undefined_wire_type(draw: st.DrawFn) -> Witness:
    traj, _ = draw(trajectories())
    k = draw(st.integers(0, len(traj.payloads) - 1))
    good = traj.payloads[k]
    # a tag of wire type 6 or 7, which protobuf does not define
    traj.payloads[k] = good + varint(draw(st.integers(1, 1000)) << 3 | draw(st.sampled_from((6, 7))))
    return witness("NANOVER-PROTO-001", traj, traj.payload_at(k) + len(good), f"record[{k}]")


@st.composite
def _unknown(draw: st.DrawFn) -> Witness:
    traj, _ = draw(trajectories())
    k = draw(st.integers(0, len(traj.payloads) - 1))
    good = traj.payloads[k]
    number = draw(st.integers(3, 1000))  # GetFrameResponse has fields 1 and 2
    traj.payloads[k] = good + varint(number << 3) + varint(draw(st.integers(0, 2**32)))
    return witness("NANOVER-PROTO-003", traj, traj.payload_at(k) + len(good), f"record[{k}]:GetFrameResponse")


@st.composite
def _unpacked(draw: st.DrawFn) -> Witness:
    traj, n = draw(trajectories(min_records=2))
    k = draw(st.integers(1, len(traj.payloads) - 1))
    xs = draw(st.lists(_F32, min_size=3 * n, max_size=3 * n))
    floats = b"".join(b"\x0d" + struct.pack("<f", x) for x in xs)  # FloatArray.values, one field per element
    array = b"\x0a" + varint(len(floats)) + floats  # ValueArray.float_values
    key = b"particle.positions"
    entry = b"\x0a" + varint(len(key)) + key + b"\x12" + varint(len(array)) + array
    frame_data = b"\x12" + varint(len(entry)) + entry
    traj.payloads[k] = b"\x08" + varint(k) + b"\x12" + varint(len(frame_data)) + frame_data
    # at the first unpacked element, naming the message that holds it
    at = traj.payload_at(k) + len(traj.payloads[k]) - len(floats)
    return witness("NANOVER-PROTO-004", traj, at, f"record[{k}]:FloatArray")


@st.composite
def _no_member(draw: st.DrawFn) -> Witness:
    traj, _ = draw(trajectories())
    k = draw(st.integers(0, len(traj.payloads) - 1))
    msg = pb.GetFrameResponse.FromString(traj.payloads[k])
    key = draw(st.sampled_from(("custom.thing", "user.a")))
    if draw(st.booleans()):
        msg.frame.arrays[key].Clear()  # a ValueArray with no member
        where = f"record[{k}]/arrays['{key}']"
    else:
        msg.frame.values[key].Clear()  # a Value with no kind
        where = f"record[{k}]/values['{key}']"
    traj.payloads[k] = msg.SerializeToString(deterministic=True)
    return witness("NANOVER-PROTO-005", traj, traj.payload_at(k), where)


@st.composite
def _no_kind_in_state(draw: st.DrawFn) -> Witness:
    f = draw(states())
    k = draw(st.integers(0, len(f.payloads) - 1))
    msg = pb.StateUpdate.FromString(f.payloads[k])
    key = draw(st.sampled_from(("avatar.x", "scene.y")))
    msg.changed_keys.fields[key].Clear()  # a Value with no kind
    f.payloads[k] = msg.SerializeToString(deterministic=True)
    return witness("NANOVER-PROTO-005", f, f.payload_at(k), f"record[{k}]/changed_keys['{key}']")


@st.composite
def _wrong_kind(draw: st.DrawFn) -> Witness:
    traj, _ = draw(trajectories())
    k = draw(st.integers(0, len(traj.payloads)))
    traj.payloads.insert(k, update({draw(st.sampled_from(("avatar.a", "scene"))): draw(st.floats(-1e6, 1e6))}))
    traj.times = draw(times(len(traj.payloads)))
    return witness("NANOVER-PAYLOAD-001", traj, traj.payload_at(k), f"record[{k}]")


@st.composite
def _upper_half(draw: st.DrawFn) -> Witness:
    f = draw(some_file())
    k = len(f.times) - 1  # the last record: a larger u128 does not make the next one decrease
    f.times[k] += draw(st.integers(1, 2**64 - 1)) << 64
    return witness("NANOVER-TIME-001", f, f.record_at(k) + 8, f"record[{k}].timestamp")


@st.composite
def _decrease(draw: st.DrawFn) -> Witness:
    f = draw(some_file().filter(lambda f: len(f.times) >= 2))
    k = draw(st.integers(1, len(f.times) - 1))
    back = draw(st.integers(1, 10**6))  # record k goes this far before record k-1; the later ones keep their gaps
    times = [t + back for t in f.times]  # room below the earliest, so that no timestamp goes negative
    drop = times[k] - (times[k - 1] - back)
    f.times = times[:k] + [t - drop for t in times[k:]]
    # compat: NANOVER-TIME-003 (which a decrease breaks too) is only noted there
    return witness("NANOVER-TIME-002", f, f.record_at(k), f"record[{k}].timestamp", profile="compat")


@st.composite
def _gap(draw: st.DrawFn) -> Witness:
    f = draw(some_file().filter(lambda f: len(f.times) >= 2))
    k = draw(st.integers(1, len(f.times) - 1))
    step = draw(st.one_of(st.just(0), st.integers(MAX_GAP, 10 * MAX_GAP)))
    shift = f.times[k - 1] + step - f.times[k]
    f.times = f.times[:k] + [t + shift for t in f.times[k:]]
    return witness("NANOVER-TIME-003", f, f.record_at(k), f"record[{k}].timestamp")


def _frame_break(rule: str, change: Any, profile: str = "spec") -> st.SearchStrategy[Witness]:
    """The reset frame's topology changed by ``change(draw, values, arrays, n) -> map entry path``."""
    @st.composite
    def make(draw: st.DrawFn) -> Witness:
        traj, n = draw(trajectories())
        values, arrays = draw(topology().filter(lambda t: t[0]["particle.count"] == n))
        where = change(draw, values, arrays, n)
        traj.payloads[0] = frame(0, values, arrays)
        if values["particle.count"] != n:  # the later frames' positions were for n particles
            traj.payloads, traj.times = traj.payloads[:1], traj.times[:1]
        return witness(rule, traj, traj.payload_at(0), f"record[0]/{where}", profile=profile)
    return make()


def _positions(draw: st.DrawFn, values: dict[str, Any], arrays: dict[str, Any], n: int) -> str:
    how = draw(st.sampled_from(("positions", "sparse", "user index")))
    if how == "positions":
        size = draw(st.integers(0, 20).filter(lambda s: s != 3 * n))
        arrays["particle.positions"] = ("float", [0.0] * size)
        return "arrays['particle.positions']"
    # user forces: particle indexes and 3 floats for each
    index = draw(st.lists(st.integers(0, n - 1), min_size=1, max_size=3))
    if how == "sparse":
        arrays["forces.user.index"] = ("index", index)
        arrays["forces.user.sparse"] = ("float", [0.0] * draw(st.integers(0, 12).filter(lambda s: s != 3 * len(index))))
        return "arrays['forces.user.sparse']"
    index[draw(st.integers(0, len(index) - 1))] = draw(st.integers(n, 2**32 - 1))
    arrays["forces.user.index"] = ("index", index)
    arrays["forces.user.sparse"] = ("float", [0.0] * (3 * len(index)))
    return "arrays['forces.user.index']"


def _bonds(draw: st.DrawFn, values: dict[str, Any], arrays: dict[str, Any], n: int) -> str:
    pairs = list(arrays["bond.pairs"][1])
    how = draw(st.sampled_from(("odd", "index", "orders")))
    if how == "orders":  # bond.orders, one float per bond, of another length
        count = draw(st.integers(0, 8).filter(lambda c: c != len(pairs) // 2))
        arrays["bond.orders"] = ("float", [1.0] * count)
        return "arrays['bond.orders']"
    if how == "odd":
        pairs.append(draw(st.integers(0, n - 1)))
    else:
        pairs += [draw(st.integers(0, n - 1)), draw(st.integers(n, 2**32 - 1))]  # an index past the particles
    arrays["bond.pairs"] = ("index", pairs)
    return "arrays['bond.pairs']"


def _residues(draw: st.DrawFn, values: dict[str, Any], arrays: dict[str, Any], n: int) -> str:
    how = draw(st.sampled_from(("index", "no count", "names")))
    if how == "no count":  # residue indexes without residue.count (nor the arrays it sizes)
        del values["residue.count"]
        for key in ("residue.names", "residue.chains"):
            del arrays[key]
        return "arrays['particle.residues']"
    if how == "names":  # residue.names of another length than residue.count
        count = values["residue.count"]
        arrays["residue.names"] = ("string", ["ALA"] * draw(st.integers(0, 6).filter(lambda k: k != count)))
        return "arrays['residue.names']"
    residues = list(arrays["particle.residues"][1])
    residues[draw(st.integers(0, n - 1))] = draw(st.integers(values["residue.count"], 2**32 - 1))
    arrays["particle.residues"] = ("index", residues)
    return "arrays['particle.residues']"


def _count_type(draw: st.DrawFn, values: dict[str, Any], arrays: dict[str, Any], n: int) -> str:
    key = draw(st.sampled_from(("residue.count", "chain.count")))
    values[key] = draw(st.sampled_from(("3", True, values[key] + 0.5, -1.0)))
    # the indexes the count bounds are no longer judged against it (the count is unreadable)
    return f"values['{key}']"


def _residue_ids(draw: st.DrawFn, values: dict[str, Any], arrays: dict[str, Any], n: int) -> str:
    arrays["residue.ids"] = ("float", [float(i) for i in range(values["residue.count"])])
    return "arrays['residue.ids']"


def _empty_kind(draw: st.DrawFn, values: dict[str, Any], arrays: dict[str, Any], n: int) -> str:
    # no particles, and an empty positions array written as an index array (the Python recorder)
    values["particle.count"] = 0
    for key in ("particle.elements", "particle.residues", "bond.pairs"):
        arrays[key] = ("index", [])
    arrays["particle.positions"] = ("index", [])
    return "arrays['particle.positions']"


@st.composite
def _delete_missing(draw: st.DrawFn) -> Witness:
    f = draw(states())
    k = draw(st.integers(0, len(f.payloads)))
    live: set[str] = set()
    for p in f.payloads[:k]:
        for key, v in pb.StateUpdate.FromString(p).changed_keys.fields.items():
            (live.discard if v.WhichOneof("kind") == "null_value" else live.add)(key)
    key = draw(st.sampled_from(("gone.a", "gone.b", "avatar.zz")))
    f.payloads.insert(k, update({key: None}))
    f.times = draw(times(len(f.payloads)))
    return witness("NANOVER-STATE-001", f, f.payload_at(k), f"record[{k}]/changed_keys['{key}']")


WITNESSES: Witnesses = {
    "NANOVER-HEADER-001": _magic,
    "NANOVER-HEADER-002": _version,
    "NANOVER-HEADER-003": _headerless,
    "NANOVER-STREAM-001": lambda: st.one_of(_cut(), _damaged_length()),
    "NANOVER-LIMIT-001": _too_long,
    "NANOVER-LIMIT-002": _deep,
    "NANOVER-LIMIT-003": _values,
    "NANOVER-LIMIT-004": _state_keys,
    "NANOVER-PROTO-001": _undefined_wire_type,
    "NANOVER-PROTO-006": _group,
    "NANOVER-PROTO-003": _unknown,
    "NANOVER-PROTO-004": _unpacked,
    "NANOVER-PROTO-005": lambda: st.one_of(_no_member(), _no_kind_in_state()),
    "NANOVER-PAYLOAD-001": _wrong_kind,
    "NANOVER-TIME-001": _upper_half,
    "NANOVER-TIME-002": _decrease,
    "NANOVER-TIME-003": _gap,
    "NANOVER-FRAME-001": lambda: _frame_break("NANOVER-FRAME-001", _positions),
    "NANOVER-FRAME-002": lambda: _frame_break("NANOVER-FRAME-002", _bonds),
    "NANOVER-FRAME-003": lambda: _frame_break("NANOVER-FRAME-003", _residues),
    "NANOVER-FRAME-004": lambda: _frame_break("NANOVER-FRAME-004", _count_type),
    "NANOVER-FRAME-005": lambda: _frame_break("NANOVER-FRAME-005", _residue_ids),
    "NANOVER-FRAME-006": lambda: _frame_break("NANOVER-FRAME-006", _empty_kind),
    "NANOVER-STATE-001": _delete_missing,
}

UNWITNESSABLE = {
    "NANOVER-XCHECK-001": "fires when the reference and the Kaitai parser disagree: a bug in recspec or a gap in "
                          "the spec, not a property of a file",
}


def valid_files() -> st.SearchStrategy[Witness]:
    """The unbroken files the witnesses start from (rule ""; nothing may fire)."""
    return st.tuples(some_file(), st.sampled_from(("spec", "compat"))).map(
        lambda r: Witness("", r[0].bytes(), r[1], None, "", name=f"witness.{r[0].kind}"))
