"""The public Python API on CARLA data: facts of its own layout and code (the behaviour every format shares is
tests/test_api.py's)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings

import recspec
from recspec.errors import DecodeError
from recspec.report import Verdict
from recspec.strategies import carla_logs


@settings(max_examples=10, deadline=None)
@given(carla_logs(variant="0.9.15", min_frames=1))
def test_the_strategies_variant_objects_are_accepted(log: tuple[bytes, object]) -> None:
    data, variant = log
    assert recspec.check(data, format="carla", variant=variant).verdict is Verdict.VALID


def test_dump_of_bytes_that_are_not_the_format_raises_a_located_decode_error() -> None:
    with pytest.raises(DecodeError) as e:
        recspec.dump(b"\x01\x00\x05\x00abc", format="carla")
    assert e.value.offset >= 0 and e.value.rule.startswith("CARLA-")


def test_a_bug_inside_a_public_function_arrives_as_internal_error(monkeypatch: pytest.MonkeyPatch) -> None:
    from recspec.errors import InternalError
    from recspec.reference.carla import _decode

    def broken(*args: object, **kwargs: object) -> None:
        raise KeyError("a bug")

    monkeypatch.setattr(_decode, "decode", broken)  # private on purpose: plant a bug behind the public API
    import recspec.reference.carla as carla

    with pytest.raises(InternalError) as e:
        carla.decode(b"", variant="0.9.15")
    assert isinstance(e.value.__cause__, KeyError) and e.value.exit_code == 3
