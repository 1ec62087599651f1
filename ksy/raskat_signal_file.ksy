meta:
  id: raskat_signal_file
  title: raSkat signal file (.sig), raw or in its tar.xz container
  application: raSkat detector-core (detector-gpio)
  file-extension: sig
  license: MIT
  ks-version: '0.11'
  endian: le
  imports:
    - tar
    - raskat_signal
doc: |
  The document calls a signal file "a binary file compressed into tar.xz";
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
doc-ref: docs/formats/raskat-signal.md#container recspec's raSkat signal format document, "Container"
params:
  - id: max_unpacked
    type: u8
    doc: The most bytes the xz stream may inflate to.
  - id: max_depth
    type: u1
    doc: Deepest MessagePack nesting accepted in a raw v3/v4 body.
seq:
  - id: container
    size-eos: true
    process: recspec_xz(max_unpacked)
    type: tar
    if: is_xz
    doc: The tar archive inside the xz stream.
  - id: raw
    type: raskat_signal(max_depth)
    if: not is_xz
    doc: A raw signal.
instances:
  is_xz:
    value: _io.size >= 6 and xz_magic == [0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00]
  xz_magic:
    pos: 0
    size: 6
