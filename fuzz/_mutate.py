"""The structure-aware mutator every format shares; a format supplies only its structure.

:func:`mutate` has atheris' ``custom_mutator`` signature once a format binds
its parts: ``parse`` turns the input into the format's model (``None`` when it
does not parse), ``mutate_structure`` edits that model and encodes it again,
``tokens`` are the dictionary's values for :func:`byte_mutate`. The outer logic
is the same for every format:

* the choices depend only on ``seed`` (``random.Random(seed)``);
* with probability ``1 - rate`` (:data:`BYTE_MUTATION_RATE` by default) the
  structure is mutated; the result is used when it is non-empty and fits in
  ``max_size``;
* otherwise, or when the input does not parse, or the edit fails, bytes are
  mutated: by ``byte_mutate`` (a campaign passes ``atheris.Mutate``, libFuzzer's,
  which uses the dictionary and the compare traces), else by :func:`byte_mutate`,
  a small deterministic one (tests, or no campaign). ``inside`` lets a format
  whose inputs are containers byte-mutate the payload and wrap it again;
* nothing raises: an edit that fails is dropped.

A mutator that decodes and encodes with the code under test pays for its
coverage instrumentation in every execution of a campaign, though what it runs
is not what is being tested. :func:`uninstrumented_copy` gives it its own copy of
such a module, executed again from its source outside atheris' import hook.
"""

from __future__ import annotations

import importlib.util
import random
import sys
from collections.abc import Callable, Sequence
from types import ModuleType
from typing import Any, TypeVar

__all__ = ["BYTE_MUTATION_RATE", "INSIDE_RATE", "ByteMutator", "byte_mutate", "mutate", "uninstrumented_copy"]

#: How often :func:`mutate` mutates bytes even though the input parses.
BYTE_MUTATION_RATE = 0.2
#: How often a byte mutation goes to the payload ``inside`` finds rather than the whole input.
INSIDE_RATE = 0.7

#: ``(data, max_size) -> bytes``: atheris.Mutate's signature.
ByteMutator = Callable[[bytes, int], bytes]

_P = TypeVar("_P")

_BYTES = (0, 1, 2, 0x7F, 0x80, 0xC1, 0xFF)
_WORDS = (0, 1, 5, 0x7F, 0x80, 0xFF, 0x100, 0x7FFF, 0x8000, 0xFFFF, 0x10000, 0x7FFFFFFF, 0x80000000,
          0xFFFFFFFE, 0xFFFFFFFF)


def byte_mutate(rng: random.Random, data: bytes, max_size: int, tokens: Sequence[bytes] = ()) -> bytes:
    """One to four byte edits (flip a bit, set a byte, insert random bytes or a
    dictionary token, delete or copy a run, write a little-endian 16/32-bit word);
    at least one byte, at most ``max_size``."""
    buf = bytearray(data[:max_size]) or bytearray(b"\x00")
    for _ in range(rng.choice((1, 1, 2, 4))):
        op = rng.randrange(7)
        pos = rng.randrange(len(buf)) if buf else 0
        if op == 0 and buf:
            buf[pos] ^= 1 << rng.randrange(8)
        elif op == 1 and buf:
            buf[pos] = rng.choice((*_BYTES, rng.randrange(256)))
        elif op == 2:
            buf[pos:pos] = bytes(rng.randrange(256) for _ in range(rng.randint(1, 8)))
        elif op == 3 and len(buf) > 1:
            del buf[pos:pos + rng.randint(1, min(64, len(buf) - 1))]
        elif op == 4 and buf:
            n = rng.choice((2, 4))
            buf[pos:pos + n] = (rng.choice(_WORDS) & ((1 << 8 * n) - 1)).to_bytes(n, "little")
        elif op == 5 and tokens:
            buf[pos:pos] = rng.choice(tokens)
        elif op == 6 and buf:
            end = min(len(buf), pos + rng.randint(1, 64))
            at = rng.randrange(len(buf) + 1)
            buf[at:at] = buf[pos:end]
    return bytes(buf[:max_size]) or b"\x00"


_own_bytes = byte_mutate  # ``mutate``'s parameter of the same name hides it there


def mutate(data: bytes, max_size: int, seed: int, *, parse: Callable[[bytes], _P | None],
           mutate_structure: Callable[[random.Random, _P, int], bytes | None], tokens: Sequence[bytes] = (),
           byte_mutate: ByteMutator | None = None, rate: float = BYTE_MUTATION_RATE,
           inside: Callable[[bytes], tuple[bytes, Callable[[bytes], bytes]] | None] | None = None) -> bytes:
    """At most ``max_size`` bytes made from ``data``; the same for the same ``seed`` (see the module docstring).

    ``inside(data)``: ``(payload, wrap)`` when ``data`` is a container whose
    payload should get the byte mutations (``wrap`` makes the container again),
    else ``None``.
    """
    rng = random.Random(seed)
    data = bytes(data)
    if rng.random() >= rate:
        try:
            parsed = parse(data)
            out = mutate_structure(rng, parsed, max_size) if parsed is not None else None
        except Exception:  # a mutator must not crash the campaign; byte mutation instead
            out = None
        if out and len(out) <= max_size:
            return out
    bm: ByteMutator = byte_mutate if byte_mutate is not None else (lambda d, n: _own_bytes(rng, d, n, tokens))
    if inside is not None:
        try:
            found = inside(data)
            if found is not None and rng.random() < INSIDE_RATE:
                payload, wrap = found
                out = wrap(bm(payload, max_size))
                if len(out) <= max_size:
                    return out
        except Exception:  # the container does not open: mutate it as bytes
            pass
    return bm(data, max_size)


def uninstrumented_copy(module: ModuleType) -> Any:
    """A second copy of ``module`` (a module or a package) for a mutator: its source executed
    again as the top-level module ``_uninstrumented_<name with dots as underscores>``, through
    a plain loader. Its name is outside every instrumented package, so atheris' import hook
    (``instrument_imports``) passes it over, and a package's relative imports load copies of
    its modules under that name too; its absolute imports get the shared modules.

    The copy's classes are not the module's (``isinstance`` across the two fails), so a
    mutator uses the copy for everything it builds and parses. Without a source file (a
    frozen build) it is ``module`` itself: the same behaviour, instrumented.
    """
    name = "_uninstrumented_" + module.__name__.replace(".", "_")
    if name in sys.modules:
        return sys.modules[name]
    path = getattr(module, "__file__", None)
    package = getattr(module, "__path__", None)
    spec = (importlib.util.spec_from_file_location(name, path, submodule_search_locations=
                                                   list(package) if package is not None else None)
            if path else None)
    if spec is None or spec.loader is None:
        return module
    copy = importlib.util.module_from_spec(spec)
    sys.modules[name] = copy  # dataclasses and relative imports look the module up while it runs
    try:
        spec.loader.exec_module(copy)
    except (OSError, ImportError):
        for loaded in [n for n in sys.modules if n == name or n.startswith(name + ".")]:
            del sys.modules[loaded]
        return module
    return copy
