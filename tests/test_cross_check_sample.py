"""The default cross-check of a long file reads a sample (``conformance/_sample.py``): deterministic, spread
over the file, always the header and any tail the framing refuses, the first and last unit or the last only
when the hash chose none; its offsets are the original file's; ``full`` reads everything. Here the sampler
itself and what every sampled format shares (its stated stride, sampled and full readings agreeing on its
corpus); each format's own sampling in tests/test_<package>_cross_check_sample.py."""

from __future__ import annotations

import importlib
import importlib.util
import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

import recspec
from recspec.conformance import _sample
from recspec.formats import FORMATS, FormatInfo

CORPUS = Path(__file__).resolve().parents[1] / "corpus"


def test_the_choice_is_deterministic_and_about_one_in_stride() -> None:
    chosen = [i for i in range(64_000) if _sample.is_chosen(i, 32)]
    assert chosen == [i for i in range(64_000) if _sample.is_chosen(i, 32)]
    assert 1_800 < len(chosen) < 2_200
    # not periodic: every residue modulo a frame's length gets picked
    for period in (8, 14, 16, 32):
        assert {i % period for i in chosen} == set(range(period))
    assert all(_sample.is_chosen(i, 1) for i in range(100))


def _units(n: int, size: int) -> tuple[bytes, list[tuple[int, int]]]:
    head = b"H" * 10
    body = b"".join(bytes([i % 256]) * size for i in range(n))
    return head + body, [(10 + i * size, 10 + (i + 1) * size) for i in range(n)]


def test_cut_keeps_the_header_first_last_and_maps_offsets_back() -> None:
    data, spans = _units(1000, 7)
    s = _sample.cut(data, 10, iter(spans), 32)
    assert s.units == 1000 and 2 < s.chosen < 100 and not s.full
    assert s.data[:10] == b"H" * 10
    assert s.data[10:17] == data[10:17]  # the first unit
    assert s.data[-7:] == data[-7:]  # the last unit
    # every byte of the sample is the original byte its offset maps to
    assert all(s.data[i] == data[s.original_offset(i)] for i in range(len(s.data)))


def test_a_tail_the_framing_refuses_is_always_in_the_sample() -> None:
    data, spans = _units(100, 5)
    data += b"\x01\x02\x03"  # a cut unit
    spans.append((len(data) - 3, len(data) + 1))
    s = _sample.cut(data, 10, iter(spans), 1000)
    assert s.data.endswith(b"\x01\x02\x03")
    assert s.original_offset(len(s.data) - 3) == len(data) - 3


@given(n=st.integers(1, 600), stride=st.sampled_from((1, 2, 7, 256, 1024)), cut_tail=st.booleans(),
       trailing=st.binary(max_size=3))
def test_without_ends_the_sample_is_the_hash_s_choice_or_else_the_last_unit(
        n: int, stride: int, cut_tail: bool, trailing: bytes) -> None:
    """``ends=False`` (NanoVer): the units the hash takes counting from 1, a tail the framing refuses
    always, and the last unit when neither gave one; the count of units and every offset stay right."""
    data, spans = _units(n, 3)
    if cut_tail:
        data += b"\xfe\xfd"
        spans.append((len(data) - 2, len(data) + 1))
    elif trailing:
        data += trailing  # bytes after the last unit the framing saw (no tail unit)
    s = _sample.cut(data, 10, iter(spans), stride, ends=False)
    whole = spans[:-1] if cut_tail else spans
    expect = [i for i in range(len(whole)) if _sample.is_chosen(i + 1, stride)]
    if cut_tail:
        expect.append(len(whole))  # the tail is the file's last unit: the sample is never empty
    elif not expect:
        expect = [len(whole) - 1]
    pieces = [data[a:b] if b <= len(data) else data[a:] for a, b in (spans[i] for i in expect)]
    rest = b"" if cut_tail else data[spans[-1][1]:]
    assert s.data == data[:10] + b"".join(pieces) + rest
    assert (s.units, s.chosen) == (len(spans), len(expect))
    assert all(s.data[i] == data[s.original_offset(i)] for i in range(len(s.data)))


