"""Reading helpers the reference codecs share."""

from __future__ import annotations

from collections.abc import Callable

__all__ = ["read_more"]


def read_more(read: Callable[[int], bytes], got: bytes, n: int) -> bytes:
    """``got`` completed to ``n`` bytes by ``read``, or shorter where the file ends: a raw stream or
    a pipe may return fewer bytes than asked for before its end, and only an empty read means the
    end. The parts are joined once (one part is not copied), so a block filled by many short reads
    is not copied again at each of them."""
    parts = [got] if got else []
    have = len(got)
    while have < n:
        more = read(n - have)
        if not more:
            break
        parts.append(more)
        have += len(more)
    return parts[0] if len(parts) == 1 else b"".join(parts)
