"""Conformance for raSkat lightning-detector signal files: rules, checker,
Kaitai cross-check, seeds and Hypothesis strategies.

This module is what the format registry (``recspec.formats``) loads for
``raskat-signal``: ``RULES``, ``sniff``, ``check`` and ``dump``.
"""

from ._check import VARIANTS, check_bytes, sniff
from ._format import MAX_CROSS_CHECK_SIZE, check, dump
from ._rules import RULES, RULES_BY_ID

__all__ = ["MAX_CROSS_CHECK_SIZE", "RULES", "RULES_BY_ID", "VARIANTS", "check", "check_bytes", "dump", "sniff"]
