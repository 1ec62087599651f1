meta:
  id: nanover_recording
  title: NanoVer recording (.traj frames, .state shared-state updates)
  application: NanoVer (interactive molecular dynamics in VR)
  file-extension:
    - traj
    - state
  license: MIT
  ks-version: '0.11'
  imports:
    - protobuf_wire
  encoding: UTF-8
  endian: le
doc: |
  The recording files of NanoVer servers and recorders from July 2023 to
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
doc-ref: docs/formats/nanover.md#layout recspec's NanoVer format document, "Container layout"
params:
  - id: kind
    type: u1
    enum: record_kind
    doc: Which message the payloads hold (from the file extension or the caller).
seq:
  - id: header
    type: header
  - id: records
    type: record(kind)
    repeat: eos
types:
  header:
    doc: Two little-endian u64 values.
    seq:
      - id: magic
        type: u8
        valid: '6661355757386708963'
        doc: 0x5C71E3C49989B7E3, on disk `e3 b7 89 99 c4 e3 71 5c`.
      - id: version
        type: u8
        doc: |
          2 in every file written since July 2023. Version 1 files have no
          header at all (they start with the first timestamp), so they fail
          the magic.
  record:
    params:
      - id: kind
        type: u1
        enum: record_kind
    seq:
      - id: timestamp_low
        type: u8
        doc: Low half of the u128 timestamp, in microseconds.
      - id: timestamp_high
        type: u8
        doc: High half of the u128 timestamp; 0 in every known file.
      - id: len_payload
        type: u8
        doc: Payload bytes; the 24-byte record header is not counted.
      - id: payload
        size: len_payload
        type:
          switch-on: kind
          cases:
            'record_kind::traj': get_frame_response
            'record_kind::state': state_update
    instances:
      timestamp_us:
        value: timestamp_high << 64 | timestamp_low
  # --- nanover.protocol.trajectory --------------------------------------------------------
  get_frame_response:
    doc: 'The .traj payload: frame_index = 1 (uint32), frame = 2 (FrameData).'
    seq:
      - id: fields
        type: get_frame_response_field
        repeat: eos
  get_frame_response_field:
    seq:
      - id: tag
        type: protobuf_wire::tag
      - id: body
        type:
          switch-on: tag.key.value
          cases:
            0x08: protobuf_wire::varint(10)
            0x12: len_frame_data
            _: protobuf_wire::field_body(tag.wire_type)
  len_frame_data:
    seq:
      - id: len_body
        type: protobuf_wire::varint(10)
      - id: body
        size: len_body.value
        type: frame_data
  frame_data:
    doc: 'values = 1 (map<string, Value>), arrays = 2 (map<string, ValueArray>).'
    seq:
      - id: fields
        type: frame_data_field
        repeat: eos
  frame_data_field:
    seq:
      - id: tag
        type: protobuf_wire::tag
      - id: body
        type:
          switch-on: tag.key.value
          cases:
            0x0a: len_value_entry(0)
            0x12: len_array_entry
            _: protobuf_wire::field_body(tag.wire_type)
  len_array_entry:
    seq:
      - id: len_body
        type: protobuf_wire::varint(10)
      - id: body
        size: len_body.value
        type: array_entry
  array_entry:
    doc: 'A map entry: key = 1 (string), value = 2 (ValueArray).'
    seq:
      - id: fields
        type: array_entry_field
        repeat: eos
  array_entry_field:
    seq:
      - id: tag
        type: protobuf_wire::tag
      - id: body
        type:
          switch-on: tag.key.value
          cases:
            0x0a: len_string
            0x12: len_value_array
            _: protobuf_wire::field_body(tag.wire_type)
  # --- nanover.protocol arrays -------------------------------------------------------------
  len_value_array:
    seq:
      - id: len_body
        type: protobuf_wire::varint(10)
      - id: body
        size: len_body.value
        type: value_array
  value_array:
    doc: 'oneof values: float_values = 1, index_values = 2, string_values = 3.'
    seq:
      - id: fields
        type: value_array_field
        repeat: eos
  value_array_field:
    seq:
      - id: tag
        type: protobuf_wire::tag
      - id: body
        type:
          switch-on: tag.key.value
          cases:
            0x0a: len_float_array
            0x12: len_index_array
            0x1a: len_string_array
            _: protobuf_wire::field_body(tag.wire_type)
  len_float_array:
    seq:
      - id: len_body
        type: protobuf_wire::varint(10)
      - id: body
        size: len_body.value
        type: float_array
  float_array:
    doc: values = 1, repeated float, packed (one length-delimited run) or not (fixed32 each).
    seq:
      - id: fields
        type: float_array_field
        repeat: eos
  float_array_field:
    seq:
      - id: tag
        type: protobuf_wire::tag
      - id: body
        type:
          switch-on: tag.key.value
          cases:
            0x0a: packed_floats
            0x0d: f4
            _: protobuf_wire::field_body(tag.wire_type)
  packed_floats:
    seq:
      - id: len_values
        type: protobuf_wire::varint(10)
      - id: values
        size: len_values.value
        type: floats
  floats:
    seq:
      - id: values
        type: f4
        repeat: eos
  len_index_array:
    seq:
      - id: len_body
        type: protobuf_wire::varint(10)
      - id: body
        size: len_body.value
        type: index_array
  index_array:
    doc: values = 1, repeated uint32, packed (one length-delimited run of varints) or not.
    seq:
      - id: fields
        type: index_array_field
        repeat: eos
  index_array_field:
    seq:
      - id: tag
        type: protobuf_wire::tag
      - id: body
        type:
          switch-on: tag.key.value
          cases:
            0x0a: packed_varints
            0x08: protobuf_wire::varint(10)
            _: protobuf_wire::field_body(tag.wire_type)
  packed_varints:
    seq:
      - id: len_values
        type: protobuf_wire::varint(10)
      - id: values
        size: len_values.value
        type: varints
  varints:
    seq:
      - id: values
        type: protobuf_wire::varint(10)
        repeat: eos
  len_string_array:
    seq:
      - id: len_body
        type: protobuf_wire::varint(10)
      - id: body
        size: len_body.value
        type: string_array
  string_array:
    doc: values = 1, repeated string (one length-delimited field per element).
    seq:
      - id: fields
        type: string_array_field
        repeat: eos
  string_array_field:
    seq:
      - id: tag
        type: protobuf_wire::tag
      - id: body
        type:
          switch-on: tag.key.value
          cases:
            0x0a: len_string
            _: protobuf_wire::field_body(tag.wire_type)
  len_string:
    doc: A proto3 string; bytes that are not UTF-8 are rejected, as the runtime does.
    seq:
      - id: len_value
        type: protobuf_wire::varint(10)
      - id: value
        size: len_value.value
        type: str
  # --- nanover.protocol.state --------------------------------------------------------------
  state_update:
    doc: 'The .state payload: changed_keys = 1 (google.protobuf.Struct).'
    seq:
      - id: fields
        type: state_update_field
        repeat: eos
  state_update_field:
    seq:
      - id: tag
        type: protobuf_wire::tag
      - id: body
        type:
          switch-on: tag.key.value
          cases:
            0x0a: len_struct(0)
            _: protobuf_wire::field_body(tag.wire_type)
  # --- google.protobuf.Struct / Value / ListValue --------------------------------------------
  len_struct:
    params:
      - id: depth
        type: u1
    seq:
      - id: len_body
        type: protobuf_wire::varint(10)
      - id: is_within_nesting_limit
        size: 0
        valid:
          expr: depth < max_nesting
        doc: Zero-size check of the nesting depth (see `max_nesting`).
      - id: body
        size: len_body.value
        type: struct(depth)
    instances:
      max_nesting:
        value: 32
        doc: |
          Structs, lists and values nested deeper than this are rejected.
          recspec's own limit (`MAX_NESTING` of the reference), well below the
          protobuf runtime's recursion limit.
  struct:
    doc: 'google.protobuf.Struct: fields = 1 (map<string, Value>).'
    params:
      - id: depth
        type: u1
    seq:
      - id: fields
        type: struct_field(depth)
        repeat: eos
  struct_field:
    params:
      - id: depth
        type: u1
    seq:
      - id: tag
        type: protobuf_wire::tag
      - id: body
        type:
          switch-on: tag.key.value
          cases:
            0x0a: len_value_entry(depth)
            _: protobuf_wire::field_body(tag.wire_type)
  len_value_entry:
    params:
      - id: depth
        type: u1
    seq:
      - id: len_body
        type: protobuf_wire::varint(10)
      - id: body
        size: len_body.value
        type: value_entry(depth)
  value_entry:
    doc: 'A map entry: key = 1 (string), value = 2 (google.protobuf.Value).'
    params:
      - id: depth
        type: u1
    seq:
      - id: fields
        type: value_entry_field(depth)
        repeat: eos
  value_entry_field:
    params:
      - id: depth
        type: u1
    seq:
      - id: tag
        type: protobuf_wire::tag
      - id: body
        type:
          switch-on: tag.key.value
          cases:
            0x0a: len_string
            0x12: len_value(depth)
            _: protobuf_wire::field_body(tag.wire_type)
  len_value:
    params:
      - id: depth
        type: u1
    seq:
      - id: len_body
        type: protobuf_wire::varint(10)
      - id: body
        size: len_body.value
        type: value(depth)
  value:
    doc: |
      google.protobuf.Value, oneof kind: null_value = 1 (enum, varint),
      number_value = 2 (double), string_value = 3, bool_value = 4,
      struct_value = 5 (Struct), list_value = 6 (ListValue).
    params:
      - id: depth
        type: u1
    seq:
      - id: fields
        type: value_field(depth)
        repeat: eos
  value_field:
    params:
      - id: depth
        type: u1
    seq:
      - id: tag
        type: protobuf_wire::tag
      - id: body
        type:
          switch-on: tag.key.value
          cases:
            0x08: protobuf_wire::varint(10)
            0x11: f8
            0x1a: len_string
            0x20: protobuf_wire::varint(10)
            0x2a: len_struct(depth + 1)
            0x32: len_list_value(depth + 1)
            _: protobuf_wire::field_body(tag.wire_type)
  len_list_value:
    params:
      - id: depth
        type: u1
    seq:
      - id: len_body
        type: protobuf_wire::varint(10)
      - id: is_within_nesting_limit
        size: 0
        valid:
          expr: depth < 32
        doc: Zero-size check of the nesting depth (see `len_struct::max_nesting`).
      - id: body
        size: len_body.value
        type: list_value(depth)
  list_value:
    doc: 'google.protobuf.ListValue: values = 1 (repeated Value).'
    params:
      - id: depth
        type: u1
    seq:
      - id: fields
        type: list_value_field(depth)
        repeat: eos
  list_value_field:
    params:
      - id: depth
        type: u1
    seq:
      - id: tag
        type: protobuf_wire::tag
      - id: body
        type:
          switch-on: tag.key.value
          cases:
            0x0a: len_value(depth)
            _: protobuf_wire::field_body(tag.wire_type)
enums:
  record_kind:
    1:
      id: traj
      doc: '`.traj`: GetFrameResponse payloads (nanover.protocol.trajectory).'
    2:
      id: state
      doc: '`.state`: StateUpdate payloads (nanover.protocol.state).'
