"""The BSON parser's arrays of doubles and scalar elements made from the bytes at once, as the generated code
makes them.

A Matrix-SMT file's Kaitai reading (``recspec/_ksy_fast/matrix_smt_record.py`` over ``bson.py``, from
``ksy/bson.ksy``) builds, for every embedded document, a ``document`` (its length, a substream of its elements,
its final NUL), an ``element_list``, and per element an ``element`` (its type code, its name) and an
``element_value``: generated constructors and ``_read`` calls, each several stream reads. A seed of the corpus
holds about 250 elements, 100 of them in some 30 vectors (a state's position and rotation, an object's colour, a
command's ends), arrays of one to nine doubles under the keys "0", "1", ...; the Kaitai reading is most of a
cross-checked Matrix-SMT file's time. Two readings here make what the generated one would leave, as plain
objects of the generated classes with the same attributes (the depth, the enum member of the type code, the
key, the value, the links to the parent, the root and the stream), set one by one in the order the generated
constructors set them, so that each object keeps them inline as the generated ones do (an object given a
dictionary of its own, ``obj.__dict__ = {...}``, has one more object for the garbage collector to track: in a
parse tree, whose cycles only the collector frees, that cost more than the objects saved):

* ``Bson.Document._read`` (:func:`_document_read`) looks at the length the document declares first: where its
  bytes are such an array (the type byte 1, the key ``str(i)`` and its NUL, eight bytes, for i = 0 .. k-1, then
  the final NUL, within the stream), the document, its substream (read to its end), its list and its elements
  are made from one regular expression and one ``struct`` unpack.
  Any other document whose declared length (at least 5, within the stream) and final NUL are in place is made
  as the generated reading makes it (its length, its bytes, their substream, its list by the generated class,
  its final NUL) without that reading's stream calls.
* ``Bson.ElementList._read`` (:func:`_element_list_read`) makes each element of a double, an int32, an int64 or
  a string (its length, at least 1, its UTF-8 bytes and their NUL) with a UTF-8 key, whole in the stream, at
  once; an element holding a document or an array (with a UTF-8 key) is made here too, and its document by the
  generated ``Bson.Document`` (so by the reading above, or the generated one, which raise their own errors at
  their own positions): a recording's frames, states, objects and commands are such elements, and the
  generated ``element`` and ``element_value`` of each (their constructors, the type code's enum, the key's
  stream read, the value's dispatch by type) cost about a quarter of a nesting level's reading. Any other element
  (another type, a key or string that is not UTF-8, one cut by the stream's end) is made by the generated
  ``element``, in its place, which raises the parser's own errors.

Anything else (a stream that is not a :class:`MemoryStream` or is in the middle of a bit read, the runtime's
streams, a depth past the ksy's bound of 100) goes the generated way. The generated module stays as the
compiler writes it (``tests/test_ksy_drift.py``); :func:`install` points the generated classes' ``_read`` at
these, :func:`generated_documents` puts the generated ones back for a while. The parse trees (links included),
errors and positions are the generated code's (``tests/test_matrix_smt_vector_known.py``).
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
        if p >= 0 and p + 4 <= io._size:
            n = _I32_AT(buf, p)[0]
            vector = _VECTORS.get(n)
            if vector is not None and p + n <= io._size and vector[1].fullmatch(buf, p + 4, p + n) is not None:
                unpack = vector[2]
                raw = buf[p + 4:p + n - 1]
                sub = MemoryStream(raw)  # what the generated reading wraps the elements in, read to its end
                sub._pos = n - 5
                depth, root = self.depth, self._root
                listed = _new(_LIST)
                elements = []
                for key, double in zip(_KEYS, unpack(buf, p)):
                    element = _new(_ELEMENT)
                    value = _new(_VALUE)
                    value._io, value._parent, value._root, value.code, value.depth, value.value = (
                        sub, element, root, 1, depth, double)
                    element._io, element._parent, element._root, element.depth = sub, listed, root, depth
                    element.type_code, element.name, element.value = _DOUBLE, key, value
                    elements.append(element)
                listed._io, listed._parent, listed._root = sub, self, root
                listed.depth, listed.elements = depth, elements
                self.len_document = n
                self._raw_elements = raw
                self.elements = listed
                self.terminator = 0
                io._pos = p + n
                return
            if n >= 5 and p + n <= io._size and buf[p + n - 1] == 0:
                # any other document whose length and final NUL are in place: its bytes, their substream and
                # their list (by the generated class) as the generated reading makes them, without its reads
                raw = buf[p + 4:p + n - 1]
                self.len_document = n
                self._raw_elements = raw
                io._pos = p + n - 1  # where the generated reading stands while it reads the elements
                self.elements = _LIST(self.depth, MemoryStream(raw), self, self._root)
                self.terminator = 0
                io._pos = p + n
                return
    _GENERATED_READ(self)


_GENERATED_LIST_READ = Bson.ElementList._read
_STRING = Bson.String
#: The scalar types whose elements the list reading makes at once: type code -> (the member of its code, the
#: bytes of its value, their unpack); a string (2) is read on its own (a length, the bytes, a NUL).
_SCALARS = {code: (Bson.ElementType(code), packer.size, packer.unpack_from)
            for code, packer in ((1, struct.Struct("<d")), (16, struct.Struct("<i")), (18, struct.Struct("<q")))}
_STRING_CODE = Bson.ElementType(2)
#: The element types whose value is a document read by the generated ``Bson.Document`` (an embedded document
#: and an array): type code -> the member of its code.
_DOCUMENTS = {code: Bson.ElementType(code) for code in (3, 4)}
_DOCUMENT = Bson.Document


def _element_list_read(self: Any) -> None:
    """``Bson.ElementList._read``: each element of a scalar type made at once (the module's docstring), any
    other made by the generated ``element``, in the order of the stream, up to its end."""
    io = self._io
    if type(io) is not MemoryStream:
        _GENERATED_LIST_READ(self)
        return
    self.elements = elements = []
    buf, size = io._buf, io._size
    depth, root = self.depth, self._root
    scalars = _SCALARS
    while not io.bits_left:
        p = io._pos
        if p >= size:
            return
        t = buf[p]
        document = _DOCUMENTS.get(t)
        if document is not None:
            # the element and its value made here, the document by the generated class (whose reading
            # raises its own errors at its own position); the element joins the list once its value is read
            k = buf.find(b"\x00", p + 1, size)
            if k >= 0:
                try:
                    name = buf[p + 1:k].decode("utf-8")
                except UnicodeDecodeError:
                    name = None  # the generated element raises it, from its own reading
                if name is not None:
                    element = _new(_ELEMENT)
                    element._io, element._parent, element._root, element.depth = io, self, root, depth
                    element.type_code, element.name = document, name
                    value = _new(_VALUE)
                    value._io, value._parent, value._root, value.code, value.depth = io, element, root, t, depth
                    io._pos = k + 1
                    value.value = _DOCUMENT(depth + 1, io, value, root)
                    element.value = value
                    elements.append(element)
                    continue
        scalar = scalars.get(t)
        if scalar is not None or t == 2:
            k = buf.find(b"\x00", p + 1, size)
            if k >= 0:
                v = k + 1
                try:
                    name = buf[p + 1:k].decode("utf-8")
                    if scalar is not None:
                        member, n, unpack = scalar
                        end = v + n
                        if end <= size:
                            element = _new(_ELEMENT)
                            value = _new(_VALUE)
                            value._io, value._parent, value._root, value.code, value.depth, value.value = (
                                io, element, root, t, depth, unpack(buf, v)[0])
                            element._io, element._parent, element._root, element.depth = io, self, root, depth
                            element.type_code, element.name, element.value = member, name, value
                            elements.append(element)
                            io._pos = end
                            continue
                    elif v + 4 <= size:
                        n = _I32_AT(buf, v)[0]
                        end = v + 4 + n
                        if n >= 1 and end <= size and buf[end - 1] == 0:
                            text = buf[v + 4:end - 1].decode("utf-8")
                            element = _new(_ELEMENT)
                            value = _new(_VALUE)
                            string = _new(_STRING)
                            string._io, string._parent, string._root = io, value, root
                            string.len_value, string.value, string.terminator = n, text, 0
                            value._io, value._parent, value._root, value.code, value.depth, value.value = (
                                io, element, root, 2, depth, string)
                            element._io, element._parent, element._root, element.depth = io, self, root, depth
                            element.type_code, element.name, element.value = _STRING_CODE, name, value
                            elements.append(element)
                            io._pos = end
                            continue
                except UnicodeDecodeError:
                    pass  # the generated element raises it, from its own reading
        elements.append(_ELEMENT(depth, io, self, root))  # anything else, errors included: the generated way
    while not io.is_eof():  # a bit read pending (no BSON field reads bits): the generated loop's own test
        elements.append(_ELEMENT(depth, io, self, root))


_KNOWN = KnownReading((Bson.Document, "_read", _document_read), (Bson.ElementList, "_read", _element_list_read))

#: Point the generated document's and element list's readings at this module's.
install = _KNOWN.install
#: Inside: documents and element lists read as the compiler wrote them (to compare the two).
generated_documents = _KNOWN.generated
