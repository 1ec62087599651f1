"""The rule catalog of the Matrix-SMT recording.

Clauses cite the user's specification document ``spec/matrix_smt_record.ru.md``
(the viewer's ``RecordStructure.md``, in Russian; sections "Список objects",
"Список frames", "states", "cmd") and the BSON specification 1.1. The research
notes (``formats/matrix_smt_record.md``, B.3-B.5) say where the one public
recording differs from the document and list the decisions an implementer must
take; each decision is written in the rule it shapes.

Profiles: ``spec`` is the document as written, with its errors corrected (the
quaternion "> 0" constraints, the footnote markers); ``compat`` is what the
producer's one public file does: ``time`` for ``t``, ``"destroyed"`` for
``"d"``, ``cmd`` as the empty string, whole numbers as int32.
"""

from __future__ import annotations

from types import MappingProxyType

from recspec.report import Rule, Severity
from recspec.report import rule as _r

E, W, I, OFF = Severity.ERROR, Severity.WARNING, Severity.INFO, Severity.OFF



#: The project's format document; each rule cites its anchor there, then the user's document
#: (or the public BSON specification).
DOC = "docs/formats/matrix-smt.md"
RU = "matrix_smt_record.ru.md"
BSON = "BSON 1.1, bsonspec.org/spec.html"

#: Largest deviation of a quaternion's length from 1 that is still a unit quaternion.
#: The producer writes float32 values widened to double: their norms are off by
#: about 1e-7; 1e-3 leaves room for any float32 pipeline and catches real mistakes
#: (an unnormalised or zero quaternion, Euler angles written as a quaternion).
QUAT_TOLERANCE = 1e-3

#: A debug command's keys ("cmd" section): the origin every kind has, the fields each kind ("t")
#: needs, and the optional style (colour and opacity), as MATRIX-CMD-001/002/003 read them.
CMD_COMMON = ("ox", "oy", "oz")
CMD_NEEDS = {"v": ("vx", "vy", "vz"), "r": ("ex", "ey", "ez"), "s": ("sr",),
             "c": ("sx", "sy", "sz", "rx", "ry", "rz", "rw")}
CMD_STYLE = ("r", "g", "b", "o")

