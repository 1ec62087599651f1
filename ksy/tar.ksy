meta:
  id: tar
  title: tar archive (POSIX ustar and GNU headers)
  file-extension: tar
  license: MIT
  ks-version: '0.11'
  encoding: ASCII
  endian: le
doc: |
  A tar archive: 512-byte header blocks, each followed by the member's data
  rounded up to whole 512-byte blocks, ended by a block of zeros (writers add a
  second one and pad to their record size, so every block after the first
  zero block must be zero too, to the end of the input).

  Headers follow POSIX ustar (magic "ustar\0", version "00") or GNU tar
  (magic "ustar ", version " \0"); a header with neither magic is a
  pre-POSIX v7 header and is accepted with the same field layout. Numeric
  fields are ASCII octal: optional leading spaces, octal digits, then NUL or
  space to the end of the field (an empty field is 0). GNU's base-256 numbers
  (high bit of the first byte set) are not accepted: they only occur for
  members of 8 GiB and more. The header checksum is the sum of the 512 header
  bytes as unsigned values, counting the checksum field itself as 8 spaces.

  Kaitai has no sum over a byte array, so `checksum_acc` accumulates one: the
  header is read again as 64 big-endian u8 words, each element carrying the
  running sum of the bytes before it plus its own eight bytes. The all-zero
  end marker is recognised by the largest byte of the block, without the sums.
doc-ref: https://pubs.opengroup.org/onlinepubs/9799919799/utilities/pax.html POSIX pax, "ustar Interchange Format"
seq:
  - id: entries
    type: entry
    repeat: until
    repeat-until: _.is_end
    doc: Members, ending with the first all-zero header block.
  - id: padding
    type: zero_block
    repeat: eos
    doc: Every block after the end marker is zero.
types:
  entry:
    seq:
      - id: header
        type: header
        size: 512
      - id: body
        size: header.size.value
        if: not is_end and has_data
        doc: The member's data (regular files and anything else with a size).
      - id: body_padding
        size: '(512 - header.size.value % 512) % 512'
        if: not is_end and has_data
        doc: Zero fill to the next block boundary (its content is not checked).
    instances:
      is_end:
        value: header.is_zero_block
      has_data:
        value: 'header.typeflag != 0x31 and header.typeflag != 0x32 and header.typeflag != 0x33 and header.typeflag != 0x34 and header.typeflag != 0x35'
        doc: Hard links, symlinks, devices and folders have no data blocks whatever their size field says.
  header:
    seq:
      - id: name
        size: 100
        doc: Member name, NUL-terminated unless it fills the field.
      - id: mode
        type: octal(8)
      - id: uid
        type: octal(8)
      - id: gid
        type: octal(8)
      - id: size
        type: octal(12)
        doc: Bytes of member data.
      - id: mtime
        type: octal(12)
      - id: chksum
        type: octal(8)
        valid:
          expr: is_zero_block or _.value == computed_checksum
        doc: The header checksum (see the top-level doc).
      - id: typeflag
        type: u1
        doc: "'0' or NUL regular file, '1' hard link, '2' symlink, '3'/'4' devices, '5' folder, 'L'/'K' GNU long names, 'x'/'g' pax."
      - id: linkname
        size: 100
      - id: magic
        size: 6
      - id: version
        size: 2
      - id: uname
        size: 32
      - id: gname
        size: 32
      - id: devmajor
        size: 8
      - id: devminor
        size: 8
      - id: prefix
        size: 155
        doc: ustar name prefix (joined to `name` with a slash); GNU uses these bytes for times.
      - id: pad
        size: 12
    instances:
      words:
        pos: 0
        type: 'checksum_acc(_index == 0 ? 0 : words[_index - 1].acc)'
        repeat: expr
        repeat-expr: 64
        doc: Running byte sums over the header, eight bytes per element.
      byte_sum:
        value: words[63].acc
      chksum_bytes:
        pos: 148
        size: 8
      chksum_field_sum:
        value: 'chksum_bytes[0] + chksum_bytes[1] + chksum_bytes[2] + chksum_bytes[3] + chksum_bytes[4] + chksum_bytes[5] + chksum_bytes[6] + chksum_bytes[7]'
        doc: The bytes 148..155, the checksum field as written.
      computed_checksum:
        value: byte_sum - chksum_field_sum + 8 * 32
      all_bytes:
        pos: 0
        size: 512
      is_zero_block:
        value: all_bytes.max == 0
        doc: The end-of-archive marker; tested without the byte sums, which only a member's header needs.
      is_ustar:
        value: magic == [0x75, 0x73, 0x74, 0x61, 0x72, 0x00]
      is_gnu:
        value: magic == [0x75, 0x73, 0x74, 0x61, 0x72, 0x20]
  checksum_acc:
    params:
      - id: before
        type: u4
    seq:
      - id: w
        type: u8be
    instances:
      acc:
        value: 'before + (w >> 56) + ((w >> 48) & 0xff) + ((w >> 40) & 0xff) + ((w >> 32) & 0xff) + ((w >> 24) & 0xff) + ((w >> 16) & 0xff) + ((w >> 8) & 0xff) + (w & 0xff)'
  octal:
    doc: An ASCII octal number field of `len` bytes.
    params:
      - id: len
        type: u1
    seq:
      - id: chars
        type: 'octal_char(_index == 0 ? 0 : chars[_index - 1].state, _index == 0 ? 0 : chars[_index - 1].value)'
        repeat: expr
        repeat-expr: len
    instances:
      value:
        value: chars[len - 1].value
  octal_char:
    doc: |
      One character of an octal field. `state` is 0 in the leading spaces,
      1 in the digits, 2 after the first NUL or trailing space.
    params:
      - id: state_before
        type: u1
      - id: value_before
        type: u8
    seq:
      - id: c
        type: u1
        valid:
          expr: '_ == 0 or _ == 0x20 or (_ >= 0x30 and _ <= 0x37 and state_before != 2)'
    instances:
      state:
        value: 'c == 0 ? 2 : c == 0x20 ? (state_before == 0 ? 0 : 2) : 1'
      value:
        value: 'state == 1 ? value_before * 8 + (c - 0x30) : value_before'
  zero_block:
    seq:
      - id: block
        size: 512
        valid:
          expr: _.max == 0
        doc: 512 zero bytes.
