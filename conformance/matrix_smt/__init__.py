"""Conformance for Matrix-SMT recordings: rules, the streaming checker, the
three-way cross-check (reference, Kaitai, pymongo), seeds and Hypothesis
strategies.

This module is what the format registry (``recspec.formats``) loads for
``matrix-smt``: ``RULES``, ``sniff``, ``check`` and ``dump``.
"""

from ._check import check_stream, sniff
from ._format import MAX_CROSS_CHECK_SIZE, check, dump
from ._rules import QUAT_TOLERANCE, RULES, RULES_BY_ID

__all__ = ["MAX_CROSS_CHECK_SIZE", "QUAT_TOLERANCE", "RULES", "RULES_BY_ID", "check", "check_stream", "dump", "sniff"]
