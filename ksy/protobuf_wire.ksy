meta:
  id: protobuf_wire
  title: Protocol Buffers binary wire format
  license: MIT
  ks-version: '0.11'
  encoding: UTF-8
  endian: le
doc: |
  A serialized protobuf message read without its schema: a sequence of fields,
  each a tag (a varint holding `field_number << 3 | wire_type`) and a body
  whose shape the wire type gives. This is the generic layer under
  `nanover_recording.ksy`, which types the NanoVer messages on top of it;
  fields that the typed messages do not know are read with `field_body`.

  What is accepted is what the protobuf runtime (upb) accepts, except groups:

  * varints are at most 10 bytes (`varint(10)`); a tag is at most 5 bytes and
    below 2^32 (`tag`), and its field number is not 0;
  * wire types 0 (varint), 1 (fixed64), 2 (length-delimited) and 5 (fixed32);
  * wire types 3 and 4 (groups, deprecated since proto2 and never written by
    a proto3 writer) and 6, 7 (undefined) are rejected, as is a length that
    runs past the end of the enclosing message.

  Every check is a zero-size seq field with a `valid` expression (a `valid`
  on an instance would be lazy and never run while parsing).
doc-ref: https://protobuf.dev/programming-guides/encoding/ Protocol Buffers encoding
seq:
  - id: fields
    type: field
    repeat: eos
types:
  field:
    doc: One field of an untyped message.
    seq:
      - id: tag
        type: tag
      - id: body
        type: field_body(tag.wire_type)
  tag:
    doc: A field's key. Reject groups, undefined wire types and field number 0.
    seq:
      - id: key
        type: varint(5)
      - id: is_supported
        size: 0
        valid:
          expr: >-
            key.value <= 0xffffffff and (key.value >> 3) != 0 and
            ((key.value & 7) == 0 or (key.value & 7) == 1 or
             (key.value & 7) == 2 or (key.value & 7) == 5)
        doc: Zero-size check of the tag (see the type doc).
    instances:
      wire_type:
        value: key.value & 7
        enum: wire_type
      field_number:
        value: key.value >> 3
  field_body:
    doc: The body of a field whose wire type is known, its meaning not.
    params:
      - id: wire_type
        type: u1
        enum: wire_type
    seq:
      - id: value
        type:
          switch-on: wire_type
          cases:
            'wire_type::varint': varint(10)
            'wire_type::fixed64': u8
            'wire_type::len_delimited': len_delimited
            'wire_type::fixed32': u4
  len_delimited:
    doc: A byte length (a varint) and that many bytes.
    seq:
      - id: len_body
        type: varint(10)
      - id: body
        size: len_body.value
  varint:
    doc: |
      Base-128 varint, least significant group first, at most `max_len` bytes
      (10 for a value, 5 for a tag); `value` is exact up to 2^70.
    params:
      - id: max_len
        type: u1
    seq:
      - id: groups
        type: u1
        repeat: until
        repeat-until: _ < 0x80 or _index + 1 >= max_len
      - id: is_within_limit
        size: 0
        valid:
          expr: groups.last < 0x80
        doc: Zero-size check that the varint ended within `max_len` bytes.
    instances:
      value:
        value: >-
          (groups[0] & 0x7f) |
          (groups.size > 1 ? (groups[1] & 0x7f).as<u8> << 7 : 0) |
          (groups.size > 2 ? (groups[2] & 0x7f).as<u8> << 14 : 0) |
          (groups.size > 3 ? (groups[3] & 0x7f).as<u8> << 21 : 0) |
          (groups.size > 4 ? (groups[4] & 0x7f).as<u8> << 28 : 0) |
          (groups.size > 5 ? (groups[5] & 0x7f).as<u8> << 35 : 0) |
          (groups.size > 6 ? (groups[6] & 0x7f).as<u8> << 42 : 0) |
          (groups.size > 7 ? (groups[7] & 0x7f).as<u8> << 49 : 0) |
          (groups.size > 8 ? (groups[8] & 0x7f).as<u8> << 56 : 0) |
          (groups.size > 9 ? (groups[9] & 0x7f).as<u8> << 63 : 0)
enums:
  wire_type:
    0: varint
    1: fixed64
    2: len_delimited
    3: start_group
    4: end_group
    5: fixed32
    6: undefined_6
    7: undefined_7
