"""The bounded memo (recspec/_memo.py): it never holds more than its bound; keeping one answer past
the bound forgets every answer kept before it and keeps the new one; below the bound nothing is
forgotten; look-ups are a dict's."""

from __future__ import annotations

from recspec._memo import BoundedMemo


def test_the_memo_keeps_up_to_its_bound_and_then_starts_again() -> None:
    memo: BoundedMemo[int, str] = BoundedMemo(3)
    assert memo.keep(1, "one") == "one"
    assert memo.keep(2, "two") == "two"
    assert not memo.full()
    memo.keep(3, "three")
    assert dict(memo) == {1: "one", 2: "two", 3: "three"}  # the bound reached: nothing forgotten yet
    assert memo.full()
    assert memo.keep(4, "four") == "four"
    assert dict(memo) == {4: "four"}  # one past the bound: every earlier answer forgotten at once
    assert not memo.full() and memo.get(1) is None and 4 in memo and memo[4] == "four"


def test_the_memo_never_holds_more_than_its_bound() -> None:
    for bound in (1, 2, 7):
        memo: BoundedMemo[int, int] = BoundedMemo(bound)
        for n in range(5 * bound + 3):
            memo.keep(n % (bound + 2), n)  # keys repeat, and there are more of them than the bound
            assert 1 <= len(memo) <= bound
            assert memo[n % (bound + 2)] == n  # the answer just kept is always there
