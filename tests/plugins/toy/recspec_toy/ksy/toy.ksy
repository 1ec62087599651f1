meta:
  id: toy
  title: Toy record file (.toy), the format of recspec's out-of-tree plugin example
  file-extension: toy
  license: MIT
  ks-version: '0.11'
  endian: le
doc: |
  An 8-byte header (magic "TOYF", version, flags, record count) and then
  `count` records of 8 bytes each: a record id, a signed value, a checksum
  (the sum of the record's first six bytes modulo 256) and a reserved byte.
  Nothing follows the last record.
doc-ref: recspec_toy/docs/toy.md
seq:
  - id: magic
    contents: TOYF
  - id: version
    type: u1
  - id: flags
    type: u1
  - id: count
    type: u2
  - id: records
    type: record
    repeat: expr
    repeat-expr: count
  - id: end_of_file
    size: 0
    valid:
      expr: _io.eof
types:
  record:
    seq:
      - id: record_id
        type: u2
      - id: value
        type: s4
      - id: checksum
        type: u1
      - id: reserved
        type: u1
