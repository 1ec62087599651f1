"""The tar parser's octal fields and header sums made from the bytes at once, as the generated code makes them.

A tar.xz signal's Kaitai reading (``recspec/_ksy_fast/tar.py``, from ``ksy/tar.ksy``) builds, for each
512-byte header, 56 ``octal_char`` objects (the six octal fields, one object a character, each computing its
state and value from the one before) and, for a member's header, 64 ``checksum_acc`` objects (the header's
running byte sum, eight bytes each). A signal archive has two headers, the member's and the all-zero end marker,
so those 176 objects are most of the reading: about 250 us of a tar.xz file's 320. What each holds is known
from the bytes alone, so here they are made from the bytes in one pass, as plain objects of the generated
classes with the attributes the generated reading leaves on them (the same values, the same lazy instances
already computed and no others), instead of one parse step and several property calls each. The attributes are
set one by one in the order the generated constructor and reading set them, so each object keeps them inline as
a generated one does; given a dictionary of its own (``obj.__dict__ = {...}``) an object is two for the garbage
collector, which a parse tree's cycles leave to collect:

* ``Tar.Octal._read`` (:func:`_octal_read`): the field's bytes are read at once; when every character is one the
  ksy accepts at its place (NUL, space, or an octal digit before the first NUL or trailing space), its
  ``octal_char`` objects are made with the states and values the ksy's instances give. Anything else (a
  character the ksy rejects, a field cut by the stream's end, a stream that is not a :class:`MemoryStream` or is
  in the middle of a bit read) goes the generated way, which raises the parser's own error at its place.
* ``Tar.Header.words`` (:func:`_header_words`): the 64 running sums of the header's u8be words, from one
  ``struct`` unpack; a header stream shorter than 512 bytes goes the generated way.

The generated module stays as the compiler writes it (``tests/test_ksy_drift.py``); :func:`install` points the
two generated classes' methods at these, :func:`generated_tar` puts the generated ones back for a while. The
parse trees and the errors are the generated code's (``tests/test_raskat_tar_known.py``: drawn archives and
headers, every octal field drawn character by character, edited and cut, and the cross-check's reports).
"""

from __future__ import annotations

import struct
from typing import Any

from recspec._ksy_fast.tar import Tar

from .._kaitai import KnownReading, MemoryStream

__all__ = ["generated_tar", "install"]

_GENERATED_OCTAL_READ = Tar.Octal._read
_GENERATED_WORDS = Tar.Header.words
_WORDS = struct.Struct(">64Q")
_OCTAL_CHAR = Tar.OctalChar
_CHECKSUM_ACC = Tar.ChecksumAcc
_new = object.__new__
_UNREAD = object()


def _octal_read(self: Any) -> None:
    """``Tar.Octal._read``: the characters made at once where the ksy accepts them all (the module's docstring)."""
    io = self._io
    n = self.len
    if type(io) is MemoryStream and not io.bits_left:
        p = io._pos
        raw = io._buf[p:p + n] if p >= 0 else b""
        if len(raw) == n:
            root = self._root
            made = []
            state = value = 0
            for c in raw:  # octal_char's state and value (0 in leading spaces, 1 in digits, 2 after), as it goes
                if c == 0:
                    new_state, new_value = 2, value
                elif c == 0x20:
                    new_state, new_value = (0 if state == 0 else 2), value
                elif 0x30 <= c <= 0x37 and state != 2:
                    new_state, new_value = 1, value * 8 + (c - 0x30)
                else:
                    break  # the ksy rejects it: the generated reading raises its error
                o = _new(_OCTAL_CHAR)
                o._io, o._parent, o._root, o.state_before, o.value_before = io, self, root, state, value
                # the next character's parameters read this one's state and value; the last one's stay unread
                o.c, o._m_state, o._m_value = c, new_state, new_value
                made.append(o)
                state, value = new_state, new_value
            else:
                if made:
                    last = made[-1]
                    del last._m_state, last._m_value
                io._pos = p + n
                self.chars = made
                return
    _GENERATED_OCTAL_READ(self)


def _header_words_get(self: Any) -> Any:
    """``Tar.Header.words``: the 64 running sums from one unpack (the module's docstring)."""
    known = getattr(self, "_m_words", _UNREAD)  # (not through __dict__, which would give the header one)
    if known is not _UNREAD:
        return known
    io = self._io
    if type(io) is not MemoryStream or io._size < 512:
        return _GENERATED_WORDS.fget(self)
    pos = io.pos()
    io.seek(0)
    buf = io._buf
    root = self._root
    words = []
    acc = 0
    for w, at in zip(_WORDS.unpack_from(buf, 0), range(8, 520, 8)):
        o = _new(_CHECKSUM_ACC)
        before = acc
        acc = before + sum(buf[at - 8:at])
        # the next word's parameter reads this one's sum
        o._io, o._parent, o._root, o.before, o.w, o._m_acc = io, self, root, before, w, acc
        words.append(o)
    del o._m_acc  # the last word's sum stays unread, as in the generated loop
    io._pos = 512
    self._m_words = words
    io.seek(pos)
    return words


_header_words = property(_header_words_get, doc=_GENERATED_WORDS.__doc__)


_KNOWN = KnownReading((Tar.Octal, "_read", _octal_read), (Tar.Header, "words", _header_words))

#: Point the generated tar parser's octal fields and header sums at this module's reading.
install = _KNOWN.install
#: Inside: the tar parser reads as the compiler wrote it (to compare the two).
generated_tar = _KNOWN.generated
