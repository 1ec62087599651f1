"""Whether a file's first bytes are a Matrix-SMT recording, one BSON document (the registry's sniff).

The registry imports this module alone to sniff (``recspec.formats.sniff`` reads
``sniff`` from the plugin package, whose ``__init__`` loads nothing else until
asked), so recognising a file costs no import of the format's reference codec or
checker; ``tests/test_startup.py`` holds the constants copied here to the
reference's.
"""

from __future__ import annotations

__all__ = ["BSON_TYPE_CODES", "sniff"]

#: The BSON element type codes (a copy of the keys of recspec.reference.matrix_smt's BSON_TYPES, held equal by a test).
BSON_TYPE_CODES = frozenset((*range(0x01, 0x14), 0x7F, 0xFF))


def sniff(head: bytes) -> float:
    """Confidence (0..1) that ``head`` starts a Matrix-SMT recording (a BSON document)."""
    if len(head) < 7:
        return 0.0
    n = int.from_bytes(head[:4], "little", signed=True)
    if n < 5 or head[4] not in BSON_TYPE_CODES:
        return 0.0
    k = head.find(b"\x00", 5)
    if k < 0 and len(head) < 4096:
        return 0.0
    key = head[5:k] if k >= 0 else b""
    if key in (b"objects", b"frames"):
        return 1.0
    if b"\x04frames\x00" in head or b"\x04objects\x00" in head:
        return 0.9
    try:
        text = key.decode("ascii")
    except UnicodeDecodeError:
        return 0.0
    return 0.2 if text.isprintable() else 0.0
