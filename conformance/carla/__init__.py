"""Conformance for the CARLA recorder log: rules, checker, variant detection,
Kaitai cross-check and Hypothesis strategies."""

from ._check import check_stream, detect_variant, sniff
from ._rules import RULES, RULES_BY_ID

__all__ = ["RULES", "RULES_BY_ID", "check_stream", "detect_variant", "sniff"]
