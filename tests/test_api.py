"""The public Python API: recspec.check and recspec.dump on paths, bytes and file objects."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from hypothesis import given, settings

import recspec
from recspec.errors import DecodeError, InputError, UsageError
from recspec.formats import FORMATS
from recspec.report import Verdict
from recspec.strategies import carla_logs, nanover_files

ROOT = Path(__file__).resolve().parents[1]


def _first(fmt: str, sub: str) -> Path:
    manifest = json.loads((ROOT / "corpus" / fmt / "manifest.json").read_text())
    return ROOT / "corpus" / fmt / next(e["path"] for e in manifest["files"] if e["path"].startswith(sub))


@pytest.mark.parametrize("fmt", list(FORMATS))
def test_a_path_bytes_and_a_file_object_give_the_same_report(fmt: str) -> None:
    path = _first(fmt, "invalid/")
    data = path.read_bytes()
    by_path = recspec.check(path)
    by_bytes = recspec.check(data, name=str(path))
    with open(path, "rb") as f:
        by_file = recspec.check(f)
    assert by_path.verdict is not Verdict.CRASH
    assert by_path.to_json() == by_bytes.to_json() == by_file.to_json()


def test_a_stream_that_cannot_seek_is_read_into_memory() -> None:
    data = _first("carla", "valid/").read_bytes()

    class Pipe(io.RawIOBase):
        def __init__(self) -> None:
            self.inner = io.BytesIO(data)

        def readable(self) -> bool:
            return True

        def seekable(self) -> bool:
            return False

        def readinto(self, b: bytearray) -> int:  # type: ignore[override]
            chunk = self.inner.read(len(b))
            b[:len(chunk)] = chunk
            return len(chunk)

    assert recspec.check(io.BufferedReader(Pipe()), name="pipe.log").verdict is Verdict.VALID


@settings(max_examples=10, deadline=None)
@given(carla_logs(variant="0.9.15", min_frames=1))
def test_the_strategies_variant_objects_are_accepted(log: tuple[bytes, object]) -> None:
    data, variant = log
    assert recspec.check(data, format="carla", variant=variant).verdict is Verdict.VALID


@settings(max_examples=10, deadline=None)
@given(nanover_files())
def test_a_nanover_kind_is_accepted_as_the_variant(drawn: tuple[bytes, str]) -> None:
    data, kind = drawn
    assert recspec.check(data, format="nanover", variant=kind).variant == kind


def test_bad_arguments_are_usage_errors() -> None:
    with pytest.raises(UsageError, match="needs format"):
        recspec.check(b"", variant="v2")
    with pytest.raises(UsageError, match="no variant"):
        recspec.check(b"", format="carla", variant="0.8")
    with pytest.raises(UsageError, match="unknown format"):
        recspec.check(b"", format="nope")
    with pytest.raises(UsageError, match="cannot check"):
        recspec.check(12)  # type: ignore[arg-type]


def test_a_missing_path_is_an_input_error(tmp_path: Path) -> None:
    with pytest.raises(InputError):
        recspec.check(tmp_path / "missing.log")
    with pytest.raises(InputError):
        recspec.dump(tmp_path / "missing.log")


def test_unrecognised_bytes_are_a_verdict_not_an_exception() -> None:
    assert recspec.check(b"\x00" * 40).verdict is Verdict.UNRECOGNIZED


@pytest.mark.parametrize("fmt", list(FORMATS))
def test_dump_returns_json_text(fmt: str) -> None:
    path = _first(fmt, "valid/")
    text = recspec.dump(path)
    assert text is not None and json.loads(text)["format"] == fmt
    out = io.StringIO()
    assert recspec.dump(path.read_bytes(), out, format=fmt) is None
    assert out.getvalue() == text


def test_dump_of_bytes_that_are_not_the_format_raises_a_located_decode_error() -> None:
    with pytest.raises(DecodeError) as e:
        recspec.dump(b"\x01\x00\x05\x00abc", format="carla")
    assert e.value.offset >= 0 and e.value.rule.startswith("CARLA-")


def test_a_bug_inside_a_public_function_arrives_as_internal_error(monkeypatch: pytest.MonkeyPatch) -> None:
    from recspec.errors import InternalError
    from recspec.reference.carla import _decode

    def broken(*args: object, **kwargs: object) -> None:
        raise KeyError("a bug")

    monkeypatch.setattr(_decode, "decode", broken)  # private on purpose: plant a bug behind the public API
    import recspec.reference.carla as carla

    with pytest.raises(InternalError) as e:
        carla.decode(b"", variant="0.9.15")
    assert isinstance(e.value.__cause__, KeyError) and e.value.exit_code == 3


def test_encoders_raise_encode_error_for_a_model_they_cannot_write() -> None:
    from recspec.errors import EncodeError
    from recspec.reference import raskat_signal

    sig = raskat_signal.decode(_first("raskat-signal", "valid/").read_bytes()).signal
    with pytest.raises(EncodeError):
        raskat_signal.encode(sig, container="zip")
    with pytest.raises(EncodeError):
        raskat_signal.encode(sig, variant="v1" if sig.version != 1 else "v2")


@pytest.mark.parametrize("fmt", list(FORMATS))
def test_traces_for_the_pictures_are_collected_only_when_asked(fmt: str) -> None:
    path = _first(fmt, "valid/")
    assert recspec.check(path).trace is None
    assert recspec.check(path, trace=True).trace is not None
