"""NanoVer's ``ref`` harness reads every key and value back from the bytes (fuzz/_nanover_contents.py
``contents_view``): the payloads parsed by the protobuf runtime's generated messages against the reference
decoder's model. A decoder bug that alters a value's contents (planted here by patching the decoder's
conversion of a message) breaks ``Invariant:model-view:<part>``; the unbroken decoder passes on the corpus
seeds, the synthetic seeds and drawn valid files. The recordings' messages are put together with the protobuf runtime
(tests/witness_nanover.py's builders) and framed by hand (the document's 16-byte header, a u128 timestamp and
a u64 length per record)."""

from __future__ import annotations

import struct
import zlib
from collections.abc import Callable
from typing import Any

import pytest
import witness_nanover
from hypothesis import given

from recspec.errors import DecodeError
from recspec.formats import FORMATS
from recspec.fuzz import _nanover_contents, nanover
from recspec.fuzz._oracles import InvariantBroken, check_model_view
from recspec.reference.nanover import _codec, _payload
from recspec.reference.nanover import decode as nanover_decode

#: docs/formats/nanover.md: the magic (a little-endian u64) and version 2.
_HEADER = struct.pack("<QQ", 6661355757386708963, 2)


def _framed(payloads: list[bytes], first_us: int = 1_000) -> bytes:
    return _HEADER + b"".join(struct.pack("<QQQ", first_us + 40_000 * i, 0, len(p)) + p
                              for i, p in enumerate(payloads))


#: A trajectory whose values hold a string with spaces, a number with many decimals, a Struct and a
#: ListValue, and a float array of non-round f32 values (0.1 is not one); then a delta.
TRAJ = _framed([
    witness_nanover.frame(0, {"user.label": " padded ", "energy.kinetic": 1.2345678901,
                              "user.meta": {"a": 0.5, "b": "x"}, "user.list": [1.0, "two", True]},
                          {"particle.positions": ("float", [0.1, 0.2, 0.3]), "particle.names": ("string", ["C"])}),
    witness_nanover.frame(1, {"energy.kinetic": 2.5}, {"particle.positions": ("float", [0.4, 0.5, 0.6])}),
])
#: A state: two keys set, then one deleted (a null Value) beside one change.
STATE = _framed([witness_nanover.update({"scene": {"scale": 1.5}, "user.name": " a b "}),
                 witness_nanover.update({"scene": None, "user.name": "c"})])


def _contents(data: bytes, kind: str) -> tuple[dict[str, str], dict[str, str]] | None:
    return _nanover_contents.contents_view(data, nanover_decode(data, variant=nanover.Kind(kind)))


def _broken(data: bytes, kind: str) -> InvariantBroken | None:
    try:
        check_model_view(lambda: _contents(data, kind), kind)
    except InvariantBroken as e:
        return e
    return None


def test_the_unbroken_decoder_agrees_on_the_hand_built_files() -> None:
    assert _contents(TRAJ, "traj") is None
    assert _contents(STATE, "state") is None


def _patched(monkeypatch: pytest.MonkeyPatch, name: str, wrap: Callable[[Any], Any]) -> None:
    """The decoder's ``name`` with its result passed through ``wrap``, in every module that calls it."""
    original = getattr(_payload, name)
    for module in (_payload, _codec):
        if hasattr(module, name):
            monkeypatch.setattr(module, name, lambda *a: wrap(original(*a)))


def _strip(v: Any) -> Any:
    return v.strip() if isinstance(v, str) else v


@pytest.mark.parametrize(("name", "wrap", "kind", "part"), [
    # a string stripped (in a frame's values, and in a state update)
    ("value_from_message", _strip, "traj", "values"),
    ("value_from_message", _strip, "state", "changes"),
    # a number rounded
    ("value_from_message", lambda v: round(v, 3) if type(v) is float else v, "traj", "values"),
    # a ListValue's last item lost
    ("value_from_message", lambda v: v[:-1] if type(v) is list else v, "traj", "values"),
    # a Struct's key renamed
    ("value_from_message", lambda v: {k.upper(): x for k, x in v.items()} if type(v) is dict else v, "traj",
     "values"),
    # a packed float changed (f32 0.1 read as the double 0.1)
    ("_array_from_message", lambda a: type(a)(a.kind, tuple(round(x, 6) for x in a.values))
     if a.kind is not None and a.kind.value == "float" else a, "traj", "arrays"),
    # the last string of a string array lost
    ("_array_from_message", lambda a: type(a)(a.kind, a.values[:-1])
     if a.kind is not None and a.kind.value == "string" else a, "traj", "arrays"),
    # two keys' values swapped
    ("frame_from_message", lambda f: type(f)(f.frame_index, dict(zip(f.values, reversed(f.values.values()))),
                                             f.arrays), "traj", "values"),
    # a reset read as frame 1
    ("frame_from_message", lambda f: type(f)(f.frame_index or 1, f.values, f.arrays), "traj", "frame_index"),
    # a deletion dropped from a state update
    ("state_update_from_message", lambda u: type(u)({k: v for k, v in u.changes.items() if v is not None}),
     "state", "changes"),
])
def test_a_decoder_that_alters_contents_breaks_the_view(monkeypatch: pytest.MonkeyPatch, name: str,
                                                        wrap: Callable[[Any], Any], kind: str, part: str) -> None:
    data = TRAJ if kind == "traj" else STATE
    assert _broken(data, kind) is None
    _patched(monkeypatch, name, wrap)
    e = _broken(data, kind)
    assert e is not None and e.signature() == f"Invariant:model-view:{part}"


def _sampled_variant(data: bytes) -> bytes:
    """``data`` with its first timestamp moved until the harness reads its contents (a share of the inputs)."""
    for us in range(1_000, 2_000):
        moved = data[:16] + struct.pack("<Q", us) + data[24:]
        if zlib.crc32(moved) % _nanover_contents.CONTENTS_ONE_IN == 0:
            return moved
    raise AssertionError("no timestamp puts the file in the share")


def test_the_ref_harness_reads_the_contents_of_its_share(monkeypatch: pytest.MonkeyPatch) -> None:
    data = _sampled_variant(TRAJ)
    nanover.fuzz_ref(data)  # the unbroken decoder: nothing raised
    _patched(monkeypatch, "value_from_message", _strip)
    with pytest.raises(InvariantBroken) as e:
        nanover.fuzz_ref(data)
    assert e.value.signature() == "Invariant:model-view:values"


def _kinds(data: bytes) -> list[str]:
    try:
        return [nanover.kind_of(data).value]
    except Exception:
        return []


def test_silent_on_the_seeds() -> None:
    checked = 0
    for seed in [*FORMATS["nanover"].load().seeds(), *(type("S", (), {"data": d}) for _, d in
                                                        nanover.synthetic_seeds())]:
        for kind in _kinds(seed.data):
            try:
                decoded = nanover_decode(seed.data, variant=nanover.Kind(kind))
            except DecodeError:
                continue
            assert _nanover_contents.contents_view(seed.data, decoded) is None
            checked += 1
    assert checked >= 10


@given(w=witness_nanover.valid_files())
def test_silent_on_drawn_valid_files(w: Any) -> None:
    kind = nanover.kind_of(w.data).value
    assert _contents(w.data, kind) is None
