"""Conformance for the CARLA recorder log: rules, checker, variant detection,
Kaitai cross-check and Hypothesis strategies.

This module is what the format registry (``recspec.formats``) loads for
``carla``: the plugin contract of ``recspec.formats.FormatModule``
(``RULES``, ``sniff``, ``check``, ``dump``, ``KAITAI``, and, loaded on first use,
``STRATEGIES`` and ``seeds``).
"""

from .._plugin import lazy_members
from ._check import check_stream, detect_variant, sniff
from ._format import KAITAI, MAX_CROSS_CHECK_SIZE, check, dump
from ._rules import RULES, RULES_BY_ID

__all__ = ["KAITAI", "MAX_CROSS_CHECK_SIZE", "RULES", "RULES_BY_ID", "STRATEGIES", "check", "check_stream",
           "detect_variant", "dump", "seeds", "sniff"]

__getattr__ = lazy_members(__name__)
