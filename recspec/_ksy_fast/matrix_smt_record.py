# Generated from ksy/matrix_smt_record.ksy by tools/ksy_compile.mjs
# (kaitai-struct-compiler 0.11.0, no debug mode). Do not edit by hand:
# change the .ksy file and run `python tools/generate_parsers.py`.

# type: ignore

import kaitaistruct
from kaitaistruct import KaitaiStruct, KaitaiStream, BytesIO
from . import bson


if getattr(kaitaistruct, 'API_VERSION', (0, 9)) < (0, 11):
    raise Exception("Incompatible Kaitai Struct Python API: 0.11 or later is required, but you have %s" % (kaitaistruct.__version__))

class MatrixSmtRecord(KaitaiStruct):
    """A Matrix-SMT recording is one BSON document (see `bson.ksy`, read with the
    same strictness) with two arrays, `objects` (the scene's objects: id, name,
    colour, geometry) and `frames` (per frame: object states, debug-drawing
    commands and the time). Key order is not fixed: the one public recording
    writes `frames` before `objects`.
    
    This spec names the recording's parts on top of the BSON layout: a
    top-level `objects` array is read as an `object_list` and a `frames` array
    as a `frame_list`, whose embedded documents are `scene_object` and `frame`
    entries. It adds no constraint beyond BSON's own: which keys a frame or an
    object needs, value ranges and references between states and objects are
    conformance rules (recspec's `MATRIX-*` rules), so that any well-formed BSON
    is read and judged with located findings. Depths are counted as in
    `bson.ksy`: the top-level document is 0, the two arrays 1, their entries 2.
    
    .. seealso::
       docs/formats/matrix-smt.md#document recspec's Matrix-SMT format document, "Top-level document"
    """
    def __init__(self, _io, _parent=None, _root=None):
        super(MatrixSmtRecord, self).__init__(_io)
        self._parent = _parent
        self._root = _root or self
        self._read()

    def _read(self):
        self.len_document = self._io.read_s4le()
        if not self.len_document >= 5:
            raise kaitaistruct.ValidationLessThanError(5, self.len_document, self._io, u"/seq/0")
        self._raw_sections = self._io.read_bytes(self.len_document - 5)
        _io__raw_sections = KaitaiStream(BytesIO(self._raw_sections))
        self.sections = MatrixSmtRecord.SectionList(_io__raw_sections, self, self._root)
        self.terminator = self._io.read_u1()
        if not self.terminator == 0:
            raise kaitaistruct.ValidationNotEqualError(0, self.terminator, self._io, u"/seq/2")
        self.end_of_file = self._io.read_bytes(0)
        _ = self.end_of_file
        if not self._io.is_eof():
            raise kaitaistruct.ValidationExprError(self.end_of_file, self._io, u"/seq/3")


    def _fetch_instances(self):
        pass
        self.sections._fetch_instances()

    class Entry(KaitaiStruct):
        def __init__(self, kind, _io, _parent=None, _root=None):
            super(MatrixSmtRecord.Entry, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self.kind = kind
            self._read()

        def _read(self):
            self.type_code = KaitaiStream.resolve_enum(bson.Bson.ElementType, self._io.read_u1())
            if not isinstance(self.type_code, bson.Bson.ElementType):
                raise kaitaistruct.ValidationNotInEnumError(self.type_code, self._io, u"/types/entry/seq/0")
            self.name = (self._io.read_bytes_term(0, False, True, True)).decode(u"UTF-8")
            if  ((self.type_code == bson.Bson.ElementType.document) and (self.kind == 1)) :
                pass
                self.frame = bson.Bson.Document(2, self._io)

            if  ((self.type_code == bson.Bson.ElementType.document) and (self.kind == 2)) :
                pass
                self.scene_object = bson.Bson.Document(2, self._io)

            if self.type_code != bson.Bson.ElementType.document:
                pass
                self.other = bson.Bson.ElementValue(int(self.type_code), 1, self._io)



        def _fetch_instances(self):
            pass
            if  ((self.type_code == bson.Bson.ElementType.document) and (self.kind == 1)) :
                pass
                self.frame._fetch_instances()

            if  ((self.type_code == bson.Bson.ElementType.document) and (self.kind == 2)) :
                pass
                self.scene_object._fetch_instances()

            if self.type_code != bson.Bson.ElementType.document:
                pass
                self.other._fetch_instances()



    class EntryList(KaitaiStruct):
        """The `frames` (kind 1) or `objects` (kind 2) array."""
        def __init__(self, kind, _io, _parent=None, _root=None):
            super(MatrixSmtRecord.EntryList, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self.kind = kind
            self._read()

        def _read(self):
            self.len_document = self._io.read_s4le()
            if not self.len_document >= 5:
                raise kaitaistruct.ValidationLessThanError(5, self.len_document, self._io, u"/types/entry_list/seq/0")
            self._raw_entries = self._io.read_bytes(self.len_document - 5)
            _io__raw_entries = KaitaiStream(BytesIO(self._raw_entries))
            self.entries = MatrixSmtRecord.EntryListBody(self.kind, _io__raw_entries, self, self._root)
            self.terminator = self._io.read_u1()
            if not self.terminator == 0:
                raise kaitaistruct.ValidationNotEqualError(0, self.terminator, self._io, u"/types/entry_list/seq/2")


        def _fetch_instances(self):
            pass
            self.entries._fetch_instances()


    class EntryListBody(KaitaiStruct):
        def __init__(self, kind, _io, _parent=None, _root=None):
            super(MatrixSmtRecord.EntryListBody, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self.kind = kind
            self._read()

        def _read(self):
            self.entries = []
            i = 0
            while not self._io.is_eof():
                self.entries.append(MatrixSmtRecord.Entry(self.kind, self._io, self, self._root))
                i += 1



        def _fetch_instances(self):
            pass
            for i in range(len(self.entries)):
                pass
                self.entries[i]._fetch_instances()



    class Section(KaitaiStruct):
        """One top-level element."""
        def __init__(self, _io, _parent=None, _root=None):
            super(MatrixSmtRecord.Section, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.type_code = KaitaiStream.resolve_enum(bson.Bson.ElementType, self._io.read_u1())
            if not isinstance(self.type_code, bson.Bson.ElementType):
                raise kaitaistruct.ValidationNotInEnumError(self.type_code, self._io, u"/types/section/seq/0")
            self.name = (self._io.read_bytes_term(0, False, True, True)).decode(u"UTF-8")
            if self.is_frames:
                pass
                self.frames = MatrixSmtRecord.EntryList(1, self._io, self, self._root)

            if self.is_objects:
                pass
                self.objects = MatrixSmtRecord.EntryList(2, self._io, self, self._root)

            if  (((not (self.is_frames))) and ((not (self.is_objects)))) :
                pass
                self.other = bson.Bson.ElementValue(int(self.type_code), 0, self._io)



        def _fetch_instances(self):
            pass
            if self.is_frames:
                pass
                self.frames._fetch_instances()

            if self.is_objects:
                pass
                self.objects._fetch_instances()

            if  (((not (self.is_frames))) and ((not (self.is_objects)))) :
                pass
                self.other._fetch_instances()


        @property
        def is_frames(self):
            if hasattr(self, '_m_is_frames'):
                return self._m_is_frames

            self._m_is_frames =  ((self.type_code == bson.Bson.ElementType.array) and (self.name == u"frames")) 
            return getattr(self, '_m_is_frames', None)

        @property
        def is_objects(self):
            if hasattr(self, '_m_is_objects'):
                return self._m_is_objects

            self._m_is_objects =  ((self.type_code == bson.Bson.ElementType.array) and (self.name == u"objects")) 
            return getattr(self, '_m_is_objects', None)


    class SectionList(KaitaiStruct):
        def __init__(self, _io, _parent=None, _root=None):
            super(MatrixSmtRecord.SectionList, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.sections = []
            i = 0
            while not self._io.is_eof():
                self.sections.append(MatrixSmtRecord.Section(self._io, self, self._root))
                i += 1



        def _fetch_instances(self):
            pass
            for i in range(len(self.sections)):
                pass
                self.sections[i]._fetch_instances()
