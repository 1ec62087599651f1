"""The rule catalog of the raSkat signal file.

Clauses cite ``spec/raskat_signal.ru.md`` (the user's document, "Формат файла
сигнала"). Profiles:

* ``spec``: the document as written. Where it contradicts itself the rule
  says which reading recspec takes and why (``deviation``).
* ``compat``: what the raSkat writer actually emits: raw files (no tar.xz),
  signed int16 v2 samples without the +1000 offset, latitude before longitude
  in v3/v4, flags with bits beyond 1 and 2.

Decisions on the document's ambiguities (research notes, section A.5) are
written into the rule that enforces them; README.md lists them too.
"""

from __future__ import annotations

from types import MappingProxyType

from recspec.report import Rule, Severity
from recspec.report import rule as _r

E, W, I, OFF = Severity.ERROR, Severity.WARNING, Severity.INFO, Severity.OFF

#: The project's format document; each rule cites its anchor there, then the user's document.
DOC = "docs/formats/raskat-signal.md"
RU = "raskat_signal.ru.md"



RULES: tuple[Rule, ...] = (
    # --- container ------------------------------------------------------------------
    _r("RSIG-CONTAINER-001", "The file is tar.xz-compressed, as the document says",
       f"{DOC}#rsig-container-001 (user's document: {RU} § Описание)",
       "The document describes a signal file as a binary file compressed into tar.xz. No raSkat writer does "
       "that: every real file is the raw signal. Under spec a raw file is an error; under compat it is what "
       "the writer emits and the rule is off. recspec reads both, whatever the profile.", E, OFF,
       deviation="Decision (docs/formats/raskat-signal.md#decision-1): recspec writes raw files by default and reads "
                 "tar.xz when the input starts with the xz magic; in a tar.xz the one regular member is the signal, "
                 "whatever its name (the document names none; recspec writes '<time>.sig')."),
    _r("RSIG-XZ-001", "The xz stream is complete and intact", f"{DOC}#rsig-xz-001 (user's document: {RU} § Описание)",
       "An xz container must be one complete xz stream whose integrity check (CRC32, CRC64 or SHA-256) "
       "verifies. A truncated or corrupt stream cannot yield the signal.", E, structural=True),
    _r("RSIG-XZ-002", "Exactly one xz stream and nothing after it",
       f"{DOC}#rsig-xz-002 (user's document: {RU} § Описание)",
       "A second concatenated stream, stream padding or any trailing bytes after the first stream are "
       "rejected: xz tools would silently read them, hiding a second signal or garbage.", E, structural=True),
    _r("RSIG-LIMIT-001", "The xz stream inflates to at most MAX_UNPACKED bytes",
       f"{DOC}#rsig-limit-001 (recspec's own limit, MAX_UNPACKED = MAX_FILE_SIZE = 8 MiB)",
       "A small file that inflates past the limit (an xz bomb) is stopped after MAX_UNPACKED bytes of output "
       "(8 MiB; decompression is streamed with a bounded output per step), so memory and time stay bounded; "
       "a stream whose own index declares more is refused without inflating. "
       "A raw file larger than MAX_FILE_SIZE (8 MiB) is not read either.",
       E, structural=True, policy=True),
    _r("RSIG-TAR-001", "The tar archive is well formed", f"{DOC}#rsig-tar-001 (user's document: {RU} § Описание)",
       "Headers of 512 bytes (ustar or GNU), numeric fields in ASCII octal, a header checksum that matches, "
       "member data in whole blocks, a zero end-of-archive block and only zero blocks after it.",
       E, structural=True),
    _r("RSIG-TAR-002", "The tar archive holds exactly one regular member",
       f"{DOC}#rsig-tar-002 (user's document: {RU} § Описание)",
       "The document names no member. Decision: exactly one regular file, which is the signal; with none "
       "there is no signal, with several recspec cannot tell which one the writer meant.", E, structural=True),
    _r("RSIG-TAR-003", "No links, devices, folders or metadata members",
       f"{DOC}#rsig-tar-003 (user's document: {RU} § Описание)",
       "A signal archive holds the signal only. Hard links and symlinks in particular can make an extracting "
       "tool write outside its folder.", E),
    _r("RSIG-TAR-004", "Member names are relative and have no '..'",
       f"{DOC}#rsig-tar-004 (user's document: {RU} § Описание)",
       "An absolute name or a '..' component lets a naive extraction write anywhere (path traversal).", E),
    _r("RSIG-TAR-005", "No tar member is larger than MAX_MEMBER_SIZE",
       f"{DOC}#rsig-tar-005 (user's document: {RU} § Описание)",
       "A member larger than MAX_MEMBER_SIZE (8 MiB less three tar blocks) is not read.", E, structural=True),
    # --- version and framing ------------------------------------------------------------
    _r("RSIG-VERSION-001", "The version word is a known version",
       f"{DOC}#rsig-version-001 (user's document: {RU} § Версия формата файла)",
       "The first two bytes are the little-endian version: 2 (binary), 3 (MessagePack), 4 (the newer "
       "document's v31: v3 plus a threshold), or the legacy 1. Any other value has no known layout.",
       E, structural=True),
    _r("RSIG-VERSION-002", "Legacy version 1",
       f"{DOC}#rsig-version-002 (user's document: {RU} § Версия формата файла)",
       "Version 1 predates the document: the v2 fields without the flags byte, big-endian after the version "
       "word. recspec reads it and says so; the document does not define it.", E, W),
    _r("RSIG-VERSION-003", "Version 4 (v31) is not in this copy of the document",
       f"{DOC}#rsig-version-003 (user's document: {RU} § Структура файла v3)",
       "The newer upstream document adds 'v31': the v3 fields plus a 13th, an int16 trigger threshold, stored "
       "with version word 4 (both raSkat codebases use 4). recspec reads it in both profiles and notes it.",
       I, I),
    _r("RSIG-STREAM-001", "The file does not end inside the signal",
       f"{DOC}#rsig-stream-001 (user's document: {RU} § Структура файла)",
       "The body has a fixed layout per version; a file that ends inside it is truncated.", E, structural=True),
    _r("RSIG-STREAM-002", "No bytes follow the signal",
       f"{DOC}#rsig-stream-002 (user's document: {RU} § Структура файла)",
       "The body ends with the samples (v2) or the last MessagePack field (v3: 12, version 4: 13). Anything "
       "after it is not part of the format.", E, structural=True),
    _r("RSIG-SAMPLES-001", "The sample count equals the samples present",
       f"{DOC}#rsig-samples-001 (user's document: {RU} § Сэмплы)",
       "In v1/v2 a u32 count precedes the samples; the bytes after the header must hold that many int16 "
       "samples (fewer is this rule, more is RSIG-STREAM-002).", E, structural=True),
    _r("RSIG-MSGPACK-001", "The MessagePack objects are well formed",
       f"{DOC}#rsig-msgpack-001 (user's document: {RU} § Структура файла v3)",
       "Every v3/v4 field is one MessagePack object; the lead byte 0xc1 is never used, and nesting deeper than "
       "MAX_DEPTH (32) arrays/maps is refused.", E, structural=True),
    _r("RSIG-MSGPACK-002", "MessagePack values use the smallest encoding",
       f"{DOC}#rsig-msgpack-002 (user's document: {RU} § Структура файла v3)",
       "The raSkat writer (msgpack-c) stores every integer, length and count in its smallest form and doubles as "
       "float 64. A wider form reads the same but is not what the writer produces "
       "(docs/formats/raskat-signal.md#decision-8: readers accept any width, writers use the smallest).", W, I),
    _r("RSIG-FIELDS-001", "Each v3/v4 field has the type of its position",
       f"{DOC}#rsig-fields-001 (user's document: {RU} § Структура файла v3)",
       "Field 1 a str of 14 characters, 2 a non-negative int, 3-5 floats, 6-8 non-negative ints, 9 a float, "
       "10-11 non-negative ints, 12 an array of ints, 13 (version 4) an int. The document: 'if the order is "
       "broken, the file is not a valid signal'.", E),
    _r("RSIG-FIELDS-003", "A v3/v4 double is stored as a MessagePack float",
       f"{DOC}#rsig-fields-003 (user's document: {RU} § Структура файла v3)",
       "Fields 3-5 (the coordinates and altitude) and 9 (Vref) are doubles. The raSkat writer built against "
       "msgpack-cxx 4.1.2 to 6.x (the version Debian ships) packs a double that holds a whole number, such as "
       "an altitude of 150, as a MessagePack integer; both real readers convert it back to a double. recspec "
       "reads the integer as that double and checks its range either way. Under spec the document's type is "
       "required (an error); under compat it is what that writer emits (info).", E, I),
    _r("RSIG-FIELDS-002", "Not the 9-field draft v3",
       f"{DOC}#rsig-fields-002 (user's document: {RU} § Структура файла v3)",
       "Between 2025-06-13 and 2025-06-16 raSkat wrote a 9-field v3 (no load resistance, ADC bits or reference "
       "voltage) under the same version number. Decision (docs/formats/raskat-signal.md#decision-9): recognised and "
       "rejected by name; it is not the published v3.", E, structural=True),
    # --- values ---------------------------------------------------------------------
    _r("RSIG-TIME-001", "The time is 14 ASCII digits forming a real UTC date and time",
       f"{DOC}#rsig-time-001 (user's document: {RU} § Время начала сигнала)",
       "%Y%m%d%H%M%S, UTC, 24-hour clock (the document's yyyyMMddhhmmss and yyyymmddHHMMSS mean the same). "
       "A date that does not exist (month 13, 30 February, hour 24, second 60) is an error.", E),
    _r("RSIG-TIME-002", "Microseconds are below 1,000,000",
       f"{DOC}#rsig-time-002 (user's document: {RU} § Микросекунд с начала сигнала)",
       "Microseconds within the second. Decision (docs/formats/raskat-signal.md#decision-12): 1,000,000 and above are "
       "rejected (an old document allowed <= 10^6; the writer never produces it), not normalised.", E),
    _r("RSIG-COORD-001", "v2 coordinate fractions are below 1,000,000",
       f"{DOC}#rsig-coord-001 (user's document: {RU} § Координаты)",
       "The u32 after each integer part is millionths; 1,000,000 or more would overflow into the next unit.",
       E),
    _r("RSIG-COORD-002", "Latitude within +-90 and longitude within +-180 degrees",
       f"{DOC}#rsig-coord-002 (user's document: {RU} § Координаты)",
       "In v2 recspec reads longitude first (the document's code example and every raSkat reader and writer; "
       "its prose line says latitude first). In v3/v4 the spec profile follows the document (field 3 "
       "longitude, field 4 latitude); compat follows the writer (field 3 latitude, field 4 longitude). "
       "Non-finite values are out of range.", E,
       deviation="Decision (docs/formats/raskat-signal.md#decision-3, docs/formats/raskat-signal.md#decision-4): the "
                 "raSkat writer puts latitude first in v3, opposite to the document, so a real v3 file fails this "
                 "rule under spec when its longitude is beyond 90. v2 coordinates cannot be negative (unsigned "
                 "parts): recspec's writer refuses negative values (docs/formats/raskat-signal.md#decision-5)."),
    _r("RSIG-COORD-003", "Altitude is plausible", f"{DOC}#rsig-coord-003 (user's document: {RU} § Координаты)",
       "Altitude above sea level in metres, expected within -500 .. 10,000 and finite.", W, I),
    _r("RSIG-RATE-001", "The sample rate is above 0",
       f"{DOC}#rsig-rate-001 (user's document: {RU} § Частота сэмплирования)",
       "Samples per second in Hz; 0 makes the signal's time axis undefined.", E),
    _r("RSIG-FLAGS-001", "Only the defined flag bits are set",
       f"{DOC}#rsig-flags-001 (user's document: {RU} § Флаги)",
       "The document defines the masks 1 (ADC overload) and 2 (PPS synchronisation); it says 'bit 1' and 'bit 2' but "
       "its code uses the masks. The raSkat writer ORs other bits in (its set_flag takes a bit index; the real v3 "
       "sample has 0x8a). Decision (docs/formats/raskat-signal.md#decision-7): unknown bits are preserved; an error "
       "under spec, information under compat.", E, I),
    _r("RSIG-SAMPLES-002", "v2 stored samples are offset into positive values",
       f"{DOC}#rsig-samples-002 (user's document: {RU} § Сэмплы)",
       "The document stores each sample plus 1000 so that stored values are positive. Under spec a negative "
       "stored v1/v2 sample is an error. The raSkat writer never adds the offset (its constant is unused) and "
       "writes signed int16, so under compat the rule is off and samples are read as they are.", E, OFF,
       deviation="Decision (docs/formats/raskat-signal.md#decision-2): the document's prose says uint16 with +1000, "
                 "its own writer example int16 with +1000, its reader example no offset. recspec reads signed int16 "
                 "(the format line 'uint32|int16...' and the writer); spec requires the +1000 shift to have made them "
                 "non-negative."),
    _r("RSIG-SAMPLES-003", "v3/v4 samples are raw ADC codes 0 .. 2^bits-1",
       f"{DOC}#rsig-samples-003 (user's document: {RU} § Структура файла v3)",
       "Field 12 is an 'array uint' of captured codes; with an ADC of `bits` bits each code is within "
       "0 .. 2^bits-1. The raSkat writer's type is int16, so compat only warns.", E, W),
    _r("RSIG-SAMPLES-004", "Samples fit the writer's int16",
       f"{DOC}#rsig-samples-004 (user's document: {RU} § Сэмплы)",
       "Every sample is stored by raSkat as int16; a value outside -32768 .. 32767 cannot come from it.", E),
    _r("RSIG-ANTENNA-001", "The antenna type is 0, 1 or 2",
       f"{DOC}#rsig-antenna-001 (user's document: {RU} § Структура файла v3)",
       "0 unknown, 1 mini-whip, 2 magnetic. raSkat's readers throw on anything else "
       "(docs/formats/raskat-signal.md#decision-11).", E),
    _r("RSIG-ADC-001", "ADC resolution is plausible (1 to 16 bits)",
       f"{DOC}#rsig-adc-001 (user's document: {RU} § Структура файла v3)",
       "The raSkat detector uses the 10-bit AD9200; the writer stores the bits as u8. Samples are int16, so "
       "more than 16 bits cannot be represented.", E),
    _r("RSIG-ADC-002", "Load resistance is plausible (1 to 65,535 ohm)",
       f"{DOC}#rsig-adc-002 (user's document: {RU} § Структура файла v3)",
       "The writer stores the load resistance as u16 (docs/formats/raskat-signal.md#decision-8); 0 ohm is a short "
       "circuit.", E),
    _r("RSIG-ADC-003", "Reference voltage is plausible (above 0, at most 50 V, finite)",
       f"{DOC}#rsig-adc-003 (user's document: {RU} § Структура файла v3)",
       "The ADC reference voltage in volts (the real sample has 3.3 V stored as a float32 widened to double).",
       E),
    _r("RSIG-THRESHOLD-001", "The version 4 threshold is an ADC code in range",
       f"{DOC}#rsig-threshold-001 (user's document: {RU} § Структура файла v3)",
       "The trigger threshold is an int16 in ADC-code units (the research sample has 643): within "
       "0 .. 2^bits-1.", E),
    _r("RSIG-XCHECK-001", "recspec's two readers agree", f"{DOC}#rsig-xcheck-001 (recspec's own cross-check)",
       "The Kaitai parser generated from ksy/ and the reference decoder read the file differently. This is a "
       "bug in recspec or a gap in the spec, not a fault of the file.", E, policy=True),
)

RULES_BY_ID = MappingProxyType({r.id: r for r in RULES})
