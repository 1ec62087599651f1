"""Hypothesis strategies for the recording formats recspec knows.

One section per format, each importing from the format's private
``_strategies`` module in ``recspec.conformance.<format>``; ``__all__`` is the
whole public surface. Strategies follow Hypothesis house style: plural names,
bounds keyword-only, arguments checked when the strategy is drawn from
(``InvalidArgument``), reprs that read like the call.

CARLA recorder logs (``recspec.reference.carla``):

* ``carla_variants()``
* ``carla_packets(variant=None, *, kinds=None)``
* ``carla_frames(variant=None, *, min_size=0, max_size=6, valid=True)``
* ``carla_recordings(variant=None, *, min_frames=0, max_frames=6, valid=True)``
* ``carla_logs(variant=None, *, min_frames=0, max_frames=6, valid=True)``

NanoVer recordings (``recspec.reference.nanover``):

* ``nanover_values(*, max_depth=2)``
* ``nanover_frames(*, min_particles=0, max_particles=4, reset=None)``
* ``nanover_state_updates(*, max_keys=4)``
* ``nanover_recordings(kind=None, *, min_records=0, max_records=4)``
* ``nanover_files(kind=None, *, min_records=0, max_records=4)``

raSkat signal files (``recspec.reference.raskat_signal``):

* ``raskat_versions(*, legacy=False)``
* ``raskat_signals(version=None, *, max_samples=64, valid=True)``
* ``raskat_files(version=None, *, container=None, max_samples=64, valid=True)``

Matrix-SMT recordings and BSON (``recspec.reference.matrix_smt``):

* ``bson_values(*, max_depth=3)``, ``bson_documents(*, max_depth=3)``
* ``matrix_recordings(*, min_frames=0, max_frames=6, valid=True)``
* ``matrix_files(profile=None, *, min_frames=0, max_frames=6, valid=True)``
"""

from __future__ import annotations

# --- CARLA ---------------------------------------------------------------------------
from recspec.conformance.carla._strategies import (
    carla_frames,
    carla_logs,
    carla_packets,
    carla_recordings,
    carla_variants,
)

# --- NanoVer -------------------------------------------------------------------------
from recspec.conformance.nanover._strategies import (
    nanover_files,
    nanover_frames,
    nanover_recordings,
    nanover_state_updates,
    nanover_values,
)

# --- raSkat signal -------------------------------------------------------------------
from recspec.conformance.raskat_signal._strategies import (
    raskat_files,
    raskat_signals,
    raskat_versions,
)

# --- Matrix-SMT ----------------------------------------------------------------------
from recspec.conformance.matrix_smt._strategies import (
    bson_documents,
    bson_values,
    matrix_files,
    matrix_recordings,
)

__all__ = [
    # CARLA
    "carla_frames",
    "carla_logs",
    "carla_packets",
    "carla_recordings",
    "carla_variants",
    # NanoVer
    "nanover_files",
    "nanover_frames",
    "nanover_recordings",
    "nanover_state_updates",
    "nanover_values",
    # raSkat
    "raskat_files",
    "raskat_signals",
    "raskat_versions",
    # Matrix-SMT
    "bson_documents",
    "bson_values",
    "matrix_files",
    "matrix_recordings",
]
