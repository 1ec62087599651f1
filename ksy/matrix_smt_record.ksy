meta:
  id: matrix_smt_record
  title: Matrix-SMT simulation recording
  application: Matrix-SMT Visual Debugger (GrimDarkTech)
  file-extension: bson
  license: MIT
  ks-version: '0.11'
  imports:
    - bson
  encoding: UTF-8
  endian: le
doc: |
  A Matrix-SMT recording is one BSON document (see `bson.ksy`, read with the
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
doc-ref: docs/formats/matrix-smt.md#document recspec's Matrix-SMT format document, "Top-level document"
seq:
  - id: len_document
    type: s4
    valid:
      min: 5
  - id: sections
    size: len_document - 5
    type: section_list
  - id: terminator
    type: u1
    valid: 0
  - id: end_of_file
    size: 0
    valid:
      expr: _io.eof
types:
  section_list:
    seq:
      - id: sections
        type: section
        repeat: eos
  section:
    doc: One top-level element.
    seq:
      - id: type_code
        type: u1
        enum: bson::element_type
        valid:
          in-enum: true
      - id: name
        type: strz
      - id: frames
        type: entry_list(1)
        if: is_frames
      - id: objects
        type: entry_list(2)
        if: is_objects
      - id: other
        type: bson::element_value(type_code.to_i, 0)
        if: not is_frames and not is_objects
    instances:
      is_frames:
        value: type_code == bson::element_type::array and name == "frames"
      is_objects:
        value: type_code == bson::element_type::array and name == "objects"
  entry_list:
    doc: The `frames` (kind 1) or `objects` (kind 2) array.
    params:
      - id: kind
        type: u1
    seq:
      - id: len_document
        type: s4
        valid:
          min: 5
      - id: entries
        size: len_document - 5
        type: entry_list_body(kind)
      - id: terminator
        type: u1
        valid: 0
  entry_list_body:
    params:
      - id: kind
        type: u1
    seq:
      - id: entries
        type: entry(kind)
        repeat: eos
  entry:
    params:
      - id: kind
        type: u1
    seq:
      - id: type_code
        type: u1
        enum: bson::element_type
        valid:
          in-enum: true
      - id: name
        type: strz
        doc: The array index as text, "0", "1", ... in a regular encoding.
      - id: frame
        type: bson::document(2)
        if: type_code == bson::element_type::document and kind == 1
        doc: One frame, `{states, cmd, t}` (or `time` in the producer's files).
      - id: scene_object
        type: bson::document(2)
        if: type_code == bson::element_type::document and kind == 2
        doc: One object, `{id, name, type, color, static, ...geometry}`.
      - id: other
        type: bson::element_value(type_code.to_i, 1)
        if: type_code != bson::element_type::document
        doc: Not a document; the rules report it.
