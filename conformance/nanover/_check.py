"""Checking one NanoVer recording: the kind (traj/state), the record walk, the rules.

The walk streams the file record by record (``RecordReader``), so memory is
bounded by the largest payload plus the aggregate frame's topology. Per record
the hot path is: the wire walk of the payload's field structure (it skips
packed arrays by length, so its cost does not grow with the atom count), one
parse by the protobuf runtime (upb, in C), and length arithmetic on the
repeated fields (``len`` of a upb container is O(1)). Index ranges (bond pairs,
residue indices) need a ``max`` over an array; it is taken only when a record
changes that array or its bound.
"""

from __future__ import annotations

import copy
import math
from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any, BinaryIO

from recspec.errors import DecodeError, LimitExceeded, Malformed, Truncated
from recspec.reference.nanover import (
    CLEAN_MAX_PAYLOAD,
    FORMAT_VERSION,
    HEADER_SIZE,
    UNSET,
    Kind,
    RecordReader,
    Scan,
    StateAggregate,
    StateUpdate,
    canonical_keys,
    kind_from_path,
    parse_clean,
    parse_frame,
    parse_state_update,
    read_header,
    scan,
    state_update_from_message,
    value_from_message,
    wire_verdict,
)
from recspec.report import FileReport, Verdict
from recspec.trace import enabled as trace_enabled

from .._sink import FindingSink
from ._bounds import INDEX_ARRAYS, MAX_STATE_KEYS, ArrayShape, shape
from ._entries import KEPT, StateEntries, value_has_unset
from ._rules import RULES_BY_ID
from ._sniff import sniff
from ._template import FrameTemplate
from ._trace import NanoverTrace

#: Payloads at least this long take the wire walk first (see record()).
FAST_PATH_MAX_PAYLOAD = CLEAN_MAX_PAYLOAD

__all__ = ["DETECTION_RECORDS", "check_stream", "detect_kind", "sniff"]

#: Kind detection by content reads at most this many records.
DETECTION_RECORDS = 8
#: nanover-check-recording's largest accepted gap between records.
MAX_GAP_US = 120_000_000
_PROGRESS_EVERY = 64

# The standard keys (research notes, section 5): array key -> member kind.
STANDARD_ARRAYS = {
    "particle.positions": "float_values", "particle.velocities": "float_values",
    "particle.forces": "float_values", "particle.forces.system": "float_values",
    "particle.elements": "index_values", "particle.names": "string_values", "particle.residues": "index_values",
    "residue.names": "string_values", "residue.ids": "string_values", "residue.chains": "index_values",
    "chain.names": "string_values", "bond.pairs": "index_values", "bond.orders": "float_values",
    "system.box.vectors": "float_values", "forces.user.index": "index_values",
    "forces.user.sparse": "float_values",
}
COUNT_KEYS = ("particle.count", "residue.count", "chain.count")
STANDARD_NUMBERS = frozenset((
    *COUNT_KEYS, "system.simulation.time", "system.simulation.counter", "system.reset.counter",
    "system.temperature", "energy.kinetic", "energy.potential", "energy.total", "energy.potential_corrected",
    "energy.user.total", "forces.user.work_done", "server.timestamp",
))
# Keys whose change calls for the consistency checks (FRAME-001..003).
_TOPOLOGY = frozenset((*STANDARD_ARRAYS, *COUNT_KEYS)) - {"system.box.vectors"}
_PER_PARTICLE_3 = ("particle.positions", "particle.velocities", "particle.forces", "particle.forces.system")
_PER_PARTICLE_1 = ("particle.elements", "particle.names", "particle.residues")
_ABSENT = object()
# The values whose number a rule reads: a FrameTemplate keeps their bytes.
_LITERAL_KEYS = frozenset(k.encode() for k in COUNT_KEYS)
# A payload this much longer or shorter than the previous clean frame's cannot match its template
# (only frame_index's varint, of 1 to 5 bytes, may change its length).
_TEMPLATE_SLACK = 4


#: A wire walk kind detection made, kept for the record walk, which walks the same first records'
#: payloads as the detected kind again (``_Walk.locate``), and the payloads of the other kind again
#: (NANOVER-PAYLOAD-001): ``(payload, kind)`` -> the walk's Scan or the DecodeError it raised, at base 0.
Walked = dict[tuple[bytes, str], "Scan | DecodeError"]
#: Only walks of payloads up to this size are kept: detection reads DETECTION_RECORDS records, so
#: what is kept stays below DETECTION_RECORDS times this (the walk's own memory is one payload).
KEPT_WALK_MAX_PAYLOAD = 1 << 16


