"""The public Python API: recspec.check and recspec.dump on paths, bytes and file objects."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

import recspec
from helpers import example_valid_file
from recspec.conformance.corpus import corpus_folder
from recspec.errors import InputError, UsageError
from recspec.formats import FORMATS, FormatInfo
from recspec.report import Verdict

ROOT = Path(__file__).resolve().parents[1]


def _first(fmt: str, sub: str) -> Path:
    """The first file of the format's corpus manifest under ``sub`` (the corpus folder the registry gives)."""
    folder = corpus_folder(fmt)
    manifest = json.loads((folder / "manifest.json").read_text())
    return folder / next(e["path"] for e in manifest["files"] if e["path"].startswith(sub))


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


@pytest.mark.parametrize("info", list(FORMATS.values()), ids=lambda i: i.id)
def test_a_stream_that_cannot_seek_is_read_into_memory(info: FormatInfo) -> None:
    valid = example_valid_file(info)
    data = valid.read_bytes()

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

    profile = info.load().EXAMPLES.valid_profile
    assert recspec.check(io.BufferedReader(Pipe()), name=f"pipe{valid.suffix}", profile=profile).verdict \
        is Verdict.VALID


def test_bad_arguments_are_usage_errors() -> None:
    with pytest.raises(UsageError, match="needs format"):
        recspec.check(b"", variant="v2")
    with pytest.raises(UsageError, match="no variant"):
        recspec.check(b"", format=next(iter(FORMATS)), variant="0.8")  # no format has a variant "0.8"
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


@pytest.mark.parametrize("fmt", list(FORMATS))
def test_traces_for_the_pictures_are_collected_only_when_asked(fmt: str) -> None:
    path = _first(fmt, "valid/")
    assert recspec.check(path).trace is None
    assert recspec.check(path, trace=True).trace is not None
