"""The cross-check's hash sample (conformance/_sample.py), held to its definition: index ``i`` is chosen
for a stride ``s`` when ``(i * 0x9E3779B1) mod 2**32 < 2**32 // s`` (Knuth's multiplicative hash; the
constant is ``2**32 / phi``), computed here with Python's integers, at the indices where the hash lands
exactly on the width or one below it. Written against the survivors of tools/mutate.py's sample (seed 7)."""

from __future__ import annotations

import pytest

from recspec.conformance._sample import chosen_indices, is_chosen

GOLDEN = 0x9E3779B1


def _index_with_hash(h: int) -> int:
    """The index whose hash is ``h`` (the multiplier is odd, so it has an inverse mod 2**32)."""
    return h * pow(GOLDEN, -1, 1 << 32) % (1 << 32)


@pytest.mark.parametrize("stride", [2, 3, 5, 7, 16, 33])
@pytest.mark.parametrize("delta", [-1, 0, 1])
def test_an_index_whose_hash_is_at_the_width_is_chosen_only_below_it(stride: int, delta: int) -> None:
    width = (1 << 32) // stride
    i = _index_with_hash(width + delta)
    assert (i * GOLDEN) % (1 << 32) == width + delta
    want = delta < 0  # chosen when the hash is below the width
    assert is_chosen(i, stride) is want
    assert chosen_indices(i, i + 1, stride) == ([i] if want else [])
    assert chosen_indices(i - 2, i + 3, stride) == [j for j in range(i - 2, i + 3)
                                                    if (j * GOLDEN) % (1 << 32) < width]