def _scans_as(payload: bytes, kind: str, fast: bool = True, walked: Walked | None = None,
              keep: bool = True) -> bool:
    """The payload is a clean message of ``kind`` with at least one known field and no unknown one.

    With ``fast``, upb's proof (``wire_verdict``) answers first: a payload it proves clean is one
    the wire walk accepts with no unknown field, and a non-empty one has a known root field; one
    whose root has an unknown field (a payload of the other kind) makes the walk raise or list it.
    What it cannot prove either way takes the walk: taken from ``walked`` when it is in it, else
    made, and with ``keep`` put there."""
    verdict = wire_verdict(payload, kind) if fast else None
    if verdict is not None:
        return verdict and len(payload) > 0
    s = walked.get((payload, kind)) if walked is not None else None
    if s is None:
        try:
            s = scan(payload, 0, len(payload), kind)
        except DecodeError as e:
            s = e
        if keep and walked is not None and len(payload) <= KEPT_WALK_MAX_PAYLOAD:
            walked[(payload, kind)] = s
    return not isinstance(s, DecodeError) and s.top_fields > 0 and not s.unknown


def _rebased(walk: Scan | DecodeError, base: int, path: str) -> Scan:
    """The outcome of ``scan(payload, 0, len(payload), kind, base, path)`` from that of
    ``scan(payload, 0, len(payload), kind)``: the same walk, its offsets ``base`` on, its errors' path ``path``."""
    if isinstance(walk, DecodeError):
        e = copy.copy(walk)
        e.offset += base
        e.path = path
        raise e
    return Scan([replace(u, offset=u.offset + base) for u in walk.unknown],
                [(message, at + base) for message, at in walk.unpacked], walk.top_fields, walk.values,
                walk.max_values)


def detect_kind(f: BinaryIO, size: int | None, walked: Walked | None = None) -> tuple[Kind, dict[str, Any]]:
    """The kind from the first records' content, with the evidence (for files without a .traj/.state name);
    ``walked``: where the wire walks it makes are kept (see :data:`Walked`)."""
    votes = {"traj": 0, "state": 0}
    n = 0
    try:
        for _, _, payload in RecordReader(f, HEADER_SIZE, size).records():
            for k in votes:
                votes[k] += _scans_as(payload, k, _Walk.fast_wire, walked)
            n += 1
            if n >= DETECTION_RECORDS:
                break
    except DecodeError:
        pass
    kind = Kind.STATE if votes["state"] > votes["traj"] else Kind.TRAJ
    return kind, {"method": "content", "records_read": n,
                  "fit": {k: f"{v} of {n} records" for k, v in votes.items()}}


