"""The toy format's reference codec (``recspec.formats.ReferenceCodec``) and its case codec.

Layout (little-endian; docs/toy.md): an 8-byte header, ``TOYF``, version u8, flags u8, record count u16;
then ``count`` records of 8 bytes: id u16, value i32, checksum u8 (the sum of the record's first six bytes
modulo 256), reserved u8. Nothing follows the last record. The decoder keeps every stored value (a wrong
checksum, a nonzero reserved byte, any version), so ``encode(decode(data)) == data``; only the layout
itself (magic, size) is refused, with a located ``DecodeError``.
"""

from __future__ import annotations

import struct
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any, BinaryIO

from recspec._case_json import check_envelope, envelope, expect_int, expect_list, expect_object
from recspec.errors import EncodeError, Malformed, Truncated, public_boundary

__all__ = ["CASE_TOLERANCES", "CASE_TOLERANCE_CHECKS", "HEADER_SIZE", "MAGIC", "RECORD", "RECORD_SIZE", "UNIT",
           "Record", "ToyFile", "case_schema", "checksum_of", "decode", "encode", "from_case", "iter_records",
           "iter_units", "read_header", "to_case"]

MAGIC = b"TOYF"
HEADER_SIZE = 8
RECORD_SIZE = 8
UNIT = "record"
_HEADER = struct.Struct("<4sBBH")
#: One record: id, value, checksum, reserved.
RECORD = struct.Struct("<HiBB")


def checksum_of(record_id: int, value: int) -> int:
    """The checksum a record stores: the sum of its first six bytes (id, value) modulo 256."""
    return sum(struct.pack("<Hi", record_id, value)) & 0xFF


@dataclass(frozen=True)
class Record:
    record_id: int
    value: int
    checksum: int
    reserved: int = 0


@dataclass(frozen=True)
class ToyFile:
    version: int
    flags: int
    records: tuple[Record, ...]


def read_header(head: bytes) -> tuple[int, int, int]:
    """(version, flags, count) of a file's first 8 bytes; ``Truncated``/``Malformed`` (rule TOY-MAGIC-001)."""
    if len(head) < HEADER_SIZE:
        if MAGIC[:len(head)] != head[:4]:
            raise Malformed(f"magic is {head[:4]!r}, not {MAGIC!r}", 0, "magic", rule="TOY-MAGIC-001")
        raise Truncated(f"the header needs {HEADER_SIZE} bytes, the file has {len(head)}", len(head), "header",
                        rule="TOY-SIZE-001")
    magic, version, flags, count = _HEADER.unpack_from(head)
    if magic != MAGIC:
        raise Malformed(f"magic is {magic!r}, not {MAGIC!r}", 0, "magic", rule="TOY-MAGIC-001")
    return version, flags, count


def _record(buf: bytes, offset: int) -> Record:
    return Record(*RECORD.unpack_from(buf, offset))


@public_boundary
def decode(data: bytes, *, variant: str | None = None) -> ToyFile:
    """The whole file's model."""
    _no_variant(variant)
    version, flags, count = read_header(data)
    end = HEADER_SIZE + count * RECORD_SIZE
    _check_size(len(data), end, count)
    return ToyFile(version, flags, tuple(_record(data, HEADER_SIZE + i * RECORD_SIZE) for i in range(count)))


def _check_size(size: int, end: int, count: int) -> None:
    if size < end:
        raise Truncated(f"{count} records end at byte {end}, the file has {size} bytes", size,
                        f"records[{(size - HEADER_SIZE) // RECORD_SIZE}]", rule="TOY-SIZE-001")
    if size > end:
        raise Malformed(f"{size - end} bytes after the last of {count} records", end, "end", rule="TOY-SIZE-001")


