"""The corpus (``corpus/toy/``): each file built here with what recspec must say about it."""

from __future__ import annotations

from collections.abc import Iterator

from recspec.formats import HeaderDamage, Seed

from ..reference import Record, ToyFile, checksum_of, encode

__all__ = ["DAMAGED_HEADERS", "seeds"]


def _rec(rid: int, value: int, *, checksum: int | None = None, reserved: int = 0) -> Record:
    return Record(rid, value, checksum_of(rid, value) if checksum is None else checksum, reserved)


_THREE = (_rec(1, 10), _rec(2, -5), _rec(7, 70000))


def seeds() -> Iterator[Seed]:
    ok = {"spec": ("valid", ()), "compat": ("valid", ())}
    yield Seed("valid/three.toy", encode(ToyFile(1, 0, _THREE)), None, ok, "three records")
    yield Seed("valid/empty.toy", encode(ToyFile(1, 0, ())), None, ok, "no records")
    bad_sum = encode(ToyFile(1, 0, (_rec(1, 10), _rec(2, -5, checksum=0x11), _rec(7, 70000))))
    yield Seed("invalid/checksum.toy", bad_sum, None,
               {"spec": ("invalid", ("TOY-CHECKSUM-001",)), "compat": ("invalid", ("TOY-CHECKSUM-001",))},
               "the second record's checksum (byte 22) is 0x11")
    yield Seed("invalid/reserved.toy", encode(ToyFile(1, 0, (_rec(3, 1, reserved=0x5A),))), None,
               {"spec": ("invalid", ("TOY-RESERVED-001",)), "compat": ("valid", ())},
               "the record's reserved byte (byte 15) is 0x5A: an error under spec, not judged under compat")
    yield Seed("invalid/version0.toy", encode(ToyFile(0, 0, _THREE)), None,
               {"spec": ("invalid", ("TOY-VERSION-001",)), "compat": ("valid", ("TOY-VERSION-001",))},
               "version 0: an error under spec, a warning under compat")
    yield Seed("invalid/flags.toy", encode(ToyFile(1, 0x01, _THREE)), None,
               {"spec": ("valid", ("TOY-FLAGS-001",)), "compat": ("valid", ())},
               "flags 0x01: a warning under spec, information under compat")
    yield Seed("invalid/order.toy", encode(ToyFile(1, 0, (_rec(5, 1), _rec(3, 2)))), None,
               {"spec": ("valid", ("TOY-ORDER-001",)), "compat": ("valid", ("TOY-ORDER-001",))},
               "id 3 after id 5 (byte 16): a warning under both profiles")
    yield Seed("invalid/truncated.toy", encode(ToyFile(1, 0, _THREE))[:27], None,
               {"spec": ("malformed", ("TOY-SIZE-001",)), "compat": ("malformed", ("TOY-SIZE-001",))},
               "cut at byte 27, inside the third record")


#: A valid file whose magic no sniffer recognises: its .toy extension names the format, whose magic rule
#: reports the bytes found (``recspec.formats.HeaderDamage``; ``corpus/toy/damaged/``).
DAMAGED_HEADERS: tuple[HeaderDamage, ...] = (
    HeaderDamage("damaged/magic-zeroed.toy", "valid/three.toy", 0, bytes(4),
                 {"spec": ("malformed", ("TOY-MAGIC-001",)), "compat": ("malformed", ("TOY-MAGIC-001",))},
                 "the magic TOYF zeroed: the extension names the format, TOY-MAGIC-001 reports it at byte 0"),
)
