# Generated from ksy/protobuf_wire.ksy by tools/ksy_compile.mjs
# (kaitai-struct-compiler 0.11.0, no debug mode). Do not edit by hand:
# change the .ksy file and run `python tools/generate_parsers.py`.

# type: ignore

import kaitaistruct
from kaitaistruct import KaitaiStruct, KaitaiStream, BytesIO
from enum import IntEnum


if getattr(kaitaistruct, 'API_VERSION', (0, 9)) < (0, 11):
    raise Exception("Incompatible Kaitai Struct Python API: 0.11 or later is required, but you have %s" % (kaitaistruct.__version__))

class ProtobufWire(KaitaiStruct):
    """A serialized protobuf message read without its schema: a sequence of fields,
    each a tag (a varint holding `field_number << 3 | wire_type`) and a body
    whose shape the wire type gives. This is the generic layer under
    `nanover_recording.ksy`, which types the NanoVer messages on top of it;
    fields that the typed messages do not know are read with `field_body`.
    
    What is accepted is what the protobuf runtime (upb) accepts, except groups:
    
    * varints are at most 10 bytes (`varint(10)`); a tag is at most 5 bytes and
      below 2^32 (`tag`), and its field number is not 0;
    * wire types 0 (varint), 1 (fixed64), 2 (length-delimited) and 5 (fixed32);
    * wire types 3 and 4 (groups, deprecated since proto2 and never written by
      a proto3 writer) and 6, 7 (undefined) are rejected, as is a length that
      runs past the end of the enclosing message.
    
    Every check is a zero-size seq field with a `valid` expression (a `valid`
    on an instance would be lazy and never run while parsing).
    
    .. seealso::
       Protocol Buffers encoding - https://protobuf.dev/programming-guides/encoding/
    """

    class WireType(IntEnum):
        varint = 0
        fixed64 = 1
        len_delimited = 2
        start_group = 3
        end_group = 4
        fixed32 = 5
        undefined_6 = 6
        undefined_7 = 7
    def __init__(self, _io, _parent=None, _root=None):
        super(ProtobufWire, self).__init__(_io)
        self._parent = _parent
        self._root = _root or self
        self._read()

    def _read(self):
        self.fields = []
        i = 0
        while not self._io.is_eof():
            self.fields.append(ProtobufWire.Field(self._io, self, self._root))
            i += 1



    def _fetch_instances(self):
        pass
        for i in range(len(self.fields)):
            pass
            self.fields[i]._fetch_instances()


    class Field(KaitaiStruct):
        """One field of an untyped message."""
        def __init__(self, _io, _parent=None, _root=None):
            super(ProtobufWire.Field, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.tag = ProtobufWire.Tag(self._io, self, self._root)
            self.body = ProtobufWire.FieldBody(self.tag.wire_type, self._io, self, self._root)


        def _fetch_instances(self):
            pass
            self.tag._fetch_instances()
            self.body._fetch_instances()


    class FieldBody(KaitaiStruct):
        """The body of a field whose wire type is known, its meaning not."""
        def __init__(self, wire_type, _io, _parent=None, _root=None):
            super(ProtobufWire.FieldBody, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self.wire_type = wire_type
            self._read()

        def _read(self):
            _on = self.wire_type
            if _on == ProtobufWire.WireType.fixed32:
                pass
                self.value = self._io.read_u4le()
            elif _on == ProtobufWire.WireType.fixed64:
                pass
                self.value = self._io.read_u8le()
            elif _on == ProtobufWire.WireType.len_delimited:
                pass
                self.value = ProtobufWire.LenDelimited(self._io, self, self._root)
            elif _on == ProtobufWire.WireType.varint:
                pass
                self.value = ProtobufWire.Varint(10, self._io, self, self._root)


        def _fetch_instances(self):
            pass
            _on = self.wire_type
            if _on == ProtobufWire.WireType.fixed32:
                pass
            elif _on == ProtobufWire.WireType.fixed64:
                pass
            elif _on == ProtobufWire.WireType.len_delimited:
                pass
                self.value._fetch_instances()
            elif _on == ProtobufWire.WireType.varint:
                pass
                self.value._fetch_instances()


    class LenDelimited(KaitaiStruct):
        """A byte length (a varint) and that many bytes."""
        def __init__(self, _io, _parent=None, _root=None):
            super(ProtobufWire.LenDelimited, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.len_body = ProtobufWire.Varint(10, self._io, self, self._root)
            self.body = self._io.read_bytes(self.len_body.value)


        def _fetch_instances(self):
            pass
            self.len_body._fetch_instances()


    class Tag(KaitaiStruct):
        """A field's key. Reject groups, undefined wire types and field number 0."""
        def __init__(self, _io, _parent=None, _root=None):
            super(ProtobufWire.Tag, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.key = ProtobufWire.Varint(5, self._io, self, self._root)
            self.is_supported = self._io.read_bytes(0)
            _ = self.is_supported
            if not  ((self.key.value <= 4294967295) and (self.key.value >> 3 != 0) and ( ((self.key.value & 7 == 0) or (self.key.value & 7 == 1) or (self.key.value & 7 == 2) or (self.key.value & 7 == 5)) )) :
                raise kaitaistruct.ValidationExprError(self.is_supported, self._io, u"/types/tag/seq/1")


        def _fetch_instances(self):
            pass
            self.key._fetch_instances()

        @property
        def field_number(self):
            if hasattr(self, '_m_field_number'):
                return self._m_field_number

            self._m_field_number = self.key.value >> 3
            return getattr(self, '_m_field_number', None)

        @property
        def wire_type(self):
            if hasattr(self, '_m_wire_type'):
                return self._m_wire_type

            self._m_wire_type = KaitaiStream.resolve_enum(ProtobufWire.WireType, self.key.value & 7)
            return getattr(self, '_m_wire_type', None)


    class Varint(KaitaiStruct):
        """Base-128 varint, least significant group first, at most `max_len` bytes
        (10 for a value, 5 for a tag); `value` is exact up to 2^70.
        """
        def __init__(self, max_len, _io, _parent=None, _root=None):
            super(ProtobufWire.Varint, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self.max_len = max_len
            self._read()

        def _read(self):
            self.groups = []
            i = 0
            while True:
                _ = self._io.read_u1()
                self.groups.append(_)
                if  ((_ < 128) or (i + 1 >= self.max_len)) :
                    break
                i += 1
            self.is_within_limit = self._io.read_bytes(0)
            _ = self.is_within_limit
            if not self.groups[-1] < 128:
                raise kaitaistruct.ValidationExprError(self.is_within_limit, self._io, u"/types/varint/seq/1")


        def _fetch_instances(self):
            pass
            for i in range(len(self.groups)):
                pass


        @property
        def value(self):
            if hasattr(self, '_m_value'):
                return self._m_value

            self._m_value = ((((((((self.groups[0] & 127 | ((self.groups[1] & 127) << 7 if len(self.groups) > 1 else 0)) | ((self.groups[2] & 127) << 14 if len(self.groups) > 2 else 0)) | ((self.groups[3] & 127) << 21 if len(self.groups) > 3 else 0)) | ((self.groups[4] & 127) << 28 if len(self.groups) > 4 else 0)) | ((self.groups[5] & 127) << 35 if len(self.groups) > 5 else 0)) | ((self.groups[6] & 127) << 42 if len(self.groups) > 6 else 0)) | ((self.groups[7] & 127) << 49 if len(self.groups) > 7 else 0)) | ((self.groups[8] & 127) << 56 if len(self.groups) > 8 else 0)) | ((self.groups[9] & 127) << 63 if len(self.groups) > 9 else 0)
            return getattr(self, '_m_value', None)
