"""Conformance for raSkat lightning-detector signal files: rules, checker,
Kaitai cross-check, seeds and Hypothesis strategies.

This module is what the format registry (``recspec.formats``) loads for
``raskat-signal``: the plugin contract of ``recspec.formats.FormatModule``
(``sniff``; loaded on first use: ``RULES``, ``check``, ``dump``, ``KAITAI``,
``STRATEGIES``, ``seeds``, ``DAMAGED_HEADERS``, ``TRACE``, ``picture``,
``drive_cases``, ``field_path``, ``EQUIVALENCES``, ``EXAMPLES``).
"""

from .._plugin import lazy_members
from ._sniff import sniff

# Loaded on first use: sniffing a file imports only ._sniff (see _plugin.lazy_members).
_MEMBERS = {  # besides the contract's (_plugin.CONTRACT_MEMBERS)
    "VARIANTS": "_check",
    "check_bytes": "_check",
}

__all__ = ["DAMAGED_HEADERS", "EQUIVALENCES", "EXAMPLES", "KAITAI", "MAX_CROSS_CHECK_SIZE", "RULES", "RULES_BY_ID",
           "STRATEGIES", "TRACE", "VARIANTS", "check", "check_bytes", "drive_cases", "dump", "field_path", "picture",
           "seeds", "sniff"]

__getattr__ = lazy_members(__name__, _MEMBERS)
