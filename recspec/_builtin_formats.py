"""The formats recspec ships: their registry entries, the keyword arguments of ``recspec.formats.FormatInfo``.

Plain data, importing nothing: ``recspec.formats`` makes a ``FormatInfo`` of each (the fields are checked there),
so the registry and its entries do not import each other.

These entries are the one place where shared code names a built-in format; everything else reaches a format
through the registry (``tests/test_no_format_ids.py`` holds the rest of the shared code to it).
"""

from __future__ import annotations

from typing import Any

__all__ = ["BUILTIN"]

_MiB = 1024 * 1024

BUILTIN: tuple[dict[str, Any], ...] = (
    dict(
        id="carla",
        title="CARLA simulator recorder log",
        aliases=("carla-recorder", "carla_recorder"),
        extensions=(".log", ".rec"),
        variants=("0.9.4-0.9.5", "0.9.6-0.9.9", "0.9.10-0.9.11", "0.9.12-0.9.13", "0.9.14", "0.9.15",
                  "dev-2023", "0.9.16", "ue5"),
        profiles=("spec", "compat"),
        default_profile="spec",
        cross_check_limit=32 * _MiB,
        stats_keys=("frames", "packets", "duration_s", "map", "actors_added", "position_records"),
        cross_check_note="a sample of about 1 packet in 1,024 by default (--cross-check full: every packet)",
        finding_index=r"^frame\[(\d+)\]",
    ),
    dict(
        id="nanover",
        title="NanoVer recording (.traj frames, .state shared state)",
        aliases=("nanover-recording", "nanover_recording", "narupa"),
        extensions=(".traj", ".state"),
        variants=("traj", "state"),
        profiles=("spec", "compat"),
        default_profile="spec",
        cross_check_limit=32 * _MiB,
        stats_keys=("kind", "records", "first_timestamp_us", "last_timestamp_us"),
        cross_check_note=("a sample of about 1 record in 512 by default, its records at most 1 byte in 512 of "
                          "the file's (--cross-check full: every record); "
                          "records of more than 8,192 map entries and list elements are left out"),
        finding_index=r"^record\[(\d+)\]",
        variant_suffixes=(("traj", ".traj"), ("state", ".state")),
    ),
    dict(
        id="raskat-signal",
        title="raSkat lightning-detector signal file",
        aliases=("raskat", "sig", "raskat_signal"),
        extensions=(".sig",),
        variants=("v1", "v2", "v3", "v4"),
        profiles=("spec", "compat"),
        default_profile="spec",
        cross_check_limit=64 * 1024,
        stats_keys=("version", "container", "samples", "sample_rate_hz"),
        cross_check_note="the Kaitai parser builds an object per MessagePack value",
        finding_index=r"samples\[(\d+)\]",
        legacy_variants=("v1",),
    ),
    dict(
        id="matrix-smt",
        title="Matrix-SMT simulation recording (BSON)",
        aliases=("matrix", "smt", "matrix_smt", "matrix-smt-record"),
        extensions=(".bson",),
        variants=(),
        profiles=("spec", "compat"),
        default_profile="spec",
        cross_check_limit=1 * _MiB,
        stats_keys=("objects", "frames", "states"),
        cross_check_note="Kaitai and pymongo read every frame up to 64 KiB, above it about 1 frame in 1,024 "
                         "(--cross-check full: every frame); skipped past 20,000 frames, states, etc.",
        finding_index=r"^frames\[(\d+)\]",
    ),
)
