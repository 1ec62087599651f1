"""Conformance for Matrix-SMT recordings: rules, the streaming checker, the
three-way cross-check (reference, Kaitai, pymongo), seeds and Hypothesis
strategies.

This module is what the format registry (``recspec.formats``) loads for
``matrix-smt``: the plugin contract of ``recspec.formats.FormatModule``
(``RULES``, ``sniff``, ``check``, ``dump``, ``KAITAI``, and, loaded on first use,
``STRATEGIES`` and ``seeds``).
"""

from .._plugin import lazy_members
from ._check import check_stream, sniff
from ._format import KAITAI, MAX_CROSS_CHECK_SIZE, check, dump
from ._rules import QUAT_TOLERANCE, RULES, RULES_BY_ID

__all__ = ["KAITAI", "MAX_CROSS_CHECK_SIZE", "QUAT_TOLERANCE", "RULES", "RULES_BY_ID", "STRATEGIES", "check",
           "check_stream", "dump", "seeds", "sniff"]

__getattr__ = lazy_members(__name__)
