"""The rule catalog of the CARLA recorder log.

Clauses cite the user's specification documents: ``en`` is
``spec/carla_recorder.en.md`` (the official "Recorder Binary File Format"
page), ``zh`` is ``spec/carla_recorder.zh.md``. Where the document is wrong
(the 1900 epoch, the pitch/yaw/roll order, the EventDel size example) the rule
says so in ``deviation`` and enforces what CARLA's writer and readers do.

Profiles: ``spec`` is the document plus CARLA's writer behaviour where the
document is silent; ``compat`` is what CARLA's own readers tolerate (they never
check the version, skip unknown ids by size and do not care about packet order).
"""

from __future__ import annotations

from types import MappingProxyType

from recspec.report import Rule, Severity
from recspec.report import rule as _r

E, W, I, OFF = Severity.ERROR, Severity.WARNING, Severity.INFO, Severity.OFF



#: The project's format document; each rule cites its anchor there, then the user's document.
DOC = "docs/formats/carla.md"
EN = "carla_recorder.en.md"
ZH = "carla_recorder.zh.md"

RULES: tuple[Rule, ...] = (
    # --- header -----------------------------------------------------------------
    _r("CARLA-HEADER-001", "Header magic is the string CARLA_RECORDER",
       f"{DOC}#carla-header-001 (user's document: {EN} § Info header)",
       "The info header starts with a u16 version and a magic string (u16 length 14, then the ASCII bytes "
       "CARLA_RECORDER). CARLA's query functions print 'File is not a CARLA recorder' for anything else.",
       E, structural=True),
    _r("CARLA-HEADER-002", "Header version is 1", f"{DOC}#carla-header-002 (user's document: {EN} § Info header)",
       "Every CARLA release from 0.9.4 to the UE5 builds writes version 1 and has never bumped it, even when "
       "packet ids were renumbered. Another value is a writer that does not follow CARLA. CARLA's readers never "
       "check it, so the compat profile only warns.", E, W),
    _r("CARLA-HEADER-003", "Header date is a plausible Unix time",
       f"{DOC}#carla-header-003 (user's document: {EN} § Info header)",
       "The date is a signed 64-bit count of seconds since 1970-01-01 UTC, as std::time(0) returns it. recspec "
       "flags dates before 2017-01-01 (before any CARLA recorder existed) or after 2100-01-01.", W, I,
       deviation="The document says 'seconds from the Epoch 1900'. That is wrong: CARLA writes std::time(0), "
                 "Unix time, and its sample header F0 F5 9C 61 00 00 00 00 is 2021-11-23 in Unix time but 1951 "
                 "if read from 1900. recspec checks Unix time."),
    _r("CARLA-HEADER-004", "Header names a map", f"{DOC}#carla-header-004 (user's document: {EN} § Info header)",
       "The map name is the string after the date; the replayer loads that map. An empty name cannot be replayed.",
       W, I),
    _r("CARLA-STRING-001", "Strings are UTF-8", f"{DOC}#carla-string-001 (user's document: {EN} § Strings in binary)",
       "A string is a u16 byte length followed by that many UTF-8 bytes, without a terminating NUL. Bytes that "
       "are not UTF-8 cannot be converted back to an FString.", E, structural=True),
    _r("CARLA-STRING-002", "Strings hold no NUL byte",
       f"{DOC}#carla-string-002 (user's document: {EN} § Strings in binary)",
       "Strings are not NUL-terminated. CARLA's reader copies a string into a zero-filled buffer, so an embedded "
       "NUL silently truncates the text that a replay sees.", W, I),
    # --- packets ----------------------------------------------------------------
    _r("CARLA-PACKET-001", "Packet size equals the size its layout implies",
       f"{DOC}#carla-packet-001 (user's document: {EN} § Packets)",
       "Each packet is a u8 id, a u32 size and size payload bytes; the size counts the payload only and includes "
       "the u16 record count. For fixed records the size is 2 + count x record size (EventDel: 4, EventParent: "
       "8, Collision: 14, Position: 28, State: 10, ...; 3 x f64 vectors in UE5 builds). CARLA's readers parse "
       "known packets by their layout and ignore the size, so a mismatch desynchronises a replay.",
       E, structural=True,
       deviation="The document's EventDel example shows size 16 for 3 ids (a 4-byte total); the count is a u16, "
                 "so the size is 14. Its images also label the rotation 'pitch, yaw, roll'; CARLA writes "
                 "FQuat::Euler(), which is roll, pitch, yaw. recspec reads roll, pitch, yaw."),
    _r("CARLA-PACKET-002", "Packet ids below 100 are ones the variant defines",
       f"{DOC}#carla-packet-002 (user's document: {EN} § Packets)",
       "The document reserves ids of 100 and above for user packets, because CARLA's own list grows in sequence. "
       "An id below 100 that the chosen variant does not define is either a newer CARLA or a fork (DReyeVR and "
       "an unmerged PR used 18 and 21 for weather). The packet is kept as raw bytes and skipped by size, as "
       "CARLA's readers do.", W, I),
    _r("CARLA-PACKET-003", "User packets (id >= 100) are noted",
       f"{DOC}#carla-packet-003 (user's document: {EN} § Packets)",
       "Ids of 100 and above are the document's range for user-defined packets. They are kept as raw bytes.",
       I, I),
    _r("CARLA-PACKET-004", "FrameCounter packets are not written to recorder files",
       f"{DOC}#carla-packet-004 (user's document: {EN} § Packets)",
       "Id 18 (FrameCounter, 0.9.14+) is used only by the multi-GPU frame-data stream; CARLA's recorder never "
       "writes it to a file.", W, I),
    # --- the stream -------------------------------------------------------------
    _r("CARLA-STREAM-001", "The file does not end inside a packet",
       f"{DOC}#carla-stream-001 (user's document: {EN} § File Layout)",
       "The file is the info header and then whole packets. A file that ends inside a packet header or payload "
       "was cut short (a crash while recording, an interrupted copy). The finding names the last complete frame "
       "and how many bytes are left over.", E, structural=True),
    _r("CARLA-STREAM-002", "No trailing bytes after the last frame",
       f"{DOC}#carla-stream-002 (user's document: {EN} § File Layout)",
       "After the last FrameEnd there is nothing: no trailer, index or checksum. Bytes that do not form a packet "
       "there are trailing garbage (padding, a concatenation, a partial write).", E, structural=True),
    _r("CARLA-LIMIT-001", "Packets are within recspec's size limit",
       f"{DOC}#carla-limit-001 (recspec's own limit, MAX_PACKET_SIZE = 4 MiB)",
       "recspec does not read a packet whose declared payload exceeds max_packet_size (4 MiB): the largest "
       "real packet, frame 1's EventAdd, is about 300 bytes an actor, and a packet is decoded in memory (up to "
       "about 25 bytes per payload byte). The rest of the file is not checked.",
       E, structural=True, policy=True),
    # --- frames -----------------------------------------------------------------
    _r("CARLA-FRAME-001", "Every packet is inside a frame",
       f"{DOC}#carla-frame-001 (user's document: {EN} § Packet 0: Frame Start)",
       "All packets need to be placed between a Frame Start and a Frame End.", E),
    _r("CARLA-FRAME-002", "A frame ends before the next one starts",
       f"{DOC}#carla-frame-002 (user's document: {EN} § Packet 1: Frame End)",
       "Frame End marks the end of the current frame so that the replayer knows it before the next Frame Start.",
       E),
    _r("CARLA-FRAME-003", "Frame ids are consecutive from 1",
       f"{DOC}#carla-frame-003 (user's document: {EN} § Packet 0: Frame Start)",
       "CARLA's SetFrame increments the frame id before each frame, starting at 1; ids are 1, 2, 3 ...", E),
    _r("CARLA-FRAME-004", "elapsed[n+1] == elapsed[n] + durationThis[n]",
       f"{DOC}#carla-frame-004 (user's document: {EN} § Packet 0: Frame Start)",
       "'elapsed + durationThis = elapsed time for next frame'. CARLA back-patches durationThis of frame n with "
       "the delta it adds to elapsed for frame n+1, so the equation holds exactly, bit for bit.", E),
    _r("CARLA-FRAME-005", "The first frame starts at elapsed 0",
       f"{DOC}#carla-frame-005 (user's document: {EN} § Packet 0: Frame Start)",
       "elapsed is the time since the first frame; CARLA writes 0.0 for frame 1.", E),
    _r("CARLA-FRAME-006", "The last frame keeps durationThis = -1.0",
       f"{DOC}#carla-frame-006 (user's document: {EN} § Packet 0: Frame Start)",
       "CARLA writes durationThis = -1.0 as a placeholder and patches it when the next frame starts; the last "
       "frame has no next frame and keeps -1.0. Another value means frames are missing at the end.", E, W),
    _r("CARLA-FRAME-007", "The last frame is closed by a FrameEnd",
       f"{DOC}#carla-frame-007 (user's document: {EN} § File Layout)",
       "Each group of packets ends with a Frame End. A file whose last frame has no Frame End was cut at a "
       "packet boundary.", E),
    _r("CARLA-FRAME-008", "Only the last frame has a negative durationThis",
       f"{DOC}#carla-frame-008 (user's document: {EN} § Packet 0: Frame Start)",
       "A negative durationThis (the -1.0 placeholder) before the last frame means the writer did not patch it.",
       E),
    _r("CARLA-FRAME-009", "The log holds at least one frame",
       f"{DOC}#carla-frame-009 (user's document: {EN} § File Layout)",
       "A log with a header and no frames replays nothing.", W),
    _r("CARLA-FRAME-010", "FrameStart times are finite",
       f"{DOC}#carla-frame-010 (user's document: {EN} § Packet 0: Frame Start)",
       "durationThis and elapsed are seconds; NaN or infinity cannot be replayed.", E),
    _r("CARLA-FRAME-011", "A frame holds every packet its release writes in every frame",
       f"{DOC}#carla-frame-011 (user's document: {EN} § File Layout)",
       "'The events packets are optional, only appears when they happen'; the document is silent on the others. "
       "CARLA writes Position, State and, by release, AnimVehicle, AnimWalker, VehicleLight, VisualTime, "
       "AnimVehicleWheels, AnimBiker and VehicleDoor in every frame, with a record count of 0 when there is "
       "nothing to record. A frame without one of them was not written by that release (or lost packets). "
       "CARLA's readers replay such a frame.", E, I),
    # --- order inside a frame ---------------------------------------------------
    _r("CARLA-ORDER-001", "Packets inside a frame follow the writer's order",
       f"{DOC}#carla-order-001 (user's document: {EN} § File Layout; {ZH} § 帧布局)",
       "'Usually it is a good idea to have all packets about events first, and then the packets about position "
       "and state later.' CARLA writes a fixed order per release (FrameStart, VisualTime, EventAdd, EventDel, "
       "EventParent, Collision, [VehicleDoor], Position, State, animations, lights, additional data, FrameEnd).",
       W, I),
    _r("CARLA-ORDER-002", "A packet kind appears at most once per frame",
       f"{DOC}#carla-order-002 (user's document: {EN} § File Layout)",
       "CARLA writes each packet kind at most once per frame, with all of that frame's records in it.", W, I),
    # --- actors -----------------------------------------------------------------
    _r("CARLA-ACTOR-001", "Records refer to actors that exist",
       f"{DOC}#carla-actor-001 (user's document: {EN} § Packet 2: Event Add)",
       "Positions, parenting, collisions, animations, lights and additional data use the id an actor had when "
       "it was added by an EventAdd record. A record about an actor never added, or already deleted by an "
       "EventDel, cannot be replayed. Collision ids 0xFFFFFFFF (a non-actor) are allowed.", E),
    _r("CARLA-ACTOR-002", "An actor is not added twice",
       f"{DOC}#carla-actor-002 (user's document: {EN} § Packet 2: Event Add)",
       "An EventAdd for an id that is already alive (added and not deleted) is a duplicate.", E),
    _r("CARLA-ACTOR-003", "Deleted actors exist",
       f"{DOC}#carla-actor-003 (user's document: {EN} § Packet 3: Event Del)",
       "An EventDel for an id that is not alive removes nothing.", E),
    # --- enumerations and values ------------------------------------------------
    _r("CARLA-ENUM-001", "Actor type is in range",
       f"{DOC}#carla-enum-001 (user's document: {EN} § Packet 2: Event Add)",
       "0 Other, 1 Vehicle, 2 Walker, 3 TrafficLight, then (by release) 4 TrafficSign, 5 Sensor; the last value "
       "of the release's enum is INVALID and is never a real actor.", E),
    _r("CARLA-ENUM-002", "Traffic-light state is in range",
       f"{DOC}#carla-enum-002 (user's document: {EN} § Packet 7: TrafficLight)",
       "0 Red, 1 Yellow, 2 Green, and from 0.9.10 3 Off.", E),
    _r("CARLA-ENUM-003", "Vehicle door is in range", f"{DOC}#carla-enum-003 (the user's document is silent)",
       "0 FL, 1 FR, 2 RL, 3 RR, 4 Hood, 5 Trunk, 6 All.", E),
    _r("CARLA-ENUM-004", "Light group is in range", f"{DOC}#carla-enum-004 (the user's document is silent)",
       "0 None, 1 Vehicle, 2 Street, 3 Building, 4 Other.", E),
    _r("CARLA-ENUM-005", "Attribute type is in range",
       f"{DOC}#carla-enum-005 (user's document: {EN} § Packet 2: Event Add)",
       "Released 0.9.x: 0 Bool, 1 Int, 2 Float, 3 String, 4 RGBColor; 0.9.16 and the 2023+ development "
       "numbering start at 1; UE5 adds 5 Vector. Values are strings anyway, so this only warns.", W, I),
    _r("CARLA-VALUE-001", "Flags are 0 or 1",
       f"{DOC}#carla-value-001 (user's document: {EN} § Packet 5: Event Collision)",
       "bool fields (is hero, is frozen, handbrake, light on, door open) are one byte, 0 or 1.", W, I),
)

RULES = RULES + (
    _r("CARLA-XCHECK-001", "The reference decoder and the Kaitai parser agree",
       f"{DOC}#carla-xcheck-001 (recspec's own cross-check)",
       "recspec reads every file twice: with its hand-written reference decoder and with the parser generated "
       "from ksy/carla_recorder.ksy. Both must accept and reject the same bytes and read the same values. A "
       "divergence is a bug in recspec or a gap in the specification, not necessarily a fault of the file; "
       "please report it with the file (`recspec reproduce FILE` shows where the readings part).", E, E, policy=True),
)

RULES_BY_ID = MappingProxyType({r.id: r for r in RULES})
