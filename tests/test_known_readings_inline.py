"""The cross-check's known readings (conformance/raskat_signal/_tar_known.py, conformance/nanover/_tag_known.py,
conformance/matrix_smt/_vector_known.py) make the generated classes' objects with their attributes set one by one
in the order the generated constructors and readings set them, so each object keeps its attributes inline as a
generated one does. An object given a dictionary of its own (``obj.__dict__ = {...}``) is two objects for the
garbage collector, and a parse tree's cycles (every object points at its parent and its root) are left to the
collector: a parse by the known readings must leave it no more objects than the generated reading, and every
object's attributes in the generated order."""

from __future__ import annotations

import contextlib
import gc
import io
import tarfile
from collections.abc import Callable
from typing import Any

import pytest
from kaitaistruct import KaitaiStruct

from helpers import REPO
from recspec._ksy_fast.matrix_smt_record import MatrixSmtRecord
from recspec._ksy_fast.nanover_recording import NanoverRecording
from recspec._ksy_fast.tar import Tar
from recspec.conformance._kaitai import MemoryStream
from recspec.conformance.matrix_smt import _vector_known
from recspec.conformance.matrix_smt import _xcheck as matrix_x  # installs the known readings
from recspec.conformance.nanover import _tag_known
from recspec.conformance.nanover import _xcheck as nanover_x
from recspec.conformance.raskat_signal import _tar_known
from recspec.conformance.raskat_signal import _xcheck as raskat_x

assert matrix_x and nanover_x and raskat_x  # imported for their side effect


def _archive() -> bytes:
    """A tar archive of one member written by Python's ``tarfile`` (ustar: its header's octal fields)."""
    out = io.BytesIO()
    with tarfile.open(fileobj=out, mode="w", format=tarfile.USTAR_FORMAT) as t:
        data = b"signal bytes " * 20
        info = tarfile.TarInfo("signal.v3")
        info.size, info.mtime, info.mode = len(data), 1_700_000_000, 0o644
        t.addfile(info, io.BytesIO(data))
    return out.getvalue()


def _tar(data: bytes) -> Any:
    return Tar(MemoryStream(data))  # a member's header reads its running sums (its checksum's validation)


def _nanover(data: bytes) -> Any:
    return NanoverRecording(NanoverRecording.RecordKind(1), MemoryStream(data))


_Case = tuple[Callable[[bytes], Any], Callable[[], bytes], Callable[[], contextlib.AbstractContextManager[None]]]
CASES: dict[str, _Case] = {
    "tar": (_tar, _archive, _tar_known.generated_tar),
    "nanover": (_nanover, lambda: (REPO / "corpus" / "nanover" / "valid" / "small.traj").read_bytes(),
                _tag_known.generated_tags),
    "matrix-smt": (lambda data: MatrixSmtRecord(MemoryStream(data)),
                   lambda: (REPO / "corpus" / "matrix-smt" / "valid" / "spec.bson").read_bytes(),
                   _vector_known.generated_documents),
}


def _tracked(parse: Callable[[bytes], Any], data: bytes) -> int:
    parse(data)  # first-use caches, outside the count
    gc.collect()
    gc.disable()
    try:
        before = len(gc.get_objects())
        tree = parse(data)  # alive while its objects are counted
        made = len(gc.get_objects()) - before
        del tree
        return made
    finally:
        gc.enable()


def _attribute_orders(root: Any) -> list[tuple[str, tuple[str, ...]]]:
    """Each object of the tree (a walk of its attributes), its class and its attributes' names in order."""
    out: list[tuple[str, tuple[str, ...]]] = []
    seen: set[int] = set()

    def walk(obj: Any) -> None:
        if id(obj) in seen:
            return
        seen.add(id(obj))
        out.append((type(obj).__qualname__, tuple(vars(obj))))
        for k, v in list(vars(obj).items()):
            if k not in ("_io", "_parent", "_root"):
                for x in v if isinstance(v, list) else [v]:
                    if isinstance(x, KaitaiStruct):
                        walk(x)

    walk(root)
    return out


@pytest.mark.parametrize("name", CASES)
def test_a_known_reading_leaves_the_collector_no_more_objects(name: str) -> None:
    parse, data, generated = CASES[name]
    raw = data()
    known = _tracked(parse, raw)
    with generated():
        made = _tracked(parse, raw)
    assert 50 < known <= made


@pytest.mark.parametrize("name", CASES)
def test_a_known_reading_sets_the_attributes_in_the_generated_order(name: str) -> None:
    parse, data, generated = CASES[name]
    raw = data()
    known = _attribute_orders(parse(raw))
    with generated():
        assert known == _attribute_orders(parse(raw))
