"""Whether a file's first bytes are a raSkat signal file (the registry's sniff).

The registry imports this module alone to sniff (``recspec.formats.sniff`` reads
``sniff`` from the plugin package, whose ``__init__`` loads nothing else until
asked), so recognising a file costs no import of the format's reference codec or
checker; ``tests/test_startup.py`` holds the constants copied here to the
reference's.
"""

from __future__ import annotations

__all__ = ["HEADER_V1", "VERSIONS", "XZ_MAGIC", "sniff"]

# Copies of the reference's constants (recspec.reference.raskat_signal), held equal by a test.
XZ_MAGIC = b"\xfd7zXZ\x00"
VERSIONS = (1, 2, 3, 4)
HEADER_V1 = 46  # the v1 header: the v2 fields without the flags byte


def _digits14(b: bytes) -> bool:
    return len(b) == 14 and b.isdigit() and b.isascii()


def sniff(head: bytes) -> float:
    """Confidence that ``head`` starts a signal file: the version word and what must follow it."""
    if head[:6] == XZ_MAGIC:
        return 0.6  # an xz stream: the document's container (the tar inside is checked later)
    if len(head) < 3 or head[1] != 0:
        return 0.0
    v = head[0]
    if v not in VERSIONS:  # an unknown version with a known body after it: say why it does not fit
        return 0.5 if _digits14(head[2:16]) or (head[2] == 0xAE and _digits14(head[3:17])) else 0.0
    if v <= 2:
        return 0.9 if _digits14(head[2:16]) else (0.2 if len(head) >= HEADER_V1 else 0.05)
    if head[2] == 0xAE:  # fixstr of 14 characters: the time
        return 0.9 if _digits14(head[3:17]) else 0.5
    return 0.05
