"""The toy format's rules: stable ids, the clause of docs/toy.md each enforces, the level per profile."""

from __future__ import annotations

from types import MappingProxyType

from recspec.report import Rule, Severity
from recspec.report import rule as _r

E, W, INFO, OFF = Severity.ERROR, Severity.WARNING, Severity.INFO, Severity.OFF

DOC = "recspec_toy/docs/toy.md"

RULES: tuple[Rule, ...] = (
    _r("TOY-MAGIC-001", "The file starts with the magic TOYF", f"{DOC}#toy-magic-001",
       "Bytes 0-3 are 'TOYF'. Anything else is not a toy file and cannot be walked.", E, structural=True),
    _r("TOY-SIZE-001", "The file is the header and count records, nothing more or less", f"{DOC}#toy-size-001",
       "A toy file is exactly 8 + 8 x count bytes. A shorter file is truncated; bytes after the last record "
       "are not part of the format.", E, structural=True),
    _r("TOY-VERSION-001", "The version is 1", f"{DOC}#toy-version-001",
       "Byte 4 is the version; 1 is the only one defined. Old writers wrote 0; compat accepts it with a "
       "warning.", E, W),
    _r("TOY-FLAGS-001", "The flags byte is zero", f"{DOC}#toy-flags-001",
       "Byte 5 is reserved for flags, none defined: a reader ignores it.", W, INFO),
    _r("TOY-CHECKSUM-001", "Each record's checksum is the sum of its first six bytes modulo 256",
       f"{DOC}#toy-checksum-001", "Byte 6 of a record guards its id and value.", E),
    _r("TOY-RESERVED-001", "Each record's reserved byte is zero", f"{DOC}#toy-reserved-001",
       "Byte 7 of a record is reserved. Some writers leave it uninitialised; compat does not judge it.", E, OFF),
    _r("TOY-ORDER-001", "Record ids increase strictly", f"{DOC}#toy-order-001",
       "Records are sorted by id without repeats, so a reader can search them.", W),
    _r("TOY-XCHECK-001", "The Kaitai parser and the reference read the same file", f"{DOC}#toy-xcheck-001",
       "The generated parser of ksy/toy.ksy and recspec_toy.reference agree on every field.", E),
)

RULES_BY_ID: MappingProxyType[str, Rule] = MappingProxyType({r.id: r for r in RULES})
