meta:
  id: bson
  title: BSON (Binary JSON) document, read strictly
  file-extension: bson
  xref:
    mime: application/bson
    wikidata: Q2661480
  license: MIT
  ks-version: '0.11'
  encoding: UTF-8
  endian: le
doc: |
  A BSON document: a signed 32-bit total length (counting itself and the
  final NUL), a list of elements and a NUL byte. Each element is a type code,
  a key (a NUL-terminated UTF-8 "cstring") and a value whose layout the type
  code gives. Arrays are documents whose keys should be "0", "1", ...

  This reading is strict where the specification is:

  * every declared length is consistent with its content: a document's
    elements are parsed from a substream of exactly `len_document - 5` bytes
    and must fill it, so an early terminator, an element running past the
    declared end or a missing final NUL is rejected;
  * strings have a length of at least 1, hold valid UTF-8 and end with NUL;
  * booleans are 0 or 1;
  * the type code is one the specification defines (the deprecated ones
    included: undefined, DBPointer, symbol, code with scope);
  * binary subtype 2 (the old binary layout) repeats the data length inside,
    and it must equal the outer length minus 4;
  * code with scope: the total length equals 4 + string + scope document;
  * nesting is at most 100 documents deep below the top (the `depth`
    parameter counts the levels; recspec's `MAX_DEPTH`), so that no reader
    runs out of stack.

  What the specification leaves to the application (array keys in order,
  duplicate keys) is not enforced here; recspec's rules report it.
doc-ref: https://bsonspec.org/spec.html BSON specification 1.1
seq:
  - id: document
    type: document(0)
  - id: end_of_file
    size: 0
    valid:
      expr: _io.eof
types:
  document:
    doc: |
      A document or an array (the same bytes). `depth` is 0 for the top-level
      document and grows by one per embedded document, array or scope.
    params:
      - id: depth
        type: u4
    seq:
      - id: len_document
        type: s4
        valid:
          expr: _ >= 5 and depth <= 100
      - id: elements
        size: len_document - 5
        type: element_list(depth)
      - id: terminator
        type: u1
        valid: 0
  element_list:
    params:
      - id: depth
        type: u4
    seq:
      - id: elements
        type: element(depth)
        repeat: eos
  element:
    params:
      - id: depth
        type: u4
    seq:
      - id: type_code
        type: u1
        enum: element_type
        valid:
          in-enum: true
      - id: name
        type: strz
      - id: value
        type: element_value(type_code.to_i, depth)
  element_value:
    doc: The value of one element, by its type code.
    params:
      - id: code
        type: u1
      - id: depth
        type: u4
    seq:
      - id: value
        type:
          switch-on: code
          cases:
            0x01: f8
            0x02: string
            0x03: document(depth + 1)
            0x04: document(depth + 1)
            0x05: binary
            0x06: empty
            0x07: object_id
            0x08: boolean
            0x09: s8
            0x0a: empty
            0x0b: regex
            0x0c: db_pointer
            0x0d: string
            0x0e: string
            0x0f: code_with_scope(depth)
            0x10: s4
            0x11: u8
            0x12: s8
            0x13: decimal128
            0x7f: empty
            0xff: empty
  empty:
    doc: The value of undefined, null, MinKey and MaxKey elements, which have no bytes.
  string:
    seq:
      - id: len_value
        type: s4
        valid:
          min: 1
        doc: Bytes of the text plus the final NUL.
      - id: value
        size: len_value - 1
        type: str
      - id: terminator
        type: u1
        valid: 0
  binary:
    seq:
      - id: len_data
        type: s4
        valid:
          min: 0
      - id: subtype
        type: u1
      - id: data
        size: len_data
        type:
          switch-on: subtype
          cases:
            2: binary_old
  binary_old:
    doc: Subtype 2, deprecated; the data repeats its own length.
    seq:
      - id: len_inner
        type: s4
        valid:
          expr: _ == _io.size - 4
      - id: data
        size-eos: true
  object_id:
    seq:
      - id: value
        size: 12
  boolean:
    seq:
      - id: value
        type: u1
        valid:
          any-of: [0, 1]
  regex:
    seq:
      - id: pattern
        type: strz
      - id: options
        type: strz
  db_pointer:
    seq:
      - id: namespace
        type: string
      - id: pointer
        size: 12
  code_with_scope:
    params:
      - id: depth
        type: u4
    seq:
      - id: len_total
        type: s4
        valid:
          min: 14
        doc: The whole value, this field included.
      - id: body
        size: len_total - 4
        type: code_with_scope_body(depth)
  code_with_scope_body:
    params:
      - id: depth
        type: u4
    seq:
      - id: code
        type: string
      - id: scope
        type: document(depth + 1)
      - id: end_of_body
        size: 0
        valid:
          expr: _io.eof
  decimal128:
    seq:
      - id: value
        size: 16
enums:
  element_type:
    0x01: double
    0x02: string
    0x03: document
    0x04: array
    0x05: binary
    0x06:
      id: undefined
      doc: Deprecated.
    0x07: object_id
    0x08: boolean
    0x09: utc_datetime
    0x0a: null_value
    0x0b: regex
    0x0c:
      id: db_pointer
      doc: Deprecated.
    0x0d: javascript
    0x0e:
      id: symbol
      doc: Deprecated.
    0x0f:
      id: code_with_scope
      doc: Deprecated.
    0x10: int32
    0x11: timestamp
    0x12: int64
    0x13: decimal128
    0x7f: max_key
    0xff: min_key
