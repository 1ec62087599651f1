# Generated from ksy/nanover_recording.ksy by tools/ksy_compile.mjs
# (kaitai-struct-compiler 0.11.0, no debug mode). Do not edit by hand:
# change the .ksy file and run `python tools/generate_parsers.py`.

# type: ignore

import kaitaistruct
from kaitaistruct import KaitaiStruct, KaitaiStream, BytesIO
from . import protobuf_wire
from enum import IntEnum


if getattr(kaitaistruct, 'API_VERSION', (0, 9)) < (0, 11):
    raise Exception("Incompatible Kaitai Struct Python API: 0.11 or later is required, but you have %s" % (kaitaistruct.__version__))

class NanoverRecording(KaitaiStruct):
    """The recording files of NanoVer servers and recorders from July 2023 to
    October 2025 (format version 2): a 16-byte header (magic, version), then
    records back to back until the end of the file, with no index, footer or
    checksum. A record is a 16-byte timestamp (microseconds since the
    recording clock started), an 8-byte payload length and a serialized
    protobuf message: `GetFrameResponse` in a `.traj` file, `StateUpdate` in a
    `.state` file. Nothing in the file says which, so the caller passes `kind`.
    
    The payloads are typed on top of the generic wire layer
    (`protobuf_wire.ksy`): each message is a sequence of fields whose tag
    selects a typed body; a field the message does not define, or a known
    field with another wire type, is read as an unknown field
    (`protobuf_wire::field_body`), as the protobuf runtime keeps it. Repeated
    scalars are read both packed and unpacked. Nesting (Value inside Struct or
    ListValue) is limited by the `depth` parameters to what the protobuf
    runtime accepts.
    
    Parsing record by record: `header` and `record(kind)` never refer to
    `_root`, so a caller may read the header once and then records one at a
    time from the same stream.
    
    .. seealso::
       docs/formats/nanover.md#layout recspec's NanoVer format document, "Container layout"
    """

    class RecordKind(IntEnum):
        traj = 1
        state = 2
    def __init__(self, kind, _io, _parent=None, _root=None):
        super(NanoverRecording, self).__init__(_io)
        self._parent = _parent
        self._root = _root or self
        self.kind = kind
        self._read()

    def _read(self):
        self.header = NanoverRecording.Header(self._io, self, self._root)
        self.records = []
        i = 0
        while not self._io.is_eof():
            self.records.append(NanoverRecording.Record(self.kind, self._io, self, self._root))
            i += 1



    def _fetch_instances(self):
        pass
        self.header._fetch_instances()
        for i in range(len(self.records)):
            pass
            self.records[i]._fetch_instances()


    class ArrayEntry(KaitaiStruct):
        """A map entry: key = 1 (string), value = 2 (ValueArray)."""
        def __init__(self, _io, _parent=None, _root=None):
            super(NanoverRecording.ArrayEntry, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.fields = []
            i = 0
            while not self._io.is_eof():
                self.fields.append(NanoverRecording.ArrayEntryField(self._io, self, self._root))
                i += 1



        def _fetch_instances(self):
            pass
            for i in range(len(self.fields)):
                pass
                self.fields[i]._fetch_instances()



    class ArrayEntryField(KaitaiStruct):
        def __init__(self, _io, _parent=None, _root=None):
            super(NanoverRecording.ArrayEntryField, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.tag = protobuf_wire.ProtobufWire.Tag(self._io)
            _on = self.tag.key.value
            if _on == 10:
                pass
                self.body = NanoverRecording.LenString(self._io, self, self._root)
            elif _on == 18:
                pass
                self.body = NanoverRecording.LenValueArray(self._io, self, self._root)
            else:
                pass
                self.body = protobuf_wire.ProtobufWire.FieldBody(self.tag.wire_type, self._io)


        def _fetch_instances(self):
            pass
            self.tag._fetch_instances()
            _on = self.tag.key.value
            if _on == 10:
                pass
                self.body._fetch_instances()
            elif _on == 18:
                pass
                self.body._fetch_instances()
            else:
                pass
                self.body._fetch_instances()


    class FloatArray(KaitaiStruct):
        """values = 1, repeated float, packed (one length-delimited run) or not (fixed32 each)."""
        def __init__(self, _io, _parent=None, _root=None):
            super(NanoverRecording.FloatArray, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.fields = []
            i = 0
            while not self._io.is_eof():
                self.fields.append(NanoverRecording.FloatArrayField(self._io, self, self._root))
                i += 1



        def _fetch_instances(self):
            pass
            for i in range(len(self.fields)):
                pass
                self.fields[i]._fetch_instances()



    class FloatArrayField(KaitaiStruct):
        def __init__(self, _io, _parent=None, _root=None):
            super(NanoverRecording.FloatArrayField, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.tag = protobuf_wire.ProtobufWire.Tag(self._io)
            _on = self.tag.key.value
            if _on == 10:
                pass
                self.body = NanoverRecording.PackedFloats(self._io, self, self._root)
            elif _on == 13:
                pass
                self.body = self._io.read_f4le()
            else:
                pass
                self.body = protobuf_wire.ProtobufWire.FieldBody(self.tag.wire_type, self._io)


        def _fetch_instances(self):
            pass
            self.tag._fetch_instances()
            _on = self.tag.key.value
            if _on == 10:
                pass
                self.body._fetch_instances()
            elif _on == 13:
                pass
            else:
                pass
                self.body._fetch_instances()


    class Floats(KaitaiStruct):
        def __init__(self, _io, _parent=None, _root=None):
            super(NanoverRecording.Floats, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.values = []
            i = 0
            while not self._io.is_eof():
                self.values.append(self._io.read_f4le())
                i += 1



        def _fetch_instances(self):
            pass
            for i in range(len(self.values)):
                pass



    class FrameData(KaitaiStruct):
        """values = 1 (map<string, Value>), arrays = 2 (map<string, ValueArray>)."""
        def __init__(self, _io, _parent=None, _root=None):
            super(NanoverRecording.FrameData, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.fields = []
            i = 0
            while not self._io.is_eof():
                self.fields.append(NanoverRecording.FrameDataField(self._io, self, self._root))
                i += 1



        def _fetch_instances(self):
            pass
            for i in range(len(self.fields)):
                pass
                self.fields[i]._fetch_instances()



    class FrameDataField(KaitaiStruct):
        def __init__(self, _io, _parent=None, _root=None):
            super(NanoverRecording.FrameDataField, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.tag = protobuf_wire.ProtobufWire.Tag(self._io)
            _on = self.tag.key.value
            if _on == 10:
                pass
                self.body = NanoverRecording.LenValueEntry(0, self._io, self, self._root)
            elif _on == 18:
                pass
                self.body = NanoverRecording.LenArrayEntry(self._io, self, self._root)
            else:
                pass
                self.body = protobuf_wire.ProtobufWire.FieldBody(self.tag.wire_type, self._io)


        def _fetch_instances(self):
            pass
            self.tag._fetch_instances()
            _on = self.tag.key.value
            if _on == 10:
                pass
                self.body._fetch_instances()
            elif _on == 18:
                pass
                self.body._fetch_instances()
            else:
                pass
                self.body._fetch_instances()


    class GetFrameResponse(KaitaiStruct):
        """The .traj payload: frame_index = 1 (uint32), frame = 2 (FrameData)."""
        def __init__(self, _io, _parent=None, _root=None):
            super(NanoverRecording.GetFrameResponse, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.fields = []
            i = 0
            while not self._io.is_eof():
                self.fields.append(NanoverRecording.GetFrameResponseField(self._io, self, self._root))
                i += 1



        def _fetch_instances(self):
            pass
            for i in range(len(self.fields)):
                pass
                self.fields[i]._fetch_instances()



    class GetFrameResponseField(KaitaiStruct):
        def __init__(self, _io, _parent=None, _root=None):
            super(NanoverRecording.GetFrameResponseField, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.tag = protobuf_wire.ProtobufWire.Tag(self._io)
            _on = self.tag.key.value
            if _on == 18:
                pass
                self.body = NanoverRecording.LenFrameData(self._io, self, self._root)
            elif _on == 8:
                pass
                self.body = protobuf_wire.ProtobufWire.Varint(10, self._io)
            else:
                pass
                self.body = protobuf_wire.ProtobufWire.FieldBody(self.tag.wire_type, self._io)


        def _fetch_instances(self):
            pass
            self.tag._fetch_instances()
            _on = self.tag.key.value
            if _on == 18:
                pass
                self.body._fetch_instances()
            elif _on == 8:
                pass
                self.body._fetch_instances()
            else:
                pass
                self.body._fetch_instances()


    class Header(KaitaiStruct):
        """Two little-endian u64 values."""
        def __init__(self, _io, _parent=None, _root=None):
            super(NanoverRecording.Header, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.magic = self._io.read_u8le()
            if not self.magic == 6661355757386708963:
                raise kaitaistruct.ValidationNotEqualError(6661355757386708963, self.magic, self._io, u"/types/header/seq/0")
            self.version = self._io.read_u8le()


        def _fetch_instances(self):
            pass


    class IndexArray(KaitaiStruct):
        """values = 1, repeated uint32, packed (one length-delimited run of varints) or not."""
        def __init__(self, _io, _parent=None, _root=None):
            super(NanoverRecording.IndexArray, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.fields = []
            i = 0
            while not self._io.is_eof():
                self.fields.append(NanoverRecording.IndexArrayField(self._io, self, self._root))
                i += 1



        def _fetch_instances(self):
            pass
            for i in range(len(self.fields)):
                pass
                self.fields[i]._fetch_instances()



    class IndexArrayField(KaitaiStruct):
        def __init__(self, _io, _parent=None, _root=None):
            super(NanoverRecording.IndexArrayField, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.tag = protobuf_wire.ProtobufWire.Tag(self._io)
            _on = self.tag.key.value
            if _on == 10:
                pass
                self.body = NanoverRecording.PackedVarints(self._io, self, self._root)
            elif _on == 8:
                pass
                self.body = protobuf_wire.ProtobufWire.Varint(10, self._io)
            else:
                pass
                self.body = protobuf_wire.ProtobufWire.FieldBody(self.tag.wire_type, self._io)


        def _fetch_instances(self):
            pass
            self.tag._fetch_instances()
            _on = self.tag.key.value
            if _on == 10:
                pass
                self.body._fetch_instances()
            elif _on == 8:
                pass
                self.body._fetch_instances()
            else:
                pass
                self.body._fetch_instances()


    class LenArrayEntry(KaitaiStruct):
        def __init__(self, _io, _parent=None, _root=None):
            super(NanoverRecording.LenArrayEntry, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.len_body = protobuf_wire.ProtobufWire.Varint(10, self._io)
            self._raw_body = self._io.read_bytes(self.len_body.value)
            _io__raw_body = KaitaiStream(BytesIO(self._raw_body))
            self.body = NanoverRecording.ArrayEntry(_io__raw_body, self, self._root)


        def _fetch_instances(self):
            pass
            self.len_body._fetch_instances()
            self.body._fetch_instances()


    class LenFloatArray(KaitaiStruct):
        def __init__(self, _io, _parent=None, _root=None):
            super(NanoverRecording.LenFloatArray, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.len_body = protobuf_wire.ProtobufWire.Varint(10, self._io)
            self._raw_body = self._io.read_bytes(self.len_body.value)
            _io__raw_body = KaitaiStream(BytesIO(self._raw_body))
            self.body = NanoverRecording.FloatArray(_io__raw_body, self, self._root)


        def _fetch_instances(self):
            pass
            self.len_body._fetch_instances()
            self.body._fetch_instances()


    class LenFrameData(KaitaiStruct):
        def __init__(self, _io, _parent=None, _root=None):
            super(NanoverRecording.LenFrameData, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.len_body = protobuf_wire.ProtobufWire.Varint(10, self._io)
            self._raw_body = self._io.read_bytes(self.len_body.value)
            _io__raw_body = KaitaiStream(BytesIO(self._raw_body))
            self.body = NanoverRecording.FrameData(_io__raw_body, self, self._root)


        def _fetch_instances(self):
            pass
            self.len_body._fetch_instances()
            self.body._fetch_instances()


    class LenIndexArray(KaitaiStruct):
        def __init__(self, _io, _parent=None, _root=None):
            super(NanoverRecording.LenIndexArray, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.len_body = protobuf_wire.ProtobufWire.Varint(10, self._io)
            self._raw_body = self._io.read_bytes(self.len_body.value)
            _io__raw_body = KaitaiStream(BytesIO(self._raw_body))
            self.body = NanoverRecording.IndexArray(_io__raw_body, self, self._root)


        def _fetch_instances(self):
            pass
            self.len_body._fetch_instances()
            self.body._fetch_instances()


    class LenListValue(KaitaiStruct):
        def __init__(self, depth, _io, _parent=None, _root=None):
            super(NanoverRecording.LenListValue, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self.depth = depth
            self._read()

        def _read(self):
            self.len_body = protobuf_wire.ProtobufWire.Varint(10, self._io)
            self.is_within_nesting_limit = self._io.read_bytes(0)
            _ = self.is_within_nesting_limit
            if not self.depth < 32:
                raise kaitaistruct.ValidationExprError(self.is_within_nesting_limit, self._io, u"/types/len_list_value/seq/1")
            self._raw_body = self._io.read_bytes(self.len_body.value)
            _io__raw_body = KaitaiStream(BytesIO(self._raw_body))
            self.body = NanoverRecording.ListValue(self.depth, _io__raw_body, self, self._root)


        def _fetch_instances(self):
            pass
            self.len_body._fetch_instances()
            self.body._fetch_instances()


    class LenString(KaitaiStruct):
        """A proto3 string; bytes that are not UTF-8 are rejected, as the runtime does."""
        def __init__(self, _io, _parent=None, _root=None):
            super(NanoverRecording.LenString, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.len_value = protobuf_wire.ProtobufWire.Varint(10, self._io)
            self.value = (self._io.read_bytes(self.len_value.value)).decode(u"UTF-8")


        def _fetch_instances(self):
            pass
            self.len_value._fetch_instances()


    class LenStringArray(KaitaiStruct):
        def __init__(self, _io, _parent=None, _root=None):
            super(NanoverRecording.LenStringArray, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.len_body = protobuf_wire.ProtobufWire.Varint(10, self._io)
            self._raw_body = self._io.read_bytes(self.len_body.value)
            _io__raw_body = KaitaiStream(BytesIO(self._raw_body))
            self.body = NanoverRecording.StringArray(_io__raw_body, self, self._root)


        def _fetch_instances(self):
            pass
            self.len_body._fetch_instances()
            self.body._fetch_instances()


    class LenStruct(KaitaiStruct):
        def __init__(self, depth, _io, _parent=None, _root=None):
            super(NanoverRecording.LenStruct, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self.depth = depth
            self._read()

        def _read(self):
            self.len_body = protobuf_wire.ProtobufWire.Varint(10, self._io)
            self.is_within_nesting_limit = self._io.read_bytes(0)
            _ = self.is_within_nesting_limit
            if not self.depth < self.max_nesting:
                raise kaitaistruct.ValidationExprError(self.is_within_nesting_limit, self._io, u"/types/len_struct/seq/1")
            self._raw_body = self._io.read_bytes(self.len_body.value)
            _io__raw_body = KaitaiStream(BytesIO(self._raw_body))
            self.body = NanoverRecording.Struct(self.depth, _io__raw_body, self, self._root)


        def _fetch_instances(self):
            pass
            self.len_body._fetch_instances()
            self.body._fetch_instances()

        @property
        def max_nesting(self):
            """Structs, lists and values nested deeper than this are rejected.
            recspec's own limit (`MAX_NESTING` of the reference), well below the
            protobuf runtime's recursion limit.
            """
            if hasattr(self, '_m_max_nesting'):
                return self._m_max_nesting

            self._m_max_nesting = 32
            return getattr(self, '_m_max_nesting', None)


    class LenValue(KaitaiStruct):
        def __init__(self, depth, _io, _parent=None, _root=None):
            super(NanoverRecording.LenValue, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self.depth = depth
            self._read()

        def _read(self):
            self.len_body = protobuf_wire.ProtobufWire.Varint(10, self._io)
            self._raw_body = self._io.read_bytes(self.len_body.value)
            _io__raw_body = KaitaiStream(BytesIO(self._raw_body))
            self.body = NanoverRecording.Value(self.depth, _io__raw_body, self, self._root)


        def _fetch_instances(self):
            pass
            self.len_body._fetch_instances()
            self.body._fetch_instances()


    class LenValueArray(KaitaiStruct):
        def __init__(self, _io, _parent=None, _root=None):
            super(NanoverRecording.LenValueArray, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.len_body = protobuf_wire.ProtobufWire.Varint(10, self._io)
            self._raw_body = self._io.read_bytes(self.len_body.value)
            _io__raw_body = KaitaiStream(BytesIO(self._raw_body))
            self.body = NanoverRecording.ValueArray(_io__raw_body, self, self._root)


        def _fetch_instances(self):
            pass
            self.len_body._fetch_instances()
            self.body._fetch_instances()


    class LenValueEntry(KaitaiStruct):
        def __init__(self, depth, _io, _parent=None, _root=None):
            super(NanoverRecording.LenValueEntry, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self.depth = depth
            self._read()

        def _read(self):
            self.len_body = protobuf_wire.ProtobufWire.Varint(10, self._io)
            self._raw_body = self._io.read_bytes(self.len_body.value)
            _io__raw_body = KaitaiStream(BytesIO(self._raw_body))
            self.body = NanoverRecording.ValueEntry(self.depth, _io__raw_body, self, self._root)


        def _fetch_instances(self):
            pass
            self.len_body._fetch_instances()
            self.body._fetch_instances()


    class ListValue(KaitaiStruct):
        """google.protobuf.ListValue: values = 1 (repeated Value)."""
        def __init__(self, depth, _io, _parent=None, _root=None):
            super(NanoverRecording.ListValue, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self.depth = depth
            self._read()

        def _read(self):
            self.fields = []
            i = 0
            while not self._io.is_eof():
                self.fields.append(NanoverRecording.ListValueField(self.depth, self._io, self, self._root))
                i += 1



        def _fetch_instances(self):
            pass
            for i in range(len(self.fields)):
                pass
                self.fields[i]._fetch_instances()



    class ListValueField(KaitaiStruct):
        def __init__(self, depth, _io, _parent=None, _root=None):
            super(NanoverRecording.ListValueField, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self.depth = depth
            self._read()

        def _read(self):
            self.tag = protobuf_wire.ProtobufWire.Tag(self._io)
            _on = self.tag.key.value
            if _on == 10:
                pass
                self.body = NanoverRecording.LenValue(self.depth, self._io, self, self._root)
            else:
                pass
                self.body = protobuf_wire.ProtobufWire.FieldBody(self.tag.wire_type, self._io)


        def _fetch_instances(self):
            pass
            self.tag._fetch_instances()
            _on = self.tag.key.value
            if _on == 10:
                pass
                self.body._fetch_instances()
            else:
                pass
                self.body._fetch_instances()


    class PackedFloats(KaitaiStruct):
        def __init__(self, _io, _parent=None, _root=None):
            super(NanoverRecording.PackedFloats, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.len_values = protobuf_wire.ProtobufWire.Varint(10, self._io)
            self._raw_values = self._io.read_bytes(self.len_values.value)
            _io__raw_values = KaitaiStream(BytesIO(self._raw_values))
            self.values = NanoverRecording.Floats(_io__raw_values, self, self._root)


        def _fetch_instances(self):
            pass
            self.len_values._fetch_instances()
            self.values._fetch_instances()


    class PackedVarints(KaitaiStruct):
        def __init__(self, _io, _parent=None, _root=None):
            super(NanoverRecording.PackedVarints, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.len_values = protobuf_wire.ProtobufWire.Varint(10, self._io)
            self._raw_values = self._io.read_bytes(self.len_values.value)
            _io__raw_values = KaitaiStream(BytesIO(self._raw_values))
            self.values = NanoverRecording.Varints(_io__raw_values, self, self._root)


        def _fetch_instances(self):
            pass
            self.len_values._fetch_instances()
            self.values._fetch_instances()


    class Record(KaitaiStruct):
        def __init__(self, kind, _io, _parent=None, _root=None):
            super(NanoverRecording.Record, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self.kind = kind
            self._read()

        def _read(self):
            self.timestamp_low = self._io.read_u8le()
            self.timestamp_high = self._io.read_u8le()
            self.len_payload = self._io.read_u8le()
            _on = self.kind
            if _on == NanoverRecording.RecordKind.state:
                pass
                self._raw_payload = self._io.read_bytes(self.len_payload)
                _io__raw_payload = KaitaiStream(BytesIO(self._raw_payload))
                self.payload = NanoverRecording.StateUpdate(_io__raw_payload, self, self._root)
            elif _on == NanoverRecording.RecordKind.traj:
                pass
                self._raw_payload = self._io.read_bytes(self.len_payload)
                _io__raw_payload = KaitaiStream(BytesIO(self._raw_payload))
                self.payload = NanoverRecording.GetFrameResponse(_io__raw_payload, self, self._root)
            else:
                pass
                self.payload = self._io.read_bytes(self.len_payload)


        def _fetch_instances(self):
            pass
            _on = self.kind
            if _on == NanoverRecording.RecordKind.state:
                pass
                self.payload._fetch_instances()
            elif _on == NanoverRecording.RecordKind.traj:
                pass
                self.payload._fetch_instances()
            else:
                pass

        @property
        def timestamp_us(self):
            if hasattr(self, '_m_timestamp_us'):
                return self._m_timestamp_us

            self._m_timestamp_us = self.timestamp_high << 64 | self.timestamp_low
            return getattr(self, '_m_timestamp_us', None)


    class StateUpdate(KaitaiStruct):
        """The .state payload: changed_keys = 1 (google.protobuf.Struct)."""
        def __init__(self, _io, _parent=None, _root=None):
            super(NanoverRecording.StateUpdate, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.fields = []
            i = 0
            while not self._io.is_eof():
                self.fields.append(NanoverRecording.StateUpdateField(self._io, self, self._root))
                i += 1



        def _fetch_instances(self):
            pass
            for i in range(len(self.fields)):
                pass
                self.fields[i]._fetch_instances()



    class StateUpdateField(KaitaiStruct):
        def __init__(self, _io, _parent=None, _root=None):
            super(NanoverRecording.StateUpdateField, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.tag = protobuf_wire.ProtobufWire.Tag(self._io)
            _on = self.tag.key.value
            if _on == 10:
                pass
                self.body = NanoverRecording.LenStruct(0, self._io, self, self._root)
            else:
                pass
                self.body = protobuf_wire.ProtobufWire.FieldBody(self.tag.wire_type, self._io)


        def _fetch_instances(self):
            pass
            self.tag._fetch_instances()
            _on = self.tag.key.value
            if _on == 10:
                pass
                self.body._fetch_instances()
            else:
                pass
                self.body._fetch_instances()


    class StringArray(KaitaiStruct):
        """values = 1, repeated string (one length-delimited field per element)."""
        def __init__(self, _io, _parent=None, _root=None):
            super(NanoverRecording.StringArray, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.fields = []
            i = 0
            while not self._io.is_eof():
                self.fields.append(NanoverRecording.StringArrayField(self._io, self, self._root))
                i += 1



        def _fetch_instances(self):
            pass
            for i in range(len(self.fields)):
                pass
                self.fields[i]._fetch_instances()



    class StringArrayField(KaitaiStruct):
        def __init__(self, _io, _parent=None, _root=None):
            super(NanoverRecording.StringArrayField, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.tag = protobuf_wire.ProtobufWire.Tag(self._io)
            _on = self.tag.key.value
            if _on == 10:
                pass
                self.body = NanoverRecording.LenString(self._io, self, self._root)
            else:
                pass
                self.body = protobuf_wire.ProtobufWire.FieldBody(self.tag.wire_type, self._io)


        def _fetch_instances(self):
            pass
            self.tag._fetch_instances()
            _on = self.tag.key.value
            if _on == 10:
                pass
                self.body._fetch_instances()
            else:
                pass
                self.body._fetch_instances()


    class Struct(KaitaiStruct):
        """google.protobuf.Struct: fields = 1 (map<string, Value>)."""
        def __init__(self, depth, _io, _parent=None, _root=None):
            super(NanoverRecording.Struct, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self.depth = depth
            self._read()

        def _read(self):
            self.fields = []
            i = 0
            while not self._io.is_eof():
                self.fields.append(NanoverRecording.StructField(self.depth, self._io, self, self._root))
                i += 1



        def _fetch_instances(self):
            pass
            for i in range(len(self.fields)):
                pass
                self.fields[i]._fetch_instances()



    class StructField(KaitaiStruct):
        def __init__(self, depth, _io, _parent=None, _root=None):
            super(NanoverRecording.StructField, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self.depth = depth
            self._read()

        def _read(self):
            self.tag = protobuf_wire.ProtobufWire.Tag(self._io)
            _on = self.tag.key.value
            if _on == 10:
                pass
                self.body = NanoverRecording.LenValueEntry(self.depth, self._io, self, self._root)
            else:
                pass
                self.body = protobuf_wire.ProtobufWire.FieldBody(self.tag.wire_type, self._io)


        def _fetch_instances(self):
            pass
            self.tag._fetch_instances()
            _on = self.tag.key.value
            if _on == 10:
                pass
                self.body._fetch_instances()
            else:
                pass
                self.body._fetch_instances()


    class Value(KaitaiStruct):
        """google.protobuf.Value, oneof kind: null_value = 1 (enum, varint),
        number_value = 2 (double), string_value = 3, bool_value = 4,
        struct_value = 5 (Struct), list_value = 6 (ListValue).
        """
        def __init__(self, depth, _io, _parent=None, _root=None):
            super(NanoverRecording.Value, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self.depth = depth
            self._read()

        def _read(self):
            self.fields = []
            i = 0
            while not self._io.is_eof():
                self.fields.append(NanoverRecording.ValueField(self.depth, self._io, self, self._root))
                i += 1



        def _fetch_instances(self):
            pass
            for i in range(len(self.fields)):
                pass
                self.fields[i]._fetch_instances()



    class ValueArray(KaitaiStruct):
        """oneof values: float_values = 1, index_values = 2, string_values = 3."""
        def __init__(self, _io, _parent=None, _root=None):
            super(NanoverRecording.ValueArray, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.fields = []
            i = 0
            while not self._io.is_eof():
                self.fields.append(NanoverRecording.ValueArrayField(self._io, self, self._root))
                i += 1



        def _fetch_instances(self):
            pass
            for i in range(len(self.fields)):
                pass
                self.fields[i]._fetch_instances()



    class ValueArrayField(KaitaiStruct):
        def __init__(self, _io, _parent=None, _root=None):
            super(NanoverRecording.ValueArrayField, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.tag = protobuf_wire.ProtobufWire.Tag(self._io)
            _on = self.tag.key.value
            if _on == 10:
                pass
                self.body = NanoverRecording.LenFloatArray(self._io, self, self._root)
            elif _on == 18:
                pass
                self.body = NanoverRecording.LenIndexArray(self._io, self, self._root)
            elif _on == 26:
                pass
                self.body = NanoverRecording.LenStringArray(self._io, self, self._root)
            else:
                pass
                self.body = protobuf_wire.ProtobufWire.FieldBody(self.tag.wire_type, self._io)


        def _fetch_instances(self):
            pass
            self.tag._fetch_instances()
            _on = self.tag.key.value
            if _on == 10:
                pass
                self.body._fetch_instances()
            elif _on == 18:
                pass
                self.body._fetch_instances()
            elif _on == 26:
                pass
                self.body._fetch_instances()
            else:
                pass
                self.body._fetch_instances()


    class ValueEntry(KaitaiStruct):
        """A map entry: key = 1 (string), value = 2 (google.protobuf.Value)."""
        def __init__(self, depth, _io, _parent=None, _root=None):
            super(NanoverRecording.ValueEntry, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self.depth = depth
            self._read()

        def _read(self):
            self.fields = []
            i = 0
            while not self._io.is_eof():
                self.fields.append(NanoverRecording.ValueEntryField(self.depth, self._io, self, self._root))
                i += 1



        def _fetch_instances(self):
            pass
            for i in range(len(self.fields)):
                pass
                self.fields[i]._fetch_instances()



    class ValueEntryField(KaitaiStruct):
        def __init__(self, depth, _io, _parent=None, _root=None):
            super(NanoverRecording.ValueEntryField, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self.depth = depth
            self._read()

        def _read(self):
            self.tag = protobuf_wire.ProtobufWire.Tag(self._io)
            _on = self.tag.key.value
            if _on == 10:
                pass
                self.body = NanoverRecording.LenString(self._io, self, self._root)
            elif _on == 18:
                pass
                self.body = NanoverRecording.LenValue(self.depth, self._io, self, self._root)
            else:
                pass
                self.body = protobuf_wire.ProtobufWire.FieldBody(self.tag.wire_type, self._io)


        def _fetch_instances(self):
            pass
            self.tag._fetch_instances()
            _on = self.tag.key.value
            if _on == 10:
                pass
                self.body._fetch_instances()
            elif _on == 18:
                pass
                self.body._fetch_instances()
            else:
                pass
                self.body._fetch_instances()


    class ValueField(KaitaiStruct):
        def __init__(self, depth, _io, _parent=None, _root=None):
            super(NanoverRecording.ValueField, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self.depth = depth
            self._read()

        def _read(self):
            self.tag = protobuf_wire.ProtobufWire.Tag(self._io)
            _on = self.tag.key.value
            if _on == 17:
                pass
                self.body = self._io.read_f8le()
            elif _on == 26:
                pass
                self.body = NanoverRecording.LenString(self._io, self, self._root)
            elif _on == 32:
                pass
                self.body = protobuf_wire.ProtobufWire.Varint(10, self._io)
            elif _on == 42:
                pass
                self.body = NanoverRecording.LenStruct(self.depth + 1, self._io, self, self._root)
            elif _on == 50:
                pass
                self.body = NanoverRecording.LenListValue(self.depth + 1, self._io, self, self._root)
            elif _on == 8:
                pass
                self.body = protobuf_wire.ProtobufWire.Varint(10, self._io)
            else:
                pass
                self.body = protobuf_wire.ProtobufWire.FieldBody(self.tag.wire_type, self._io)


        def _fetch_instances(self):
            pass
            self.tag._fetch_instances()
            _on = self.tag.key.value
            if _on == 17:
                pass
            elif _on == 26:
                pass
                self.body._fetch_instances()
            elif _on == 32:
                pass
                self.body._fetch_instances()
            elif _on == 42:
                pass
                self.body._fetch_instances()
            elif _on == 50:
                pass
                self.body._fetch_instances()
            elif _on == 8:
                pass
                self.body._fetch_instances()
            else:
                pass
                self.body._fetch_instances()


    class Varints(KaitaiStruct):
        def __init__(self, _io, _parent=None, _root=None):
            super(NanoverRecording.Varints, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.values = []
            i = 0
            while not self._io.is_eof():
                self.values.append(protobuf_wire.ProtobufWire.Varint(10, self._io))
                i += 1



        def _fetch_instances(self):
            pass
            for i in range(len(self.values)):
                pass
                self.values[i]._fetch_instances()
