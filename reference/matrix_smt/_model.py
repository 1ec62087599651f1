"""The typed model of a Matrix-SMT recording.

Field names say what a value is; the BSON keys (the document's short ones, and
its ``half_dimentions`` spelling) live in ``_codec``. Numbers are ``float``
(ids ``int``): the stored width (int32 for whole numbers in the producer's
files, double otherwise) is the encoder's business, chosen by the profile.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field

__all__ = [
    "CommandKind",
    "DebugCommand",
    "Frame",
    "Geometry",
    "Presence",
    "Quat",
    "Recording",
    "SceneObject",
    "State",
    "Vec3",
]

Vec3 = tuple[float, float, float]
Quat = tuple[float, float, float, float]  # x, y, z, w (the document's and the viewer's order)


class Geometry(str, enum.Enum):
    """An object's ``type`` and the fields it needs."""

    BOX = "box"  # half_dimentions: half extents along x, y, z
    SPHERE = "sphere"  # radius
    CAPSULE = "capsule"  # radius, half_height: half the length of the cylinder part, axis along X
    CONVEX = "convex"  # vertices: at least 4 points, not all in one plane


class Presence(enum.Enum):
    """A state's instance flag ``i``: is the object in the scene?"""

    INSTANTIATED = "i"
    DESTROYED = "d"


class CommandKind(str, enum.Enum):
    """A debug-drawing command's ``t``."""

    VECTOR = "v"  # arrow from the origin along ``vector``
    RAY = "r"  # segment from the origin to ``end``, an absolute point
    SPHERE = "s"  # sphere at the origin, ``radius``
    CUBE = "c"  # box at the origin, ``half_size``, ``rotation``


@dataclass(frozen=True, slots=True)
class SceneObject:
    id: int
    name: str
    geometry: Geometry
    color: Vec3
    static: bool = False
    half_dimentions: Vec3 | None = None
    radius: float | None = None
    half_height: float | None = None
    vertices: tuple[Vec3, ...] | None = None


@dataclass(frozen=True, slots=True)
class State:
    id: int
    presence: Presence
    metadata: str
    position: Vec3
    rotation: Quat


@dataclass(frozen=True, slots=True)
class DebugCommand:
    kind: CommandKind
    origin: Vec3
    vector: Vec3 | None = None  # VECTOR
    end: Vec3 | None = None  # RAY
    radius: float | None = None  # SPHERE
    half_size: Vec3 | None = None  # CUBE
    rotation: Quat | None = None  # CUBE
    color: Vec3 | None = None
    opacity: float | None = None


@dataclass(frozen=True, slots=True)
class Frame:
    time: float
    states: tuple[State, ...] = ()
    commands: tuple[DebugCommand, ...] = ()


@dataclass(frozen=True, slots=True)
class Recording:
    objects: tuple[SceneObject, ...] = ()
    frames: tuple[Frame, ...] = ()
    #: The encoder profile whose bytes the decoded file is, when that is not ``spec``'s: ``"compat"`` (the
    #: producer's form: sorted keys, ``time``, ``destroyed``, whole numbers as int32). None: unknown or spec.
    #: How the content was written, not content, so it takes no part in equality.
    form: str | None = field(default=None, compare=False)
    #: Numbers stored as another BSON type than the form's (``("frames[3].t", "int32")``: BSON paths, type
    #: ``double``, ``int32`` or ``int64``); None: each as the form stores it. Not content either.
    numbers: tuple[tuple[str, str], ...] | None = field(default=None, compare=False)
