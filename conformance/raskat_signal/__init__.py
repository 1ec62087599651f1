"""Conformance for raSkat lightning-detector signal files: rules, checker,
Kaitai cross-check, seeds and Hypothesis strategies.

This module is what the format registry (``recspec.formats``) loads for
``raskat-signal``: the plugin contract of ``recspec.formats.FormatModule``
(``RULES``, ``sniff``, ``check``, ``dump``, ``KAITAI``, and, loaded on first use,
``STRATEGIES`` and ``seeds``).
"""

from .._plugin import lazy_members
from ._check import VARIANTS, check_bytes, sniff
from ._format import KAITAI, MAX_CROSS_CHECK_SIZE, check, dump
from ._rules import RULES, RULES_BY_ID

__all__ = ["KAITAI", "MAX_CROSS_CHECK_SIZE", "RULES", "RULES_BY_ID", "STRATEGIES", "VARIANTS", "check", "check_bytes",
           "dump", "seeds", "sniff"]

__getattr__ = lazy_members(__name__)
