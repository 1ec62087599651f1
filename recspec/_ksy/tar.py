# Generated from ksy/tar.ksy by tools/ksy_compile.mjs
# (kaitai-struct-compiler 0.11.0, debug mode). Do not edit by hand:
# change the .ksy file and run `python tools/generate_parsers.py`.

# type: ignore

import kaitaistruct
from kaitaistruct import KaitaiStruct, KaitaiStream, BytesIO
import collections


if getattr(kaitaistruct, 'API_VERSION', (0, 9)) < (0, 11):
    raise Exception("Incompatible Kaitai Struct Python API: 0.11 or later is required, but you have %s" % (kaitaistruct.__version__))

class Tar(KaitaiStruct):
    """A tar archive: 512-byte header blocks, each followed by the member's data
    rounded up to whole 512-byte blocks, ended by a block of zeros (writers add a
    second one and pad to their record size, so every block after the first
    zero block must be zero too, to the end of the input).
    
    Headers follow POSIX ustar (magic "ustar\0", version "00") or GNU tar
    (magic "ustar ", version " \0"); a header with neither magic is a
    pre-POSIX v7 header and is accepted with the same field layout. Numeric
    fields are ASCII octal: optional leading spaces, octal digits, then NUL or
    space to the end of the field (an empty field is 0). GNU's base-256 numbers
    (high bit of the first byte set) are not accepted: they only occur for
    members of 8 GiB and more. The header checksum is the sum of the 512 header
    bytes as unsigned values, counting the checksum field itself as 8 spaces.
    
    Kaitai has no sum over a byte array, so `checksum_acc` accumulates one: the
    header is read again as 64 big-endian u8 words, each element carrying the
    running sum of the bytes before it plus its own eight bytes. The all-zero
    end marker is recognised by the largest byte of the block, without the sums.
    
    .. seealso::
       POSIX pax, "ustar Interchange Format" - https://pubs.opengroup.org/onlinepubs/9799919799/utilities/pax.html
    """
    SEQ_FIELDS = ["entries", "padding"]
    def __init__(self, _io, _parent=None, _root=None):
        super(Tar, self).__init__(_io)
        self._parent = _parent
        self._root = _root or self
        self._debug = collections.defaultdict(dict)

    def _read(self):
        self._debug['entries']['start'] = self._io.pos()
        self._debug['entries']['arr'] = []
        self.entries = []
        i = 0
        while True:
            self._debug['entries']['arr'].append({'start': self._io.pos()})
            _t_entries = Tar.Entry(self._io, self, self._root)
            try:
                _t_entries._read()
            finally:
                _ = _t_entries
                self.entries.append(_)
            self._debug['entries']['arr'][len(self.entries) - 1]['end'] = self._io.pos()
            if _.is_end:
                break
            i += 1
        self._debug['entries']['end'] = self._io.pos()
        self._debug['padding']['start'] = self._io.pos()
        self._debug['padding']['arr'] = []
        self.padding = []
        i = 0
        while not self._io.is_eof():
            self._debug['padding']['arr'].append({'start': self._io.pos()})
            _t_padding = Tar.ZeroBlock(self._io, self, self._root)
            try:
                _t_padding._read()
            finally:
                self.padding.append(_t_padding)
            self._debug['padding']['arr'][len(self.padding) - 1]['end'] = self._io.pos()
            i += 1

        self._debug['padding']['end'] = self._io.pos()


    def _fetch_instances(self):
        pass
        for i in range(len(self.entries)):
            pass
            self.entries[i]._fetch_instances()

        for i in range(len(self.padding)):
            pass
            self.padding[i]._fetch_instances()


    class ChecksumAcc(KaitaiStruct):
        SEQ_FIELDS = ["w"]
        def __init__(self, before, _io, _parent=None, _root=None):
            super(Tar.ChecksumAcc, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self.before = before
            self._debug = collections.defaultdict(dict)

        def _read(self):
            self._debug['w']['start'] = self._io.pos()
            self.w = self._io.read_u8be()
            self._debug['w']['end'] = self._io.pos()


        def _fetch_instances(self):
            pass

        @property
        def acc(self):
            if hasattr(self, '_m_acc'):
                return self._m_acc

            self._m_acc = (((((((self.before + (self.w >> 56)) + (self.w >> 48 & 255)) + (self.w >> 40 & 255)) + (self.w >> 32 & 255)) + (self.w >> 24 & 255)) + (self.w >> 16 & 255)) + (self.w >> 8 & 255)) + (self.w & 255)
            return getattr(self, '_m_acc', None)


    class Entry(KaitaiStruct):
        SEQ_FIELDS = ["header", "body", "body_padding"]
        def __init__(self, _io, _parent=None, _root=None):
            super(Tar.Entry, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._debug = collections.defaultdict(dict)

        def _read(self):
            self._debug['header']['start'] = self._io.pos()
            self._raw_header = self._io.read_bytes(512)
            _io__raw_header = KaitaiStream(BytesIO(self._raw_header))
            self.header = Tar.Header(_io__raw_header, self, self._root)
            self.header._read()
            self._debug['header']['end'] = self._io.pos()
            if  (((not (self.is_end))) and (self.has_data)) :
                pass
                self._debug['body']['start'] = self._io.pos()
                self.body = self._io.read_bytes(self.header.size.value)
                self._debug['body']['end'] = self._io.pos()

            if  (((not (self.is_end))) and (self.has_data)) :
                pass
                self._debug['body_padding']['start'] = self._io.pos()
                self.body_padding = self._io.read_bytes((512 - self.header.size.value % 512) % 512)
                self._debug['body_padding']['end'] = self._io.pos()



        def _fetch_instances(self):
            pass
            self.header._fetch_instances()
            if  (((not (self.is_end))) and (self.has_data)) :
                pass

            if  (((not (self.is_end))) and (self.has_data)) :
                pass


        @property
        def has_data(self):
            """Hard links, symlinks, devices and folders have no data blocks whatever their size field says."""
            if hasattr(self, '_m_has_data'):
                return self._m_has_data

            self._m_has_data =  ((self.header.typeflag != 49) and (self.header.typeflag != 50) and (self.header.typeflag != 51) and (self.header.typeflag != 52) and (self.header.typeflag != 53)) 
            return getattr(self, '_m_has_data', None)

        @property
        def is_end(self):
            if hasattr(self, '_m_is_end'):
                return self._m_is_end

            self._m_is_end = self.header.is_zero_block
            return getattr(self, '_m_is_end', None)


    class Header(KaitaiStruct):
        SEQ_FIELDS = ["name", "mode", "uid", "gid", "size", "mtime", "chksum", "typeflag", "linkname", "magic", "version", "uname", "gname", "devmajor", "devminor", "prefix", "pad"]
        def __init__(self, _io, _parent=None, _root=None):
            super(Tar.Header, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._debug = collections.defaultdict(dict)

        def _read(self):
            self._debug['name']['start'] = self._io.pos()
            self.name = self._io.read_bytes(100)
            self._debug['name']['end'] = self._io.pos()
            self._debug['mode']['start'] = self._io.pos()
            self.mode = Tar.Octal(8, self._io, self, self._root)
            self.mode._read()
            self._debug['mode']['end'] = self._io.pos()
            self._debug['uid']['start'] = self._io.pos()
            self.uid = Tar.Octal(8, self._io, self, self._root)
            self.uid._read()
            self._debug['uid']['end'] = self._io.pos()
            self._debug['gid']['start'] = self._io.pos()
            self.gid = Tar.Octal(8, self._io, self, self._root)
            self.gid._read()
            self._debug['gid']['end'] = self._io.pos()
            self._debug['size']['start'] = self._io.pos()
            self.size = Tar.Octal(12, self._io, self, self._root)
            self.size._read()
            self._debug['size']['end'] = self._io.pos()
            self._debug['mtime']['start'] = self._io.pos()
            self.mtime = Tar.Octal(12, self._io, self, self._root)
            self.mtime._read()
            self._debug['mtime']['end'] = self._io.pos()
            self._debug['chksum']['start'] = self._io.pos()
            self.chksum = Tar.Octal(8, self._io, self, self._root)
            self.chksum._read()
            self._debug['chksum']['end'] = self._io.pos()
            _ = self.chksum
            if not  ((self.is_zero_block) or (_.value == self.computed_checksum)) :
                raise kaitaistruct.ValidationExprError(self.chksum, self._io, u"/types/header/seq/6")
            self._debug['typeflag']['start'] = self._io.pos()
            self.typeflag = self._io.read_u1()
            self._debug['typeflag']['end'] = self._io.pos()
            self._debug['linkname']['start'] = self._io.pos()
            self.linkname = self._io.read_bytes(100)
            self._debug['linkname']['end'] = self._io.pos()
            self._debug['magic']['start'] = self._io.pos()
            self.magic = self._io.read_bytes(6)
            self._debug['magic']['end'] = self._io.pos()
            self._debug['version']['start'] = self._io.pos()
            self.version = self._io.read_bytes(2)
            self._debug['version']['end'] = self._io.pos()
            self._debug['uname']['start'] = self._io.pos()
            self.uname = self._io.read_bytes(32)
            self._debug['uname']['end'] = self._io.pos()
            self._debug['gname']['start'] = self._io.pos()
            self.gname = self._io.read_bytes(32)
            self._debug['gname']['end'] = self._io.pos()
            self._debug['devmajor']['start'] = self._io.pos()
            self.devmajor = self._io.read_bytes(8)
            self._debug['devmajor']['end'] = self._io.pos()
            self._debug['devminor']['start'] = self._io.pos()
            self.devminor = self._io.read_bytes(8)
            self._debug['devminor']['end'] = self._io.pos()
            self._debug['prefix']['start'] = self._io.pos()
            self.prefix = self._io.read_bytes(155)
            self._debug['prefix']['end'] = self._io.pos()
            self._debug['pad']['start'] = self._io.pos()
            self.pad = self._io.read_bytes(12)
            self._debug['pad']['end'] = self._io.pos()


        def _fetch_instances(self):
            pass
            self.mode._fetch_instances()
            self.uid._fetch_instances()
            self.gid._fetch_instances()
            self.size._fetch_instances()
            self.mtime._fetch_instances()
            self.chksum._fetch_instances()
            _ = self.all_bytes
            if hasattr(self, '_m_all_bytes'):
                pass

            _ = self.chksum_bytes
            if hasattr(self, '_m_chksum_bytes'):
                pass

            _ = self.words
            if hasattr(self, '_m_words'):
                pass
                for i in range(len(self._m_words)):
                    pass
                    self._m_words[i]._fetch_instances()



        @property
        def all_bytes(self):
            if hasattr(self, '_m_all_bytes'):
                return self._m_all_bytes

            _pos = self._io.pos()
            self._io.seek(0)
            self._debug['_m_all_bytes']['start'] = self._io.pos()
            self._m_all_bytes = self._io.read_bytes(512)
            self._debug['_m_all_bytes']['end'] = self._io.pos()
            self._io.seek(_pos)
            return getattr(self, '_m_all_bytes', None)

        @property
        def byte_sum(self):
            if hasattr(self, '_m_byte_sum'):
                return self._m_byte_sum

            self._m_byte_sum = self.words[63].acc
            return getattr(self, '_m_byte_sum', None)

        @property
        def chksum_bytes(self):
            if hasattr(self, '_m_chksum_bytes'):
                return self._m_chksum_bytes

            _pos = self._io.pos()
            self._io.seek(148)
            self._debug['_m_chksum_bytes']['start'] = self._io.pos()
            self._m_chksum_bytes = self._io.read_bytes(8)
            self._debug['_m_chksum_bytes']['end'] = self._io.pos()
            self._io.seek(_pos)
            return getattr(self, '_m_chksum_bytes', None)

        @property
        def chksum_field_sum(self):
            """The bytes 148..155, the checksum field as written."""
            if hasattr(self, '_m_chksum_field_sum'):
                return self._m_chksum_field_sum

            self._m_chksum_field_sum = ((((((KaitaiStream.byte_array_index(self.chksum_bytes, 0) + KaitaiStream.byte_array_index(self.chksum_bytes, 1)) + KaitaiStream.byte_array_index(self.chksum_bytes, 2)) + KaitaiStream.byte_array_index(self.chksum_bytes, 3)) + KaitaiStream.byte_array_index(self.chksum_bytes, 4)) + KaitaiStream.byte_array_index(self.chksum_bytes, 5)) + KaitaiStream.byte_array_index(self.chksum_bytes, 6)) + KaitaiStream.byte_array_index(self.chksum_bytes, 7)
            return getattr(self, '_m_chksum_field_sum', None)

        @property
        def computed_checksum(self):
            if hasattr(self, '_m_computed_checksum'):
                return self._m_computed_checksum

            self._m_computed_checksum = (self.byte_sum - self.chksum_field_sum) + 8 * 32
            return getattr(self, '_m_computed_checksum', None)

        @property
        def is_gnu(self):
            if hasattr(self, '_m_is_gnu'):
                return self._m_is_gnu

            self._m_is_gnu = self.magic == b"\x75\x73\x74\x61\x72\x20"
            return getattr(self, '_m_is_gnu', None)

        @property
        def is_ustar(self):
            if hasattr(self, '_m_is_ustar'):
                return self._m_is_ustar

            self._m_is_ustar = self.magic == b"\x75\x73\x74\x61\x72\x00"
            return getattr(self, '_m_is_ustar', None)

        @property
        def is_zero_block(self):
            """The end-of-archive marker; tested without the byte sums, which only a member's header needs."""
            if hasattr(self, '_m_is_zero_block'):
                return self._m_is_zero_block

            self._m_is_zero_block = KaitaiStream.byte_array_max(self.all_bytes) == 0
            return getattr(self, '_m_is_zero_block', None)

        @property
        def words(self):
            """Running byte sums over the header, eight bytes per element."""
            if hasattr(self, '_m_words'):
                return self._m_words

            _pos = self._io.pos()
            self._io.seek(0)
            self._debug['_m_words']['start'] = self._io.pos()
            self._debug['_m_words']['arr'] = []
            self._m_words = []
            for i in range(64):
                self._debug['_m_words']['arr'].append({'start': self._io.pos()})
                _t__m_words = Tar.ChecksumAcc((0 if i == 0 else self.words[i - 1].acc), self._io, self, self._root)
                try:
                    _t__m_words._read()
                finally:
                    self._m_words.append(_t__m_words)
                self._debug['_m_words']['arr'][i]['end'] = self._io.pos()

            self._debug['_m_words']['end'] = self._io.pos()
            self._io.seek(_pos)
            return getattr(self, '_m_words', None)


    class Octal(KaitaiStruct):
        """An ASCII octal number field of `len` bytes."""
        SEQ_FIELDS = ["chars"]
        def __init__(self, len, _io, _parent=None, _root=None):
            super(Tar.Octal, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self.len = len
            self._debug = collections.defaultdict(dict)

        def _read(self):
            self._debug['chars']['start'] = self._io.pos()
            self._debug['chars']['arr'] = []
            self.chars = []
            for i in range(self.len):
                self._debug['chars']['arr'].append({'start': self._io.pos()})
                _t_chars = Tar.OctalChar((0 if i == 0 else self.chars[i - 1].state), (0 if i == 0 else self.chars[i - 1].value), self._io, self, self._root)
                try:
                    _t_chars._read()
                finally:
                    self.chars.append(_t_chars)
                self._debug['chars']['arr'][i]['end'] = self._io.pos()

            self._debug['chars']['end'] = self._io.pos()


        def _fetch_instances(self):
            pass
            for i in range(len(self.chars)):
                pass
                self.chars[i]._fetch_instances()


        @property
        def value(self):
            if hasattr(self, '_m_value'):
                return self._m_value

            self._m_value = self.chars[self.len - 1].value
            return getattr(self, '_m_value', None)


    class OctalChar(KaitaiStruct):
        """One character of an octal field. `state` is 0 in the leading spaces,
        1 in the digits, 2 after the first NUL or trailing space.
        """
        SEQ_FIELDS = ["c"]
        def __init__(self, state_before, value_before, _io, _parent=None, _root=None):
            super(Tar.OctalChar, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self.state_before = state_before
            self.value_before = value_before
            self._debug = collections.defaultdict(dict)

        def _read(self):
            self._debug['c']['start'] = self._io.pos()
            self.c = self._io.read_u1()
            self._debug['c']['end'] = self._io.pos()
            _ = self.c
            if not  ((_ == 0) or (_ == 32) or ( ((_ >= 48) and (_ <= 55) and (self.state_before != 2)) )) :
                raise kaitaistruct.ValidationExprError(self.c, self._io, u"/types/octal_char/seq/0")


        def _fetch_instances(self):
            pass

        @property
        def state(self):
            if hasattr(self, '_m_state'):
                return self._m_state

            self._m_state = (2 if self.c == 0 else ((0 if self.state_before == 0 else 2) if self.c == 32 else 1))
            return getattr(self, '_m_state', None)

        @property
        def value(self):
            if hasattr(self, '_m_value'):
                return self._m_value

            self._m_value = (self.value_before * 8 + (self.c - 48) if self.state == 1 else self.value_before)
            return getattr(self, '_m_value', None)


    class ZeroBlock(KaitaiStruct):
        SEQ_FIELDS = ["block"]
        def __init__(self, _io, _parent=None, _root=None):
            super(Tar.ZeroBlock, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._debug = collections.defaultdict(dict)

        def _read(self):
            self._debug['block']['start'] = self._io.pos()
            self.block = self._io.read_bytes(512)
            self._debug['block']['end'] = self._io.pos()
            _ = self.block
            if not KaitaiStream.byte_array_max(_) == 0:
                raise kaitaistruct.ValidationExprError(self.block, self._io, u"/types/zero_block/seq/0")


        def _fetch_instances(self):
            pass
