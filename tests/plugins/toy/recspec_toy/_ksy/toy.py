# Generated from tests/plugins/toy/recspec_toy/ksy/toy.ksy by tools/ksy_compile.mjs
# (kaitai-struct-compiler 0.11.0, no debug mode). Do not edit by hand:
# change the .ksy file and run `python tools/generate_parsers.py`.

# type: ignore

import kaitaistruct
from kaitaistruct import KaitaiStruct, KaitaiStream, BytesIO


if getattr(kaitaistruct, 'API_VERSION', (0, 9)) < (0, 11):
    raise Exception("Incompatible Kaitai Struct Python API: 0.11 or later is required, but you have %s" % (kaitaistruct.__version__))

class Toy(KaitaiStruct):
    """An 8-byte header (magic "TOYF", version, flags, record count) and then
    `count` records of 8 bytes each: a record id, a signed value, a checksum
    (the sum of the record's first six bytes modulo 256) and a reserved byte.
    Nothing follows the last record.
    
    .. seealso::
       recspec_toy/docs/toy.md
    """
    def __init__(self, _io, _parent=None, _root=None):
        super(Toy, self).__init__(_io)
        self._parent = _parent
        self._root = _root or self
        self._read()

    def _read(self):
        self.magic = self._io.read_bytes(4)
        if not self.magic == b"\x54\x4F\x59\x46":
            raise kaitaistruct.ValidationNotEqualError(b"\x54\x4F\x59\x46", self.magic, self._io, u"/seq/0")
        self.version = self._io.read_u1()
        self.flags = self._io.read_u1()
        self.count = self._io.read_u2le()
        self.records = []
        for i in range(self.count):
            self.records.append(Toy.Record(self._io, self, self._root))

        self.end_of_file = self._io.read_bytes(0)
        _ = self.end_of_file
        if not self._io.is_eof():
            raise kaitaistruct.ValidationExprError(self.end_of_file, self._io, u"/seq/5")


    def _fetch_instances(self):
        pass
        for i in range(len(self.records)):
            pass
            self.records[i]._fetch_instances()


    class Record(KaitaiStruct):
        def __init__(self, _io, _parent=None, _root=None):
            super(Toy.Record, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.record_id = self._io.read_u2le()
            self.value = self._io.read_s4le()
            self.checksum = self._io.read_u1()
            self.reserved = self._io.read_u1()


        def _fetch_instances(self):
            pass