def _sampled_formats() -> list[tuple[FormatInfo, int]]:
    """Every registered format whose cross-check samples a long file's units, with its stride (``SAMPLE_STRIDE``
    of the plugin's ``_xcheck`` module)."""
    out = []
    for info in FORMATS.values():
        if importlib.util.find_spec(f"{info.module}._xcheck") is None:
            continue
        stride = getattr(importlib.import_module(f"{info.module}._xcheck"), "SAMPLE_STRIDE", None)
        if stride is not None:
            out.append((info, stride))
    return out


@pytest.mark.parametrize(("info", "stride"), _sampled_formats(), ids=lambda x: getattr(x, "id", str(x)))
def test_the_stated_sample_is_the_stride_the_code_uses(info: FormatInfo, stride: int) -> None:
    # The registry's note (printed by `recspec check --help` on the format's line of its cross-check paragraph
    # and kept in reports' evidence texts) must say the stride SAMPLE_STRIDE really is: "about 1 <unit> in N".
    from recspec.cli import _cross_check_section

    assert re.search(rf"about 1 \w+ in {stride:,}\b", info.cross_check_note), info.cross_check_note
    (line,) = [x for x in _cross_check_section().splitlines() if x.split()[:1] == [info.id]]
    assert f" in {stride:,}" in line


@pytest.mark.parametrize("fmt", [info.id for info, _ in _sampled_formats()])
def test_sampled_and_full_cross_checks_agree_on_every_corpus_file(fmt: str) -> None:
    """The sample never finds what the full reading does not (and on the corpus both agree)."""
    for path in sorted((CORPUS / fmt).rglob("*")):
        if not path.is_file() or path.name == "manifest.json":
            continue
        sampled = recspec.check(path, format=fmt)
        full = recspec.check(path, format=fmt, cross_check="full")
        assert sampled.verdict == full.verdict, path
        assert [f.rule for f in sampled.findings] == [f.rule for f in full.findings], path
        evidence = sampled.evidence.get("cross_check")
        if "cross_check" not in full.evidence:  # a header no variant reads: nothing to cross-check
            assert evidence is None, path
        else:
            assert evidence is not None and evidence.startswith("kaitai: agrees"), (path, evidence)


def test_chosen_indices_are_the_ones_is_chosen_takes() -> None:
    for stride in (0, 1, 2, 3, 32, 1024):
        for lo, hi in ((0, 0), (0, 5_000), (4_093, 9_000), (70_000, 70_001)):
            assert _sample.chosen_indices(lo, hi, stride) == [i for i in range(lo, hi) if _sample.is_chosen(i, stride)]


@pytest.mark.parametrize("stride", (4, 5, 7, 16, 64, 128, 256, 512, 1024, 4096))
def test_chosen_indices_stepped_by_the_three_gaps_are_every_index_is_chosen_takes(stride: int) -> None:
    """From a stride of ``_STEP_STRIDE`` on, the chosen indices are stepped through by the three gaps of the
    hash's rotation: held to ``is_chosen`` of every index (a C scan) from 0 on, at the hash's wrap at 2**32,
    at random places, for ranges read one after the other (resumed) and out of order."""
    import random

    _sample._STEPS.clear()
    assert _sample.chosen_indices(0, 300_000, stride) == _sample._scan(0, 300_000, stride)
    rng = random.Random(stride)
    ranges = [(2**32 - 50_000, 2**32 + 50_000), (2**31, 2**31 + 20_000)]
    ranges += [(lo, lo + rng.randrange(0, 3 * stride + 2)) for lo in rng.sample(range(1 << 33), 200)]
    for lo, hi in ranges:
        assert _sample.chosen_indices(lo, hi, stride) == _sample._scan(lo, hi, stride), (lo, hi)
    got: list[int] = []
    lo = 10_000
    while lo < 200_000:  # windows one after the other, as a file's units are framed
        hi = lo + rng.randrange(1, 9_000)
        got += _sample.chosen_indices(lo, hi, stride)
        lo = hi + rng.choice((0, 0, 0, 1, stride, 20 * stride))
        if lo != hi:
            got += _sample._scan(hi, lo, stride)  # the indices skipped, as the scan takes them
    assert got == _sample._scan(10_000, lo, stride)

