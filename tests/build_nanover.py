"""NanoVer messages put together for the tests with the protobuf runtime (not recspec's encoder)."""

from __future__ import annotations

from google.protobuf import struct_pb2

from recspec._pb import recspec_nanover_pb2 as pb


def nested_structs(depth: int, leaf: struct_pb2.Value) -> bytes:
    """A StateUpdate whose key ``a`` holds ``depth`` Structs, each one key (``k``) deep, around ``leaf``;
    ``changed_keys`` is a Struct itself, so the nesting is ``depth + 1``."""
    v = leaf
    for _ in range(depth):
        outer = struct_pb2.Value()
        outer.struct_value.fields["k"].CopyFrom(v)
        v = outer
    msg = pb.StateUpdate()
    msg.changed_keys.fields["a"].CopyFrom(v)
    return msg.SerializeToString()
