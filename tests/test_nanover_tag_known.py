"""The protobuf parser's one-byte tags made at once (conformance/nanover/_tag_known.py) are the generated code's:
the same parse tree, the same error at the same position, the same stream position after, for a tag, a field,
a NanoVer record of a mutated corpus file, and the same cross-check reports on the NanoVer corpus."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from test_kaitai_memory_stream import NANOVER_SEEDS, mutated
from test_raskat_tar_known import parse_either_way

from helpers import REPO, real_file
from recspec._ksy_fast.nanover_recording import NanoverRecording
from recspec._ksy_fast.protobuf_wire import ProtobufWire
from recspec.conformance.nanover import _tag_known
from recspec.conformance.nanover import _xcheck as nanover_x  # installs the known reading
from recspec.pipeline import check_file

assert nanover_x  # imported for its side effect


def _both(cls: type, args: tuple[Any, ...], data: bytes, *, at: int = 0, then: tuple[str, ...] = ()) -> Any:
    known = parse_either_way(cls, args, data, at=at, generated=None, then=then)
    assert known == parse_either_way(cls, args, data, at=at, generated=_tag_known.generated_tags(), then=then)
    return known


def test_the_known_reading_is_installed_and_can_be_put_back() -> None:
    assert ProtobufWire.Tag._read is _tag_known._tag_read
    with _tag_known.generated_tags():
        assert ProtobufWire.Tag._read is _tag_known._GENERATED_READ
    assert ProtobufWire.Tag._read is _tag_known._tag_read


@given(st.binary(max_size=12), st.integers(0, 13), st.sampled_from([(), ("field_number", "wire_type")]))
def test_a_tag_reads_as_generated(data: bytes, at: int, then: tuple[str, ...]) -> None:
    # any byte at any place: one-byte tags accepted and rejected, longer tags, the stream's end, past it
    _both(ProtobufWire.Tag, (), data, at=at, then=then)


@given(st.binary(max_size=24))
def test_a_message_reads_as_generated(data: bytes) -> None:
    _both(ProtobufWire, (), data)


@given(mutated(NANOVER_SEEDS), st.sampled_from(list(NanoverRecording.RecordKind)))
def test_a_nanover_record_reads_as_generated(data: bytes, kind: Any) -> None:
    _both(NanoverRecording.Record, (kind,), data, at=min(16, len(data)))


def test_one_byte_tags_give_the_documented_field_and_wire_type() -> None:
    tree, error, pos = _both(ProtobufWire.Tag, (), b"\x0a", then=("field_number", "wire_type"))
    assert error is None and pos == 1 and tree[1]["_m_field_number"] == 1
    assert tree[1]["_m_wire_type"] == ("ProtobufWire.WireType", 2)  # length-delimited
    tree, error, pos = _both(ProtobufWire.Tag, (), b"\x7d", then=("field_number", "wire_type"))
    assert error is None and (tree[1]["_m_field_number"], tree[1]["_m_wire_type"]) == (15, ("ProtobufWire.WireType", 5))
    for rejected in (b"\x00", b"\x02", b"\x0b", b"\x0c", b"\x0e", b"\x0f"):  # field 0; groups, types 6 and 7
        error = _both(ProtobufWire.Tag, (), rejected)[1]
        assert error is not None and error[3] == "/types/tag/seq/1", rejected
    assert _both(ProtobufWire.Tag, (), b"\x80\x01")[0][1]["key"][1]["groups"] == [0x80, 0x01]  # field 16, two bytes


def test_every_nanover_corpus_file_reports_the_same_either_way() -> None:
    files = sorted(p for p in (REPO / "corpus" / "nanover").rglob("*") if p.suffix in (".traj", ".state"))
    for path in files:
        with _tag_known.generated_tags():
            slow = check_file(path, fmt=None, variant=None, profile=None, cross_check="full", named=True)
        fast = check_file(path, fmt=None, variant=None, profile=None, cross_check="full", named=True)
        assert fast is not None and slow is not None
        assert fast.to_json() == slow.to_json(), path
    assert len(files) > 20




@pytest.mark.parametrize("name", ["hello_vel.traj", "sim-switching-test-recording.traj",
                                  "sim-switching-test-recording.state"])
def test_the_real_nanover_files_report_the_same_either_way(name: str) -> None:
    path = real_file(name)
    with _tag_known.generated_tags():
        slow = check_file(path, fmt=None, variant=None, profile=None, cross_check="full", named=True)
    fast = check_file(path, fmt=None, variant=None, profile=None, cross_check="full", named=True)
    assert fast is not None and slow is not None
    assert fast.evidence["cross_check"].startswith("kaitai: agrees")
    assert fast.to_json() == slow.to_json()
