"""conformance/_kaitai.py's KnownReading: a generated class's members pointed at hand-written ones, and the
generated ones put back for a ``with`` block, whatever happens in it.

The class here stands for a generated one (a ``_read`` and a lazy property, as the compiler writes them); what
each reading returns is written out, so every check says which member the class holds."""

from __future__ import annotations

from typing import Any

import pytest

from recspec.conformance._kaitai import KnownReading


def _make() -> tuple[type, KnownReading]:
    class Parsed:  # what a generated class holds: a _read and a property
        def _read(self) -> str:
            return "generated read"

        @property
        def words(self) -> str:
            return "generated words"

    def known_read(self: Any) -> str:
        return "known read"

    known_words = property(lambda self: "known words")
    return Parsed, KnownReading((Parsed, "_read", known_read), (Parsed, "words", known_words))


def _reading(cls: type) -> tuple[str, str]:
    obj = cls()
    return obj._read(), obj.words


def test_install_points_every_member_at_its_known_reading() -> None:
    cls, known = _make()
    assert _reading(cls) == ("generated read", "generated words")
    known.install()
    assert _reading(cls) == ("known read", "known words")
    known.install()  # twice is once
    assert _reading(cls) == ("known read", "known words")
    assert type(vars(cls)["words"]) is property  # a property stays one, not the value it gave


def test_generated_puts_the_compilers_members_back_inside_and_the_known_ones_after() -> None:
    cls, known = _make()
    generated_read, generated_words = vars(cls)["_read"], vars(cls)["words"]
    known.install()
    with known.generated():
        assert _reading(cls) == ("generated read", "generated words")
        assert vars(cls)["_read"] is generated_read and vars(cls)["words"] is generated_words
    assert _reading(cls) == ("known read", "known words")


def test_generated_restores_on_an_exception() -> None:
    cls, known = _make()
    known.install()
    with pytest.raises(ZeroDivisionError), known.generated():
        assert _reading(cls) == ("generated read", "generated words")
        _ = 1 // 0
    assert _reading(cls) == ("known read", "known words")


def test_nested_blocks_leave_the_outer_ones_reading() -> None:
    cls, known = _make()
    known.install()
    with known.generated():
        with known.generated():
            assert _reading(cls) == ("generated read", "generated words")
        assert _reading(cls) == ("generated read", "generated words")  # the outer block's, not the known one
        with pytest.raises(KeyError), known.generated():
            raise KeyError("inner")
        assert _reading(cls) == ("generated read", "generated words")
    assert _reading(cls) == ("known read", "known words")


def test_generated_before_install_leaves_the_generated_reading() -> None:
    cls, known = _make()
    with known.generated():
        assert _reading(cls) == ("generated read", "generated words")
    assert _reading(cls) == ("generated read", "generated words")  # what was there on entering


def test_a_member_the_class_does_not_define_itself_is_refused() -> None:
    # an inherited member would be replaced on the subclass and never put back as it was: a KeyError at once
    cls, _ = _make()
    sub = type("Sub", (cls,), {})
    with pytest.raises(KeyError):
        KnownReading((sub, "_read", lambda self: "known read"))
