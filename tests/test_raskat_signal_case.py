"""raSkat's case codec: what a v1/v2 coordinate can hold, and the strategies' knobs."""

from __future__ import annotations

import sys

import pytest
from hypothesis import given, settings

from recspec.errors import EncodeError
from recspec.strategies import raskat_signals


def test_a_negative_v2_coordinate_is_a_case_the_format_cannot_hold() -> None:
    """Research notes A.5.5: v1/v2 store unsigned parts; the reference refuses (EncodeError), not garbage."""
    from recspec.reference.raskat_signal import SignalFile, from_case, to_case

    @settings(max_examples=30, deadline=None)
    @given(raskat_signals(2))
    def refuses(sig: object) -> None:
        case = to_case(SignalFile("raw", sig))  # type: ignore[arg-type]
        case["latitude"] = -70.5
        with pytest.raises(EncodeError, match=r"latitude is -70\.5"):
            from_case(case)

    refuses()


def test_a_v2_coordinate_is_a_whole_number_of_millionths() -> None:
    from recspec.reference.raskat_signal import fixed_from_degrees

    assert (fixed_from_degrees(128.012345).int_part, fixed_from_degrees(128.012345).frac) == (128, 12345)
    with pytest.raises(EncodeError, match="whole number of millionths"):
        fixed_from_degrees(0.1234567)


def test_a_v2_coordinate_splits_as_the_document_floors_it_where_the_floor_is_exact() -> None:
    """The document's writer stores ``floor(x)`` and ``floor((x - floor(x)) * 1'000'000)`` in a u16 and a u32;
    for values exact in binary its floor and the case codec's split agree, and the u16 ends at 65535."""
    from recspec.reference.raskat_signal import Fixed, fixed_from_degrees

    assert fixed_from_degrees(12.5) == Fixed(12, 500_000)
    assert fixed_from_degrees(100.125) == Fixed(100, 125_000)
    assert fixed_from_degrees(0.0) == Fixed(0, 0)
    assert fixed_from_degrees(65535.999999) == Fixed(65535, 999_999)
    with pytest.raises(EncodeError, match=r"0 \.\. 65535\.999999"):
        fixed_from_degrees(65536.0)


def test_the_v3_signal_strategy_never_draws_a_subnormal_vref() -> None:
    @settings(max_examples=200, deadline=None)
    @given(raskat_signals(3))
    def never_subnormal(sig: object) -> None:
        assert sig.vref >= sys.float_info.min  # type: ignore[attr-defined]

    never_subnormal()
