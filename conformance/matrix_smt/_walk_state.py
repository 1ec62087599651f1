"""What the bulk frame readers (``_fastpath.FrameMatcher``, ``_runs.FrameRuns``) read and
update of the checker's walk (``_check._Walk``), as a Protocol: they are handed the walk and
take their counters from it, so they need its shape, not the module that defines it (which
imports them)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from .._sink import FindingSink
    from ._trace import MatrixTrace

__all__ = ["WalkState"]


class WalkState(Protocol):
    """The walk's sink and the counters a frame read in bulk moves on, as ``_Walk`` keeps them."""

    sink: FindingSink
    #: ``sink.add``: one finding
    add: Callable[..., None]
    objects: dict[int, str]  # id -> geometry type
    #: False when the objects array could not be read: ids are not judged
    objects_known: bool
    destroyed: set[int]
    destroyed_spec: set[int]
    frames: int
    states: int
    commands: int
    prev_time: float | None
    last_time: float | None
    trace: MatrixTrace | None
