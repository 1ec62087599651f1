"""Whether a file's first bytes are a NanoVer recording (the registry's sniff).

The registry imports this module alone to sniff (``recspec.formats.sniff`` reads
``sniff`` from the plugin package, whose ``__init__`` loads nothing else until
asked), so recognising a file costs no import of the format's reference codec or
checker; ``tests/test_startup.py`` holds the constants copied here to the
reference's.
"""

from __future__ import annotations

__all__ = ["MAGIC_BYTES", "sniff"]

#: The header's u64 magic, 6661355757386708963, little-endian.
MAGIC_BYTES = (6661355757386708963).to_bytes(8, "little")


def sniff(head: bytes) -> float:
    """Confidence that ``head`` is a NanoVer recording (a headerless version-1 file scores low,
    so that ``recspec check`` reports it with NANOVER-HEADER-003 rather than as unrecognised)."""
    if head[:8] == MAGIC_BYTES:
        return 1.0
    # looks_like_version_1 needs a zero upper timestamp half and a payload starting with
    # tag 0x0a or 0x12 at offset 24; only then is the reference (and protobuf) imported
    if len(head) > 24 and head[8:16] == bytes(8) and head[24] in (0x0A, 0x12):
        from recspec.reference.nanover import looks_like_version_1

        if looks_like_version_1(head):
            return 0.3
    return 0.0