@public_boundary
def iter_records(f: BinaryIO, *, variant: str | None = None) -> Iterator[Record]:
    """The records of an open file, one at a time (memory does not grow with the file)."""
    _no_variant(variant)
    _, _, count = read_header(f.read(HEADER_SIZE))
    end = HEADER_SIZE + count * RECORD_SIZE
    for i in range(count):
        chunk = f.read(RECORD_SIZE)
        if len(chunk) < RECORD_SIZE:
            _check_size(HEADER_SIZE + i * RECORD_SIZE + len(chunk), end, count)
        yield _record(chunk, 0)
    if f.read(1):
        rest = 1 + len(f.read())
        _check_size(end + rest, end, count)


iter_units = iter_records


@public_boundary
def encode(model: ToyFile, *, variant: str | None = None) -> bytes:
    """The file's bytes, every stored value as the model holds it."""
    _no_variant(variant)
    if len(model.records) > 0xFFFF:
        raise EncodeError(f"a toy file holds at most 65535 records, not {len(model.records)}", "records")
    try:
        out = [_HEADER.pack(MAGIC, model.version, model.flags, len(model.records))]
        out.extend(RECORD.pack(r.record_id, r.value, r.checksum, r.reserved) for r in model.records)
    except struct.error as e:
        raise EncodeError(f"a value does not fit its field: {e}", "records") from None
    return b"".join(out)


def _no_variant(variant: str | None) -> None:
    if variant is not None:
        from recspec.errors import UsageError

        raise UsageError("toy has no variants (it has one layout)", "leave out --variant")


# --- the case codec ---------------------------------------------------------------------------------------

CASE_TOLERANCES: Mapping[str, str] = {"float32": "a toy file holds no floats: the same as exact"}
CASE_TOLERANCE_CHECKS: Mapping[str, Callable[[Any, Any, str], bool]] = {}


def to_case(model: ToyFile, *, variant: str | None = None, canonical: bool = False) -> dict[str, Any]:
    """The file as a case: each record's id and value; losslessly also a checksum that is not the one the
    record's bytes give, and a nonzero reserved byte (the canonical case leaves both out)."""
    records = []
    for r in model.records:
        item: dict[str, Any] = {"id": r.record_id, "value": r.value}
        if not canonical and r.checksum != checksum_of(r.record_id, r.value):
            item["checksum"] = r.checksum
        if not canonical and r.reserved:
            item["reserved"] = r.reserved
        records.append(item)
    return {**envelope("toy", None), "version": model.version, "flags": model.flags, "records": records}


def from_case(case: Mapping[str, Any]) -> ToyFile:
    check_envelope(case, "toy", ())
    obj = expect_object(case, "", required=("version", "flags", "records"),
                        optional=("recspec_case", "format", "variant"))
    records = []
    for i, item in enumerate(expect_list(obj["records"], "records")):
        path = f"records[{i}]"
        rec = expect_object(item, path, required=("id", "value"), optional=("checksum", "reserved"))
        rid = expect_int(rec["id"], f"{path}.id", 0, 0xFFFF)
        value = expect_int(rec["value"], f"{path}.value", -(2**31), 2**31 - 1)
        checksum = expect_int(rec.get("checksum", checksum_of(rid, value)), f"{path}.checksum", 0, 0xFF)
        reserved = expect_int(rec.get("reserved", 0), f"{path}.reserved", 0, 0xFF)
        records.append(Record(rid, value, checksum, reserved))
    return ToyFile(expect_int(obj["version"], "version", 0, 0xFF), expect_int(obj["flags"], "flags", 0, 0xFF),
                   tuple(records))


def case_schema() -> dict[str, Any]:
    byte = {"type": "integer", "minimum": 0, "maximum": 255}
    record = {"type": "object", "required": ["id", "value"], "additionalProperties": False,
              "properties": {"id": {"type": "integer", "minimum": 0, "maximum": 65535},
                             "value": {"type": "integer", "minimum": -(2**31), "maximum": 2**31 - 1},
                             "checksum": byte, "reserved": byte}}
    return {"type": "object", "required": ["version", "flags", "records"],
            "properties": {"version": byte, "flags": byte, "records": {"type": "array", "items": record}}}
