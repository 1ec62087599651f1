"""Decoded BSON values as JSON-ready data, for ``recspec dump`` of a Matrix-SMT file: the
reference's reading (``_format.dump``) and the Kaitai reading (``_xcheck.dump_kaitai``)."""

from __future__ import annotations

from typing import Any

from recspec._plain import to_plain
from recspec.reference.matrix_smt import Array, Document, Int64

__all__ = ["plain"]


def plain(value: Any) -> Any:
    """A decoded BSON value as JSON-ready data: documents as objects (duplicate keys
    as a ``{"$pairs": [[k, v], ...]}``), arrays as lists, other types by to_plain."""
    if isinstance(value, Array):
        return [plain(v) for v in value.values]
    if isinstance(value, Document):
        if len(value.map()) != len(value.keys):
            return {"$pairs": [[k, plain(v)] for k, v in zip(value.keys, value.values)]}
        return {k: plain(v) for k, v in zip(value.keys, value.values)}
    if type(value) is Int64:
        return int(value)
    if hasattr(value, "scope"):
        return {"code": value.code, "scope": plain(value.scope)}
    return to_plain(value)
