"""The public codec of the CARLA reference (``reference/carla/_api.py``): the variant it requires (a log does
not name the release that wrote it: docs/formats/carla.md, the header's version is 1 in every release), the
variant given as a name or as the object, and the real log decoded and encoded back byte for byte."""

from __future__ import annotations

import io
import struct

import pytest

import recspec.reference.carla as carla
from helpers import SHIPPED_REAL
from recspec.errors import UsageError
from recspec.reference.carla._variants import VARIANTS

REAL = (SHIPPED_REAL / "carla_0910_DistanceToLaneCenter.log").read_bytes()
RELEASE = "0.9.10-0.9.11"  # corpus/real/PROVENANCE.md: written by CARLA 0.9.10


def test_the_real_log_decodes_to_its_header_read_by_hand() -> None:
    # the header: u16 version, the magic string, an i64 date, the map name as a u16-counted string
    version, = struct.unpack_from("<H", REAL, 0)
    date, = struct.unpack_from("<q", REAL, 18)
    n, = struct.unpack_from("<H", REAL, 26)
    header = carla.decode(REAL, variant=RELEASE).header
    assert (header.version, header.magic, header.date, header.map_name) == (
        version, "CARLA_RECORDER", date, REAL[28:28 + n].decode())
    assert header.map_name == "Town01"


def test_the_variant_as_its_object_reads_as_its_name() -> None:
    by_name = carla.decode(REAL, variant=RELEASE)
    assert carla.decode(REAL, variant=VARIANTS[RELEASE]) == by_name
    assert carla.encode(by_name, variant=VARIANTS[RELEASE]) == REAL


def test_the_real_log_comes_back_byte_for_byte() -> None:
    assert carla.encode(carla.decode(REAL, variant=RELEASE), variant=RELEASE) == REAL


def test_streaming_gives_the_packets_decode_gives() -> None:
    whole = carla.decode(REAL, variant=RELEASE).packets
    assert list(carla.iter_packets(io.BytesIO(REAL), variant=RELEASE)) == list(whole)
    assert carla.iter_units is carla.iter_packets and carla.UNIT == "packet"


@pytest.mark.parametrize("call", [
    lambda: carla.decode(REAL),
    lambda: carla.encode(carla.decode(REAL, variant=RELEASE)),
    lambda: list(carla.iter_packets(io.BytesIO(REAL))),
])
def test_no_variant_is_a_usage_error_that_says_why(call) -> None:
    with pytest.raises(UsageError) as e:
        call()
    assert "does not name the release" in e.value.message
    assert all(name in e.value.hint for name in VARIANTS) and "recspec.check()" in e.value.hint


@pytest.mark.parametrize("name", ["0.9.99", "", "0.9.15 "])
def test_an_unknown_variant_is_a_usage_error_naming_it(name: str) -> None:
    for call in (lambda: carla.decode(REAL, variant=name),
                 lambda: list(carla.iter_packets(io.BytesIO(REAL), variant=name))):
        with pytest.raises(UsageError) as e:
            call()
        assert repr(name) in e.value.message
        assert e.value.hint == "choose one of: " + ", ".join(VARIANTS)
