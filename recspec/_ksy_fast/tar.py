# Generated from ksy/tar.ksy by tools/ksy_compile.mjs
# (kaitai-struct-compiler 0.11.0, no debug mode). Do not edit by hand:
# change the .ksy file and run `python tools/generate_parsers.py`.

# type: ignore

import kaitaistruct
from kaitaistruct import KaitaiStruct, KaitaiStream, BytesIO


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
    def __init__(self, _io, _parent=None, _root=None):
        super(Tar, self).__init__(_io)
        self._parent = _parent
        self._root = _root or self
        self._read()

    def _read(self):
        self.entries = []
        i = 0
        while True:
            _ = Tar.Entry(self._io, self, self._root)
            self.entries.append(_)
            if _.is_end:
                break
            i += 1
        self.padding = []
        i = 0
        while not self._io.is_eof():
            self.padding.append(Tar.ZeroBlock(self._io, self, self._root))
            i += 1



    def _fetch_instances(self):
        pass
        for i in range(len(self.entries)):
            pass
            self.entries[i]._fetch_instances()

        for i in range(len(self.padding)):
            pass
            self.padding[i]._fetch_instances()


    class ChecksumAcc(KaitaiStruct):
        def __init__(self, before, _io, _parent=None, _root=None):
            super(Tar.ChecksumAcc, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self.before = before
            self._read()

        def _read(self):
            self.w = self._io.read_u8be()


        def _fetch_instances(self):
            pass

        @property
        def acc(self):
            if hasattr(self, '_m_acc'):
                return self._m_acc

            self._m_acc = (((((((self.before + (self.w >> 56)) + (self.w >> 48 & 255)) + (self.w >> 40 & 255)) + (self.w >> 32 & 255)) + (self.w >> 24 & 255)) + (self.w >> 16 & 255)) + (self.w >> 8 & 255)) + (self.w & 255)
            return getattr(self, '_m_acc', None)


    class Entry(KaitaiStruct):
        def __init__(self, _io, _parent=None, _root=None):
            super(Tar.Entry, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self._raw_header = self._io.read_bytes(512)
            _io__raw_header = KaitaiStream(BytesIO(self._raw_header))
            self.header = Tar.Header(_io__raw_header, self, self._root)
            if  (((not (self.is_end))) and (self.has_data)) :
                pass
                self.body = self._io.read_bytes(self.header.size.value)

            if  (((not (self.is_end))) and (self.has_data)) :
                pass
                self.body_padding = self._io.read_bytes((512 - self.header.size.value % 512) % 512)



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
        def __init__(self, _io, _parent=None, _root=None):
            super(Tar.Header, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.name = self._io.read_bytes(100)
            self.mode = Tar.Octal(8, self._io, self, self._root)
            self.uid = Tar.Octal(8, self._io, self, self._root)
            self.gid = Tar.Octal(8, self._io, self, self._root)
            self.size = Tar.Octal(12, self._io, self, self._root)
            self.mtime = Tar.Octal(12, self._io, self, self._root)
            self.chksum = Tar.Octal(8, self._io, self, self._root)
            _ = self.chksum
            if not  ((self.is_zero_block) or (_.value == self.computed_checksum)) :
                raise kaitaistruct.ValidationExprError(self.chksum, self._io, u"/types/header/seq/6")
            self.typeflag = self._io.read_u1()
            self.linkname = self._io.read_bytes(100)
            self.magic = self._io.read_bytes(6)
            self.version = self._io.read_bytes(2)
            self.uname = self._io.read_bytes(32)
            self.gname = self._io.read_bytes(32)
            self.devmajor = self._io.read_bytes(8)
            self.devminor = self._io.read_bytes(8)
            self.prefix = self._io.read_bytes(155)
            self.pad = self._io.read_bytes(12)


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
            self._m_all_bytes = self._io.read_bytes(512)
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
            self._m_chksum_bytes = self._io.read_bytes(8)
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
            self._m_words = []
            for i in range(64):
                self._m_words.append(Tar.ChecksumAcc((0 if i == 0 else self.words[i - 1].acc), self._io, self, self._root))

            self._io.seek(_pos)
            return getattr(self, '_m_words', None)


    class Octal(KaitaiStruct):
        """An ASCII octal number field of `len` bytes."""
        def __init__(self, len, _io, _parent=None, _root=None):
            super(Tar.Octal, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self.len = len
            self._read()

        def _read(self):
            self.chars = []
            for i in range(self.len):
                self.chars.append(Tar.OctalChar((0 if i == 0 else self.chars[i - 1].state), (0 if i == 0 else self.chars[i - 1].value), self._io, self, self._root))



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
        def __init__(self, state_before, value_before, _io, _parent=None, _root=None):
            super(Tar.OctalChar, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self.state_before = state_before
            self.value_before = value_before
            self._read()

        def _read(self):
            self.c = self._io.read_u1()
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
        def __init__(self, _io, _parent=None, _root=None):
            super(Tar.ZeroBlock, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.block = self._io.read_bytes(512)
            _ = self.block
            if not KaitaiStream.byte_array_max(_) == 0:
                raise kaitaistruct.ValidationExprError(self.block, self._io, u"/types/zero_block/seq/0")


        def _fetch_instances(self):
            pass
