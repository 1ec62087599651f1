"""The protobuf modules in recspec/_pb/ are what protoc (from the pinned
grpcio-tools) generates from proto/, and fit the installed runtime."""

from __future__ import annotations

import importlib
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))
import generate_protos  # noqa: E402

pytest.importorskip("grpc_tools", reason="grpcio-tools (the test extra) is not installed")


def test_committed_modules_match_a_fresh_generation(tmp_path: Path) -> None:
    generate_protos.generate(tmp_path)
    assert generate_protos.diff_trees(tmp_path, generate_protos.DEFAULT_OUT) == ""


def test_generated_code_fits_the_runtime() -> None:
    from google.protobuf import __version__ as runtime

    text = (generate_protos.DEFAULT_OUT / "recspec_nanover_pb2.py").read_text()
    gencode = next(line.split(":")[1].strip() for line in text.splitlines() if "Protobuf Python Version" in line)
    assert int(runtime.split(".")[0]) == int(gencode.split(".")[0])
    assert tuple(map(int, runtime.split(".")[:2])) >= tuple(map(int, gencode.split(".")[:2]))
    importlib.import_module("recspec._pb.recspec_nanover_pb2")


def test_field_numbers_are_the_documented_ones() -> None:
    from recspec._pb import recspec_nanover_pb2 as pb

    def numbers(msg):  # type: ignore[no-untyped-def]
        return {f.name: (f.number, f.type) for f in msg.DESCRIPTOR.fields}

    F = pb.FrameData.DESCRIPTOR.fields[0]
    assert numbers(pb.GetFrameResponse) == {"frame_index": (1, F.TYPE_UINT32), "frame": (2, F.TYPE_MESSAGE)}
    assert numbers(pb.FrameData) == {"values": (1, F.TYPE_MESSAGE), "arrays": (2, F.TYPE_MESSAGE)}
    assert numbers(pb.ValueArray) == {"float_values": (1, F.TYPE_MESSAGE), "index_values": (2, F.TYPE_MESSAGE),
                                      "string_values": (3, F.TYPE_MESSAGE)}
    assert numbers(pb.FloatArray) == {"values": (1, F.TYPE_FLOAT)}
    assert numbers(pb.IndexArray) == {"values": (1, F.TYPE_UINT32)}
    assert numbers(pb.StringArray) == {"values": (1, F.TYPE_STRING)}
    assert numbers(pb.StateUpdate) == {"changed_keys": (1, F.TYPE_MESSAGE)}
    assert pb.StateUpdate.DESCRIPTOR.fields[0].message_type.full_name == "google.protobuf.Struct"
