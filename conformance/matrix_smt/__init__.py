"""Conformance for Matrix-SMT recordings: rules, the streaming checker, the
three-way cross-check (reference, Kaitai, pymongo), seeds and Hypothesis
strategies.

This module is what the format registry (``recspec.formats``) loads for
``matrix-smt``: the plugin contract of ``recspec.formats.FormatModule``
(``sniff``; loaded on first use: ``RULES``, ``check``, ``dump``, ``KAITAI``,
``STRATEGIES``, ``seeds``, ``DAMAGED_HEADERS``, ``TRACE``, ``picture``,
``drive_cases``, ``field_path``, ``EQUIVALENCES``, ``EXAMPLES``).
"""

from .._plugin import lazy_members
from ._sniff import sniff

# Loaded on first use: sniffing a file imports only ._sniff (see _plugin.lazy_members).
_MEMBERS = {  # besides the contract's (_plugin.CONTRACT_MEMBERS)
    "check_stream": "_check",
    "QUAT_TOLERANCE": "_rules",
}

__all__ = ["DAMAGED_HEADERS", "EQUIVALENCES", "EXAMPLES", "KAITAI", "MAX_CROSS_CHECK_SIZE", "QUAT_TOLERANCE", "RULES",
           "RULES_BY_ID", "STRATEGIES", "TRACE", "check", "check_stream", "drive_cases", "dump", "field_path",
           "picture", "seeds", "sniff"]

__getattr__ = lazy_members(__name__, _MEMBERS)
