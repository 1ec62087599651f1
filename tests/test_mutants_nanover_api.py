"""The public codec of the NanoVer reference (``reference/nanover/_api.py``): a recording's kind is its
variant, which the bytes do not say (docs/formats/nanover.md: every NanoVer tool goes by the extension), so
decoding requires it; encoding takes it from the model, and a variant that disagrees is refused. Held to
the real files from NanoVer's own tools, decoded and encoded back byte for byte."""

from __future__ import annotations

import io

import pytest

import recspec.reference.nanover as nanover
from helpers import SHIPPED_REAL
from recspec.errors import EncodeError, UsageError
from recspec.reference.nanover import Kind

TRAJ = (SHIPPED_REAL / "hello_vel.traj").read_bytes()
STATE = (SHIPPED_REAL / "sim-switching-test-recording.state").read_bytes()


@pytest.mark.parametrize(("data", "kind"), [(TRAJ, Kind.TRAJ), (STATE, Kind.STATE)], ids=["traj", "state"])
def test_a_real_file_decodes_under_its_kind_and_comes_back(data: bytes, kind: Kind) -> None:
    by_name = nanover.decode(data, variant=kind.value)
    assert by_name.kind is kind
    assert nanover.decode(data, variant=kind) == by_name
    assert nanover.encode(by_name) == data
    assert nanover.encode(by_name, variant=kind.value) == data
    assert nanover.encode(by_name, variant=kind) == data


def test_the_kinds_are_the_extensions() -> None:
    assert {k.value for k in Kind} == {"traj", "state"}


def test_streaming_gives_the_records_decode_gives() -> None:
    whole = nanover.decode(TRAJ, variant="traj").records
    assert list(nanover.iter_records(io.BytesIO(TRAJ), variant="traj")) == list(whole)
    assert nanover.iter_units is nanover.iter_records and nanover.UNIT == "record"


def test_a_variant_that_disagrees_with_the_model_is_an_encode_error_naming_both() -> None:
    model = nanover.decode(TRAJ, variant="traj")
    for variant in ("state", Kind.STATE):
        with pytest.raises(EncodeError) as e:
            nanover.encode(model, variant=variant)
        assert "traj" in str(e.value) and "state" in str(e.value)


@pytest.mark.parametrize("call", [
    lambda: nanover.decode(TRAJ),
    lambda: list(nanover.iter_records(io.BytesIO(TRAJ))),
])
def test_no_variant_is_a_usage_error_that_says_why(call) -> None:
    with pytest.raises(UsageError) as e:
        call()
    assert "does not name its kind" in e.value.message and "recspec.check()" in e.value.hint


@pytest.mark.parametrize("name", ["trajectory", "TRAJ", ".traj", ""])
def test_an_unknown_variant_is_a_usage_error_naming_it(name: str) -> None:
    model = nanover.decode(TRAJ, variant="traj")
    for call in (lambda: nanover.decode(TRAJ, variant=name), lambda: nanover.encode(model, variant=name)):
        with pytest.raises(UsageError) as e:
            call()
        assert repr(name) in e.value.message and e.value.hint == "choose one of: traj, state"
