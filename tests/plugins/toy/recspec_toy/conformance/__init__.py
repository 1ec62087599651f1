"""Conformance for toy record files: what ``recspec.formats.FormatModule`` asks of a plugin.

``sniff`` is imported here (it needs no codec); the rest loads on first use through recspec's
``lazy_members``: the contract's members from ``_format`` and ``_rules``, ``STRATEGIES`` from
``_strategies`` and ``seeds`` from ``_seeds``.
"""

from recspec.conformance._plugin import lazy_members

from ._sniff import sniff

__all__ = ["KAITAI", "MAX_CROSS_CHECK_SIZE", "RULES", "RULES_BY_ID", "STRATEGIES", "check", "dump", "seeds", "sniff"]

__getattr__ = lazy_members(__name__, {"check_bytes": "_format"})
