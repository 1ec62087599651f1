"""Start-up of Matrix-SMT: its sniffer's copies of the reference codec's constants (the sniffer imports no codec, so
that recognising a file stays light: tests/test_startup.py) are the codec's."""

from __future__ import annotations


def test_the_sniffers_copy_of_the_bson_type_codes_is_the_codecs() -> None:
    from recspec.conformance.matrix_smt._sniff import BSON_TYPE_CODES
    from recspec.reference.matrix_smt import BSON_TYPES

    assert set(BSON_TYPE_CODES) == set(BSON_TYPES)
