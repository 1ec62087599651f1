# Generated from ksy/nanover_recording.ksy by tools/ksy_compile.mjs
# (kaitai-struct-compiler 0.11.0, debug mode). Do not edit by hand:
# change the .ksy file and run `python tools/generate_parsers.py`.

# type: ignore

import kaitaistruct
from kaitaistruct import KaitaiStruct, KaitaiStream, BytesIO
from . import protobuf_wire
from enum import IntEnum
import collections


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
    SEQ_FIELDS = ["header", "records"]
    def __init__(self, kind, _io, _parent=None, _root=None):
        super(NanoverRecording, self).__init__(_io)
        self._parent = _parent
        self._root = _root or self
        self.kind = kind
        self._debug = collections.defaultdict(dict)

    def _read(self):
        self._debug['header']['start'] = self._io.pos()
        self.header = NanoverRecording.Header(self._io, self, self._root)
        self.header._read()
        self._debug['header']['end'] = self._io.pos()
        self._debug['records']['start'] = self._io.pos()
        self._debug['records']['arr'] = []
        self.records = []
        i = 0
        while not self._io.is_eof():
            self._debug['records']['arr'].append({'start': self._io.pos()})
            _t_records = NanoverRecording.Record(self.kind, self._io, self, self._root)
            try:
                _t_records._read()
            finally:
                self.records.append(_t_records)
            self._debug['records']['arr'][len(self.records) - 1]['end'] = self._io.pos()
            i += 1

        self._debug['records']['end'] = self._io.pos()


    def _fetch_instances(self):
        pass
        self.header._fetch_instances()
        for i in range(len(self.records)):
            pass
            self.records[i]._fetch_instances()


    class ArrayEntry(KaitaiStruct):
        """A map entry: key = 1 (string), value = 2 (ValueArray)."""
        SEQ_FIELDS = ["fields"]
        def __init__(self, _io, _parent=None, _root=None):
            super(NanoverRecording.ArrayEntry, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._debug = collections.defaultdict(dict)

        def _read(self):
            self._debug['fields']['start'] = self._io.pos()
            self._debug['fields']['arr'] = []
            self.fields = []
            i = 0
            while not self._io.is_eof():
                self._debug['fields']['arr'].append({'start': self._io.pos()})
                _t_fields = NanoverRecording.ArrayEntryField(self._io, self, self._root)
                try:
                    _t_fields._read()
                finally:
                    self.fields.append(_t_fields)
                self._debug['fields']['arr'][len(self.fields) - 1]['end'] = self._io.pos()
                i += 1

            self._debug['fields']['end'] = self._io.pos()


        def _fetch_instances(self):
            pass
            for i in range(len(self.fields)):
                pass
                self.fields[i]._fetch_instances()



    class ArrayEntryField(KaitaiStruct):
        SEQ_FIELDS = ["tag", "body"]
        def __init__(self, _io, _parent=None, _root=None):
            super(NanoverRecording.ArrayEntryField, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._debug = collections.defaultdict(dict)

        def _read(self):
            self._debug['tag']['start'] = self._io.pos()
            self.tag = protobuf_wire.ProtobufWire.Tag(self._io)
            self.tag._read()
            self._debug['tag']['end'] = self._io.pos()
            self._debug['body']['start'] = self._io.pos()
            _on = self.tag.key.value
            if _on == 10:
                pass
                self.body = NanoverRecording.LenString(self._io, self, self._root)
                self.body._read()
            elif _on == 18:
                pass
                self.body = NanoverRecording.LenValueArray(self._io, self, self._root)
                self.body._read()
            else:
                pass
                self.body = protobuf_wire.ProtobufWire.FieldBody(self.tag.wire_type, self._io)
                self.body._read()
            self._debug['body']['end'] = self._io.pos()


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
        SEQ_FIELDS = ["fields"]
        def __init__(self, _io, _parent=None, _root=None):
            super(NanoverRecording.FloatArray, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._debug = collections.defaultdict(dict)

        def _read(self):
            self._debug['fields']['start'] = self._io.pos()
            self._debug['fields']['arr'] = []
            self.fields = []
            i = 0
            while not self._io.is_eof():
                self._debug['fields']['arr'].append({'start': self._io.pos()})
                _t_fields = NanoverRecording.FloatArrayField(self._io, self, self._root)
                try:
                    _t_fields._read()
                finally:
                    self.fields.append(_t_fields)
                self._debug['fields']['arr'][len(self.fields) - 1]['end'] = self._io.pos()
                i += 1

            self._debug['fields']['end'] = self._io.pos()


        def _fetch_instances(self):
            pass
            for i in range(len(self.fields)):
                pass
                self.fields[i]._fetch_instances()



    class FloatArrayField(KaitaiStruct):
        SEQ_FIELDS = ["tag", "body"]
        def __init__(self, _io, _parent=None, _root=None):
            super(NanoverRecording.FloatArrayField, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._debug = collections.defaultdict(dict)

        def _read(self):
            self._debug['tag']['start'] = self._io.pos()
            self.tag = protobuf_wire.ProtobufWire.Tag(self._io)
            self.tag._read()
            self._debug['tag']['end'] = self._io.pos()
            self._debug['body']['start'] = self._io.pos()
            _on = self.tag.key.value
            if _on == 10:
                pass
                self.body = NanoverRecording.PackedFloats(self._io, self, self._root)
                self.body._read()
            elif _on == 13:
                pass
                self.body = self._io.read_f4le()
            else:
                pass
                self.body = protobuf_wire.ProtobufWire.FieldBody(self.tag.wire_type, self._io)
                self.body._read()
            self._debug['body']['end'] = self._io.pos()


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
        SEQ_FIELDS = ["values"]
        def __init__(self, _io, _parent=None, _root=None):
            super(NanoverRecording.Floats, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._debug = collections.defaultdict(dict)

        def _read(self):
            self._debug['values']['start'] = self._io.pos()
            self._debug['values']['arr'] = []
            self.values = []
            i = 0
            while not self._io.is_eof():
                self._debug['values']['arr'].append({'start': self._io.pos()})
                self.values.append(self._io.read_f4le())
                self._debug['values']['arr'][len(self.values) - 1]['end'] = self._io.pos()
                i += 1

            self._debug['values']['end'] = self._io.pos()


        def _fetch_instances(self):
            pass
            for i in range(len(self.values)):
                pass



    class FrameData(KaitaiStruct):
        """values = 1 (map<string, Value>), arrays = 2 (map<string, ValueArray>)."""
        SEQ_FIELDS = ["fields"]
        def __init__(self, _io, _parent=None, _root=None):
            super(NanoverRecording.FrameData, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._debug = collections.defaultdict(dict)

        def _read(self):
            self._debug['fields']['start'] = self._io.pos()
            self._debug['fields']['arr'] = []
            self.fields = []
            i = 0
            while not self._io.is_eof():
                self._debug['fields']['arr'].append({'start': self._io.pos()})
                _t_fields = NanoverRecording.FrameDataField(self._io, self, self._root)
                try:
                    _t_fields._read()
                finally:
                    self.fields.append(_t_fields)
                self._debug['fields']['arr'][len(self.fields) - 1]['end'] = self._io.pos()
                i += 1

            self._debug['fields']['end'] = self._io.pos()


        def _fetch_instances(self):
            pass
            for i in range(len(self.fields)):
                pass
                self.fields[i]._fetch_instances()



    class FrameDataField(KaitaiStruct):
        SEQ_FIELDS = ["tag", "body"]
        def __init__(self, _io, _parent=None, _root=None):
            super(NanoverRecording.FrameDataField, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._debug = collections.defaultdict(dict)

        def _read(self):
            self._debug['tag']['start'] = self._io.pos()
            self.tag = protobuf_wire.ProtobufWire.Tag(self._io)
            self.tag._read()
            self._debug['tag']['end'] = self._io.pos()
            self._debug['body']['start'] = self._io.pos()
            _on = self.tag.key.value
            if _on == 10:
                pass
                self.body = NanoverRecording.LenValueEntry(0, self._io, self, self._root)
                self.body._read()
            elif _on == 18:
                pass
                self.body = NanoverRecording.LenArrayEntry(self._io, self, self._root)
                self.body._read()
            else:
                pass
                self.body = protobuf_wire.ProtobufWire.FieldBody(self.tag.wire_type, self._io)
                self.body._read()
            self._debug['body']['end'] = self._io.pos()


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
        SEQ_FIELDS = ["fields"]
        def __init__(self, _io, _parent=None, _root=None):
            super(NanoverRecording.GetFrameResponse, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._debug = collections.defaultdict(dict)

        def _read(self):
            self._debug['fields']['start'] = self._io.pos()
            self._debug['fields']['arr'] = []
            self.fields = []
            i = 0
            while not self._io.is_eof():
                self._debug['fields']['arr'].append({'start': self._io.pos()})
                _t_fields = NanoverRecording.GetFrameResponseField(self._io, self, self._root)
                try:
                    _t_fields._read()
                finally:
                    self.fields.append(_t_fields)
                self._debug['fields']['arr'][len(self.fields) - 1]['end'] = self._io.pos()
                i += 1

            self._debug['fields']['end'] = self._io.pos()


        def _fetch_instances(self):
            pass
            for i in range(len(self.fields)):
                pass
                self.fields[i]._fetch_instances()



    class GetFrameResponseField(KaitaiStruct):
        SEQ_FIELDS = ["tag", "body"]
        def __init__(self, _io, _parent=None, _root=None):
            super(NanoverRecording.GetFrameResponseField, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._debug = collections.defaultdict(dict)

        def _read(self):
            self._debug['tag']['start'] = self._io.pos()
            self.tag = protobuf_wire.ProtobufWire.Tag(self._io)
            self.tag._read()
            self._debug['tag']['end'] = self._io.pos()
            self._debug['body']['start'] = self._io.pos()
            _on = self.tag.key.value
            if _on == 18:
                pass
                self.body = NanoverRecording.LenFrameData(self._io, self, self._root)
                self.body._read()
            elif _on == 8:
                pass
                self.body = protobuf_wire.ProtobufWire.Varint(10, self._io)
                self.body._read()
            else:
                pass
                self.body = protobuf_wire.ProtobufWire.FieldBody(self.tag.wire_type, self._io)
                self.body._read()
            self._debug['body']['end'] = self._io.pos()


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
        SEQ_FIELDS = ["magic", "version"]
        def __init__(self, _io, _parent=None, _root=None):
            super(NanoverRecording.Header, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._debug = collections.defaultdict(dict)

        def _read(self):
            self._debug['magic']['start'] = self._io.pos()
            self.magic = self._io.read_u8le()
            self._debug['magic']['end'] = self._io.pos()
            if not self.magic == 6661355757386708963:
                raise kaitaistruct.ValidationNotEqualError(6661355757386708963, self.magic, self._io, u"/types/header/seq/0")
            self._debug['version']['start'] = self._io.pos()
            self.version = self._io.read_u8le()
            self._debug['version']['end'] = self._io.pos()


        def _fetch_instances(self):
            pass


    class IndexArray(KaitaiStruct):
        """values = 1, repeated uint32, packed (one length-delimited run of varints) or not."""
        SEQ_FIELDS = ["fields"]
        def __init__(self, _io, _parent=None, _root=None):
            super(NanoverRecording.IndexArray, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._debug = collections.defaultdict(dict)

        def _read(self):
            self._debug['fields']['start'] = self._io.pos()
            self._debug['fields']['arr'] = []
            self.fields = []
            i = 0
            while not self._io.is_eof():
                self._debug['fields']['arr'].append({'start': self._io.pos()})
                _t_fields = NanoverRecording.IndexArrayField(self._io, self, self._root)
                try:
                    _t_fields._read()
                finally:
                    self.fields.append(_t_fields)
                self._debug['fields']['arr'][len(self.fields) - 1]['end'] = self._io.pos()
                i += 1

            self._debug['fields']['end'] = self._io.pos()


        def _fetch_instances(self):
            pass
            for i in range(len(self.fields)):
                pass
                self.fields[i]._fetch_instances()



    class IndexArrayField(KaitaiStruct):
        SEQ_FIELDS = ["tag", "body"]
        def __init__(self, _io, _parent=None, _root=None):
            super(NanoverRecording.IndexArrayField, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._debug = collections.defaultdict(dict)

        def _read(self):
            self._debug['tag']['start'] = self._io.pos()
            self.tag = protobuf_wire.ProtobufWire.Tag(self._io)
            self.tag._read()
            self._debug['tag']['end'] = self._io.pos()
            self._debug['body']['start'] = self._io.pos()
            _on = self.tag.key.value
            if _on == 10:
                pass
                self.body = NanoverRecording.PackedVarints(self._io, self, self._root)
                self.body._read()
            elif _on == 8:
                pass
                self.body = protobuf_wire.ProtobufWire.Varint(10, self._io)
                self.body._read()
            else:
                pass
                self.body = protobuf_wire.ProtobufWire.FieldBody(self.tag.wire_type, self._io)
                self.body._read()
            self._debug['body']['end'] = self._io.pos()


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
        SEQ_FIELDS = ["len_body", "body"]
        def __init__(self, _io, _parent=None, _root=None):
            super(NanoverRecording.LenArrayEntry, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._debug = collections.defaultdict(dict)

        def _read(self):
            self._debug['len_body']['start'] = self._io.pos()
            self.len_body = protobuf_wire.ProtobufWire.Varint(10, self._io)
            self.len_body._read()
            self._debug['len_body']['end'] = self._io.pos()
            self._debug['body']['start'] = self._io.pos()
            self._raw_body = self._io.read_bytes(self.len_body.value)
            _io__raw_body = KaitaiStream(BytesIO(self._raw_body))
            self.body = NanoverRecording.ArrayEntry(_io__raw_body, self, self._root)
            self.body._read()
            self._debug['body']['end'] = self._io.pos()


        def _fetch_instances(self):
            pass
            self.len_body._fetch_instances()
            self.body._fetch_instances()


    class LenFloatArray(KaitaiStruct):
        SEQ_FIELDS = ["len_body", "body"]
        def __init__(self, _io, _parent=None, _root=None):
            super(NanoverRecording.LenFloatArray, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._debug = collections.defaultdict(dict)

        def _read(self):
            self._debug['len_body']['start'] = self._io.pos()
            self.len_body = protobuf_wire.ProtobufWire.Varint(10, self._io)
            self.len_body._read()
            self._debug['len_body']['end'] = self._io.pos()
            self._debug['body']['start'] = self._io.pos()
            self._raw_body = self._io.read_bytes(self.len_body.value)
            _io__raw_body = KaitaiStream(BytesIO(self._raw_body))
            self.body = NanoverRecording.FloatArray(_io__raw_body, self, self._root)
            self.body._read()
            self._debug['body']['end'] = self._io.pos()


        def _fetch_instances(self):
            pass
            self.len_body._fetch_instances()
            self.body._fetch_instances()


    class LenFrameData(KaitaiStruct):
        SEQ_FIELDS = ["len_body", "body"]
        def __init__(self, _io, _parent=None, _root=None):
            super(NanoverRecording.LenFrameData, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._debug = collections.defaultdict(dict)

        def _read(self):
            self._debug['len_body']['start'] = self._io.pos()
            self.len_body = protobuf_wire.ProtobufWire.Varint(10, self._io)
            self.len_body._read()
            self._debug['len_body']['end'] = self._io.pos()
            self._debug['body']['start'] = self._io.pos()
            self._raw_body = self._io.read_bytes(self.len_body.value)
            _io__raw_body = KaitaiStream(BytesIO(self._raw_body))
            self.body = NanoverRecording.FrameData(_io__raw_body, self, self._root)
            self.body._read()
            self._debug['body']['end'] = self._io.pos()


        def _fetch_instances(self):
            pass
            self.len_body._fetch_instances()
            self.body._fetch_instances()


    class LenIndexArray(KaitaiStruct):
        SEQ_FIELDS = ["len_body", "body"]
        def __init__(self, _io, _parent=None, _root=None):
            super(NanoverRecording.LenIndexArray, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._debug = collections.defaultdict(dict)

        def _read(self):
            self._debug['len_body']['start'] = self._io.pos()
            self.len_body = protobuf_wire.ProtobufWire.Varint(10, self._io)
            self.len_body._read()
            self._debug['len_body']['end'] = self._io.pos()
            self._debug['body']['start'] = self._io.pos()
            self._raw_body = self._io.read_bytes(self.len_body.value)
            _io__raw_body = KaitaiStream(BytesIO(self._raw_body))
            self.body = NanoverRecording.IndexArray(_io__raw_body, self, self._root)
            self.body._read()
            self._debug['body']['end'] = self._io.pos()


        def _fetch_instances(self):
            pass
            self.len_body._fetch_instances()
            self.body._fetch_instances()


    class LenListValue(KaitaiStruct):
        SEQ_FIELDS = ["len_body", "is_within_nesting_limit", "body"]
        def __init__(self, depth, _io, _parent=None, _root=None):
            super(NanoverRecording.LenListValue, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self.depth = depth
            self._debug = collections.defaultdict(dict)

        def _read(self):
            self._debug['len_body']['start'] = self._io.pos()
            self.len_body = protobuf_wire.ProtobufWire.Varint(10, self._io)
            self.len_body._read()
            self._debug['len_body']['end'] = self._io.pos()
            self._debug['is_within_nesting_limit']['start'] = self._io.pos()
            self.is_within_nesting_limit = self._io.read_bytes(0)
            self._debug['is_within_nesting_limit']['end'] = self._io.pos()
            _ = self.is_within_nesting_limit
            if not self.depth < 32:
                raise kaitaistruct.ValidationExprError(self.is_within_nesting_limit, self._io, u"/types/len_list_value/seq/1")
            self._debug['body']['start'] = self._io.pos()
            self._raw_body = self._io.read_bytes(self.len_body.value)
            _io__raw_body = KaitaiStream(BytesIO(self._raw_body))
            self.body = NanoverRecording.ListValue(self.depth, _io__raw_body, self, self._root)
            self.body._read()
            self._debug['body']['end'] = self._io.pos()


        def _fetch_instances(self):
            pass
            self.len_body._fetch_instances()
            self.body._fetch_instances()


    class LenString(KaitaiStruct):
        """A proto3 string; bytes that are not UTF-8 are rejected, as the runtime does."""
        SEQ_FIELDS = ["len_value", "value"]
        def __init__(self, _io, _parent=None, _root=None):
            super(NanoverRecording.LenString, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._debug = collections.defaultdict(dict)

        def _read(self):
            self._debug['len_value']['start'] = self._io.pos()
            self.len_value = protobuf_wire.ProtobufWire.Varint(10, self._io)
            self.len_value._read()
            self._debug['len_value']['end'] = self._io.pos()
            self._debug['value']['start'] = self._io.pos()
            self.value = (self._io.read_bytes(self.len_value.value)).decode(u"UTF-8")
            self._debug['value']['end'] = self._io.pos()


        def _fetch_instances(self):
            pass
            self.len_value._fetch_instances()


    class LenStringArray(KaitaiStruct):
        SEQ_FIELDS = ["len_body", "body"]
        def __init__(self, _io, _parent=None, _root=None):
            super(NanoverRecording.LenStringArray, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._debug = collections.defaultdict(dict)

        def _read(self):
            self._debug['len_body']['start'] = self._io.pos()
            self.len_body = protobuf_wire.ProtobufWire.Varint(10, self._io)
            self.len_body._read()
            self._debug['len_body']['end'] = self._io.pos()
            self._debug['body']['start'] = self._io.pos()
            self._raw_body = self._io.read_bytes(self.len_body.value)
            _io__raw_body = KaitaiStream(BytesIO(self._raw_body))
            self.body = NanoverRecording.StringArray(_io__raw_body, self, self._root)
            self.body._read()
            self._debug['body']['end'] = self._io.pos()


        def _fetch_instances(self):
            pass
            self.len_body._fetch_instances()
            self.body._fetch_instances()


    class LenStruct(KaitaiStruct):
        SEQ_FIELDS = ["len_body", "is_within_nesting_limit", "body"]
        def __init__(self, depth, _io, _parent=None, _root=None):
            super(NanoverRecording.LenStruct, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self.depth = depth
            self._debug = collections.defaultdict(dict)

        def _read(self):
            self._debug['len_body']['start'] = self._io.pos()
            self.len_body = protobuf_wire.ProtobufWire.Varint(10, self._io)
            self.len_body._read()
            self._debug['len_body']['end'] = self._io.pos()
            self._debug['is_within_nesting_limit']['start'] = self._io.pos()
            self.is_within_nesting_limit = self._io.read_bytes(0)
            self._debug['is_within_nesting_limit']['end'] = self._io.pos()
            _ = self.is_within_nesting_limit
            if not self.depth < self.max_nesting:
                raise kaitaistruct.ValidationExprError(self.is_within_nesting_limit, self._io, u"/types/len_struct/seq/1")
            self._debug['body']['start'] = self._io.pos()
            self._raw_body = self._io.read_bytes(self.len_body.value)
            _io__raw_body = KaitaiStream(BytesIO(self._raw_body))
            self.body = NanoverRecording.Struct(self.depth, _io__raw_body, self, self._root)
            self.body._read()
            self._debug['body']['end'] = self._io.pos()


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
        SEQ_FIELDS = ["len_body", "body"]
        def __init__(self, depth, _io, _parent=None, _root=None):
            super(NanoverRecording.LenValue, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self.depth = depth
            self._debug = collections.defaultdict(dict)

        def _read(self):
            self._debug['len_body']['start'] = self._io.pos()
            self.len_body = protobuf_wire.ProtobufWire.Varint(10, self._io)
            self.len_body._read()
            self._debug['len_body']['end'] = self._io.pos()
            self._debug['body']['start'] = self._io.pos()
            self._raw_body = self._io.read_bytes(self.len_body.value)
            _io__raw_body = KaitaiStream(BytesIO(self._raw_body))
            self.body = NanoverRecording.Value(self.depth, _io__raw_body, self, self._root)
            self.body._read()
            self._debug['body']['end'] = self._io.pos()


        def _fetch_instances(self):
            pass
            self.len_body._fetch_instances()
            self.body._fetch_instances()


    class LenValueArray(KaitaiStruct):
        SEQ_FIELDS = ["len_body", "body"]
        def __init__(self, _io, _parent=None, _root=None):
            super(NanoverRecording.LenValueArray, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._debug = collections.defaultdict(dict)

        def _read(self):
            self._debug['len_body']['start'] = self._io.pos()
            self.len_body = protobuf_wire.ProtobufWire.Varint(10, self._io)
            self.len_body._read()
            self._debug['len_body']['end'] = self._io.pos()
            self._debug['body']['start'] = self._io.pos()
            self._raw_body = self._io.read_bytes(self.len_body.value)
            _io__raw_body = KaitaiStream(BytesIO(self._raw_body))
            self.body = NanoverRecording.ValueArray(_io__raw_body, self, self._root)
            self.body._read()
            self._debug['body']['end'] = self._io.pos()


        def _fetch_instances(self):
            pass
            self.len_body._fetch_instances()
            self.body._fetch_instances()


    class LenValueEntry(KaitaiStruct):
        SEQ_FIELDS = ["len_body", "body"]
        def __init__(self, depth, _io, _parent=None, _root=None):
            super(NanoverRecording.LenValueEntry, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self.depth = depth
            self._debug = collections.defaultdict(dict)

        def _read(self):
            self._debug['len_body']['start'] = self._io.pos()
            self.len_body = protobuf_wire.ProtobufWire.Varint(10, self._io)
            self.len_body._read()
            self._debug['len_body']['end'] = self._io.pos()
            self._debug['body']['start'] = self._io.pos()
            self._raw_body = self._io.read_bytes(self.len_body.value)
            _io__raw_body = KaitaiStream(BytesIO(self._raw_body))
            self.body = NanoverRecording.ValueEntry(self.depth, _io__raw_body, self, self._root)
            self.body._read()
            self._debug['body']['end'] = self._io.pos()


        def _fetch_instances(self):
            pass
            self.len_body._fetch_instances()
            self.body._fetch_instances()


    class ListValue(KaitaiStruct):
        """google.protobuf.ListValue: values = 1 (repeated Value)."""
        SEQ_FIELDS = ["fields"]
        def __init__(self, depth, _io, _parent=None, _root=None):
            super(NanoverRecording.ListValue, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self.depth = depth
            self._debug = collections.defaultdict(dict)

        def _read(self):
            self._debug['fields']['start'] = self._io.pos()
            self._debug['fields']['arr'] = []
            self.fields = []
            i = 0
            while not self._io.is_eof():
                self._debug['fields']['arr'].append({'start': self._io.pos()})
                _t_fields = NanoverRecording.ListValueField(self.depth, self._io, self, self._root)
                try:
                    _t_fields._read()
                finally:
                    self.fields.append(_t_fields)
                self._debug['fields']['arr'][len(self.fields) - 1]['end'] = self._io.pos()
                i += 1

            self._debug['fields']['end'] = self._io.pos()


        def _fetch_instances(self):
            pass
            for i in range(len(self.fields)):
                pass
                self.fields[i]._fetch_instances()



    class ListValueField(KaitaiStruct):
        SEQ_FIELDS = ["tag", "body"]
        def __init__(self, depth, _io, _parent=None, _root=None):
            super(NanoverRecording.ListValueField, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self.depth = depth
            self._debug = collections.defaultdict(dict)

        def _read(self):
            self._debug['tag']['start'] = self._io.pos()
            self.tag = protobuf_wire.ProtobufWire.Tag(self._io)
            self.tag._read()
            self._debug['tag']['end'] = self._io.pos()
            self._debug['body']['start'] = self._io.pos()
            _on = self.tag.key.value
            if _on == 10:
                pass
                self.body = NanoverRecording.LenValue(self.depth, self._io, self, self._root)
                self.body._read()
            else:
                pass
                self.body = protobuf_wire.ProtobufWire.FieldBody(self.tag.wire_type, self._io)
                self.body._read()
            self._debug['body']['end'] = self._io.pos()


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
        SEQ_FIELDS = ["len_values", "values"]
        def __init__(self, _io, _parent=None, _root=None):
            super(NanoverRecording.PackedFloats, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._debug = collections.defaultdict(dict)

        def _read(self):
            self._debug['len_values']['start'] = self._io.pos()
            self.len_values = protobuf_wire.ProtobufWire.Varint(10, self._io)
            self.len_values._read()
            self._debug['len_values']['end'] = self._io.pos()
            self._debug['values']['start'] = self._io.pos()
            self._raw_values = self._io.read_bytes(self.len_values.value)
            _io__raw_values = KaitaiStream(BytesIO(self._raw_values))
            self.values = NanoverRecording.Floats(_io__raw_values, self, self._root)
            self.values._read()
            self._debug['values']['end'] = self._io.pos()


        def _fetch_instances(self):
            pass
            self.len_values._fetch_instances()
            self.values._fetch_instances()


    class PackedVarints(KaitaiStruct):
        SEQ_FIELDS = ["len_values", "values"]
        def __init__(self, _io, _parent=None, _root=None):
            super(NanoverRecording.PackedVarints, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._debug = collections.defaultdict(dict)

        def _read(self):
            self._debug['len_values']['start'] = self._io.pos()
            self.len_values = protobuf_wire.ProtobufWire.Varint(10, self._io)
            self.len_values._read()
            self._debug['len_values']['end'] = self._io.pos()
            self._debug['values']['start'] = self._io.pos()
            self._raw_values = self._io.read_bytes(self.len_values.value)
            _io__raw_values = KaitaiStream(BytesIO(self._raw_values))
            self.values = NanoverRecording.Varints(_io__raw_values, self, self._root)
            self.values._read()
            self._debug['values']['end'] = self._io.pos()


        def _fetch_instances(self):
            pass
            self.len_values._fetch_instances()
            self.values._fetch_instances()


    class Record(KaitaiStruct):
        SEQ_FIELDS = ["timestamp_low", "timestamp_high", "len_payload", "payload"]
        def __init__(self, kind, _io, _parent=None, _root=None):
            super(NanoverRecording.Record, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self.kind = kind
            self._debug = collections.defaultdict(dict)

        def _read(self):
            self._debug['timestamp_low']['start'] = self._io.pos()
            self.timestamp_low = self._io.read_u8le()
            self._debug['timestamp_low']['end'] = self._io.pos()
            self._debug['timestamp_high']['start'] = self._io.pos()
            self.timestamp_high = self._io.read_u8le()
            self._debug['timestamp_high']['end'] = self._io.pos()
            self._debug['len_payload']['start'] = self._io.pos()
            self.len_payload = self._io.read_u8le()
            self._debug['len_payload']['end'] = self._io.pos()
            self._debug['payload']['start'] = self._io.pos()
            _on = self.kind
            if _on == NanoverRecording.RecordKind.state:
                pass
                self._raw_payload = self._io.read_bytes(self.len_payload)
                _io__raw_payload = KaitaiStream(BytesIO(self._raw_payload))
                self.payload = NanoverRecording.StateUpdate(_io__raw_payload, self, self._root)
                self.payload._read()
            elif _on == NanoverRecording.RecordKind.traj:
                pass
                self._raw_payload = self._io.read_bytes(self.len_payload)
                _io__raw_payload = KaitaiStream(BytesIO(self._raw_payload))
                self.payload = NanoverRecording.GetFrameResponse(_io__raw_payload, self, self._root)
                self.payload._read()
            else:
                pass
                self.payload = self._io.read_bytes(self.len_payload)
            self._debug['payload']['end'] = self._io.pos()


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
        SEQ_FIELDS = ["fields"]
        def __init__(self, _io, _parent=None, _root=None):
            super(NanoverRecording.StateUpdate, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._debug = collections.defaultdict(dict)

        def _read(self):
            self._debug['fields']['start'] = self._io.pos()
            self._debug['fields']['arr'] = []
            self.fields = []
            i = 0
            while not self._io.is_eof():
                self._debug['fields']['arr'].append({'start': self._io.pos()})
                _t_fields = NanoverRecording.StateUpdateField(self._io, self, self._root)
                try:
                    _t_fields._read()
                finally:
                    self.fields.append(_t_fields)
                self._debug['fields']['arr'][len(self.fields) - 1]['end'] = self._io.pos()
                i += 1

            self._debug['fields']['end'] = self._io.pos()


        def _fetch_instances(self):
            pass
            for i in range(len(self.fields)):
                pass
                self.fields[i]._fetch_instances()



    class StateUpdateField(KaitaiStruct):
        SEQ_FIELDS = ["tag", "body"]
        def __init__(self, _io, _parent=None, _root=None):
            super(NanoverRecording.StateUpdateField, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._debug = collections.defaultdict(dict)

        def _read(self):
            self._debug['tag']['start'] = self._io.pos()
            self.tag = protobuf_wire.ProtobufWire.Tag(self._io)
            self.tag._read()
            self._debug['tag']['end'] = self._io.pos()
            self._debug['body']['start'] = self._io.pos()
            _on = self.tag.key.value
            if _on == 10:
                pass
                self.body = NanoverRecording.LenStruct(0, self._io, self, self._root)
                self.body._read()
            else:
                pass
                self.body = protobuf_wire.ProtobufWire.FieldBody(self.tag.wire_type, self._io)
                self.body._read()
            self._debug['body']['end'] = self._io.pos()


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
        SEQ_FIELDS = ["fields"]
        def __init__(self, _io, _parent=None, _root=None):
            super(NanoverRecording.StringArray, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._debug = collections.defaultdict(dict)

        def _read(self):
            self._debug['fields']['start'] = self._io.pos()
            self._debug['fields']['arr'] = []
            self.fields = []
            i = 0
            while not self._io.is_eof():
                self._debug['fields']['arr'].append({'start': self._io.pos()})
                _t_fields = NanoverRecording.StringArrayField(self._io, self, self._root)
                try:
                    _t_fields._read()
                finally:
                    self.fields.append(_t_fields)
                self._debug['fields']['arr'][len(self.fields) - 1]['end'] = self._io.pos()
                i += 1

            self._debug['fields']['end'] = self._io.pos()


        def _fetch_instances(self):
            pass
            for i in range(len(self.fields)):
                pass
                self.fields[i]._fetch_instances()



    class StringArrayField(KaitaiStruct):
        SEQ_FIELDS = ["tag", "body"]
        def __init__(self, _io, _parent=None, _root=None):
            super(NanoverRecording.StringArrayField, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._debug = collections.defaultdict(dict)

        def _read(self):
            self._debug['tag']['start'] = self._io.pos()
            self.tag = protobuf_wire.ProtobufWire.Tag(self._io)
            self.tag._read()
            self._debug['tag']['end'] = self._io.pos()
            self._debug['body']['start'] = self._io.pos()
            _on = self.tag.key.value
            if _on == 10:
                pass
                self.body = NanoverRecording.LenString(self._io, self, self._root)
                self.body._read()
            else:
                pass
                self.body = protobuf_wire.ProtobufWire.FieldBody(self.tag.wire_type, self._io)
                self.body._read()
            self._debug['body']['end'] = self._io.pos()


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
        SEQ_FIELDS = ["fields"]
        def __init__(self, depth, _io, _parent=None, _root=None):
            super(NanoverRecording.Struct, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self.depth = depth
            self._debug = collections.defaultdict(dict)

        def _read(self):
            self._debug['fields']['start'] = self._io.pos()
            self._debug['fields']['arr'] = []
            self.fields = []
            i = 0
            while not self._io.is_eof():
                self._debug['fields']['arr'].append({'start': self._io.pos()})
                _t_fields = NanoverRecording.StructField(self.depth, self._io, self, self._root)
                try:
                    _t_fields._read()
                finally:
                    self.fields.append(_t_fields)
                self._debug['fields']['arr'][len(self.fields) - 1]['end'] = self._io.pos()
                i += 1

            self._debug['fields']['end'] = self._io.pos()


        def _fetch_instances(self):
            pass
            for i in range(len(self.fields)):
                pass
                self.fields[i]._fetch_instances()



    class StructField(KaitaiStruct):
        SEQ_FIELDS = ["tag", "body"]
        def __init__(self, depth, _io, _parent=None, _root=None):
            super(NanoverRecording.StructField, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self.depth = depth
            self._debug = collections.defaultdict(dict)

        def _read(self):
            self._debug['tag']['start'] = self._io.pos()
            self.tag = protobuf_wire.ProtobufWire.Tag(self._io)
            self.tag._read()
            self._debug['tag']['end'] = self._io.pos()
            self._debug['body']['start'] = self._io.pos()
            _on = self.tag.key.value
            if _on == 10:
                pass
                self.body = NanoverRecording.LenValueEntry(self.depth, self._io, self, self._root)
                self.body._read()
            else:
                pass
                self.body = protobuf_wire.ProtobufWire.FieldBody(self.tag.wire_type, self._io)
                self.body._read()
            self._debug['body']['end'] = self._io.pos()


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
        SEQ_FIELDS = ["fields"]
        def __init__(self, depth, _io, _parent=None, _root=None):
            super(NanoverRecording.Value, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self.depth = depth
            self._debug = collections.defaultdict(dict)

        def _read(self):
            self._debug['fields']['start'] = self._io.pos()
            self._debug['fields']['arr'] = []
            self.fields = []
            i = 0
            while not self._io.is_eof():
                self._debug['fields']['arr'].append({'start': self._io.pos()})
                _t_fields = NanoverRecording.ValueField(self.depth, self._io, self, self._root)
                try:
                    _t_fields._read()
                finally:
                    self.fields.append(_t_fields)
                self._debug['fields']['arr'][len(self.fields) - 1]['end'] = self._io.pos()
                i += 1

            self._debug['fields']['end'] = self._io.pos()


        def _fetch_instances(self):
            pass
            for i in range(len(self.fields)):
                pass
                self.fields[i]._fetch_instances()



    class ValueArray(KaitaiStruct):
        """oneof values: float_values = 1, index_values = 2, string_values = 3."""
        SEQ_FIELDS = ["fields"]
        def __init__(self, _io, _parent=None, _root=None):
            super(NanoverRecording.ValueArray, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._debug = collections.defaultdict(dict)

        def _read(self):
            self._debug['fields']['start'] = self._io.pos()
            self._debug['fields']['arr'] = []
            self.fields = []
            i = 0
            while not self._io.is_eof():
                self._debug['fields']['arr'].append({'start': self._io.pos()})
                _t_fields = NanoverRecording.ValueArrayField(self._io, self, self._root)
                try:
                    _t_fields._read()
                finally:
                    self.fields.append(_t_fields)
                self._debug['fields']['arr'][len(self.fields) - 1]['end'] = self._io.pos()
                i += 1

            self._debug['fields']['end'] = self._io.pos()


        def _fetch_instances(self):
            pass
            for i in range(len(self.fields)):
                pass
                self.fields[i]._fetch_instances()



    class ValueArrayField(KaitaiStruct):
        SEQ_FIELDS = ["tag", "body"]
        def __init__(self, _io, _parent=None, _root=None):
            super(NanoverRecording.ValueArrayField, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._debug = collections.defaultdict(dict)

        def _read(self):
            self._debug['tag']['start'] = self._io.pos()
            self.tag = protobuf_wire.ProtobufWire.Tag(self._io)
            self.tag._read()
            self._debug['tag']['end'] = self._io.pos()
            self._debug['body']['start'] = self._io.pos()
            _on = self.tag.key.value
            if _on == 10:
                pass
                self.body = NanoverRecording.LenFloatArray(self._io, self, self._root)
                self.body._read()
            elif _on == 18:
                pass
                self.body = NanoverRecording.LenIndexArray(self._io, self, self._root)
                self.body._read()
            elif _on == 26:
                pass
                self.body = NanoverRecording.LenStringArray(self._io, self, self._root)
                self.body._read()
            else:
                pass
                self.body = protobuf_wire.ProtobufWire.FieldBody(self.tag.wire_type, self._io)
                self.body._read()
            self._debug['body']['end'] = self._io.pos()


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
        SEQ_FIELDS = ["fields"]
        def __init__(self, depth, _io, _parent=None, _root=None):
            super(NanoverRecording.ValueEntry, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self.depth = depth
            self._debug = collections.defaultdict(dict)

        def _read(self):
            self._debug['fields']['start'] = self._io.pos()
            self._debug['fields']['arr'] = []
            self.fields = []
            i = 0
            while not self._io.is_eof():
                self._debug['fields']['arr'].append({'start': self._io.pos()})
                _t_fields = NanoverRecording.ValueEntryField(self.depth, self._io, self, self._root)
                try:
                    _t_fields._read()
                finally:
                    self.fields.append(_t_fields)
                self._debug['fields']['arr'][len(self.fields) - 1]['end'] = self._io.pos()
                i += 1

            self._debug['fields']['end'] = self._io.pos()


        def _fetch_instances(self):
            pass
            for i in range(len(self.fields)):
                pass
                self.fields[i]._fetch_instances()



    class ValueEntryField(KaitaiStruct):
        SEQ_FIELDS = ["tag", "body"]
        def __init__(self, depth, _io, _parent=None, _root=None):
            super(NanoverRecording.ValueEntryField, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self.depth = depth
            self._debug = collections.defaultdict(dict)

        def _read(self):
            self._debug['tag']['start'] = self._io.pos()
            self.tag = protobuf_wire.ProtobufWire.Tag(self._io)
            self.tag._read()
            self._debug['tag']['end'] = self._io.pos()
            self._debug['body']['start'] = self._io.pos()
            _on = self.tag.key.value
            if _on == 10:
                pass
                self.body = NanoverRecording.LenString(self._io, self, self._root)
                self.body._read()
            elif _on == 18:
                pass
                self.body = NanoverRecording.LenValue(self.depth, self._io, self, self._root)
                self.body._read()
            else:
                pass
                self.body = protobuf_wire.ProtobufWire.FieldBody(self.tag.wire_type, self._io)
                self.body._read()
            self._debug['body']['end'] = self._io.pos()


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
        SEQ_FIELDS = ["tag", "body"]
        def __init__(self, depth, _io, _parent=None, _root=None):
            super(NanoverRecording.ValueField, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self.depth = depth
            self._debug = collections.defaultdict(dict)

        def _read(self):
            self._debug['tag']['start'] = self._io.pos()
            self.tag = protobuf_wire.ProtobufWire.Tag(self._io)
            self.tag._read()
            self._debug['tag']['end'] = self._io.pos()
            self._debug['body']['start'] = self._io.pos()
            _on = self.tag.key.value
            if _on == 17:
                pass
                self.body = self._io.read_f8le()
            elif _on == 26:
                pass
                self.body = NanoverRecording.LenString(self._io, self, self._root)
                self.body._read()
            elif _on == 32:
                pass
                self.body = protobuf_wire.ProtobufWire.Varint(10, self._io)
                self.body._read()
            elif _on == 42:
                pass
                self.body = NanoverRecording.LenStruct(self.depth + 1, self._io, self, self._root)
                self.body._read()
            elif _on == 50:
                pass
                self.body = NanoverRecording.LenListValue(self.depth + 1, self._io, self, self._root)
                self.body._read()
            elif _on == 8:
                pass
                self.body = protobuf_wire.ProtobufWire.Varint(10, self._io)
                self.body._read()
            else:
                pass
                self.body = protobuf_wire.ProtobufWire.FieldBody(self.tag.wire_type, self._io)
                self.body._read()
            self._debug['body']['end'] = self._io.pos()


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
        SEQ_FIELDS = ["values"]
        def __init__(self, _io, _parent=None, _root=None):
            super(NanoverRecording.Varints, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._debug = collections.defaultdict(dict)

        def _read(self):
            self._debug['values']['start'] = self._io.pos()
            self._debug['values']['arr'] = []
            self.values = []
            i = 0
            while not self._io.is_eof():
                self._debug['values']['arr'].append({'start': self._io.pos()})
                _t_values = protobuf_wire.ProtobufWire.Varint(10, self._io)
                try:
                    _t_values._read()
                finally:
                    self.values.append(_t_values)
                self._debug['values']['arr'][len(self.values) - 1]['end'] = self._io.pos()
                i += 1

            self._debug['values']['end'] = self._io.pos()


        def _fetch_instances(self):
            pass
            for i in range(len(self.values)):
                pass
                self.values[i]._fetch_instances()
