"""The BSON parser's arrays of doubles made from the bytes at once, as the generated code makes them.

A Matrix-SMT file's Kaitai reading (``recspec/_ksy_fast/matrix_smt_record.py`` over ``bson.py``, from
``ksy/bson.ksy``) builds, for every embedded document, a ``document`` (its length, a substream of its elements,
its final NUL), an ``element_list``, and per element an ``element`` (its type code, its name) and an
``element_value``: four generated constructors and their ``_read`` calls, each several stream reads. A seed of
the corpus holds about 250 elements, 100 of them in some 30 vectors (a state's position and rotation, an
object's colour, a command's ends), arrays of one to nine doubles under the keys "0", "1", ...; the Kaitai
reading is most of a cross-checked Matrix-SMT file's time, and those vectors are 40 % of its elements.

So ``Bson.Document._read`` (:func:`_document_read`) looks at the length the document declares first: where its
bytes are such an array (the type byte 1, the key ``str(i)`` and its NUL, eight bytes, for i = 0 .. k-1, then the
final NUL, within the stream), the objects the generated reading would leave are made at once, as plain objects
of the generated classes with the same attributes (the depth, the enum member of the type code, the key, the
double, the links to the parent, the root and the substream, which is read to its end), from one regular
expression and one ``struct`` unpack. Anything else (another type or key, a document of another length, one
that runs past the stream, a depth past the ksy's bound of 100, a stream that is not a :class:`MemoryStream` or
is in the middle of a bit read, the runtime's streams) goes the generated way, which raises the parser's own
errors.

The generated module stays as the compiler writes it (``tests/test_ksy_drift.py``); :func:`install` points the
generated class's ``_read`` at this one, :func:`generated_documents` puts the generated one back for a while. The
parse trees (links included), errors and positions are the generated code's
(``tests/test_matrix_smt_vector_known.py``).
"""

from __future__ import annotations

import re
import struct
from typing import Any

from recspec._ksy_fast import bson as bson_ksy
from recspec._ksy_fast.bson import Bson

from .._kaitai import KnownReading, MemoryStream

__all__ = ["generated_documents", "install"]

_GENERATED_READ = Bson.Document._read
_LIST, _ELEMENT, _VALUE = Bson.ElementList, Bson.Element, Bson.ElementValue
_DOUBLE = Bson.ElementType(1)  # the type code's member, as ``resolve_enum`` gives it
_I32_AT = struct.Struct("<i").unpack_from
_new = object.__new__
#: The deepest document the ksy reads (``document``'s ``valid`` expression: ``depth <= 100``).
_MAX_DEPTH = 100
#: The longest array made at once: keys of one digit, so every element is 11 bytes (type, key, NUL, double).
_MOST = 9
_KEYS = tuple(str(i) for i in range(_MOST))


def _vectors() -> dict[int, tuple[int, re.Pattern[bytes], Any]]:
    """By a document's declared length ``5 + 11 k``: (k, the pattern of its bytes after the length field, the
    unpack of its k doubles from the document's start)."""
    out = {}
    for k in range(1, _MOST + 1):
        body = b"".join(re.escape(b"\x01" + _KEYS[i].encode() + b"\x00") + b".{8}" for i in range(k))
        out[5 + 11 * k] = (k, re.compile(body + b"\x00", re.DOTALL), struct.Struct("<4x" + "3xd" * k).unpack_from)
    return out


_VECTORS = _vectors()


def _document_read(self: Any) -> None:
    """``Bson.Document._read``: an array of doubles made at once (the module's docstring)."""
    io = self._io
    if type(io) is MemoryStream and not io.bits_left and bson_ksy.KaitaiStream is MemoryStream \
            and self.depth <= _MAX_DEPTH:
        p = io._pos
        buf = io._buf
        if 0 <= p and p + 4 <= io._size:
            n = _I32_AT(buf, p)[0]
            vector = _VECTORS.get(n)
            if vector is not None and p + n <= io._size and vector[1].fullmatch(buf, p + 4, p + n) is not None:
                k, _, unpack = vector
                raw = buf[p + 4:p + n - 1]
                sub = MemoryStream(raw)  # what the generated reading wraps the elements in, read to its end
                sub._pos = n - 5
                depth, root = self.depth, self._root
                listed = _new(_LIST)
                elements = []
                for key, double in zip(_KEYS, unpack(buf, p)):
                    element = _new(_ELEMENT)
                    value = _new(_VALUE)
                    value.__dict__ = {"_io": sub, "_parent": element, "_root": root, "code": 1, "depth": depth,
                                      "value": double}
                    element.__dict__ = {"_io": sub, "_parent": listed, "_root": root, "depth": depth,
                                        "type_code": _DOUBLE, "name": key, "value": value}
                    elements.append(element)
                listed.__dict__ = {"_io": sub, "_parent": self, "_root": root, "depth": depth, "elements": elements}
                self.len_document = n
                self._raw_elements = raw
                self.elements = listed
                self.terminator = 0
                io._pos = p + n
                return
    _GENERATED_READ(self)


_KNOWN = KnownReading((Bson.Document, "_read", _document_read))

#: Point the generated document's reading at this module's.
install = _KNOWN.install
#: Inside: documents read as the compiler wrote them (to compare the two).
generated_documents = _KNOWN.generated
