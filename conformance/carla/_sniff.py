"""Whether a file's first bytes are a CARLA recorder log (the registry's sniff).

The registry imports this module alone to sniff (``recspec.formats.sniff`` reads
``sniff`` from the plugin package, whose ``__init__`` loads nothing else until
asked), so recognising a file costs no import of the format's reference codec or
checker; ``tests/test_startup.py`` holds the constants copied here to the
reference's.
"""

from __future__ import annotations

__all__ = ["MAGIC_FIELD", "sniff"]

#: The header's magic as stored: u16 length 14, then the text.
MAGIC_FIELD = b"\x0e\x00CARLA_RECORDER"


def sniff(head: bytes) -> float:
    """Confidence (0..1) that ``head`` (the first bytes of a file) is a CARLA log."""
    if head[2:18] == MAGIC_FIELD:
        return 1.0
    if head[2:18].upper() == MAGIC_FIELD.upper():
        return 0.9  # a differently-cased magic: still CARLA, and CARLA-HEADER-001 says so
    return 0.0
