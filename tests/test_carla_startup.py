"""Start-up of CARLA: its sniffer's copies of the reference codec's constants (the sniffer imports no codec, so
that recognising a file stays light: tests/test_startup.py) are the codec's."""

from __future__ import annotations

import io
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_the_sniffers_copy_of_the_magic_is_the_codecs() -> None:
    from recspec.conformance.carla._sniff import MAGIC_FIELD
    from recspec.reference.carla import read_header

    log = (ROOT / "corpus" / "carla" / "valid" / "0.9.15.log").read_bytes()
    assert log[2:18] == MAGIC_FIELD and read_header(io.BytesIO(log))[0].magic == "CARLA_RECORDER"
