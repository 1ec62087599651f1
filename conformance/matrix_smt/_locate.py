"""Byte lengths for Matrix-SMT findings located at a BSON element.

The walk locates a semantic finding at the type byte of the element it is about
(``frames[3].time`` at its ``\\x01time\\x00`` element) and does not carry the
element's size through every rule. A report (SARIF's region ``byteLength``, the
HTML hex window) wants the span, so after the walk each stored finding of a
semantic rule gets the length of the element that starts at its offset, read
from the file: the type byte, the key, the value (a few bytes per finding, at
most the per-rule cap of findings per rule). Structural findings keep what the
decoder said: their offsets point at a fault, not at an element.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import BinaryIO

from recspec.reference.matrix_smt import BSON_TYPES
from recspec.report import FileReport, Rule

__all__ = ["add_element_lengths"]

#: Keys longer than this are not looked for (no key of the format comes close).
_MAX_KEY = 256
# types whose int32 prefix counts the whole value (itself included), and those whose prefix counts what follows
_WHOLE = frozenset((3, 4, 15))  # document, array, code with scope
_FOLLOWING = {2: 4, 13: 4, 14: 4, 5: 5}  # string, code, symbol: 4 + n; binary: 4 + subtype + n


def element_length(head: bytes, file_left: int) -> int | None:
    """The length of the BSON element whose bytes start ``head`` (None when ``head`` does not start one)."""
    if len(head) < 2:
        return None
    ty = BSON_TYPES.get(head[0])
    end_of_key = head.find(b"\x00", 1)
    if ty is None or end_of_key < 0:
        return None
    value = end_of_key + 1
    if ty.size is not None:
        n = value + ty.size
    elif head[0] in _WHOLE or head[0] in _FOLLOWING:
        if len(head) < value + 4:
            return None
        prefix = int.from_bytes(head[value:value + 4], "little", signed=True)
        if prefix < 0:
            return None
        n = value + prefix if head[0] in _WHOLE else value + _FOLLOWING[head[0]] + prefix
    else:
        return None  # a regex or DBPointer: two variable parts; left without a length
    return n if n <= file_left else None


def add_element_lengths(report: FileReport, f: BinaryIO, size: int, rules: Mapping[str, Rule]) -> None:
    """Give each stored semantic finding located at an element, and without a length, that element's length."""
    out = []
    for finding in report.findings:
        rule = rules.get(finding.rule)
        if finding.offset is not None and finding.length is None and rule is not None and not rule.structural:
            f.seek(finding.offset)
            n = element_length(f.read(1 + _MAX_KEY + 5), size - finding.offset)
            if n is not None:
                finding = dataclasses.replace(finding, length=n)
        out.append(finding)
    report.findings = out
