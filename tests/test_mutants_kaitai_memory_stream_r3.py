"""The in-memory Kaitai stream (conformance/_kaitai.py ``MemoryStream``) held to kaitaistruct's stock
``KaitaiStream`` over a ``BytesIO`` where tools/mutate.py's sample (seed 7) found the edges untested:
reads past the end on either side of the size at which the runtime stops reading first and compares
the request with what is left (8 MiB), every fixed-width number read from the same bytes, and what
each stream says and where it stands after each of them."""

from __future__ import annotations

import io
from typing import Any

import pytest
from kaitaistruct import KaitaiStream

from recspec.conformance._kaitai import MemoryStream

MIB = 1024 * 1024


def _outcome(stream: KaitaiStream, call: Any) -> tuple[Any, ...]:
    try:
        got: Any = ("ok", call(stream))
    except Exception as e:  # noqa: BLE001 - the same exception, whatever it is
        got = (type(e).__name__, str(e), getattr(e, "bytes_needed", None), getattr(e, "bytes_available", None))
    return got + (stream.pos(), stream.is_eof())


@pytest.mark.parametrize("n", [8 * MIB - 1, 8 * MIB, 8 * MIB + 1, 7 * MIB])
@pytest.mark.parametrize("seek", [1, 3, 10])
def test_a_large_read_at_or_past_the_end_fails_as_the_runtime_fails(n: int, seek: int) -> None:
    data = b"\1\2\3"

    def call(s: KaitaiStream) -> Any:
        s.seek(seek)
        return s.read_bytes(n)

    assert _outcome(MemoryStream(data), call) == _outcome(KaitaiStream(io.BytesIO(data)), call)


NUMBER_READS = ["read_u1", "read_s1", "read_u2le", "read_u2be", "read_s2le", "read_s2be", "read_u4le", "read_u4be",
                "read_s4le", "read_s4be", "read_u8le", "read_u8be", "read_s8le", "read_s8be", "read_f4le",
                "read_f4be", "read_f8le", "read_f8be"]


NUMBER_BYTES = [bytes(range(0x81, 0x91)), bytes(range(1, 17)), b"\xbf\xf0" + bytes(5) + b"\x01" + b"\xfe" * 8,
                b"\x3f\xf0" + bytes(14)]


@pytest.mark.parametrize("name", NUMBER_READS)
@pytest.mark.parametrize("data", NUMBER_BYTES)
def test_every_number_read_gives_the_runtimes_value_and_position(name: str, data: bytes) -> None:
    # asymmetric bytes: a swapped byte order or a signed/unsigned mix reads another value
    def call(s: KaitaiStream) -> Any:
        return [getattr(s, name)() for _ in range(2)]

    assert _outcome(MemoryStream(data), call) == _outcome(KaitaiStream(io.BytesIO(data)), call)


@pytest.mark.parametrize("block", [bytes(512), b"\1" * 512, b"\1" * 511 + b"\0", b"\0" * 511 + b"\2", b"\1"])
def test_the_largest_byte_of_a_block_is_the_runtimes(block: bytes) -> None:
    # a block of zeros is answered at once; a block of ones or a mixed one is not a block of zeros
    assert MemoryStream.byte_array_max(block) == KaitaiStream.byte_array_max(block) == max(block)


@pytest.mark.parametrize("bits", range(1, 8))
def test_a_pending_bit_write_counts_its_partial_byte_in_the_position(bits: int) -> None:
    # the runtime's pos() counts a partly written byte (bits_write_mode, bits_left > 0): no byte is written yet
    stock, mine = KaitaiStream(io.BytesIO(bytearray(2))), MemoryStream(b"\0\0")
    for s in (stock, mine):
        s.write_bits_int_be(bits, 1)
    assert (mine.pos(), mine.bits_left) == (stock.pos(), stock.bits_left) == (1, bits)


@pytest.mark.parametrize("bits", [0, 3])
def test_reading_the_rest_leaves_no_pending_bits(bits: int) -> None:
    data = b"\xa5\x01\x02\x03"

    def call(s: KaitaiStream) -> Any:
        if bits:
            s.read_bits_int_be(bits)
        return s.read_bytes_full(), s.bits_left, s.bits

    assert _outcome(MemoryStream(data), call) == _outcome(KaitaiStream(io.BytesIO(data)), call)
    assert call(MemoryStream(data))[1:] == (0, 0)


@pytest.mark.parametrize("term", [-1, 256, 1000])
@pytest.mark.parametrize("eos_error", [True, False])
def test_a_terminator_that_is_no_byte_fails_as_the_runtime_fails(term: int, eos_error: bool) -> None:
    data = b"\x00\x01\x02"

    def call(s: KaitaiStream) -> Any:
        return s.read_bytes_term(term, False, True, eos_error)

    mine, stock = _outcome(MemoryStream(data), call), _outcome(KaitaiStream(io.BytesIO(data)), call)
    assert mine == stock
    assert mine[0] != "ok"


@pytest.mark.parametrize("n", [-1, -2, -100])
@pytest.mark.parametrize("seek", [0, 2, 10])
def test_a_negative_byte_count_is_refused_as_the_runtime_refuses_it(n: int, seek: int) -> None:
    data = b"\x00\x01\x02\x03"

    def call(s: KaitaiStream) -> Any:
        s.seek(seek)
        return s.read_bytes(n)

    mine = _outcome(MemoryStream(data), call)
    assert mine == _outcome(KaitaiStream(io.BytesIO(data)), call)
    assert mine[:2] == ("InvalidArgumentError", f"requested invalid {n} amount of bytes")
