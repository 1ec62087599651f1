"""Hypothesis strategies for raSkat signal files, in Hypothesis house style.

Public (re-exported by :mod:`recspec.strategies`):

* ``raskat_versions(*, legacy=False)``: an on-disk version word (2, 3, 4; and 1
  with ``legacy=True``);
* ``raskat_signals(version=None, *, max_samples=64, valid=True)``: a signal
  model (:class:`SignalV2` for 1 and 2, :class:`SignalMsgpack` for 3 and 4);
* ``raskat_files(version=None, *, container=None, max_samples=64, valid=True)``:
  ``(bytes, version, container)``, the signal encoded by the reference encoder,
  raw or in the tar.xz container (``container`` ``"raw"``, ``"tar.xz"`` or
  ``None`` to draw one);
* ``raskat_cases(version=None, *, container=None, max_samples=64, negative_coordinates=False)``: the case
  (``recspec case`` JSON, as a dict) of a valid signal; with ``negative_coordinates`` a v1/v2 case may
  hold one negative coordinate, which the layout cannot store (a writer must refuse it).

Arguments are checked when the strategy is drawn from; a bad one raises
``InvalidArgument``.

What ``valid=True`` means: the checker finds no error and no warning under
``compat``, and under ``spec`` none but RSIG-CONTAINER-001 for a raw file: the
time is a real UTC date and time, microseconds below 10^6, v2 coordinates with
fractions below 10^6 and in range (so non-negative), v3/v4 coordinates both
within +-90 degrees (so either field order reads a valid position), altitude
within -500 .. 10,000 m, sample rate above 0, flags 0-3, v2 stored samples
non-negative (the document's +1000 offset), v3/v4 samples and threshold raw
codes of the drawn ADC (1-16 bits), antenna 0-2, load 1-65,535 ohm, Vref in
(0, 50] V (never subnormal: no detector reports a Vref of 1e-310 V). Version 1 is
never valid under spec (RSIG-VERSION-002).

``valid=False`` draws a valid signal and breaks one value rule, so the checker
finds it invalid under ``spec`` (under ``compat`` the flag and v2 sample-offset
breaks are not errors). Structural breaks would not encode: the fuzz mutator
makes those.
"""

from __future__ import annotations

import datetime
from dataclasses import replace
from typing import Any

from hypothesis import strategies as st
from hypothesis.errors import InvalidArgument
from hypothesis.strategies import SearchStrategy

from recspec.reference.raskat_signal import Fixed, SignalFile, SignalMsgpack, SignalV2, encode, to_case

__all__ = ["raskat_cases", "raskat_files", "raskat_signals", "raskat_versions"]

_CONTAINERS = ("raw", "tar.xz")


def raskat_versions(*, legacy: bool = False) -> SearchStrategy[int]:
    if not isinstance(legacy, bool):
        raise InvalidArgument(f"legacy={legacy!r} must be a bool")
    return st.sampled_from((1, 2, 3, 4) if legacy else (2, 3, 4))


def _times() -> SearchStrategy[str]:
    return st.datetimes(min_value=datetime.datetime(1970, 1, 1), max_value=datetime.datetime(9999, 12, 31, 23, 59, 59)
                        ).map(lambda t: t.strftime("%Y%m%d%H%M%S").zfill(14))


def _fixed(max_int: int) -> SearchStrategy[Fixed]:
    return st.builds(Fixed, st.integers(0, max_int - 1), st.integers(0, 999_999))


@st.composite
def _v2(draw: st.DrawFn, version: int, max_samples: int) -> SignalV2:
    samples = draw(st.lists(st.integers(0, 0x7FFF), max_size=max_samples))
    return SignalV2(version, draw(_times()).encode("ascii"), draw(st.integers(0, 999_999)), draw(_fixed(180)),
                    draw(_fixed(90)), draw(_fixed(10_000)), draw(st.integers(1, 0xFFFFFFFF)),
                    draw(st.integers(0, 3)) if version == 2 else None, tuple(samples))


@st.composite
def _v3(draw: st.DrawFn, version: int, max_samples: int) -> SignalMsgpack:
    bits = draw(st.integers(1, 16))
    code = st.integers(0, min((1 << bits) - 1, 0x7FFF))
    coord = st.floats(-90.0, 90.0, allow_nan=False)
    return SignalMsgpack.build(
        time=draw(_times()), microseconds=draw(st.integers(0, 999_999)), coordinate_1=draw(coord),
        coordinate_2=draw(coord), altitude=draw(st.floats(-500.0, 10_000.0, allow_nan=False)),
        sample_rate=draw(st.integers(1, 0xFFFFFFFF)), load_ohm=draw(st.integers(1, 0xFFFF)), adc_bits=bits,
        # the usual reference voltages (whole ones too: msgpack-cxx packs 5.0 as an integer, RSIG-FIELDS-003)
        vref=draw(st.sampled_from((1.0, 2.5, 3.3, 5.0))
                  | st.floats(0.0, 50.0, exclude_min=True, allow_nan=False, allow_subnormal=False)),
        flags=draw(st.integers(0, 3)),
        antenna=draw(st.integers(0, 2)), samples=tuple(draw(st.lists(code, max_size=max_samples))),
        threshold=draw(code) if version == 4 else None)


def _set(sig: SignalMsgpack, i: int, value: Any) -> SignalMsgpack:
    return SignalMsgpack(sig.version, sig.fields[:i] + (value,) + sig.fields[i + 1:])