class _Walk:
    """The rules applied record by record; fills ``sink`` and ``stats``."""

    #: Whether records, and the records kind detection reads, go through the fast path first
    #: (False: the wire walk on every record; tests/test_nanover_fastpath.py compares the two).
    fast_wire = True
    #: Whether record() skips the timestamp rules for a timestamp plainly after the previous one, and
    #: frame() judges the common entries inline and skips the consistency checks when their inputs did
    #: not change since they last found nothing (False: the timestamp rules on every record, the general
    #: code on every entry and the checks after every record that touches a standard key; the tests
    #: compare the two).
    fast_rules = True
    #: Whether a frame that repeats the shape of the clean frame before it is proved clean in bulk
    #: (``_template.py``) instead of judged entry by entry, and a state update is proved by its map
    #: entries against the value shapes of entries proved before (``_entries.py``) (False: every record
    #: takes the walk's general path; tests/test_nanover_fastpath.py and test_nanover_entries.py compare).
    fast_records = True
    #: Whether the empty records that follow an empty record are taken in bulk (``empty_run``: their
    #: timestamps read in one call, the timestamp rules applied in a short loop, what each adds to the
    #: walk counted at once) instead of each through record() (False: every record takes record(); the
    #: tests compare the two).
    fast_empty = True

    def __init__(self, sink: FindingSink, kind: Kind) -> None:
        self.sink = sink
        self.kind = kind
        self._kind = kind.value
        self.prev_ts: int | None = None
        self.records = 0
        self.first_ts: int | None = None
        self.resets = 0
        self.first_index: int | None = None
        self.last_index: int | None = None
        # The aggregate frame: key -> number (values) / (member, repeated container) (arrays).
        self.numbers: dict[str, Any] = {}
        self.arrays: dict[str, tuple[str, Any]] = {}
        # Whether the counts and shapes FRAME-001..003 read changed since consistency() last ran, and
        # whether that run found anything (see frame()).
        self._changed = True
        self._found = False
        self.state = StateAggregate()
        self.state_untracked = False  # past MAX_STATE_KEYS (NANOVER-LIMIT-004): deletions are not checked
        # A record that could not be read leaves the aggregate frame unknown: the
        # consistency checks wait for the next reset instead of cascading.
        self.aggregate_unknown = False
        self.trace: NanoverTrace | None = None
        # The previous record's payload when it was a frame judged with nothing found, and the
        # template made from it once a record of a similar length follows (see record()).
        self._clean_payload: bytes | None = None
        self._template: FrameTemplate | None = None
        # The state keys' entry templates (_entries.py), under the fast paths of fast_records and the rules.
        self._entries = StateEntries() if self.fast_records and self.fast_wire and self.fast_rules else None
        # The wire walks kind detection made of the first records (check_stream), taken by locate().
        self.walked: Walked | None = None

    # --- per record -------------------------------------------------------------------

    def run(self, reader: RecordReader, progress: Callable[[int, int], None] | None, size: int | None) -> None:
        """Every record of ``reader`` through record(), with the trace and ``progress``; the
        reader's framing errors propagate. A frame the current template matches, under a
        timestamp plainly after the previous one (about which the timestamp rules have nothing to
        say, whatever ``fast_rules``), is taken here: what record() would do with it."""
        record = self.record
        trace = self.trace
        bulk_empty = self.fast_empty and trace is None
        prev = -MAX_GAP_US  # no timestamp is plainly after it: the first record takes record()
        index = -1
        for offset, ts, payload in reader.records():
            index += 1
            template = self._template
            fi = template.match(payload) if template is not None and prev < ts < prev + MAX_GAP_US else None
            if fi is not None and not ts >> 64:
                self.records += 1
                self.prev_ts = ts
                self.last_index = fi
                if trace is not None:
                    trace.record(ts, self.numbers.get("particle.count"), False)
            else:
                if template is not None and fi is None and prev < ts < prev + MAX_GAP_US:
                    self._template = None  # tried, and not of its shape: record() judges the frame
                resets = self.resets
                record(index, offset, ts, payload, fi)
                if trace is not None:
                    trace.record(ts, self.numbers.get("particle.count"), self.resets != resets)
                # the records after an empty one that are empty too change the walk as it did: taken at once
                if bulk_empty and not payload and self._template is None and (stamps := reader.empty_run(wide=True)):
                    self.empty_records(index + 1, offset + 24, stamps)
                    index += len(stamps)
                    offset += 24 * len(stamps)
                    ts = stamps[-1]
            if progress is not None and size and index % _PROGRESS_EVERY == 0:
                progress(offset, size)
            prev = ts

    def record(self, index: int, offset: int, ts: int, payload: bytes, matched: int | None = None) -> None:
        """One record; ``matched``: the frame index the current template has already found for it."""
        self.records += 1
        prev = self.prev_ts
        # a timestamp plainly after the previous one breaks no timestamp rule
        if ts >> 64 or prev is None or not prev < ts < prev + MAX_GAP_US or not self.fast_rules:
            self.timestamps(index, offset, ts, prev)
        self.prev_ts = ts
        pos = offset + 24
        kind = self._kind
        if kind == "traj" and self.fast_records:
            # A frame whose shape repeats the previous clean frame's changes nothing and adds no
            # finding (_template.py); it is proved so with the template made from that frame.
            template = self._template
            clean, self._clean_payload = self._clean_payload, None
            if template is None and clean is not None and abs(len(payload) - len(clean)) <= _TEMPLATE_SLACK:
                template = self._template = FrameTemplate.of(clean, _LITERAL_KEYS)
            if template is not None:
                fi = matched if matched is not None else template.match(payload)
                if fi is not None:
                    self.last_index = fi
                    return
                self._template = None
            # an empty record: no template is made of it (one would prove only frames holding nothing, and a
            # flood of empty records made and dropped a template per record); the walk judges the next frame
            if not payload:
                self.judge(index, pos, payload)
                return
            before = self._found_so_far()
            self.judge(index, pos, payload)
            if self._found_so_far() == before:
                self._clean_payload = payload
            return
        self.judge(index, pos, payload)

    def empty_records(self, index: int, offset: int, stamps: tuple[int, ...]) -> None:
        """Records ``index`` on (the first at ``offset``), with empty payloads and the timestamps
        ``stamps``, right after an empty record that record() judged with no template left: what
        record() would do with each. An empty payload is a frame of index 0 holding nothing (a reset
        that touches no key) or a StateUpdate that changes nothing, so each adds only its timestamp's
        findings; NANOVER-TIME-003 and NANOVER-TIME-001 past their stored findings are counted at the end."""
        prev = self.prev_ts
        assert prev is not None  # the empty record before these
        gap = MAX_GAP_US
        fast = self.fast_rules and not prev >> 64
        sink = self.sink
        counted_only = False  # once NANOVER-TIME-003's stored findings are full, for the rest of the run
        repeats = 0  # NANOVER-TIME-003 findings of repeated timestamps, counted without messages
        wide_only = False  # once NANOVER-TIME-001's stored findings are full, for the rest of the run
        wides = 0  # NANOVER-TIME-001 findings of timestamps with an upper half, counted without messages
        for j, ts in enumerate(stamps):
            if ts >> 64:
                # an upper half: NANOVER-TIME-001, and -002 when it is below prev (never -003)
                if self.fast_rules and ts >= prev and (wide_only or sink.only_counted_one("NANOVER-TIME-001")):
                    wide_only = True
                    wides += 1
                else:
                    self.timestamps(index + j, offset + 24 * j, ts, prev)
                prev = ts
                fast = False
                continue
            if fast:
                if prev < ts < prev + gap:
                    prev = ts
                    continue
                if ts == prev and (counted_only or sink.only_counted_one("NANOVER-TIME-003")):
                    counted_only = True
                    repeats += 1
                    continue
            self.timestamps(index + j, offset + 24 * j, ts, prev)
            prev = ts
            fast = self.fast_rules  # prev is below 2^64 from here on
        if repeats:
            sink.count("NANOVER-TIME-003", repeats)
        if wides:
            sink.count("NANOVER-TIME-001", wides)
        n = len(stamps)
        self.records += n
        self.prev_ts = prev
        if self._kind == "traj":
            self.resets += n
            self.last_index = 0
            self.aggregate_unknown = False
            self._changed = True
            self.numbers.clear()
            self.arrays.clear()

    def _found_so_far(self) -> int:
        """How many findings the sink has counted under every profile (to tell whether a record added one)."""
        return sum(map(sum, map(dict.values, self.sink.counts.values())))

    def judge(self, index: int, pos: int, payload: bytes) -> None:
        """The payload of record ``index`` (at ``pos``) through the wire proof or walk and the rules."""
        kind = self._kind
        # The fast path: upb parses the payload and proves that the wire walk has nothing
        # to say about it (reference/nanover/_wire_fast.py); when it cannot, the walk runs
        # as the locating path and reports what it finds, at its offset.
        # Only below FAST_PATH_MAX_PAYLOAD: every map entry or list element the wire walk counts
        # against MAX_VALUES takes at least 2 bytes (a tag and a length), so a shorter payload
        # cannot break NANOVER-LIMIT-003, and upb never builds more than the limit allows.
        if kind == "state" and self._entries is not None and self.trace is None:
            # an update whose entries are proved one by one, most by their key's template (_entries.py)
            changes = self._entries.judge(payload, self.state.state)
            if changes is not None:
                self._apply(changes, pos, len(payload), index)  # no StateUpdate made: its changes only
                return
        msg = parse_clean(payload, kind) if self.fast_wire and len(payload) < FAST_PATH_MAX_PAYLOAD else None
        proved = msg is not None
        if msg is None:
            msg = self.locate(f"record[{index}]", pos, payload)
            if msg is None:
                return
        if kind == "traj":
            self.frame(index, pos, len(payload), msg)
        else:
            self.update(index, pos, len(payload), msg, proved)

    def timestamps(self, index: int, offset: int, ts: int, prev: int | None) -> None:
        """NANOVER-TIME-001..003 of one record's timestamp ``ts`` after ``prev`` (None: the first record)."""
        add = self.sink.add
        where = f"record[{index}]"
        if self.first_ts is None:
            self.first_ts = ts
        if ts >> 64:
            add("NANOVER-TIME-001", f"timestamp {ts} has a non-zero upper half ({ts >> 64:#x})", offset + 8, 8,
                f"{where}.timestamp", 0, ts >> 64)
        if prev is not None:
            if ts < prev:
                add("NANOVER-TIME-002", f"timestamp {ts} us is before the previous record's {prev} us", offset, 16,
                    f"{where}.timestamp", f">= {prev}", ts)
            elif (ts == prev or ts - prev >= MAX_GAP_US) and not (ts >> 64 or prev >> 64):
                if self.sink.only_counted_one("NANOVER-TIME-003"):  # counted, not stored: no message made
                    self.sink.count("NANOVER-TIME-003")
                else:
                    add("NANOVER-TIME-003", f"timestamp {ts} us after {prev} us: "
                        + ("not strictly increasing" if ts == prev else f"a gap of {(ts - prev) / 1e6:.1f} s"),
                        offset, 16, f"{where}.timestamp")

    def locate(self, where: str, pos: int, payload: bytes) -> Any:
        """The wire walk and the parse of one payload, with the findings they locate; the
        message, or ``None`` when the record cannot be checked further."""
        add = self.sink.add
        kind = self.kind.value
        walked = self.walked
        try:
            kept = walked.pop((payload, kind), None) if walked else None
            s = scan(payload, 0, len(payload), kind, pos, where) if kept is None else _rebased(kept, pos, where)
            msg = parse_frame(payload, pos, where) if kind == "traj" else parse_state_update(payload, pos, where)
        except DecodeError as e:
            add(e.rule if e.rule in RULES_BY_ID else "NANOVER-PROTO-001", e.message, e.offset, None,
                e.path or where)
            self.aggregate_unknown = True
            return None
        if s.unknown:
            other = "state" if kind == "traj" else "traj"
            if s.top_fields == 0 and _scans_as(payload, other, self.fast_wire, walked, keep=False):
                name = {"traj": "GetFrameResponse", "state": "StateUpdate"}
                add("NANOVER-PAYLOAD-001", f"this .{kind} record holds a {name[other]}, not a {name[kind]}",
                    pos, len(payload), where, name[kind], name[other])
                return None
            u = s.unknown[0]
            more = f" (and {len(s.unknown) - 1} more)" if len(s.unknown) > 1 else ""
            add("NANOVER-PROTO-003", f"unknown field {u.field_number} (wire type {u.wire_type}) in {u.message}{more}",
                u.offset, None, f"{where}:{u.message}")
        for message, at in s.unpacked:
            add("NANOVER-PROTO-004", f"{message}.values written unpacked (one field per element)", at, None,
                f"{where}:{message}")
        return msg

    def frame(self, index: int, pos: int, n: int, msg: Any) -> None:
        fi = msg.frame_index
        if self.first_index is None:
            self.first_index = fi
        self.last_index = fi
        numbers, arrays = self.numbers, self.arrays
        if fi == 0:
            self.aggregate_unknown = False
            self.resets += 1
            numbers.clear()
            arrays.clear()
            self._changed = True
        fr = msg.frame
        touched = False
        fast = self.fast_rules
        # The common entries (a number under a standard key, a standard array of its documented kind)
        # are judged inline; every other entry takes the general code (_value, _array), which is also
        # what every entry takes when fast_rules is off. The inline code makes the same findings.
        # keys, then a lookup each: a upb map's items() goes through a generator in Python. The keys sorted, not
        # in upb's order: upb seeds its map iteration from a memory address, so its order (and with it the order
        # of the findings) would change from one process to the next. A plain sort (not canonical_keys) is the
        # cheapest fixed order, and it is the encoder's but where one key begins another
        values = fr.values
        for key in sorted(values):
            v = values[key]
            k = v.WhichOneof("kind")
            if fast and k == "number_value" and key in STANDARD_NUMBERS:
                touched = True
                x = v.number_value
                if key in COUNT_KEYS:
                    if not (x >= 0 and math.isfinite(x) and x == int(x)):
                        self._value(index, pos, n, key, v, k)  # the finding, and the unusable count
                        self._changed = True
                        continue
                    if numbers.get(key, _ABSENT) != x:
                        self._changed = True
                numbers[key] = x
            elif self._value(index, pos, n, key, v, k):
                touched = True
        entries = fr.arrays
        for key in sorted(entries):
            a = entries[key]
            member = a.WhichOneof("values")
            if fast and member is not None and member == STANDARD_ARRAYS.get(key):
                touched = True
                values = getattr(a, member).values
                m = len(values)
                top = (max(values) if m else -1) if key in INDEX_ARRAYS else -1
                old = arrays.get(key)
                if old is None or old[0] != member or len(old[1]) != m or old[1].maximum != top:
                    # the shape, not the container: a container keeps its whole message alive (_bounds.py)
                    arrays[key] = (member, ArrayShape(m, top))
                    self._changed = True
                if m != 9 and key == "system.box.vectors":
                    self.sink.add("NANOVER-FRAME-004", f"system.box.vectors holds {m} floats, not 9", pos, n,
                                  f"record[{index}]/arrays['system.box.vectors']", 9, m)
            elif self._array(index, pos, n, key, a, member):
                touched = True
        if touched and not self.aggregate_unknown and (self._changed or self._found or not fast):
            # FRAME-001..003 are a function of the aggregate frame's counts and shapes: when
            # these did not change since a run that found nothing, this run finds nothing either
            sink = self.sink
            before = sum(sum(c.values()) for c in sink.counts.values())
            self.consistency(f"record[{index}]", pos, n)
            self._found = sum(sum(c.values()) for c in sink.counts.values()) != before
            self._changed = False

    def _value(self, index: int, pos: int, n: int, key: str, v: Any, k: str | None) -> bool:
        """One entry of the frame's values, judged; whether it is a standard number (``touched``)."""
        add = self.sink.add
        where = f"record[{index}]"
        numbers = self.numbers
        if k is None:
            add("NANOVER-PROTO-005", f"value {key!r} has no kind set", pos, n, f"{where}/values[{key!r}]")
        elif k in ("struct_value", "list_value") and _has_unset(value_from_message(v)):
            add("NANOVER-PROTO-005", f"value {key!r} holds a Value with no kind set", pos, n,
                f"{where}/values[{key!r}]")
        if key not in STANDARD_NUMBERS:
            return False
        self._changed = True
        if k != "number_value":
            add("NANOVER-FRAME-004", f"{key} is a {k or 'Value with no kind'}, not a number", pos, n,
                f"{where}/values[{key!r}]", "number_value", k)
            numbers[key] = None  # present but unusable: the checks that need it are skipped
            return True
        x = v.number_value
        if key in COUNT_KEYS and not (x >= 0 and math.isfinite(x) and x == int(x)):
            add("NANOVER-FRAME-004", f"{key} is {x}, not a whole non-negative number", pos, n,
                f"{where}/values[{key!r}]", "a whole number >= 0", x)
            numbers[key] = None
            return True
        numbers[key] = x
        return True

    def _array(self, index: int, pos: int, n: int, key: str, a: Any, member: str | None) -> bool:
        """One entry of the frame's arrays, judged; whether it is a standard array (``touched``)."""
        add = self.sink.add
        where = f"record[{index}]"
        arrays = self.arrays
        want = STANDARD_ARRAYS.get(key)
        if want is not None:
            self._changed = True  # only standard arrays are kept
        if member is None:
            add("NANOVER-PROTO-005", f"array {key!r} has no member set (neither float, index nor string)",
                pos, n, f"{where}/arrays[{key!r}]")
            arrays.pop(key, None)
            return False
        if want is None:
            return False
        if member != want:
            if member == "index_values" and not a.index_values.values:
                # the Python recorder types every empty array as an index array (it picks the kind
                # from the first element); read as an empty array of the documented kind
                add("NANOVER-FRAME-006", f"{key} is an empty index array, not an empty {want} array (as "
                    "NanoVer's Python recorder writes an empty list)", pos, n, f"{where}/arrays[{key!r}]",
                    want, member)
                member = want  # the unset member of the documented kind: an empty array
            elif key == "residue.ids" and member == "float_values":
                add("NANOVER-FRAME-005", "residue.ids is a float array (as NanoVer's Rust server writes "
                    "it), not strings", pos, n, f"{where}/arrays['residue.ids']", "string_values", member)
            else:
                add("NANOVER-FRAME-004", f"{key} is a {member} array, not {want}", pos, n,
                    f"{where}/arrays[{key!r}]", want, member)
                arrays.pop(key, None)
                return True
        # the shape, not the container: a container keeps its whole message alive (_bounds.py)
        arrays[key] = (member, shape(key, getattr(a, member).values))
        if key == "system.box.vectors" and len(arrays[key][1]) != 9:
            add("NANOVER-FRAME-004", f"system.box.vectors holds {len(arrays[key][1])} floats, not 9",
                pos, n, f"{where}/arrays['system.box.vectors']", 9, len(arrays[key][1]))
        return True

    def _len(self, key: str) -> int | None:
        a = self.arrays.get(key)
        return None if a is None else len(a[1])

    def _maximum(self, key: str) -> int:
        shape_: ArrayShape = self.arrays[key][1]
        return shape_.maximum  # taken when the array was read

    def consistency(self, where: str, pos: int, n: int) -> None:
        """FRAME-001..003 on the aggregate frame."""
        add = self.sink.add
        arrays = self.arrays
        numbers = self.numbers
        count = numbers.get("particle.count")
        if "particle.count" not in numbers:
            present = [k for k in (*_PER_PARTICLE_3, *_PER_PARTICLE_1) if k in arrays]
            if present:
                add("NANOVER-FRAME-001", f"{', '.join(present)} present without particle.count", pos, n, where)
        elif count is not None:
            N = int(count)
            for keys, per in ((_PER_PARTICLE_3, 3), (_PER_PARTICLE_1, 1)):
                for k in keys:
                    got = self._len(k)
                    if got is not None and got != per * N:
                        add("NANOVER-FRAME-001", f"{k} holds {got} entries, particle.count {N} needs {per * N}",
                            pos, n, f"{where}/arrays[{k!r}]", per * N, got)
        bonds = self._len("bond.pairs")
        if bonds is not None:
            if bonds % 2:
                add("NANOVER-FRAME-002", f"bond.pairs holds {bonds} indices, an odd number", pos, n,
                    f"{where}/arrays['bond.pairs']", "an even length", bonds)
            if count is not None and bonds and self._maximum("bond.pairs") >= count:
                add("NANOVER-FRAME-002", f"bond.pairs refers to particle {self._maximum('bond.pairs')}, "
                    f"particle.count is {int(count)}", pos, n, f"{where}/arrays['bond.pairs']",
                    f"< {int(count)}", self._maximum("bond.pairs"))
            orders = self._len("bond.orders")
            if orders is not None and orders != bonds // 2:
                add("NANOVER-FRAME-002", f"bond.orders holds {orders} entries for {bonds // 2} bonds", pos, n,
                    f"{where}/arrays['bond.orders']", bonds // 2, orders)
        ui, us = self._len("forces.user.index"), self._len("forces.user.sparse")
        if ui is not None and us is not None and us != 3 * ui:
            add("NANOVER-FRAME-001", f"forces.user.sparse holds {us} floats for {ui} indices (needs {3 * ui})",
                pos, n, f"{where}/arrays['forces.user.sparse']", 3 * ui, us)
        if ui and count is not None and self._maximum("forces.user.index") >= count:
            add("NANOVER-FRAME-001", f"forces.user.index refers to particle {self._maximum('forces.user.index')}, "
                f"particle.count is {int(count)}", pos, n, f"{where}/arrays['forces.user.index']")
        for bound, refs, sized in (("residue.count", "particle.residues", ("residue.names", "residue.ids",
                                                                            "residue.chains")),
                                   ("chain.count", "residue.chains", ("chain.names",))):
            c = numbers.get(bound)
            if self._len(refs) and c is not None and self._maximum(refs) >= c:
                add("NANOVER-FRAME-003", f"{refs} refers to index {self._maximum(refs)}, {bound} is {int(c)}",
                    pos, n, f"{where}/arrays[{refs!r}]", f"< {int(c)}", self._maximum(refs))
            elif self._len(refs) and bound not in numbers:
                add("NANOVER-FRAME-003", f"{refs} present without {bound}", pos, n, f"{where}/arrays[{refs!r}]")
            if c is not None:
                for k in sized:
                    got = self._len(k)
                    if got is not None and got != int(c):
                        add("NANOVER-FRAME-003", f"{k} holds {got} entries, {bound} is {int(c)}", pos, n,
                            f"{where}/arrays[{k!r}]", int(c), got)

    def update(self, index: int, pos: int, n: int, msg: Any, proved: bool = False) -> None:
        """One StateUpdate; ``proved``: its payload is one parse_clean proved (no unknown field at any depth)."""
        where = f"record[{index}]"
        if self.fast_rules and self.trace is None:
            # the rules read of an update only its keys, which of them are deletions (a null value) and
            # whether a Value with no kind set is anywhere in it: read from the message as it is, without
            # making each value a Python one (the state keeps its keys, with no values)
            fields = msg.changed_keys.fields
            changes: dict[str, Any] = {}
            # A Value of no kind is empty, so upb writes it as a field of no bytes: a map entry's value
            # (12 00, written even where the payload left it out) or a list element (0a 00). Where the
            # message, serialized again, holds neither pair, it has none, and its keys need no walk (a
            # Value holding only unknown fields would not be empty: only for a proved payload).
            nested = not proved or b"\x12\x00" in (again := msg.SerializeToString()) or b"\x0a\x00" in again
            # keys, then a lookup each, in the encoder's order (canonical_keys), the order the general path
            # reads them in (state_update_from_message): NANOVER-STATE-001's findings come in this order, and a
            # plain sort puts a key that begins another (the empty key) before it, where the encoder puts it after
            for key in canonical_keys(fields):
                v = fields[key]
                k = v.WhichOneof("kind")
                if k is None or (nested and (k == "struct_value" or k == "list_value") and value_has_unset(v)):
                    self.sink.add("NANOVER-PROTO-005", f"state key {key!r} holds a Value with no kind set", pos, n,
                                  f"{where}/changed_keys[{key!r}]")
                changes[key] = None if k == "null_value" else KEPT
            self._apply(changes, pos, n, index)
        else:
            self._apply(self._update_values(index, pos, n, msg, where).changes, pos, n, index)

    def _apply(self, changes: Mapping[str, Any], pos: int, n: int, index: int) -> None:
        """The changes of record ``index`` (its update's keys, each ``None``: a deletion) applied to the
        state, with NANOVER-STATE-001 and NANOVER-LIMIT-004."""
        if self.state_untracked:  # NANOVER-LIMIT-004 was reached: keys are no longer kept
            return
        if None not in changes.values():  # no deletion: the keys set, in order, in C
            self.state.state.update(changes)
        else:
            for key in self.state.apply(StateUpdate(changes)):
                self.sink.add("NANOVER-STATE-001", f"deletes {key!r}, which the state does not hold", pos, n,
                              f"record[{index}]/changed_keys[{key!r}]")
        if len(self.state.state) > MAX_STATE_KEYS:
            self.sink.add("NANOVER-LIMIT-004", f"the state holds more than {MAX_STATE_KEYS:,} keys; deletions "
                          "after this record are not checked", pos, n, f"record[{index}]", MAX_STATE_KEYS,
                          len(self.state.state))
            self.state_untracked = True
            self.state.state.clear()

    def _update_values(self, index: int, pos: int, n: int, msg: Any, where: str) -> StateUpdate:
        """The update with its values made Python ones (for the trace), and its NANOVER-PROTO-005 findings:
        the general path of update() (``fast_rules`` off)."""
        update = state_update_from_message(msg)
        if self.trace is not None:
            self.trace.state_update(index, update.changes)
        for key, value in update.changes.items():
            if value is UNSET or _has_unset(value):
                self.sink.add("NANOVER-PROTO-005", f"state key {key!r} holds a Value with no kind set", pos, n,
                              f"{where}/changed_keys[{key!r}]")
        return update

    def stats(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind.value, "records": self.records,
                               "first_timestamp_us": self.first_ts, "last_timestamp_us": self.prev_ts}
        if self.kind is Kind.TRAJ:
            out["resets"] = self.resets
            out["first_frame_index"] = self.first_index
            out["last_frame_index"] = self.last_index
        else:
            out["state_keys"] = None if self.state_untracked else len(self.state.state)
        return out


def _has_unset(value: Any) -> bool:
    if value is UNSET:
        return True
    if isinstance(value, dict):
        return any(_has_unset(v) for v in value.values())
    if isinstance(value, list):
        return any(_has_unset(v) for v in value)
    return False


def check_stream(f: BinaryIO, *, path: str, variant: str | None = None, profile: str = "spec",
                 size: int | None = None, progress: Callable[[int, int], None] | None = None) -> FileReport:
    """Check a recording read from ``f`` (at offset 0). Never raises for bad input.

    ``variant`` is ``traj`` or ``state``; without it the extension of ``path``
    decides, and without one of those the content (:func:`detect_kind`).
    ``progress(done_bytes, total_bytes)`` is called every few records.
    """
    sink = FindingSink(RULES_BY_ID, profile)
    report = FileReport(path, "nanover", None, profile, Verdict.VALID)
    try:
        header, offset = read_header(f)
    except DecodeError as e:
        # a header cut short spans the bytes there are, not past the end of the file
        sink.add(e.rule, e.message, e.offset, e.available if isinstance(e, Truncated) else HEADER_SIZE, e.path)
        sink.structural_error = True  # no header: the file cannot be walked, under any profile
        sink.fill(report)
        report.evidence["variant"] = {"method": "none: the header does not decode"}
        return report
    if header.version != FORMAT_VERSION:
        sink.add("NANOVER-HEADER-002", f"format version {header.version}; readers accept only 2", 8, 8,
                 "header.version", FORMAT_VERSION, header.version)
    walked: Walked | None = None
    if variant is not None:
        kind, evidence = Kind(variant), {"method": "--variant"}
    elif (kind := kind_from_path(path)) is not None:  # type: ignore[assignment]
        evidence = {"method": "extension", "extension": path.rsplit(".", 1)[-1]}
    else:
        walked = {}
        kind, evidence = detect_kind(f, size, walked)
        f.seek(offset)
    report.variant = kind.value
    report.evidence["variant"] = evidence
    walk = _Walk(sink, kind)
    walk.walked = walked
    walk.trace = report.trace = NanoverTrace(kind.value) if trace_enabled() else None
    try:
        walk.run(RecordReader(f, offset, size), progress, size)
    except (Truncated, LimitExceeded, Malformed) as e:
        sink.add(e.rule, e.message, e.offset, None, e.path)
    report.stats = walk.stats()
    sink.fill(report)  # the findings, and the verdict under every profile
    return report
