"""Start-up of raSkat .sig: its sniffer's copies of the reference codec's constants (the sniffer imports no codec, so
that recognising a file stays light: tests/test_startup.py) are the codec's."""

from __future__ import annotations


def test_the_sniffers_copies_of_the_constants_are_the_codecs() -> None:
    from recspec.conformance.raskat_signal import _sniff as rsig
    from recspec.reference.raskat_signal import _container, _signal

    assert (rsig.XZ_MAGIC, rsig.VERSIONS, rsig.HEADER_V1) == (_container.XZ_MAGIC, _signal.VERSIONS, _signal.HEADER_V1)
