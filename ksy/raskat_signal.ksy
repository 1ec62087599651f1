meta:
  id: raskat_signal
  title: raSkat lightning-detector signal (the body inside any container)
  application: raSkat detector-core (detector-gpio)
  file-extension: sig
  license: MIT
  ks-version: '0.11'
  endian: le
  imports:
    - msgpack
doc: |
  One captured pulse: a little-endian u16 version word, then the body that
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
doc-ref: docs/formats/raskat-signal.md#version-word recspec's raSkat signal format document, "Version word"
params:
  - id: max_depth
    type: u1
    doc: Deepest MessagePack nesting accepted inside a v3/v4 body.
seq:
  - id: version
    type: u2
    valid:
      any-of: [1, 2, 3, 4]
    doc: The layout of the body.
  - id: body
    type:
      switch-on: version
      cases:
        1: body_v1
        2: body_v2
        3: body_msgpack(12)
        4: body_msgpack(13)
types:
  body_v2:
    doc-ref: docs/formats/raskat-signal.md#layout-v2 recspec's raSkat signal format document, "Version 2"
    seq:
      - id: time
        size: 14
        doc: UTC start time as %Y%m%d%H%M%S (ASCII digits; checked by recspec's rules).
      - id: microseconds
        type: u4
      - id: lon_int
        type: u2
      - id: lon_frac
        type: u4
        doc: Millionths of a degree.
      - id: lat_int
        type: u2
      - id: lat_frac
        type: u4
      - id: alt_int
        type: u2
      - id: alt_frac
        type: u4
      - id: sample_rate
        type: u4
        doc: Hz.
      - id: flags
        type: u1
      - id: num_samples
        type: u4
      - id: samples
        type: s2
        repeat: expr
        repeat-expr: num_samples
      - id: end_of_file
        size: 0
        valid:
          expr: _io.eof
        doc: Zero-size check that nothing follows the samples.
  body_v1:
    doc: "Legacy layout: big-endian, no flags byte."
    doc-ref: docs/formats/raskat-signal.md#layout-v1 recspec's raSkat signal format document, "Version 1 (legacy)"
    meta:
      endian: be
    seq:
      - id: time
        size: 14
      - id: microseconds
        type: u4
      - id: lon_int
        type: u2
      - id: lon_frac
        type: u4
      - id: lat_int
        type: u2
      - id: lat_frac
        type: u4
      - id: alt_int
        type: u2
      - id: alt_frac
        type: u4
      - id: sample_rate
        type: u4
      - id: num_samples
        type: u4
      - id: samples
        type: s2
        repeat: expr
        repeat-expr: num_samples
      - id: end_of_file
        size: 0
        valid:
          expr: _io.eof
  body_msgpack:
    doc-ref: docs/formats/raskat-signal.md#layout-v3 recspec's raSkat signal format document, "Version 3"
    params:
      - id: num_fields
        type: u1
    seq:
      - id: fields
        type: msgpack(0, _root.max_depth)
        repeat: expr
        repeat-expr: num_fields
        doc: The fields in their fixed order; their types are checked by recspec's rules.
      - id: end_of_file
        size: 0
        valid:
          expr: _io.eof
