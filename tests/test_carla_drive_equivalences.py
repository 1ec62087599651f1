"""`recspec drive` on CARLA writers (tests/test_drive_equivalences.py): the reference codec passes compat with
nothing excused."""

from __future__ import annotations

from test_drive_equivalences import reference_codec_passes_compat


def test_the_reference_codec_passes_compat_with_nothing_excused() -> None:
    reference_codec_passes_compat("carla", "0.9.15")
