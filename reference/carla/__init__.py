"""Reference encoder and decoder for the CARLA simulator recorder log.

Public surface: the typed model (``Recording``, ``Header``, ``Packet``,
``PacketKind`` and the record classes), the variant table (``VARIANTS``), the
decoders (``decode`` for bytes in memory, ``iter_packets``/``PacketReader`` for
streaming from a file in constant memory, ``decode_header``, ``decode_body``)
the encoders (``encode``, ``encode_packet``, ``RecorderWriter`` which writes
frames the way CARLA does), and the fast readers of a payload's shape that the
checker and variant detection use (``_scan``: ``layout_misfit``,
``record_chain_misfit``, ``scan_event_add``, ``anim_wheel_ids``, ``alike_records``, ``record_ids``).
"""

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # loaded on first use, by __getattr__ below
    from ._case import CASE_TOLERANCE_CHECKS, CASE_TOLERANCES, case_schema, from_case, to_case
from ._api import UNIT, decode, encode, iter_packets, iter_units
from ._decode import (
    MAX_PACKET_SIZE,
    PacketReader,
    RawPacket,
    decode_body,
    decode_header,
    frame_packets,
    frames,
    is_fixed_record,
    read_header,
    record_struct,
    unpack_flat,
)
from ._encode import RecorderWriter, encode_body, encode_header, encode_packet
from ._model import *  # noqa: F403 - the model is part of the public surface
from ._model import __all__ as _model_all
from ._scan import (
    EventAddScan,
    alike_records,
    anim_wheel_ids,
    layout_misfit,
    physics_control_ids,
    record_chain_misfit,
    record_ids,
    scan_event_add,
    walker_bones_scan,
)
from ._variants import VARIANTS, Variant, variant_by_code, variant_by_name

__all__ = [
    "CASE_TOLERANCES", "CASE_TOLERANCE_CHECKS", "case_schema", "from_case", "to_case",
    "MAX_PACKET_SIZE",
    "VARIANTS",
    "EventAddScan",
    "PacketReader",
    "RawPacket",
    "RecorderWriter",
    "UNIT",
    "Variant",
    "alike_records",
    "anim_wheel_ids",
    "decode",
    "decode_body",
    "decode_header",
    "frame_packets",
    "encode",
    "encode_body",
    "encode_header",
    "encode_packet",
    "frames",
    "is_fixed_record",
    "iter_packets",
    "iter_units",
    "layout_misfit",
    "physics_control_ids",
    "record_chain_misfit",
    "read_header",
    "record_ids",
    "record_struct",
    "scan_event_add",
    "unpack_flat",
    "variant_by_code",
    "variant_by_name",
    "walker_bones_scan",
    *_model_all,
]


#: The case codec (``recspec case``, ``encode``, ``drive``) loads on first use: a check never needs it, and its
#: import (with ``recspec._case_json``) was a few ms of every check's start-up.
_CASE_NAMES = frozenset({"CASE_TOLERANCE_CHECKS", "CASE_TOLERANCES", "case_schema", "from_case", "to_case"})


def __getattr__(name: str) -> object:
    if name in _CASE_NAMES:
        from . import _case

        return getattr(_case, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
