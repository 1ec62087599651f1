"""Messages that say what happened after corruption, on Matrix-SMT recordings: a damaged element name
shows the bytes found."""

from __future__ import annotations

from pathlib import Path

import recspec

CORPUS = Path(__file__).resolve().parents[1] / "corpus"


def test_a_damaged_bson_element_name_shows_the_bytes_found() -> None:
    data = bytearray((CORPUS / "matrix-smt/valid/spec.bson").read_bytes())
    data[6] = 0xC2  # the second byte of the first key, "objects": now the start of a 2-byte UTF-8 sequence
    [finding] = recspec.check(bytes(data), name="scene.bson").findings
    assert finding.rule == "MATRIX-BSON-005" and finding.offset == 6
    assert "element name b'o\\xc2jects'" in finding.message
