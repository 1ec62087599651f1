"""The toy format's fuzz harnesses (``recspec.fuzz.FuzzHarness``): ``ref`` (the checker and the codec),
``ksy`` (the generated parser), ``diff`` (the two readings agree). Importing this imports no atheris."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from recspec.errors import DecodeError
from recspec.formats import Divergence
from recspec.fuzz._contract import ContractViolation, Divergent, divergence_kind, refuse_variant
from recspec.fuzz._dictionary import render
from recspec.fuzz._mutate import BYTE_MUTATION_RATE
from recspec.fuzz._mutate import mutate as _mutate
from recspec.report import Report, Verdict

from .conformance import RULES
from .conformance._format import KAITAI, _kaitai, check_bytes
from .reference import MAGIC, Record, ToyFile, checksum_of, decode, encode

__all__ = ["BYTE_MUTATION_RATE", "EXTENSION", "TARGETS", "ContractViolation", "Divergent", "derive_seeds",
           "describe_input", "dictionary_entries", "dictionary_text", "divergence_kind", "fuzz_diff", "fuzz_ksy",
           "fuzz_ref", "mutate", "synthetic_seeds", "use_variant"]

EXTENSION = ".toy"
_STRUCTURAL = frozenset(r.id for r in RULES if r.structural)


def fuzz_ref(data: bytes) -> None:
    """The report of any bytes renders as JSON, its findings lie inside the file, it is malformed exactly
    when ``decode`` refuses the file, and a decoded file encodes back to its bytes."""
    report = check_bytes(data, path="input.toy", profile="compat" if len(data) & 1 else "spec")
    json.dumps(Report([report]).to_json(), allow_nan=False)
    outside = [f for f in report.findings if f.offset is not None and not 0 <= f.offset <= len(data)]
    if outside:
        raise ContractViolation(f"{outside[0].rule} at offset {outside[0].offset}, outside {len(data)} bytes")
    try:
        model = decode(data)
    except DecodeError as e:
        if report.verdict is not Verdict.MALFORMED or e.rule not in _STRUCTURAL:
            raise ContractViolation(f"decode refuses ({e.rule}: {e.message}) a file checked {report.verdict.value}"
                                    ) from None
        return
    if report.verdict is Verdict.MALFORMED:
        raise ContractViolation("decode accepts a file checked malformed")
    if encode(model) != data:
        raise ContractViolation("encode(decode(data)) is not data")


def fuzz_ksy(data: bytes) -> None:
    """The generated parser rejects with a Kaitai or EOF error, never anything else."""
    try:
        _kaitai(data)
    except Exception as e:  # noqa: BLE001 - sorted below: kaitaistruct's errors and EOF are rejections
        if type(e).__module__ not in ("kaitaistruct", "builtins"):
            raise ContractViolation(f"the parser raised {type(e).__name__}: {e}") from None


def fuzz_diff(data: bytes) -> None:
    found = KAITAI.divergences(data, None)
    if found:
        raise Divergent(found, None, "recspec_toy.conformance._format", _kind)


def _kind(d: Divergence) -> str:
    return divergence_kind(d)


TARGETS: dict[str, Callable[[bytes], None]] = {"ref": fuzz_ref, "ksy": fuzz_ksy, "diff": fuzz_diff}


def use_variant(name: str | None) -> None:
    refuse_variant("toy", name)


def describe_input(data: bytes) -> dict[str, Any]:
    return {"size": len(data), "magic": data[:4].hex(), "count": int.from_bytes(data[6:8], "little")
            if len(data) >= 8 else None}


def _parse(data: bytes) -> ToyFile | None:
    try:
        return decode(data)
    except DecodeError:
        return None


def _mutate_structure(rng: random.Random, model: ToyFile, max_size: int) -> bytes | None:
    records = list(model.records)
    choice = rng.randrange(4)
    if choice == 0 and records:
        i = rng.randrange(len(records))
        records[i] = replace(records[i], value=rng.randint(-(2**31), 2**31 - 1))
        records[i] = replace(records[i], checksum=checksum_of(records[i].record_id, records[i].value))
    elif choice == 1:
        rid = rng.randrange(0x10000)
        value = rng.randint(-(2**31), 2**31 - 1)
        records.insert(rng.randrange(len(records) + 1), Record(rid, value, checksum_of(rid, value)))
    elif choice == 2 and records:
        del records[rng.randrange(len(records))]
    else:
        model = replace(model, version=rng.choice([0, 1, 2, 255]))
    out = encode(replace(model, records=tuple(records)))
    return out if len(out) <= max_size else None


def mutate(data: bytes, max_size: int, seed: int, *,
           byte_mutate: Callable[[bytes, int], bytes] | None = None) -> bytes:
    """atheris' custom mutator: a record changed, added or removed, or the version, else bytes."""
    return _mutate(data, max_size, seed, parse=_parse, mutate_structure=_mutate_structure,
                   tokens=[v for _, v in dictionary_entries()], byte_mutate=byte_mutate)


def synthetic_seeds() -> list[tuple[str, bytes]]:
    from .conformance._seeds import seeds

    return [(s.name.replace("/", "_"), s.data) for s in seeds()]


def derive_seeds(data: bytes, max_len: int) -> list[bytes]:
    """The header and first record alone (a file of one record)."""
    model = _parse(data)
    if model is None or len(model.records) < 2:
        return []
    one = encode(replace(model, records=model.records[:1]))
    return [one] if len(one) <= max_len else []


def dictionary_entries() -> list[tuple[str, bytes]]:
    return [("magic", MAGIC), ("version_1", b"\x01"), ("count_1", b"\x01\x00"), ("count_max", b"\xff\xff")]


def dictionary_text() -> str:
    return render(["libFuzzer dictionary for toy files: the magic, the version and record counts.",
                   "Generated by recspec_toy.fuzz.dictionary_text()."], dictionary_entries())


