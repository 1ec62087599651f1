# Generated from ksy/raskat_signal_file.ksy by tools/ksy_compile.mjs
# (kaitai-struct-compiler 0.11.0, no debug mode). Do not edit by hand:
# change the .ksy file and run `python tools/generate_parsers.py`.

# type: ignore

import kaitaistruct
from kaitaistruct import KaitaiStruct, KaitaiStream, BytesIO
from . import tar
from . import raskat_signal
from .._ksy_process.recspec_xz import RecspecXz


if getattr(kaitaistruct, 'API_VERSION', (0, 9)) < (0, 11):
    raise Exception("Incompatible Kaitai Struct Python API: 0.11 or later is required, but you have %s" % (kaitaistruct.__version__))

class RaskatSignalFile(KaitaiStruct):
    """The document calls a signal file "a binary file compressed into tar.xz";
    the writers in use write the signal raw. Both are read here: input that
    starts with the xz magic FD 37 7A 58 5A 00 is one xz stream holding a tar
    archive whose single regular member is the signal; anything else is the
    signal itself.
    
    The xz layer is the custom process routine `recspec_xz`: strict (one
    complete stream, integrity check verified, no second stream, no padding or
    trailing bytes) and bounded (`max_unpacked` bytes of output at most, so a
    small input that inflates without end is refused instead of exhausting
    memory). Which tar member is the signal is decided by the reader (recspec
    takes the one regular member); the member is parsed as `raskat_signal`.
    
    .. seealso::
       docs/formats/raskat-signal.md#container recspec's raSkat signal format document, "Container"
    """
    def __init__(self, max_unpacked, max_depth, _io, _parent=None, _root=None):
        super(RaskatSignalFile, self).__init__(_io)
        self._parent = _parent
        self._root = _root or self
        self.max_unpacked = max_unpacked
        self.max_depth = max_depth
        self._read()

    def _read(self):
        if self.is_xz:
            pass
            self._raw__raw_container = self._io.read_bytes_full()
            _process = RecspecXz(self.max_unpacked)
            self._raw_container = _process.decode(self._raw__raw_container)
            _io__raw_container = KaitaiStream(BytesIO(self._raw_container))
            self.container = tar.Tar(_io__raw_container)

        if (not (self.is_xz)):
            pass
            self.raw = raskat_signal.RaskatSignal(self.max_depth, self._io)



    def _fetch_instances(self):
        pass
        if self.is_xz:
            pass
            self.container._fetch_instances()

        if (not (self.is_xz)):
            pass
            self.raw._fetch_instances()

        _ = self.xz_magic
        if hasattr(self, '_m_xz_magic'):
            pass


    @property
    def is_xz(self):
        if hasattr(self, '_m_is_xz'):
            return self._m_is_xz

        self._m_is_xz =  ((self._io.size() >= 6) and (self.xz_magic == b"\xFD\x37\x7A\x58\x5A\x00")) 
        return getattr(self, '_m_is_xz', None)

    @property
    def xz_magic(self):
        if hasattr(self, '_m_xz_magic'):
            return self._m_xz_magic

        _pos = self._io.pos()
        self._io.seek(0)
        self._m_xz_magic = self._io.read_bytes(6)
        self._io.seek(_pos)
        return getattr(self, '_m_xz_magic', None)
