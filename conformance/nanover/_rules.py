"""The rule catalog of NanoVer recordings (.traj / .state, format version 2).

Clauses cite ``spec/nanover_recording.en.md`` (the NanoVer documentation page
"Recording in NanoVer", ``doc``) and, where the page is silent, the research
notes on what NanoVer's writers and readers do (``notes``:
``formats/nanover_recording.md``).

Profiles: ``spec`` is the documentation page plus the protobuf schema and the
documented meaning of the standard keys; ``compat`` is what NanoVer's own
readers tolerate (they read a u128 timestamp whole, accept float residue ids
from the Rust server and never check array shapes).
"""

from __future__ import annotations

from types import MappingProxyType

from recspec.report import Rule, Severity
from recspec.report import rule as _r

E, W, I, OFF = Severity.ERROR, Severity.WARNING, Severity.INFO, Severity.OFF

#: The project's format document; each rule cites its anchor there, then the user's document.
DOC = "docs/formats/nanover.md"
EN = "nanover_recording.en.md"



RULES: tuple[Rule, ...] = (
    # --- header -------------------------------------------------------------------
    _r("NANOVER-HEADER-001", "The file starts with the NanoVer magic number",
       f"{DOC}#nanover-header-001 (user's document: {EN} § Recording file format)",
       "The first 8 bytes are the little-endian u64 6661355757386708963 (e3 b7 89 99 c4 e3 71 5c). 'A file "
       "without this magic number is not a NanoVer recording'; every NanoVer reader rejects it.",
       E, structural=True),
    _r("NANOVER-HEADER-002", "The format version is 2",
       f"{DOC}#nanover-header-002 (user's document: {EN} § Recording file format)",
       "The second u64 is the format version; 'the current version is 2' and every reader accepts only (2,). "
       "recspec walks the rest of the file as version 2 anyway, so that its other findings are still reported.",
       E),
    _r("NANOVER-HEADER-003", "The file is not a headerless version-1 recording",
       f"{DOC}#nanover-header-003 (the user's document is silent)",
       "From January to July 2023 narupa-rs wrote version 1: no header, records start at offset 0, and the "
       "trajectory payload is a bare FrameData. No reader accepts it. recspec recognises one (a first record "
       "whose timestamp's upper half is 0 and whose payload starts like a message) and says so instead of "
       "'bad magic'; convert it by prepending a header and wrapping each frame in a GetFrameResponse.",
       E, structural=True),
    # --- framing ------------------------------------------------------------------
    _r("NANOVER-STREAM-001", "The file does not end inside a record",
       f"{DOC}#nanover-stream-001 (user's document: {EN} § Recording file format)",
       "Records (16-byte timestamp, 8-byte length, payload) follow each other to the end of the file. A file "
       "that ends inside a record header or payload was cut off (NanoVer's Rust writer never flushes at "
       "shutdown). recspec reports the last complete record and the bytes left; NanoVer's readers drop the "
       "last record, raise DecodeError or stop silently. A length field above MAX_PAYLOAD_SIZE that also runs "
       "past the end of the file is reported here as a damaged length, with its offset and the bytes left.",
       E, structural=True),
    _r("NANOVER-LIMIT-001", "A payload is at most MAX_PAYLOAD_SIZE bytes",
       f"{DOC}#nanover-limit-001 (recspec's own limit, MAX_PAYLOAD_SIZE = 64 MiB)",
       "recspec does not read a record whose declared payload length is above 64 MiB (MAX_PAYLOAD_SIZE) in a "
       "file that holds that many bytes after it (beyond the file's end it is a damaged length, "
       "NANOVER-STREAM-001); a "
       "length that large is corruption in every known file (the largest real payloads are kilobytes). The "
       "rest of the file is not read.", E, structural=True, policy=True),
    _r("NANOVER-LIMIT-002", "Struct and ListValue nesting is at most MAX_NESTING deep",
       f"{DOC}#nanover-limit-002 (recspec's own limit, MAX_NESTING = 32)",
       "google.protobuf.Value nests through Struct and ListValue. recspec (and its Kaitai spec) stop at 32 "
       "levels (MAX_NESTING) so that no payload can exhaust the stack; the standard keys nest two levels.",
       E, structural=True, policy=True),
    _r("NANOVER-LIMIT-003", "A payload holds at most MAX_VALUES map entries and list elements",
       f"{DOC}#nanover-limit-003 (recspec's own limit, MAX_VALUES = 262,144)",
       "Each map entry (a frame's values and arrays, a Struct's fields) and each ListValue element becomes an "
       "object of its own when read, hundreds of bytes whatever its size on the wire, so recspec stops at "
       "262,144 of them in one payload (MAX_VALUES) to keep its memory bounded; real frames hold a few dozen. "
       "The record is skipped.", E, structural=True, policy=True),
    _r("NANOVER-LIMIT-004", "The shared state holds at most MAX_STATE_KEYS keys at once",
       f"{DOC}#nanover-limit-004 (recspec's own limit, MAX_STATE_KEYS = 65,536)",
       "recspec keeps the .state recording's keys to check deletions (NANOVER-STATE-001). Past 65,536 live "
       "keys (MAX_STATE_KEYS; real sessions hold tens) it stops keeping them, so memory does not grow with the "
       "file, and deletions are no longer checked; the other rules go on.", W, policy=True),
    # --- payloads -----------------------------------------------------------------
    _r("NANOVER-PROTO-001", "Each payload is well-formed protobuf for its message",
       f"{DOC}#nanover-proto-001 (user's document: {EN} § Recording file format)",
       "A payload is a serialized GetFrameResponse (.traj) or StateUpdate (.state): tags with field number > 0 "
       "and wire type 0, 1, 2 or 5, varints of at most 10 bytes, lengths within the message, whole f32 "
       "elements in packed floats, UTF-8 strings (groups: NANOVER-PROTO-006). The record is skipped; the walk "
       "goes on with the next one.",
       E, structural=True),
    _r("NANOVER-PROTO-006", "Payloads hold no groups",
       f"{DOC}#nanover-proto-006 (recspec's own refusal; the user's document is silent)",
       "Groups (wire types 3 and 4) are refused: proto3 has none and no NanoVer writer produces them, so a group "
       "in a payload is corruption as far as recspec can tell. The protobuf runtimes NanoVer's readers use skip "
       "a group as an unknown field, so this is recspec's policy, not the format's. The record is skipped; the "
       "walk goes on with the next one.", E, structural=True, policy=True),
    _r("NANOVER-PROTO-003", "Payloads hold no unknown fields",
       f"{DOC}#nanover-proto-003 (the user's document is silent)",
       "Every field of the NanoVer messages is listed in the schema. The protobuf runtime keeps unknown fields "
       "and NanoVer's readers ignore them, so compat only notes them; in spec an unknown field (or a known "
       "number with another wire type) is a writer that does not follow the schema.", W, I),
    _r("NANOVER-PROTO-004", "Repeated scalars are packed", f"{DOC}#nanover-proto-004 (the user's document is silent)",
       "FloatArray and IndexArray values are packed in every sample. The unpacked form (one field per element) "
       "is equally valid protobuf and is accepted, as the protobuf specification requires.", I, I),
    _r("NANOVER-PROTO-005", "Every Value and ValueArray has its member set",
       f"{DOC}#nanover-proto-005 (the user's document is silent)",
       "google.protobuf.Value (oneof kind) and ValueArray (oneof values) must say what they hold; NanoVer's "
       "writers set the member even when it is empty or false. The Python runtime raises on a ValueArray "
       "with no member (ListFields()[0]) and json conversion on a Value with no kind.", E),
    _r("NANOVER-PAYLOAD-001", "Each payload is the message of the file's kind",
       f"{DOC}#nanover-payload-001 (user's document: {EN} § NanoVer data streams)",
       "A .traj holds GetFrameResponse records and a .state StateUpdate records. A record whose fields are all "
       "unknown to its file's message but which is a clean message of the other kind was written to the wrong "
       "file (or the file has the wrong extension).", E),
    # --- time ---------------------------------------------------------------------
    _r("NANOVER-TIME-001", "The upper 8 bytes of a timestamp are zero",
       f"{DOC}#nanover-time-001 (user's document: {EN} § Recording file format)",
       "The timestamp is a u128 of microseconds; 2^64 us is 584,000 years, so a non-zero upper half is "
       "corruption. NanoVer's Python readers take the u128 whole, so compat only warns.", E, W),
    _r("NANOVER-TIME-002", "Timestamps never decrease",
       f"{DOC}#nanover-time-002 (user's document: {EN} § Recording file format)",
       "Timestamps are the time since the recording started; every writer takes them from a monotonic clock, "
       "and merged playback interleaves a .traj and a .state by them.", E),
    _r("NANOVER-TIME-003", "Timestamps strictly increase, at most 120 s apart",
       f"{DOC}#nanover-time-003 (the user's document is silent)",
       "nanover-check-recording treats a record whose timestamp does not strictly increase, or jumps by "
       "120 s or more, as the start of a defective block. Real recordings always strictly increase.", W, I),
    # --- frames -------------------------------------------------------------------
    _r("NANOVER-FRAME-001", "particle.* arrays fit particle.count",
       f"{DOC}#nanover-frame-001 (the user's document is silent)",
       "In the aggregate frame (deltas applied, reset on frame_index 0): particle.positions, .velocities, "
       ".forces and .forces.system hold 3N floats and particle.elements, .names and .residues N entries, where "
       "N is particle.count, which must be present whenever a particle.* array is; forces.user.sparse holds "
       "3 floats per forces.user.index entry, and those indices are below N.", E),
    _r("NANOVER-FRAME-002", "bond.pairs is pairs of particle indices",
       f"{DOC}#nanover-frame-002 (the user's document is silent)",
       "bond.pairs is a flat index array of 2B entries, each below particle.count; bond.orders, when present, "
       "holds B floats.", E),
    _r("NANOVER-FRAME-003", "Residue and chain indices are in range",
       f"{DOC}#nanover-frame-003 (the user's document is silent)",
       "particle.residues entries are below residue.count, residue.chains entries below chain.count; "
       "residue.names, residue.ids and residue.chains hold residue.count entries, chain.names chain.count.", E),
    _r("NANOVER-FRAME-004", "Standard keys have their documented types",
       f"{DOC}#nanover-frame-004 (the user's document is silent)",
       "Counts (particle.count, residue.count, chain.count) are whole non-negative numbers; the other standard "
       "values are numbers; each standard array has its kind (positions float, elements index, names string, "
       "...) and system.box.vectors holds 9 floats.", E),
    _r("NANOVER-FRAME-005", "residue.ids is a string array",
       f"{DOC}#nanover-frame-005 (the user's document is silent)",
       "The documentation and the Python servers write residue.ids as strings; NanoVer's Rust server writes "
       "floats, and NanoVer's readers accept both. A compat-profile deviation: spec warns, compat notes it.",
       W, I, deviation="The Rust server (nanover-rs) writes residue.ids as a float array; accepted, reported."),
    _r("NANOVER-FRAME-006", "An empty standard array has its documented kind",
       f"{DOC}#nanover-frame-006 (the user's document is silent)",
       "NanoVer's Python recorder picks an array's kind from its first element, so it writes every empty array "
       "as an index array (an empty particle.names, residue.names or particle.positions). NanoVer's readers "
       "read an empty list either way, so nothing is lost. spec: the documented kind is required (an error); "
       "compat: a warning. Non-empty arrays of the wrong kind are NANOVER-FRAME-004 in both profiles.", E, W),
    # --- state --------------------------------------------------------------------
    _r("NANOVER-STATE-001", "A null value deletes a key that exists",
       f"{DOC}#nanover-state-001 (the user's document is silent)",
       "In a state update a null value means 'delete this key'. Deleting a key the aggregate state does not "
       "hold is harmless to readers but means the recording missed the update that created it (a recorder "
       "that joined mid-session, or a lost record).", W, I),
    # --- recspec ------------------------------------------------------------------
    _r("NANOVER-XCHECK-001", "The Kaitai parser agrees with the reference decoder",
       f"{DOC}#nanover-xcheck-001 (recspec's own cross-check)",
       "Each record is read twice: by the reference (wire walk + protobuf runtime) and by the parser generated "
       "from ksy/nanover_recording.ksy. A difference is a bug in recspec or a gap in the spec, never the "
       "file's fault, and is reported so that it is not silently ignored.", E, policy=True),
)

RULES_BY_ID = MappingProxyType({r.id: r for r in RULES})
