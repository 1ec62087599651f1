"""Conformance for NanoVer recordings (.traj / .state): rules, checker, kind
detection, Kaitai cross-check and Hypothesis strategies.

This module is what the format registry (``recspec.formats``) loads for
``nanover``: ``RULES``, ``sniff``, ``check`` and ``dump``.
"""

from ._check import check_stream, detect_kind, sniff
from ._format import MAX_CROSS_CHECK_SIZE, check, dump
from ._rules import RULES, RULES_BY_ID

__all__ = ["MAX_CROSS_CHECK_SIZE", "RULES", "RULES_BY_ID", "check", "check_stream", "detect_kind", "dump", "sniff"]
