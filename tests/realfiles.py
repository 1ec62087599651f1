"""Where the real files of ../shared/real are, and a skip when they are absent."""

from __future__ import annotations

from pathlib import Path

import pytest

REAL = Path(__file__).resolve().parents[1].parent / "shared" / "real"


def real_file(name: str) -> Path:
    path = REAL / name
    if not path.is_file():
        pytest.skip(f"real file {name} not found in {REAL} (the shared/ folder beside the checkout)")
    return path
