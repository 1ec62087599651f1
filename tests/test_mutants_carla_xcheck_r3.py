"""The CARLA cross-check (conformance/carla/_xcheck.py) against the survivors of a fresh mutant sample
(``tools/mutate.py conformance/carla/_xcheck.py --sample 30 --seed 7``): the model comparison of a
tuple with a value that is not one, a run of packets of one header that ends exactly at the end of the
data, and the sample's stride as the README states it. Packets are packed by hand from
docs/formats/carla.md (``u8 id, u32 size, payload``; FrameEnd, id 1, has an empty payload)."""

from __future__ import annotations

import struct

from recspec.conformance.carla import _xcheck as carla_x
from recspec.conformance.carla._xcheck import same


def test_a_tuple_is_never_the_same_as_a_value_that_is_not_a_tuple() -> None:
    assert same((1, 2), (1, 2)) and not same((1, 2), (1, 3)) and not same((1, 2), (1, 2, 3))
    assert not same((1, 2), [1, 2])  # Python's equality: a tuple is not a list
    assert not same((1,), 1) and not same(1, (1,))
    assert carla_x._first_difference((1,), 5, "packet[3]") == "packet[3]: reference (1,) vs Kaitai 5"
    assert carla_x._first_difference(5, (1,), "p") == "p: reference 5 vs Kaitai (1,)"
    assert carla_x._first_difference((1, 2), (1, 2, 3), "p") == "p (length 2 vs 3)"
    assert carla_x._first_difference((1, 2), (1, 9), "p") == "p[1]: reference 2 vs Kaitai 9"


def _frame_ends(k: int) -> bytes:
    return struct.pack("<BI", 1, 0) * k  # k FrameEnd packets: 5 bytes each, nothing after the header


def test_a_run_of_one_header_is_counted_up_to_the_last_byte_of_the_data() -> None:
    data = _frame_ends(6)
    assert carla_x._header_run(data, 0, 1) == (6, 5)
    assert carla_x._header_run(data, 25, 1) == (1, 5)  # the last packet ends exactly at the data's end
    assert carla_x._header_run(data, 20, 2) == (2, 5)
    assert carla_x._header_run(data, 25, 2) == (0, 0)  # fewer than asked for
    assert carla_x._header_run(data[:-1], 25, 1) == (0, 0)  # its header cut by one byte
    assert carla_x._header_run(data + b"\x07", 25, 1) == (1, 5)  # a byte after it is not part of the run


def test_the_sample_reads_about_one_packet_in_1024() -> None:
    # README, the limits table: "a sample: about 1 unit in 1,024 / 512" (CARLA / NanoVer)
    assert carla_x.SAMPLE_STRIDE == 1024


def _nodes(tree: object):  # every parsed object of a dump's tree, depth first
    if isinstance(tree, dict):
        if "_type" in tree:
            yield tree
        for value in tree.values():
            yield from _nodes(value)
    elif isinstance(tree, list):
        for value in tree:
            yield from _nodes(value)


def test_the_kaitai_dump_names_the_kind_of_packets_alone() -> None:
    """`recspec dump --ksy` of a CARLA log: each packet names its kind (the enum member's name); the record
    lists inside payloads, which take the packet's kind as a parameter, do not repeat it as a field."""
    import io
    import json

    from helpers import REPO
    from recspec.reference.carla import VARIANTS

    log = REPO / "corpus" / "carla" / "valid" / "0.9.15.log"
    out = io.StringIO()
    with open(log, "rb") as f:
        carla_x.dump_kaitai(f, out, VARIANTS["0.9.15"])
    dump = json.loads(out.getvalue())
    nodes = list(_nodes(dump["packets"]))
    packets = [n for n in nodes if n["_type"] == "Packet"]
    assert packets and all(isinstance(p["kind"], str) and p["kind"].isidentifier() for p in packets)
    others = [n for n in nodes if n["_type"] != "Packet"]
    assert any(n["_type"] == "RecordList" for n in others)
    assert all("kind" not in n or isinstance(n["kind"], dict) for n in others)  # a field of its own is a dict
