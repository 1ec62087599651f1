"""Start-up of NanoVer: its sniffer's copies of the reference codec's constants (the sniffer imports no codec, so
that recognising a file stays light: tests/test_startup.py) are the codec's."""

from __future__ import annotations


def test_the_sniffers_copy_of_the_magic_is_the_codecs() -> None:
    from recspec.conformance.nanover._sniff import MAGIC_BYTES
    from recspec.reference.nanover import MAGIC

    assert MAGIC.to_bytes(8, "little") == MAGIC_BYTES


def test_the_plugin_members_still_load_on_first_use() -> None:
    import recspec.conformance.nanover as plugin

    assert callable(plugin.check) and callable(plugin.check_stream) and plugin.RULES
    assert plugin.KAITAI.rule == "NANOVER-XCHECK-001"
