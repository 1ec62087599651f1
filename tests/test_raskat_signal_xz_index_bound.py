"""The Kaitai reader's xz process (recspec/_ksy_process/recspec_xz.py) refuses a stream whose index declares
more than its limit before inflating any of it: an xz bomb in a folder of small files cost the limit's worth
of decompression a second time in the default cross-check (RSIG-LIMIT-001.sig: about 25 ms a copy)."""

from __future__ import annotations

import lzma
from pathlib import Path

import pytest

from recspec._ksy_process import recspec_xz
from recspec._ksy_process.recspec_xz import RecspecXz, XzRejected, declared_size
from recspec.pipeline import check_file

BOMB = Path(__file__).resolve().parents[1] / "corpus" / "raskat-signal" / "invalid" / "RSIG-LIMIT-001.sig"


@pytest.mark.parametrize("n", [0, 1, 1000, 200_000])
def test_the_declared_size_is_the_bytes_compressed(n: int) -> None:
    assert declared_size(lzma.compress(bytes(range(256)) * (n // 256) + b"x" * (n % 256))) == n


def test_a_stream_within_the_limit_is_still_inflated_and_one_past_it_is_refused() -> None:
    data = b"signal" * 500  # 3,000 bytes
    stream = lzma.compress(data)
    assert RecspecXz(3000).decode(stream) == data
    with pytest.raises(XzRejected) as e:
        RecspecXz(2999).decode(stream)
    assert e.value.kind == "limit"


def test_what_has_no_readable_footer_is_left_to_the_decoder() -> None:
    stream = lzma.compress(b"abc" * 100)
    assert declared_size(stream[:-1]) is None  # the footer magic "YZ" is cut
    assert declared_size(stream + b"\0\0\0\0") is None  # stream padding: not a footer at the end
    assert declared_size(b"YZ") is None
    with pytest.raises(XzRejected) as e:
        RecspecXz(10**6).decode(stream[:-1])
    assert e.value.kind == "truncated"


def test_the_corpus_bomb_is_refused_without_inflating_it(monkeypatch: pytest.MonkeyPatch) -> None:
    data = BOMB.read_bytes()
    assert declared_size(data) is not None and declared_size(data) > 8 * 1024 * 1024  # MAX_UNPACKED, 8 MiB

    class NoDecompressor:
        def __init__(self, *args: object, **kwargs: object) -> None:
            raise AssertionError("the bomb was inflated")

    monkeypatch.setattr(recspec_xz.lzma, "LZMADecompressor", NoDecompressor)
    with pytest.raises(XzRejected) as e:
        RecspecXz(8 * 1024 * 1024).decode(data)
    assert e.value.kind == "limit"


def test_the_bomb_still_cross_checks_as_agreeing() -> None:
    fr = check_file(BOMB, fmt=None, variant=None, profile=None, cross_check=True)
    assert fr is not None
    assert [f.rule for f in fr.findings] == ["RSIG-LIMIT-001"]
    assert fr.evidence["cross_check"] == "kaitai: agrees"
