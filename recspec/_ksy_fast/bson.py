# Generated from ksy/bson.ksy by tools/ksy_compile.mjs
# (kaitai-struct-compiler 0.11.0, no debug mode). Do not edit by hand:
# change the .ksy file and run `python tools/generate_parsers.py`.

# type: ignore

import kaitaistruct
from kaitaistruct import KaitaiStruct, KaitaiStream, BytesIO
from enum import IntEnum


if getattr(kaitaistruct, 'API_VERSION', (0, 9)) < (0, 11):
    raise Exception("Incompatible Kaitai Struct Python API: 0.11 or later is required, but you have %s" % (kaitaistruct.__version__))

class Bson(KaitaiStruct):
    """A BSON document: a signed 32-bit total length (counting itself and the
    final NUL), a list of elements and a NUL byte. Each element is a type code,
    a key (a NUL-terminated UTF-8 "cstring") and a value whose layout the type
    code gives. Arrays are documents whose keys should be "0", "1", ...
    
    This reading is strict where the specification is:
    
    * every declared length is consistent with its content: a document's
      elements are parsed from a substream of exactly `len_document - 5` bytes
      and must fill it, so an early terminator, an element running past the
      declared end or a missing final NUL is rejected;
    * strings have a length of at least 1, hold valid UTF-8 and end with NUL;
    * booleans are 0 or 1;
    * the type code is one the specification defines (the deprecated ones
      included: undefined, DBPointer, symbol, code with scope);
    * binary subtype 2 (the old binary layout) repeats the data length inside,
      and it must equal the outer length minus 4;
    * code with scope: the total length equals 4 + string + scope document;
    * nesting is at most 100 documents deep below the top (the `depth`
      parameter counts the levels; recspec's `MAX_DEPTH`), so that no reader
      runs out of stack.
    
    What the specification leaves to the application (array keys in order,
    duplicate keys) is not enforced here; recspec's rules report it.
    
    .. seealso::
       BSON specification 1.1 - https://bsonspec.org/spec.html
    """

    class ElementType(IntEnum):
        double = 1
        string = 2
        document = 3
        array = 4
        binary = 5
        undefined = 6
        object_id = 7
        boolean = 8
        utc_datetime = 9
        null_value = 10
        regex = 11
        db_pointer = 12
        javascript = 13
        symbol = 14
        code_with_scope = 15
        int32 = 16
        timestamp = 17
        int64 = 18
        decimal128 = 19
        max_key = 127
        min_key = 255
    def __init__(self, _io, _parent=None, _root=None):
        super(Bson, self).__init__(_io)
        self._parent = _parent
        self._root = _root or self
        self._read()

    def _read(self):
        self.document = Bson.Document(0, self._io, self, self._root)
        self.end_of_file = self._io.read_bytes(0)
        _ = self.end_of_file
        if not self._io.is_eof():
            raise kaitaistruct.ValidationExprError(self.end_of_file, self._io, u"/seq/1")


    def _fetch_instances(self):
        pass
        self.document._fetch_instances()

    class Binary(KaitaiStruct):
        def __init__(self, _io, _parent=None, _root=None):
            super(Bson.Binary, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.len_data = self._io.read_s4le()
            if not self.len_data >= 0:
                raise kaitaistruct.ValidationLessThanError(0, self.len_data, self._io, u"/types/binary/seq/0")
            self.subtype = self._io.read_u1()
            _on = self.subtype
            if _on == 2:
                pass
                self._raw_data = self._io.read_bytes(self.len_data)
                _io__raw_data = KaitaiStream(BytesIO(self._raw_data))
                self.data = Bson.BinaryOld(_io__raw_data, self, self._root)
            else:
                pass
                self.data = self._io.read_bytes(self.len_data)


        def _fetch_instances(self):
            pass
            _on = self.subtype
            if _on == 2:
                pass
                self.data._fetch_instances()
            else:
                pass


    class BinaryOld(KaitaiStruct):
        """Subtype 2, deprecated; the data repeats its own length."""
        def __init__(self, _io, _parent=None, _root=None):
            super(Bson.BinaryOld, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.len_inner = self._io.read_s4le()
            _ = self.len_inner
            if not _ == self._io.size() - 4:
                raise kaitaistruct.ValidationExprError(self.len_inner, self._io, u"/types/binary_old/seq/0")
            self.data = self._io.read_bytes_full()


        def _fetch_instances(self):
            pass


    class Boolean(KaitaiStruct):
        def __init__(self, _io, _parent=None, _root=None):
            super(Bson.Boolean, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.value = self._io.read_u1()
            if not  ((self.value == 0) or (self.value == 1)) :
                raise kaitaistruct.ValidationNotAnyOfError(self.value, self._io, u"/types/boolean/seq/0")


        def _fetch_instances(self):
            pass


    class CodeWithScope(KaitaiStruct):
        def __init__(self, depth, _io, _parent=None, _root=None):
            super(Bson.CodeWithScope, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self.depth = depth
            self._read()

        def _read(self):
            self.len_total = self._io.read_s4le()
            if not self.len_total >= 14:
                raise kaitaistruct.ValidationLessThanError(14, self.len_total, self._io, u"/types/code_with_scope/seq/0")
            self._raw_body = self._io.read_bytes(self.len_total - 4)
            _io__raw_body = KaitaiStream(BytesIO(self._raw_body))
            self.body = Bson.CodeWithScopeBody(self.depth, _io__raw_body, self, self._root)


        def _fetch_instances(self):
            pass
            self.body._fetch_instances()


    class CodeWithScopeBody(KaitaiStruct):
        def __init__(self, depth, _io, _parent=None, _root=None):
            super(Bson.CodeWithScopeBody, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self.depth = depth
            self._read()

        def _read(self):
            self.code = Bson.String(self._io, self, self._root)
            self.scope = Bson.Document(self.depth + 1, self._io, self, self._root)
            self.end_of_body = self._io.read_bytes(0)
            _ = self.end_of_body
            if not self._io.is_eof():
                raise kaitaistruct.ValidationExprError(self.end_of_body, self._io, u"/types/code_with_scope_body/seq/2")


        def _fetch_instances(self):
            pass
            self.code._fetch_instances()
            self.scope._fetch_instances()


    class DbPointer(KaitaiStruct):
        def __init__(self, _io, _parent=None, _root=None):
            super(Bson.DbPointer, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.namespace = Bson.String(self._io, self, self._root)
            self.pointer = self._io.read_bytes(12)


        def _fetch_instances(self):
            pass
            self.namespace._fetch_instances()


    class Decimal128(KaitaiStruct):
        def __init__(self, _io, _parent=None, _root=None):
            super(Bson.Decimal128, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.value = self._io.read_bytes(16)


        def _fetch_instances(self):
            pass


    class Document(KaitaiStruct):
        """A document or an array (the same bytes). `depth` is 0 for the top-level
        document and grows by one per embedded document, array or scope.
        """
        def __init__(self, depth, _io, _parent=None, _root=None):
            super(Bson.Document, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self.depth = depth
            self._read()

        def _read(self):
            self.len_document = self._io.read_s4le()
            _ = self.len_document
            if not  ((_ >= 5) and (self.depth <= 100)) :
                raise kaitaistruct.ValidationExprError(self.len_document, self._io, u"/types/document/seq/0")
            self._raw_elements = self._io.read_bytes(self.len_document - 5)
            _io__raw_elements = KaitaiStream(BytesIO(self._raw_elements))
            self.elements = Bson.ElementList(self.depth, _io__raw_elements, self, self._root)
            self.terminator = self._io.read_u1()
            if not self.terminator == 0:
                raise kaitaistruct.ValidationNotEqualError(0, self.terminator, self._io, u"/types/document/seq/2")


        def _fetch_instances(self):
            pass
            self.elements._fetch_instances()


    class Element(KaitaiStruct):
        def __init__(self, depth, _io, _parent=None, _root=None):
            super(Bson.Element, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self.depth = depth
            self._read()

        def _read(self):
            self.type_code = KaitaiStream.resolve_enum(Bson.ElementType, self._io.read_u1())
            if not isinstance(self.type_code, Bson.ElementType):
                raise kaitaistruct.ValidationNotInEnumError(self.type_code, self._io, u"/types/element/seq/0")
            self.name = (self._io.read_bytes_term(0, False, True, True)).decode(u"UTF-8")
            self.value = Bson.ElementValue(int(self.type_code), self.depth, self._io, self, self._root)


        def _fetch_instances(self):
            pass
            self.value._fetch_instances()


    class ElementList(KaitaiStruct):
        def __init__(self, depth, _io, _parent=None, _root=None):
            super(Bson.ElementList, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self.depth = depth
            self._read()

        def _read(self):
            self.elements = []
            i = 0
            while not self._io.is_eof():
                self.elements.append(Bson.Element(self.depth, self._io, self, self._root))
                i += 1



        def _fetch_instances(self):
            pass
            for i in range(len(self.elements)):
                pass
                self.elements[i]._fetch_instances()



    class ElementValue(KaitaiStruct):
        """The value of one element, by its type code."""
        def __init__(self, code, depth, _io, _parent=None, _root=None):
            super(Bson.ElementValue, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self.code = code
            self.depth = depth
            self._read()

        def _read(self):
            _on = self.code
            if _on == 1:
                pass
                self.value = self._io.read_f8le()
            elif _on == 10:
                pass
                self.value = Bson.Empty(self._io, self, self._root)
            elif _on == 11:
                pass
                self.value = Bson.Regex(self._io, self, self._root)
            elif _on == 12:
                pass
                self.value = Bson.DbPointer(self._io, self, self._root)
            elif _on == 127:
                pass
                self.value = Bson.Empty(self._io, self, self._root)
            elif _on == 13:
                pass
                self.value = Bson.String(self._io, self, self._root)
            elif _on == 14:
                pass
                self.value = Bson.String(self._io, self, self._root)
            elif _on == 15:
                pass
                self.value = Bson.CodeWithScope(self.depth, self._io, self, self._root)
            elif _on == 16:
                pass
                self.value = self._io.read_s4le()
            elif _on == 17:
                pass
                self.value = self._io.read_u8le()
            elif _on == 18:
                pass
                self.value = self._io.read_s8le()
            elif _on == 19:
                pass
                self.value = Bson.Decimal128(self._io, self, self._root)
            elif _on == 2:
                pass
                self.value = Bson.String(self._io, self, self._root)
            elif _on == 255:
                pass
                self.value = Bson.Empty(self._io, self, self._root)
            elif _on == 3:
                pass
                self.value = Bson.Document(self.depth + 1, self._io, self, self._root)
            elif _on == 4:
                pass
                self.value = Bson.Document(self.depth + 1, self._io, self, self._root)
            elif _on == 5:
                pass
                self.value = Bson.Binary(self._io, self, self._root)
            elif _on == 6:
                pass
                self.value = Bson.Empty(self._io, self, self._root)
            elif _on == 7:
                pass
                self.value = Bson.ObjectId(self._io, self, self._root)
            elif _on == 8:
                pass
                self.value = Bson.Boolean(self._io, self, self._root)
            elif _on == 9:
                pass
                self.value = self._io.read_s8le()


        def _fetch_instances(self):
            pass
            _on = self.code
            if _on == 1:
                pass
            elif _on == 10:
                pass
                self.value._fetch_instances()
            elif _on == 11:
                pass
                self.value._fetch_instances()
            elif _on == 12:
                pass
                self.value._fetch_instances()
            elif _on == 127:
                pass
                self.value._fetch_instances()
            elif _on == 13:
                pass
                self.value._fetch_instances()
            elif _on == 14:
                pass
                self.value._fetch_instances()
            elif _on == 15:
                pass
                self.value._fetch_instances()
            elif _on == 16:
                pass
            elif _on == 17:
                pass
            elif _on == 18:
                pass
            elif _on == 19:
                pass
                self.value._fetch_instances()
            elif _on == 2:
                pass
                self.value._fetch_instances()
            elif _on == 255:
                pass
                self.value._fetch_instances()
            elif _on == 3:
                pass
                self.value._fetch_instances()
            elif _on == 4:
                pass
                self.value._fetch_instances()
            elif _on == 5:
                pass
                self.value._fetch_instances()
            elif _on == 6:
                pass
                self.value._fetch_instances()
            elif _on == 7:
                pass
                self.value._fetch_instances()
            elif _on == 8:
                pass
                self.value._fetch_instances()
            elif _on == 9:
                pass


    class Empty(KaitaiStruct):
        """The value of undefined, null, MinKey and MaxKey elements, which have no bytes."""
        def __init__(self, _io, _parent=None, _root=None):
            super(Bson.Empty, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            pass


        def _fetch_instances(self):
            pass


    class ObjectId(KaitaiStruct):
        def __init__(self, _io, _parent=None, _root=None):
            super(Bson.ObjectId, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.value = self._io.read_bytes(12)


        def _fetch_instances(self):
            pass


    class Regex(KaitaiStruct):
        def __init__(self, _io, _parent=None, _root=None):
            super(Bson.Regex, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.pattern = (self._io.read_bytes_term(0, False, True, True)).decode(u"UTF-8")
            self.options = (self._io.read_bytes_term(0, False, True, True)).decode(u"UTF-8")


        def _fetch_instances(self):
            pass


    class String(KaitaiStruct):
        def __init__(self, _io, _parent=None, _root=None):
            super(Bson.String, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.len_value = self._io.read_s4le()
            if not self.len_value >= 1:
                raise kaitaistruct.ValidationLessThanError(1, self.len_value, self._io, u"/types/string/seq/0")
            self.value = (self._io.read_bytes(self.len_value - 1)).decode(u"UTF-8")
            self.terminator = self._io.read_u1()
            if not self.terminator == 0:
                raise kaitaistruct.ValidationNotEqualError(0, self.terminator, self._io, u"/types/string/seq/2")


        def _fetch_instances(self):
            pass
