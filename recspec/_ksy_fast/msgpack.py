# Generated from ksy/msgpack.ksy by tools/ksy_compile.mjs
# (kaitai-struct-compiler 0.11.0, no debug mode). Do not edit by hand:
# change the .ksy file and run `python tools/generate_parsers.py`.

# type: ignore

import kaitaistruct
from kaitaistruct import KaitaiStruct, KaitaiStream, BytesIO


if getattr(kaitaistruct, 'API_VERSION', (0, 9)) < (0, 11):
    raise Exception("Incompatible Kaitai Struct Python API: 0.11 or later is required, but you have %s" % (kaitaistruct.__version__))

class Msgpack(KaitaiStruct):
    """One MessagePack object: a lead byte, then whatever the lead byte says
    follows (a big-endian length or number, an ext type byte, the payload bytes,
    or the nested objects of an array or map). Every format family is here: nil,
    false/true, positive and negative fixint, uint 8/16/32/64, int 8/16/32/64,
    float 32/64, fixstr and str 8/16/32, bin 8/16/32, fixext 1/2/4/8/16 and
    ext 8/16/32, fixarray and array 16/32, fixmap and map 16/32.
    
    The lead byte 0xc1 is "never used" in the specification and is rejected.
    Strings are kept as bytes (`data`): the specification requires UTF-8 but a
    reader decides what to do with bytes that are not.
    
    The `if` conditions of the seq test the lead byte directly rather than
    through the `is_*` instances: a signal holds hundreds of small integers, and
    the instance lookups were most of the parse time.
    
    Nesting is limited: `depth` counts the enclosing arrays and maps, and a
    container lead byte at depth `max_depth` is rejected, so a run of nested
    array headers cannot exhaust the parser's stack. A map holds `2 * n` objects
    (key, value, key, value, ...) in `items`.
    
    .. seealso::
       MessagePack specification, "Formats" - https://github.com/msgpack/msgpack/blob/master/spec.md
    """
    def __init__(self, depth, max_depth, _io, _parent=None, _root=None):
        super(Msgpack, self).__init__(_io)
        self._parent = _parent
        self._root = _root or self
        self.depth = depth
        self.max_depth = max_depth
        self._read()

    def _read(self):
        self.b1 = self._io.read_u1()
        _ = self.b1
        if not  ((_ != 193) and ( ((self.depth < self.max_depth) or ((not ( (( ((_ >= 128) and (_ <= 159)) ) or ( ((_ >= 220) and (_ <= 223)) )) )))) )) :
            raise kaitaistruct.ValidationExprError(self.b1, self._io, u"/seq/0")
        if  (( ((self.b1 >= 196) and (self.b1 <= 201)) ) or ( ((self.b1 >= 217) and (self.b1 <= 223)) )) :
            pass
            _on = self.b1
            if _on == 196:
                pass
                self.len_field = self._io.read_u1()
            elif _on == 197:
                pass
                self.len_field = self._io.read_u2be()
            elif _on == 198:
                pass
                self.len_field = self._io.read_u4be()
            elif _on == 199:
                pass
                self.len_field = self._io.read_u1()
            elif _on == 200:
                pass
                self.len_field = self._io.read_u2be()
            elif _on == 201:
                pass
                self.len_field = self._io.read_u4be()
            elif _on == 217:
                pass
                self.len_field = self._io.read_u1()
            elif _on == 218:
                pass
                self.len_field = self._io.read_u2be()
            elif _on == 219:
                pass
                self.len_field = self._io.read_u4be()
            elif _on == 220:
                pass
                self.len_field = self._io.read_u2be()
            elif _on == 221:
                pass
                self.len_field = self._io.read_u4be()
            elif _on == 222:
                pass
                self.len_field = self._io.read_u2be()
            elif _on == 223:
                pass
                self.len_field = self._io.read_u4be()

        if  (( ((self.b1 >= 199) and (self.b1 <= 201)) ) or ( ((self.b1 >= 212) and (self.b1 <= 216)) )) :
            pass
            self.ext_type = self._io.read_s1()

        if  ((self.b1 >= 202) and (self.b1 <= 211)) :
            pass
            _on = self.b1
            if _on == 202:
                pass
                self.num_value = self._io.read_f4be()
            elif _on == 203:
                pass
                self.num_value = self._io.read_f8be()
            elif _on == 204:
                pass
                self.num_value = self._io.read_u1()
            elif _on == 205:
                pass
                self.num_value = self._io.read_u2be()
            elif _on == 206:
                pass
                self.num_value = self._io.read_u4be()
            elif _on == 207:
                pass
                self.num_value = self._io.read_u8be()
            elif _on == 208:
                pass
                self.num_value = self._io.read_s1()
            elif _on == 209:
                pass
                self.num_value = self._io.read_s2be()
            elif _on == 210:
                pass
                self.num_value = self._io.read_s4be()
            elif _on == 211:
                pass
                self.num_value = self._io.read_s8be()

        if  (( ((self.b1 >= 160) and (self.b1 <= 191)) ) or ( ((self.b1 >= 196) and (self.b1 <= 201)) ) or ( ((self.b1 >= 212) and (self.b1 <= 219)) )) :
            pass
            self.data = self._io.read_bytes(self.len_data)

        if  (( ((self.b1 >= 128) and (self.b1 <= 159)) ) or ( ((self.b1 >= 220) and (self.b1 <= 223)) )) :
            pass
            self.items = []
            for i in range((2 * self.num_elements if self.is_map else self.num_elements)):
                self.items.append(Msgpack(self.depth + 1, self.max_depth, self._io, self, self._root))




    def _fetch_instances(self):
        pass
        if  (( ((self.b1 >= 196) and (self.b1 <= 201)) ) or ( ((self.b1 >= 217) and (self.b1 <= 223)) )) :
            pass
            _on = self.b1
            if _on == 196:
                pass
            elif _on == 197:
                pass
            elif _on == 198:
                pass
            elif _on == 199:
                pass
            elif _on == 200:
                pass
            elif _on == 201:
                pass
            elif _on == 217:
                pass
            elif _on == 218:
                pass
            elif _on == 219:
                pass
            elif _on == 220:
                pass
            elif _on == 221:
                pass
            elif _on == 222:
                pass
            elif _on == 223:
                pass

        if  (( ((self.b1 >= 199) and (self.b1 <= 201)) ) or ( ((self.b1 >= 212) and (self.b1 <= 216)) )) :
            pass

        if  ((self.b1 >= 202) and (self.b1 <= 211)) :
            pass
            _on = self.b1
            if _on == 202:
                pass
            elif _on == 203:
                pass
            elif _on == 204:
                pass
            elif _on == 205:
                pass
            elif _on == 206:
                pass
            elif _on == 207:
                pass
            elif _on == 208:
                pass
            elif _on == 209:
                pass
            elif _on == 210:
                pass
            elif _on == 211:
                pass

        if  (( ((self.b1 >= 160) and (self.b1 <= 191)) ) or ( ((self.b1 >= 196) and (self.b1 <= 201)) ) or ( ((self.b1 >= 212) and (self.b1 <= 219)) )) :
            pass

        if  (( ((self.b1 >= 128) and (self.b1 <= 159)) ) or ( ((self.b1 >= 220) and (self.b1 <= 223)) )) :
            pass
            for i in range(len(self.items)):
                pass
                self.items[i]._fetch_instances()



    @property
    def bool_value(self):
        if hasattr(self, '_m_bool_value'):
            return self._m_bool_value

        if self.is_bool:
            pass
            self._m_bool_value = self.b1 == 195

        return getattr(self, '_m_bool_value', None)

    @property
    def has_len_field(self):
        if hasattr(self, '_m_has_len_field'):
            return self._m_has_len_field

        self._m_has_len_field =  (( ((self.b1 >= 196) and (self.b1 <= 201)) ) or ( ((self.b1 >= 217) and (self.b1 <= 223)) )) 
        return getattr(self, '_m_has_len_field', None)

    @property
    def int_value(self):
        """The value of every integer except uint 64 (read `num_value` for that one)."""
        if hasattr(self, '_m_int_value'):
            return self._m_int_value

        if  ((self.is_pos_fixint) or (self.is_neg_fixint) or ( ((self.b1 >= 204) and (self.b1 <= 206)) ) or ( ((self.b1 >= 208) and (self.b1 <= 211)) )) :
            pass
            self._m_int_value = (self.b1 if self.is_pos_fixint else (self.b1 - 256 if self.is_neg_fixint else self.num_value))

        return getattr(self, '_m_int_value', None)

    @property
    def is_array(self):
        if hasattr(self, '_m_is_array'):
            return self._m_is_array

        self._m_is_array =  (( ((self.b1 >= 144) and (self.b1 <= 159)) ) or (self.b1 == 220) or (self.b1 == 221)) 
        return getattr(self, '_m_is_array', None)

    @property
    def is_bin(self):
        if hasattr(self, '_m_is_bin'):
            return self._m_is_bin

        self._m_is_bin =  ((self.b1 >= 196) and (self.b1 <= 198)) 
        return getattr(self, '_m_is_bin', None)

    @property
    def is_bool(self):
        if hasattr(self, '_m_is_bool'):
            return self._m_is_bool

        self._m_is_bool =  ((self.b1 == 194) or (self.b1 == 195)) 
        return getattr(self, '_m_is_bool', None)

    @property
    def is_ext(self):
        if hasattr(self, '_m_is_ext'):
            return self._m_is_ext

        self._m_is_ext =  (( ((self.b1 >= 199) and (self.b1 <= 201)) ) or ( ((self.b1 >= 212) and (self.b1 <= 216)) )) 
        return getattr(self, '_m_is_ext', None)

    @property
    def is_float(self):
        if hasattr(self, '_m_is_float'):
            return self._m_is_float

        self._m_is_float =  ((self.b1 == 202) or (self.b1 == 203)) 
        return getattr(self, '_m_is_float', None)

    @property
    def is_int(self):
        if hasattr(self, '_m_is_int'):
            return self._m_is_int

        self._m_is_int =  ((self.is_pos_fixint) or (self.is_neg_fixint) or ( ((self.b1 >= 204) and (self.b1 <= 211)) )) 
        return getattr(self, '_m_is_int', None)

    @property
    def is_map(self):
        if hasattr(self, '_m_is_map'):
            return self._m_is_map

        self._m_is_map =  (( ((self.b1 >= 128) and (self.b1 <= 143)) ) or (self.b1 == 222) or (self.b1 == 223)) 
        return getattr(self, '_m_is_map', None)

    @property
    def is_neg_fixint(self):
        if hasattr(self, '_m_is_neg_fixint'):
            return self._m_is_neg_fixint

        self._m_is_neg_fixint = self.b1 >= 224
        return getattr(self, '_m_is_neg_fixint', None)

    @property
    def is_nil(self):
        if hasattr(self, '_m_is_nil'):
            return self._m_is_nil

        self._m_is_nil = self.b1 == 192
        return getattr(self, '_m_is_nil', None)

    @property
    def is_pos_fixint(self):
        if hasattr(self, '_m_is_pos_fixint'):
            return self._m_is_pos_fixint

        self._m_is_pos_fixint = self.b1 <= 127
        return getattr(self, '_m_is_pos_fixint', None)

    @property
    def is_str(self):
        if hasattr(self, '_m_is_str'):
            return self._m_is_str

        self._m_is_str =  (( ((self.b1 >= 160) and (self.b1 <= 191)) ) or ( ((self.b1 >= 217) and (self.b1 <= 219)) )) 
        return getattr(self, '_m_is_str', None)

    @property
    def len_data(self):
        if hasattr(self, '_m_len_data'):
            return self._m_len_data

        if  ((self.is_str) or (self.is_bin) or (self.is_ext)) :
            pass
            self._m_len_data = (self.b1 & 31 if  ((self.b1 >= 160) and (self.b1 <= 191))  else (1 if self.b1 == 212 else (2 if self.b1 == 213 else (4 if self.b1 == 214 else (8 if self.b1 == 215 else (16 if self.b1 == 216 else self.len_field))))))

        return getattr(self, '_m_len_data', None)

    @property
    def num_elements(self):
        if hasattr(self, '_m_num_elements'):
            return self._m_num_elements

        if  ((self.is_array) or (self.is_map)) :
            pass
            self._m_num_elements = (self.b1 & 15 if  ((self.b1 >= 128) and (self.b1 <= 159))  else self.len_field)

        return getattr(self, '_m_num_elements', None)