RULES: tuple[Rule, ...] = (
    # --- BSON ---------------------------------------------------------------------------
    _r("MATRIX-BSON-001", "Declared lengths agree with the content",
       f"{DOC}#matrix-bson-001 ({BSON} § document, string, binary)",
       "Every document, array, binary and code-with-scope value starts with its length. It must be at least the "
       "minimum (5 for a document, 14 for code with scope, 0 for binary), every element must end inside its "
       "document, the document must end with NUL exactly at its declared end, and binary subtype 2 repeats its "
       "length (outer - 4). A length that disagrees with the content means the bytes after it cannot be located.",
       E, structural=True),
    _r("MATRIX-BSON-002", "Element types are BSON types", f"{DOC}#matrix-bson-002 ({BSON} § element)",
       "The type byte is one of 0x01-0x13, 0x7F (MaxKey) or 0xFF (MinKey). Any other value cannot be skipped, "
       "because its size is unknown.", E, structural=True),
    _r("MATRIX-BSON-003", "Booleans are 0 or 1",
       f"{DOC}#matrix-bson-003 ({BSON} § element: \"\\x08\" e_name \"\\x00\" / \"\\x01\")",
       "The specification defines only the bytes 0x00 (false) and 0x01 (true). pymongo rejects anything else.",
       E, structural=True),
    _r("MATRIX-BSON-004", "Strings are NUL-terminated with a length of at least 1",
       f"{DOC}#matrix-bson-004 ({BSON} § string)",
       "A string is an int32 length that counts the final NUL, the UTF-8 bytes and the NUL. A length below 1 or a "
       "last byte other than NUL is corrupt.", E, structural=True),
    _r("MATRIX-BSON-005", "Strings and element names are UTF-8", f"{DOC}#matrix-bson-005 ({BSON} § string, cstring)",
       "Strings and keys (cstrings, which cannot hold NUL) are UTF-8. Python readers, the viewer's included, fail "
       "on anything else.", E, structural=True),
    _r("MATRIX-BSON-006", "No bytes after the document",
       f"{DOC}#matrix-bson-006 (user's document: {RU} § Стуктура файла записи)",
       "The file is one BSON document whose declared length is the file size. Bytes after it are a second, "
       "unreadable document or garbage (the viewer reads one document and ignores them).", E, structural=True),
    _r("MATRIX-BSON-007", "The file is not cut short", f"{DOC}#matrix-bson-007 ({BSON} § document)",
       "A file shorter than the document's declared length was truncated (an interrupted write or copy). The "
       "finding names the last complete frame.", E, structural=True),
    _r("MATRIX-BSON-008", "Array keys are \"0\", \"1\", ...", f"{DOC}#matrix-bson-008 ({BSON} § array)",
       "An array is a document whose keys are the decimal indexes in order. Readers (pymongo, the viewer) ignore "
       "the keys, so other keys are a degenerate encoding, not a different value: a warning.", W, W),
    _r("MATRIX-BSON-009", "A document holds each key once", f"{DOC}#matrix-bson-009 ({BSON} § document)",
       "BSON does not forbid duplicate keys, but a reader that builds a dict (pymongo, the viewer) keeps only the "
       "last one, silently. The spec profile rejects them; compat warns.", E, W),
    _r("MATRIX-LIMIT-001", "Nesting is within recspec's depth limit",
       f"{DOC}#matrix-limit-001 (recspec's own limit, MAX_DEPTH = 100)",
       "recspec reads documents nested at most 100 levels below the top-level document (a recording needs 5). "
       "Deeper input is not read, so no reader runs out of stack; ksy/bson.ksy enforces the same bound.",
       E, structural=True, policy=True),
    _r("MATRIX-LIMIT-002", "Buffered units are within recspec's size limit",
       f"{DOC}#matrix-limit-002 (recspec's own limit, MAX_BUFFERED_SIZE = 64 MiB)",
       "recspec streams the frames array and buffers one frame (or one other top-level value, such as objects) at "
       "a time. A single value larger than 64 MiB is not read; the rest of the file is not checked.",
       E, structural=True, policy=True),
    _r("MATRIX-LIMIT-003", "Buffered units hold at most recspec's element count",
       f"{DOC}#matrix-limit-003 (recspec's own limit, MAX_ELEMENTS = 1,000,000)",
       "Each decoded element costs a Python object; a frame or an objects array with more than a million "
       "elements is not read, so memory stays bounded.", E, structural=True, policy=True),
    # --- the document -------------------------------------------------------------------
    _r("MATRIX-DOC-001", "The top-level document has an objects array and a frames array",
       f"{DOC}#matrix-doc-001 (user's document: {RU} § Стуктура файла записи)",
       "The file is one document {objects: [...], frames: [...]} (the document's example omits the braces). Key "
       "order is free: the producer writes frames first.", E),
    _r("MATRIX-DOC-002", "Keys the document does not define are noted",
       f"{DOC}#matrix-doc-002 (user's document: {RU}, tables of fields)",
       "A key that the document does not define for that place (or an extra geometry field of another type, such "
       "as radius on a box) is ignored by the viewer. An info finding, so a typo is visible.", I, I),
    _r("MATRIX-NUM-001", "Numbers are int32, int64 or double",
       f"{DOC}#matrix-num-001 (user's document: {RU}, tables: int, float)",
       "Wherever the document expects a number (int or float) the file may hold any of BSON's three numeric "
       "types: the producer writes whole numbers as int32 (colours, times, vertices, ids). A string, boolean, "
       "null or any other type is an error.", E),
    _r("MATRIX-NUM-002", "Numbers are finite", f"{DOC}#matrix-num-002 (user's document: {RU}, tables: float)",
       "Positions, rotations, sizes, colours and times are real values; NaN or infinity cannot be drawn.", E),
    # --- objects ------------------------------------------------------------------------
    _r("MATRIX-OBJ-001", "Objects have id, name, type and color",
       f"{DOC}#matrix-obj-001 (user's document: {RU} § Список objects)",
       "Each entry of objects is a document with id (int), name (string), type (string) and color (an array of "
       "three numbers); the viewer reads all four. static is optional (the viewer never reads it).", E),
    _r("MATRIX-OBJ-002", "Objects have the geometry their type needs, with positive sizes",
       f"{DOC}#matrix-obj-002 (user's document: {RU} § Список objects)",
       "box needs half_dimentions (3 numbers > 0, half extents; the document's spelling), sphere radius > 0, "
       "capsule radius > 0 and half_height > 0 (half the length of the cylinder part, axis along X, as PhysX and "
       "the viewer use it), convex vertices. An unknown type is an error: the viewer silently reuses the previous "
       "object's mesh, or crashes.", E,
       deviation="The document's object example mixes half_dimentions, radius and vertices on one box and its "
                 "table does not say which are required. recspec requires the fields of the object's type and "
                 "notes the others (MATRIX-DOC-002)."),
    _r("MATRIX-OBJ-003", "Object ids are integers >= 0 and unique",
       f"{DOC}#matrix-obj-003 (user's document: {RU} § Список objects (id: int, >= 0))",
       "States refer to objects by id, so two objects with one id are ambiguous; the viewer reserves -1 for its "
       "floor. Ids need not be dense (the document uses 0 and 12).", E),
    _r("MATRIX-OBJ-004", "Convex hulls have at least 4 vertices, not all in one plane",
       f"{DOC}#matrix-obj-004 (user's document: {RU} § Список objects (vertices))",
       "The viewer builds the hull with a 3-D Delaunay triangulation, which needs at least 4 points that span a "
       "volume. Each vertex is an array of 3 numbers.", E),
    _r("MATRIX-OBJ-005", "Colours are 3 channels in [0, 1]",
       f"{DOC}#matrix-obj-005 (user's document: {RU} § Список objects (color))",
       "color is RGB, each channel from 0 to 1.", E),
    _r("MATRIX-OBJ-006", "static is a boolean",
       f"{DOC}#matrix-obj-006 (user's document: {RU} § Список objects (static: bool))",
       "static is true for geometry that is created and removed but does not move, false for dynamic geometry. "
       "The viewer ignores it, so another type only warns.", W,
       deviation="The document's footnote markers are swapped (the '*' note describes dynamic geometry); recspec "
                 "reads static = true as 'does not move'."),
    # --- frames -------------------------------------------------------------------------
    _r("MATRIX-FRAME-001", "Frames store their time under t",
       f"{DOC}#matrix-frame-001 (user's document: {RU} § Список frames (t))",
       "The document's key for the frame time is t. The producer writes time (the JSON-era key), which the viewer "
       "does not read (it shows 0). spec: t is required and time is an error; compat: t or time (t wins if both; "
       "time alone is MATRIX-FRAME-005, a warning).",
       E),
    _r("MATRIX-FRAME-002", "Frame times are finite, >= 0 and non-decreasing",
       f"{DOC}#matrix-frame-002 (user's document: {RU} § Список frames (t))",
       "t is the current recording time in seconds; a frame cannot come before the previous one.", E),
    _r("MATRIX-FRAME-003", "cmd is an array", f"{DOC}#matrix-frame-003 (user's document: {RU} § Список frames (cmd))",
       "The document's cmd is an array of debug commands. The producer writes the empty string when there are "
       "none. spec: cmd must be an array; compat: a missing cmd, \"\" or null is an empty list. Any other value "
       "is an error in both.", E),
    _r("MATRIX-FRAME-005", "The viewer reads the frame time",
       f"{DOC}#matrix-frame-005 (user's document: {RU} § Список frames (t))",
       "The viewer reads a frame's time from t (default 0). A frame that stores it only under time (the "
       "producer's JSON-era key, as Scene1.bson does) plays in the viewer with every time shown as 0: data a real "
       "reader silently loses. Under compat, which accepts time, that is a warning; under spec MATRIX-FRAME-001 "
       "already rejects the key and this rule is off.", OFF, W),
    _r("MATRIX-FRAME-004", "Frames are documents with a states array",
       f"{DOC}#matrix-frame-004 (user's document: {RU} § Список frames (states))",
       "Each entry of frames is a document; states is an array of state documents (objects not mentioned keep their "
       "last state, docs/formats/matrix-smt.md#decision-6).", E),
    # --- states -------------------------------------------------------------------------
    _r("MATRIX-STATE-001", "States have id, i, m, p and r",
       f"{DOC}#matrix-state-001 (user's document: {RU} § states)",
       "id (int), i (string), m (string, metadata), p (3 numbers, position), r (4 numbers, quaternion x, y, z, w). "
       "The viewer reads all five.", E),
    _r("MATRIX-STATE-002", "States refer to objects that exist",
       f"{DOC}#matrix-state-002 (user's document: {RU} § states (id))",
       "A state's id must be the id of an entry of objects; the viewer fails with a KeyError otherwise.", E),
    _r("MATRIX-STATE-003", "The instance flag is \"i\" or \"d\"",
       f"{DOC}#matrix-state-003 (user's document: {RU} § states (i))",
       "spec: \"i\" (instantiated, drawn) or \"d\" (destroyed), as the document says. compat also accepts the "
       "JSON-era \"instantiated\" and the producer's \"destroyed\". Any other value is an error under both: the "
       "viewer would hide the object silently.", E),
    _r("MATRIX-STATE-004", "Destroyed objects are not referenced again",
       f"{DOC}#matrix-state-004 (user's document: {RU} § states (i))",
       "A state with the destroyed flag removes the object; recspec treats removal as final, so a later state "
       "for the same id (or a second removal) refers to an object that no longer exists. The producer stops "
       "listing an object after removing it.", E),
    _r("MATRIX-STATE-005", "An object has at most one state per frame",
       f"{DOC}#matrix-state-005 (user's document: {RU} § states)",
       "Two states for one id in a frame: the viewer applies both in order and shows the last.", W),
    _r("MATRIX-QUAT-001", "Quaternions have unit length",
       f"{DOC}#matrix-quat-001 (user's document: {RU} § states (r: Длина кватерниона: 1), § cmd (rx..rw))",
       f"A rotation quaternion (state r, cube rx, ry, rz, rw) has length 1 within {QUAT_TOLERANCE} (the producer's "
       "float32 values are off by about 1e-7). Components may be negative.", E,
       deviation="The document's cmd table says rx, ry, rz, rw > 0; quaternion components can be negative (its own "
                 "state example has negative ones). recspec checks the length only."),
    # --- debug commands -----------------------------------------------------------------
    _r("MATRIX-CMD-001", "Debug commands are documents with t in v, r, s, c",
       f"{DOC}#matrix-cmd-001 (user's document: {RU} § cmd (t))",
       "t is \"v\" (vector), \"r\" (ray), \"s\" (sphere) or \"c\" (cube).", E),
    _r("MATRIX-CMD-002", "Debug commands have the fields their type needs",
       f"{DOC}#matrix-cmd-002 (user's document: {RU} § cmd)",
       "Every command has the origin ox, oy, oz. A vector needs vx, vy, vz; a ray ex, ey, ez (its end point); a "
       "sphere sr > 0; a cube sx, sy, sz > 0 (half sizes) and rx, ry, rz, rw. spec: all required; compat: a missing "
       "field takes the viewer's default (docs/formats/matrix-smt.md#cmd); a non-positive size is an error in both.",
       E),
    _r("MATRIX-CMD-003", "Command colours and opacity are in [0, 1]",
       f"{DOC}#matrix-cmd-003 (user's document: {RU} § cmd (r, g, b, o))",
       "r, g, b and o are optional; when present each is in [0, 1]. The viewer ignores r, g, b and applies o to "
       "cubes only, so compat only warns.", E, W),
    _r("MATRIX-CMD-004", "A ray's end point differs from its origin",
       f"{DOC}#matrix-cmd-004 (user's document: {RU} § cmd (ex, ey, ez))",
       "recspec reads e as the ray's absolute end point, as the document says; a ray whose end equals its origin "
       "has no length and draws nothing.", W,
       deviation="The viewer treats e as a vector relative to the origin, against its own document. recspec "
                 "follows the document; the encoder writes the absolute end point."),
    # --- recspec ------------------------------------------------------------------------
    _r("MATRIX-XCHECK-001", "The reference, Kaitai and pymongo readings agree",
       f"{DOC}#matrix-xcheck-001 (recspec's own cross-check)",
       "recspec reads a file with its hand-written BSON walker, with the parser generated from "
       "ksy/matrix_smt_record.ksy and with pymongo's bson module. All three must accept and reject the same bytes "
       "and read the same values. A divergence is a bug in recspec (or a difference between the readers), not "
       "necessarily a fault of the file; `recspec reproduce FILE` shows where the readings part.", E, policy=True),
)

RULES_BY_ID = MappingProxyType({r.id: r for r in RULES})
