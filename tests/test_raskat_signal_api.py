"""The public Python API on raSkat .sig data: facts of its own layout and code (the behaviour every format shares is
tests/test_api.py's)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _first(fmt: str, sub: str) -> Path:
    manifest = json.loads((ROOT / "corpus" / fmt / "manifest.json").read_text())
    return ROOT / "corpus" / fmt / next(e["path"] for e in manifest["files"] if e["path"].startswith(sub))


def test_encoders_raise_encode_error_for_a_model_they_cannot_write() -> None:
    from recspec.errors import EncodeError
    from recspec.reference import raskat_signal

    sig = raskat_signal.decode(_first("raskat-signal", "valid/").read_bytes()).signal
    with pytest.raises(EncodeError):
        raskat_signal.encode(sig, container="zip")
    with pytest.raises(EncodeError):
        raskat_signal.encode(sig, variant="v1" if sig.version != 1 else "v2")
