"""raSkat's ``ref`` harness reads the samples back from the bytes (fuzz/raskat_signal.py ``read_fields``):
v1/v2 samples by ``struct`` after the document's header (big-endian v1, little-endian v2), and v3/v4 arrays
of any plain MessagePack values (floats, strings, nil, nested arrays) by the ``msgpack`` package. A decoder
that alters a sample (planted here by patching the reference decoder) breaks ``Invariant:model-view:samples``;
the unbroken decoder passes on the corpus seeds and drawn valid files. The bodies are written from the
document's layout with ``struct`` and the ``msgpack`` package."""

from __future__ import annotations

import dataclasses
import struct
from collections.abc import Callable
from typing import Any

import msgpack  # type: ignore[import-untyped]
import pytest
import witness_raskat_signal
from hypothesis import given

from recspec.errors import DecodeError
from recspec.formats import FORMATS
from recspec.fuzz import raskat_signal as rs
from recspec.fuzz._oracles import InvariantBroken
from recspec.reference.raskat_signal import _msgpack, _signal
from recspec.reference.raskat_signal import decode as raskat_decode

#: docs/formats/raskat-signal.md, "Version 2" and "Version 1": time, microseconds, three coordinates as
#: (u16, u32), the sample rate, (v2: flags,) the count, then the i16 samples.
_HEAD = (b"20250101120000", 5, 30, 500_000, 60, 250_000, 100, 0, 1000)
SAMPLES = (-3, 700, -32768, 32767, 1)


def _v2() -> bytes:
    return (struct.pack("<H", 2) + struct.pack("<14sIHIHIHIIBI", *_HEAD, 0, len(SAMPLES))
            + struct.pack(f"<{len(SAMPLES)}h", *SAMPLES))


def _v1() -> bytes:
    return (struct.pack("<H", 1) + struct.pack(">14sIHIHIHIII", *_HEAD, len(SAMPLES))
            + struct.pack(f">{len(SAMPLES)}h", *SAMPLES))


def _v3() -> bytes:
    """Version 3, its twelve fields by the msgpack package; the sample rate stored as a uint 32 (wider than
    needed, so that the reference decoder takes its hand-written walk) and samples holding floats."""
    fields = ["20250101120000", 5, 55.75, 37.62, 150.0]
    body = struct.pack("<H", 3) + b"".join(msgpack.packb(x) for x in fields)
    body += b"\xce" + struct.pack(">I", 1000)  # sample rate 1000 as a uint 32
    body += b"".join(msgpack.packb(x) for x in (50, 10, 3.3, 0, 1, [1, 2.5, -0.75, 300, 7.0]))
    return body


BODIES = {"v1": _v1(), "v2": _v2(), "v3": _v3()}


@pytest.mark.parametrize("name", sorted(BODIES))
def test_the_unbroken_decoder_agrees(name: str) -> None:
    data = BODIES[name]
    read = rs.read_fields(data)
    assert read is not None and "samples" in read
    rs.fuzz_ref(data)  # a raw body: its fields are always read again


def _wrapped(monkeypatch: pytest.MonkeyPatch, module: Any, name: str, change: Callable[[Any], Any]) -> None:
    original = getattr(module, name)
    monkeypatch.setattr(module, name, lambda *a, **k: change(original(*a, **k)))


def _reversed_samples(sig: Any) -> Any:
    return dataclasses.replace(sig, samples=sig.samples[::-1])


def _floats_truncated(result: Any) -> Any:
    value, end = result
    if type(value) is tuple:
        value = tuple(float(int(x)) if type(x) is float else x for x in value)
    return value, end


@pytest.mark.parametrize(("name", "plant"), [
    ("v1", lambda mp: _wrapped(mp, _signal, "_decode_fixed_layout", _reversed_samples)),
    ("v2", lambda mp: _wrapped(mp, _signal, "_decode_fixed_layout", _reversed_samples)),
    ("v2", lambda mp: _wrapped(mp, _signal, "_decode_fixed_layout",
                               lambda s: dataclasses.replace(s, samples=tuple(x & 0xFFFF for x in s.samples)))),
    ("v3", lambda mp: _wrapped(mp, _msgpack, "_container", _floats_truncated)),
])
def test_a_sample_read_wrong_breaks_the_view(monkeypatch: pytest.MonkeyPatch, name: str,
                                             plant: Callable[[Any], Any]) -> None:
    plant(monkeypatch)
    with pytest.raises(InvariantBroken) as e:
        rs.fuzz_ref(BODIES[name])
    assert e.value.signature() == "Invariant:model-view:samples"


def test_silent_on_the_seeds() -> None:
    checked = 0
    for seed in FORMATS["raskat-signal"].load().seeds():
        try:
            decoded = raskat_decode(seed.data, max_unpacked=rs.FUZZ_MAX_UNPACKED)
        except DecodeError:
            continue
        if decoded.container != "raw":
            continue
        read = rs.read_fields(seed.data)
        if read is None:
            continue
        view = rs.model_view(decoded.signal)
        assert all(repr(view[k]) == repr(v) for k, v in read.items() if k in view), seed.name
        checked += 1
    assert checked >= 3


@given(w=witness_raskat_signal.valid_files())
def test_silent_on_drawn_valid_files(w: Any) -> None:
    decoded = raskat_decode(w.data, max_unpacked=rs.FUZZ_MAX_UNPACKED)
    read = rs.read_fields(w.data if decoded.container == "raw" else rs._body(w.data))
    assert read is not None and "samples" in read
    view = rs.model_view(decoded.signal)
    assert {k: repr(v) for k, v in read.items()} == {k: repr(view[k]) for k in read}
