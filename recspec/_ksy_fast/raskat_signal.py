# Generated from ksy/raskat_signal.ksy by tools/ksy_compile.mjs
# (kaitai-struct-compiler 0.11.0, no debug mode). Do not edit by hand:
# change the .ksy file and run `python tools/generate_parsers.py`.

# type: ignore

import kaitaistruct
from kaitaistruct import KaitaiStruct, KaitaiStream, BytesIO
from . import msgpack


if getattr(kaitaistruct, 'API_VERSION', (0, 9)) < (0, 11):
    raise Exception("Incompatible Kaitai Struct Python API: 0.11 or later is required, but you have %s" % (kaitaistruct.__version__))

class RaskatSignal(KaitaiStruct):
    """One captured pulse: a little-endian u16 version word, then the body that
    version defines.
    
    * version 2: a fixed 47-byte header (UTC time as 14 ASCII digits,
      microseconds, longitude, latitude and altitude each as a u16 integer part
      and a u32 millionths part, sample rate, flags, sample count), then the
      samples as signed 16-bit little-endian integers.
    * version 3: a bare sequence of 12 MessagePack objects (not an array, not a
      map): time, microseconds, two coordinates, altitude, sample rate, load
      resistance, ADC bits, reference voltage, flags, antenna type, samples.
    * version 4 (the document's "v31"): the same 12 objects and a 13th, the
      trigger threshold.
    * version 1 (legacy, before the document): the version 2 fields without the
      flags byte, big-endian after the version word.
    
    Which of the two v3 coordinates is the latitude, whether the v2 samples carry
    a +1000 offset and which flag bits are defined are decisions of the reader
    (recspec's profiles), not of the byte layout, so this spec keeps the stored
    values. The body must end exactly at the end of the input (`end_of_file`),
    so trailing bytes are rejected.
    
    .. seealso::
       docs/formats/raskat-signal.md#version-word recspec's raSkat signal format document, "Version word"
    """
    def __init__(self, max_depth, _io, _parent=None, _root=None):
        super(RaskatSignal, self).__init__(_io)
        self._parent = _parent
        self._root = _root or self
        self.max_depth = max_depth
        self._read()

    def _read(self):
        self.version = self._io.read_u2le()
        if not  ((self.version == 1) or (self.version == 2) or (self.version == 3) or (self.version == 4)) :
            raise kaitaistruct.ValidationNotAnyOfError(self.version, self._io, u"/seq/0")
        _on = self.version
        if _on == 1:
            pass
            self.body = RaskatSignal.BodyV1(self._io, self, self._root)
        elif _on == 2:
            pass
            self.body = RaskatSignal.BodyV2(self._io, self, self._root)
        elif _on == 3:
            pass
            self.body = RaskatSignal.BodyMsgpack(12, self._io, self, self._root)
        elif _on == 4:
            pass
            self.body = RaskatSignal.BodyMsgpack(13, self._io, self, self._root)


    def _fetch_instances(self):
        pass
        _on = self.version
        if _on == 1:
            pass
            self.body._fetch_instances()
        elif _on == 2:
            pass
            self.body._fetch_instances()
        elif _on == 3:
            pass
            self.body._fetch_instances()
        elif _on == 4:
            pass
            self.body._fetch_instances()

    class BodyMsgpack(KaitaiStruct):
        """
        .. seealso::
           docs/formats/raskat-signal.md#layout-v3 recspec's raSkat signal format document, "Version 3"
        """
        def __init__(self, num_fields, _io, _parent=None, _root=None):
            super(RaskatSignal.BodyMsgpack, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self.num_fields = num_fields
            self._read()

        def _read(self):
            self.fields = []
            for i in range(self.num_fields):
                self.fields.append(msgpack.Msgpack(0, self._root.max_depth, self._io))

            self.end_of_file = self._io.read_bytes(0)
            _ = self.end_of_file
            if not self._io.is_eof():
                raise kaitaistruct.ValidationExprError(self.end_of_file, self._io, u"/types/body_msgpack/seq/1")


        def _fetch_instances(self):
            pass
            for i in range(len(self.fields)):
                pass
                self.fields[i]._fetch_instances()



    class BodyV1(KaitaiStruct):
        """Legacy layout: big-endian, no flags byte.
        
        .. seealso::
           docs/formats/raskat-signal.md#layout-v1 recspec's raSkat signal format document, "Version 1 (legacy)"
        """
        def __init__(self, _io, _parent=None, _root=None):
            super(RaskatSignal.BodyV1, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.time = self._io.read_bytes(14)
            self.microseconds = self._io.read_u4be()
            self.lon_int = self._io.read_u2be()
            self.lon_frac = self._io.read_u4be()
            self.lat_int = self._io.read_u2be()
            self.lat_frac = self._io.read_u4be()
            self.alt_int = self._io.read_u2be()
            self.alt_frac = self._io.read_u4be()
            self.sample_rate = self._io.read_u4be()
            self.num_samples = self._io.read_u4be()
            self.samples = []
            for i in range(self.num_samples):
                self.samples.append(self._io.read_s2be())

            self.end_of_file = self._io.read_bytes(0)
            _ = self.end_of_file
            if not self._io.is_eof():
                raise kaitaistruct.ValidationExprError(self.end_of_file, self._io, u"/types/body_v1/seq/11")


        def _fetch_instances(self):
            pass
            for i in range(len(self.samples)):
                pass



    class BodyV2(KaitaiStruct):
        """
        .. seealso::
           docs/formats/raskat-signal.md#layout-v2 recspec's raSkat signal format document, "Version 2"
        """
        def __init__(self, _io, _parent=None, _root=None):
            super(RaskatSignal.BodyV2, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.time = self._io.read_bytes(14)
            self.microseconds = self._io.read_u4le()
            self.lon_int = self._io.read_u2le()
            self.lon_frac = self._io.read_u4le()
            self.lat_int = self._io.read_u2le()
            self.lat_frac = self._io.read_u4le()
            self.alt_int = self._io.read_u2le()
            self.alt_frac = self._io.read_u4le()
            self.sample_rate = self._io.read_u4le()
            self.flags = self._io.read_u1()
            self.num_samples = self._io.read_u4le()
            self.samples = []
            for i in range(self.num_samples):
                self.samples.append(self._io.read_s2le())

            self.end_of_file = self._io.read_bytes(0)
            _ = self.end_of_file
            if not self._io.is_eof():
                raise kaitaistruct.ValidationExprError(self.end_of_file, self._io, u"/types/body_v2/seq/12")


        def _fetch_instances(self):
            pass
            for i in range(len(self.samples)):
                pass