@st.composite
def _broken(draw: st.DrawFn, sig: SignalV2 | SignalMsgpack) -> SignalV2 | SignalMsgpack:
    """One value rule broken (the rule ids are in the labels, for reading failures)."""
    if isinstance(sig, SignalV2):
        choice = draw(st.sampled_from(("TIME-001", "TIME-002", "COORD-001", "COORD-002", "RATE-001", "SAMPLES-002")
                                      + (("FLAGS-001",) if sig.version == 2 else ())))
        return {
            "TIME-001": lambda: replace(sig, time=draw(st.sampled_from((b"20250230120000", b"2025o624100658",
                                                                       b"20251301000000", b"20250101240000")))),
            "TIME-002": lambda: replace(sig, microseconds=draw(st.integers(1_000_000, 0xFFFFFFFF))),
            "COORD-001": lambda: replace(sig, longitude=Fixed(sig.longitude.int_part,
                                                              draw(st.integers(1_000_000, 0xFFFFFFFF)))),
            "COORD-002": lambda: replace(sig, latitude=Fixed(draw(st.integers(91, 0xFFFF)), 0)),
            "RATE-001": lambda: replace(sig, sample_rate=0),
            "SAMPLES-002": lambda: replace(sig, samples=sig.samples + (draw(st.integers(-0x8000, -1)),)),
            "FLAGS-001": lambda: replace(sig, flags=draw(st.integers(4, 0xFF))),
        }[choice]()
    choice = draw(st.sampled_from(("TIME-002", "ANTENNA-001", "ADC-001", "ADC-002", "ADC-003", "RATE-001",
                                   "FIELDS-001", "FLAGS-001", "SAMPLES-004")))
    return {
        "TIME-002": lambda: _set(sig, 1, draw(st.integers(1_000_000, 2**32))),
        "ANTENNA-001": lambda: _set(sig, 10, draw(st.integers(3, 255))),
        "ADC-001": lambda: _set(sig, 7, draw(st.sampled_from((0, 17, 64)))),
        "ADC-002": lambda: _set(sig, 6, draw(st.sampled_from((0, 0x10000)))),
        "ADC-003": lambda: _set(sig, 8, draw(st.sampled_from((0.0, -3.3, 51.0, float("inf"), float("nan"))))),
        "RATE-001": lambda: _set(sig, 5, 0),
        "FIELDS-001": lambda: _set(sig, draw(st.integers(0, len(sig.fields) - 1)), draw(st.sampled_from(
            (None, True, b"\x00", (1, 2), -1, "x")))),
        "FLAGS-001": lambda: _set(sig, 9, draw(st.integers(4, 255))),
        "SAMPLES-004": lambda: _set(sig, 11, sig.fields[11] + (draw(st.integers(0x8000, 0xFFFF)),)),
    }[choice]()


@st.composite
def raskat_signals(draw: st.DrawFn, version: int | None = None, *, max_samples: int = 64,
                   valid: bool = True) -> SignalV2 | SignalMsgpack:
    if version is not None and version not in (1, 2, 3, 4):
        raise InvalidArgument(f"version={version!r} must be 1, 2, 3, 4 or None")
    if not isinstance(max_samples, int) or isinstance(max_samples, bool) or max_samples < 0:
        raise InvalidArgument(f"max_samples={max_samples!r} must be a non-negative int")
    if not isinstance(valid, bool):
        raise InvalidArgument(f"valid={valid!r} must be a bool")
    v = draw(raskat_versions()) if version is None else version
    signals: SearchStrategy[SignalV2 | SignalMsgpack] = _v2(v, max_samples) if v <= 2 else _v3(v, max_samples)
    sig = draw(signals)
    return sig if valid else draw(_broken(sig))


@st.composite
def raskat_files(draw: st.DrawFn, version: int | None = None, *, container: str | None = None, max_samples: int = 64,
                 valid: bool = True) -> tuple[bytes, int, str]:
    if container is not None and container not in _CONTAINERS:
        raise InvalidArgument(f"container={container!r} must be 'raw', 'tar.xz' or None")
    sig = draw(raskat_signals(version, max_samples=max_samples, valid=valid))
    c = draw(st.sampled_from(_CONTAINERS)) if container is None else container
    return encode(sig, container=c), sig.version, c


_COORDINATES = ("longitude", "latitude", "altitude")


@st.composite
def raskat_cases(draw: Any, version: int | None = None, *, container: str | None = None, max_samples: int = 64,
                 negative_coordinates: bool = False) -> dict[str, Any]:
    """The case of a valid signal from ``raskat_signals``. ``negative_coordinates``: half of the v1/v2 cases
    hold one negative coordinate (the western or southern hemisphere, or below sea level), drawn as a whole
    number of millionths, which v1/v2 cannot store; ``from_case`` refuses such a case with EncodeError."""
    if container is not None and container not in _CONTAINERS:
        raise InvalidArgument(f"container={container!r} must be 'raw', 'tar.xz' or None")
    if not isinstance(negative_coordinates, bool):
        raise InvalidArgument(f"negative_coordinates={negative_coordinates!r} must be a bool")
    sig = draw(raskat_signals(version, max_samples=max_samples))
    c = draw(st.sampled_from(_CONTAINERS)) if container is None else container
    case = to_case(SignalFile(c, sig, None if c == "raw" else _member(sig)), canonical=True)
    if negative_coordinates and isinstance(sig, SignalV2):
        which = draw(st.sampled_from((None, None, None) + _COORDINATES))
        if which is not None:
            millionths = draw(st.integers(1, 65_536 * 1_000_000 - 1))
            case[which] = -(millionths // 1_000_000 + millionths % 1_000_000 / 1_000_000)
    return case


def _member(sig: SignalV2 | SignalMsgpack) -> str:
    from recspec.reference.raskat_signal import member_name

    return member_name(sig)
