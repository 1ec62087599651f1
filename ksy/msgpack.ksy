meta:
  id: msgpack
  title: MessagePack object
  license: MIT
  ks-version: '0.11'
  endian: be
doc: |
  One MessagePack object: a lead byte, then whatever the lead byte says
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
doc-ref: https://github.com/msgpack/msgpack/blob/master/spec.md MessagePack specification, "Formats"
params:
  - id: depth
    type: u1
    doc: How many arrays and maps enclose this object (0 at the top).
  - id: max_depth
    type: u1
    doc: The deepest nesting accepted; a container at this depth is rejected.
seq:
  - id: b1
    type: u1
    valid:
      expr: '_ != 0xc1 and (depth < max_depth or not ((_ >= 0x80 and _ <= 0x9f) or (_ >= 0xdc and _ <= 0xdf)))'
    doc: The lead byte. 0xc1 is never used; containers deeper than max_depth are refused.
  - id: len_field
    type:
      switch-on: b1
      cases:
        0xc4: u1
        0xc5: u2
        0xc6: u4
        0xc7: u1
        0xc8: u2
        0xc9: u4
        0xd9: u1
        0xda: u2
        0xdb: u4
        0xdc: u2
        0xdd: u4
        0xde: u2
        0xdf: u4
    if: '(b1 >= 0xc4 and b1 <= 0xc9) or (b1 >= 0xd9 and b1 <= 0xdf)'
    doc: Length of str/bin/ext payloads, or element count of array/map 16/32.
  - id: ext_type
    type: s1
    if: '(b1 >= 0xc7 and b1 <= 0xc9) or (b1 >= 0xd4 and b1 <= 0xd8)'
    doc: The application-defined ext type (negative values are reserved).
  - id: num_value
    type:
      switch-on: b1
      cases:
        0xca: f4
        0xcb: f8
        0xcc: u1
        0xcd: u2
        0xce: u4
        0xcf: u8
        0xd0: s1
        0xd1: s2
        0xd2: s4
        0xd3: s8
    if: b1 >= 0xca and b1 <= 0xd3
    doc: The number of float 32/64, uint 8-64 and int 8-64.
  - id: data
    size: len_data
    if: '(b1 >= 0xa0 and b1 <= 0xbf) or (b1 >= 0xc4 and b1 <= 0xc9) or (b1 >= 0xd4 and b1 <= 0xdb)'
    doc: The bytes of a str, bin or ext.
  - id: items
    type: msgpack(depth + 1, max_depth)
    repeat: expr
    repeat-expr: 'is_map ? 2 * num_elements : num_elements'
    if: '(b1 >= 0x80 and b1 <= 0x9f) or (b1 >= 0xdc and b1 <= 0xdf)'
    doc: Array elements, or map keys and values alternating.
instances:
  has_len_field:
    value: '(b1 >= 0xc4 and b1 <= 0xc9) or (b1 >= 0xd9 and b1 <= 0xdf)'
  is_nil:
    value: b1 == 0xc0
  is_bool:
    value: b1 == 0xc2 or b1 == 0xc3
  bool_value:
    value: b1 == 0xc3
    if: is_bool
  is_pos_fixint:
    value: b1 <= 0x7f
  is_neg_fixint:
    value: b1 >= 0xe0
  is_int:
    value: is_pos_fixint or is_neg_fixint or (b1 >= 0xcc and b1 <= 0xd3)
  is_float:
    value: b1 == 0xca or b1 == 0xcb
  is_str:
    value: (b1 >= 0xa0 and b1 <= 0xbf) or (b1 >= 0xd9 and b1 <= 0xdb)
  is_bin:
    value: b1 >= 0xc4 and b1 <= 0xc6
  is_ext:
    value: (b1 >= 0xc7 and b1 <= 0xc9) or (b1 >= 0xd4 and b1 <= 0xd8)
  is_array:
    value: (b1 >= 0x90 and b1 <= 0x9f) or b1 == 0xdc or b1 == 0xdd
  is_map:
    value: (b1 >= 0x80 and b1 <= 0x8f) or b1 == 0xde or b1 == 0xdf
  int_value:
    value: 'is_pos_fixint ? b1 : is_neg_fixint ? b1 - 0x100 : num_value.as<s8>'
    if: is_pos_fixint or is_neg_fixint or (b1 >= 0xcc and b1 <= 0xce) or (b1 >= 0xd0 and b1 <= 0xd3)
    doc: The value of every integer except uint 64 (read `num_value` for that one).
  len_data:
    value: |
      (b1 >= 0xa0 and b1 <= 0xbf) ? b1 & 0x1f :
      b1 == 0xd4 ? 1 : b1 == 0xd5 ? 2 : b1 == 0xd6 ? 4 : b1 == 0xd7 ? 8 : b1 == 0xd8 ? 16 :
      len_field.as<u4>
    if: is_str or is_bin or is_ext
  num_elements:
    value: '(b1 >= 0x80 and b1 <= 0x9f) ? b1 & 0x0f : len_field.as<u4>'
    if: is_array or is_map
