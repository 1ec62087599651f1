"""Hypothesis strategies for the recording formats recspec knows.

Every registered format's plugin declares its strategies (``STRATEGIES`` in
``recspec.conformance.<package>``); this module re-exports all of them, so a new
format's strategies appear here without an edit. ``__all__`` is the whole
public surface. Strategies follow Hypothesis house style: plural names,
bounds keyword-only, arguments checked when the strategy is drawn from
(``InvalidArgument``), reprs that read like the call.

CARLA recorder logs (``recspec.reference.carla``):

* ``carla_variants()``
* ``carla_packets(variant=None, *, kinds=None)``
* ``carla_frames(variant=None, *, min_size=0, max_size=6, valid=True)``
* ``carla_recordings(variant=None, *, min_frames=0, max_frames=6, valid=True)``
* ``carla_logs(variant=None, *, min_frames=0, max_frames=6, valid=True)``
* ``carla_cases(variant=None, *, min_frames=0, max_frames=6)``

NanoVer recordings (``recspec.reference.nanover``):

* ``nanover_values(*, max_depth=2)``
* ``nanover_frames(*, min_particles=0, max_particles=4, reset=None)``
* ``nanover_state_updates(*, max_keys=4)``
* ``nanover_recordings(kind=None, *, min_records=0, max_records=4, min_particles=0, max_particles=4,
  deltas=False, removals=False)``
* ``nanover_cases(kind=None, *, ..., deltas=True, removals=True)``
* ``nanover_files(kind=None, *, min_records=0, max_records=4)``

raSkat signal files (``recspec.reference.raskat_signal``):

* ``raskat_versions(*, legacy=False)``
* ``raskat_signals(version=None, *, max_samples=64, valid=True)``
* ``raskat_files(version=None, *, container=None, max_samples=64, valid=True)``
* ``raskat_cases(version=None, *, container=None, max_samples=64, negative_coordinates=False)``

Matrix-SMT recordings and BSON (``recspec.reference.matrix_smt``):

* ``bson_values(*, max_depth=3)``, ``bson_documents(*, max_depth=3)``
* ``matrix_recordings(*, min_frames=0, max_frames=6, valid=True)``
* ``matrix_files(profile=None, *, min_frames=0, max_frames=6, valid=True)``
* ``matrix_cases(*, min_frames=0, max_frames=6)``

A ``*_cases`` strategy draws a case: the content of a valid recording in a writer's terms, the JSON
that ``recspec case FILE`` prints and ``recspec drive writer`` hands a writer (as a dict).
"""

from __future__ import annotations

from typing import Any

from recspec.formats import FORMATS


def _collect() -> dict[str, Any]:
    found: dict[str, Any] = {}
    for info in FORMATS.values():
        for name, strategy in info.load().STRATEGIES.items():
            if name in found:
                raise RuntimeError(f"strategy name {name!r} is declared by two formats")
            found[name] = strategy
    return found


_STRATEGIES = _collect()
globals().update(_STRATEGIES)

__all__ = list(_STRATEGIES)  # registry order, then each plugin's own order
