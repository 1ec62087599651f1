"""No shared module and no shared test names a format: everything a format brings is a member of its plugin
(``recspec.formats.FormatModule``) or a fact of its registry entry (``FormatInfo``), so a new format needs no
edit to shared code or to the shared tests. This test names the file and line that breaks it.

What counts as naming a format: a registered format's id or package name (``raskat-signal``,
``raskat_signal``) as code uses it, that is

* a Python name (``import ...carla``, ``nanover_cases``'s module path), or
* a string literal without a space whose text holds the name as a word: a key or a value a table or a
  comparison dispatches on (``"nanover"``), a module path (``"recspec.conformance.carla._strategies"``), a
  file path (``"corpus/carla/valid/0.9.15.log"``).

Prose is not code: comments, docstrings and strings with spaces (help text, messages: ``recspec rules carla``
as an example in ``--help``) may name a format as an example. A table of formats written out in prose (a help
text listing each format's facts) is still a hand-kept list; the registry's ``cross_check_note`` and the like
carry such facts instead.

Shared modules: every module of ``recspec/``, the top level of ``conformance/``, ``reference/`` and
``fuzz/`` (beside each format's own package or harness module and its parts, ``[_]<package>_<part>.py``)
and ``fuzz/oss-fuzz/``, except the built-in registry entries (``recspec/_builtin_formats.py``) and the
generated parsers and messages (``recspec/_ksy``, ``recspec/_ksy_fast``, ``recspec/_pb``). Shared tests:
every ``tests/*.py`` whose file name names no format (a test named for a format, ``test_carla_cli.py`` or
``test_fuzz_raskat_signal.py``, is that format's own);
a file name names a format when it holds its package name or one of its aliases (``raskat``, ``matrix``).
``ALLOWED`` lists the shared tests that still take a particular format's file as their example, each with why.
"""

from __future__ import annotations

import io
import re
import tokenize
from collections.abc import Iterator
from pathlib import Path

from recspec.formats import FORMATS

ROOT = Path(__file__).resolve().parents[1]

#: The names that name a format in code: every id and package name.
NAMES = sorted({n for info in FORMATS.values() for n in (info.id, info.package)}, key=len, reverse=True)
_NAMED = re.compile(r"(?<![\w-])(" + "|".join(re.escape(n) for n in NAMES) + r")(?![\w-])")
#: A file name that names a format: its package name or an alias, as a word of the name (``_`` separated).
_FILE_WORDS = {w for info in FORMATS.values() for a in (info.package, *info.aliases) for w in [a.replace("-", "_")]}

_FSTRING_MIDDLE = getattr(tokenize, "FSTRING_MIDDLE", -1)

GENERATED = ("recspec/_ksy/", "recspec/_ksy_fast/", "recspec/_pb/")
REGISTRY = "recspec/_builtin_formats.py"

#: Shared tests that still use one format's files or cases as the example of a behaviour every format has
#: (file -> why). They need no edit for a new format (they do not iterate the registry); taking each example
#: from the plugins' ``EXAMPLES`` instead is left for when a behaviour is tested per format.
ALLOWED: dict[str, str] = {
    # a behaviour every format shares, shown on particular formats' files, testees or harnesses
    "test_ci_recipes.py": "runs the CI recipes as written: the workflows install one pinned recspec commit "
                          "(docs/ci/*.yml) and check a writer's repository of named corpus files that this commit "
                          "knows; a file drawn from this registry (the toy, a new plugin) would be a format the "
                          "pinned commit cannot check",
    "test_kaitai_memory_stream.py": "MemoryStream replaces the runtime's stream under the built-in formats' generated "
                                    "parsers (recspec/_ksy_fast), so the equivalence with the stock stream is shown "
                                    "on each of those parsers with its own corpus files; a plugin's cross-check "
                                    "chooses its own stream",
    "test_seed_coverage.py": "tools/seed_coverage.py audits each built-in format's corpus by its own items (a "
                             "CARLA release's packet kinds, NanoVer's standard keys, raSkat's range edges), and the "
                             "edge seeds are shown one byte from a rule of the format whose seed they are",
    "test_known_readings_inline.py": "the known readings (the Kaitai cross-check's hand-made objects in place of "
                                     "the generated reading's) are each built-in format's own modules, held here to "
                                     "one property they share against each one's generated classes and corpus file; "
                                     "a plugin's cross-check has no known reading unless it writes one",
    "test_reports.py": "the golden reports (tests/golden/) are byte for byte the reports of these named CARLA files "
                       "(corpus/ and ../shared/real/), so another format's file cannot stand in; the content tests "
                       "check the README's worked example (CARLA-FRAME-004 at byte 1990, with its clause in the "
                       "CARLA format page)",
}


def _format_of_file(name: str) -> bool:
    stem = name.removesuffix(".py")
    return any(f"_{w}_" in f"_{stem}_" or stem.startswith(w) for w in _FILE_WORDS)


def _format_module(stem: str, packages: set[str]) -> bool:
    """A top-level module that is one format's own: named for it (``carla.py``), or a part of it named
    ``[_]<package>_<part>`` (``_carla_mutate.py``, the harness's mutator)."""
    bare = stem.lstrip("_")
    return any(bare == p or bare.startswith(p + "_") for p in packages)


def shared_modules() -> list[Path]:
    out = [p for p in (ROOT / "recspec").rglob("*.py")
           if not any(p.relative_to(ROOT).as_posix().startswith(g) for g in GENERATED)
           and p.relative_to(ROOT).as_posix() != REGISTRY]
    packages = {info.package for info in FORMATS.values()}
    for top in ("conformance", "reference", "fuzz"):
        out += [p for p in (ROOT / top).glob("*.py") if not _format_module(p.stem, packages)]
    out += sorted((ROOT / "fuzz" / "oss-fuzz").glob("*.py"))
    return sorted(out)


def shared_tests() -> list[Path]:
    return sorted(p for p in (ROOT / "tests").glob("*.py") if not _format_of_file(p.name))


def _docstring_starts(tokens: list[tokenize.TokenInfo]) -> set[tuple[int, int]]:
    """Where the docstrings are: a string that is a statement on its own (after a newline or an indent)."""
    out = set()
    prev = tokenize.NEWLINE
    for tok in tokens:
        if tok.type == tokenize.STRING and prev in (tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT,
                                                    tokenize.ENCODING, tokenize.NL):
            out.add(tok.start)
        if tok.type not in (tokenize.COMMENT, tokenize.NL):
            prev = tok.type
    return out


def namings(path: Path) -> Iterator[tuple[int, str]]:
    """(line, what) for every place the file's code names a format."""
    text = path.read_text(encoding="utf-8")
    tokens = list(tokenize.generate_tokens(io.StringIO(text).readline))
    docstrings = _docstring_starts(tokens)
    for tok in tokens:
        if tok.type == tokenize.NAME and tok.string in NAMES:
            yield tok.start[0], tok.string
        elif tok.type == tokenize.STRING and tok.start not in docstrings:
            body = re.sub(r"^[rbuRBUfF]*('''|\"\"\"|'|\")", "", tok.string)
            if " " not in body and "\\n" not in body and _NAMED.search(body):
                yield tok.start[0], tok.string
        elif tok.type == _FSTRING_MIDDLE and " " not in tok.string and _NAMED.search(tok.string):
            yield tok.start[0], tok.string  # Python 3.12 and later tokenize an f-string's text apart


def test_the_rule_finds_what_it_should(tmp_path: Path) -> None:
    """The scanner itself: a dispatch key, an import and a path are found; prose is not."""
    info = next(iter(FORMATS.values()))
    sample = tmp_path / "probe.py"
    code = (f'"""Checks {info.id} files."""\n'
            f"import recspec.conformance.{info.package}  # the {info.id} plugin\n"
            f'TABLE = {{"{info.id}": 1}}\n'
            f'HELP = "example: recspec rules {info.id}"\n'
            f'PATH = "corpus/{info.id}/valid/x"\n')
    sample.write_text(code)
    assert [line for line, _ in namings(sample)] == [2, 3, 5]


def test_no_shared_module_names_a_format() -> None:
    found = [f"{p.relative_to(ROOT)}:{line}: {what}" for p in shared_modules() for line, what in namings(p)]
    assert not found, "shared modules that name a format (make it a plugin member or a FormatInfo fact):\n" + \
        "\n".join(found)


def test_no_shared_test_names_a_format() -> None:
    found = [f"{p.relative_to(ROOT)}:{line}: {what}" for p in shared_tests()
             if p.name not in ALLOWED for line, what in namings(p)]
    assert not found, ("shared tests that name a format (take the example from the plugin's EXAMPLES, or name "
                       "the test file for the format):\n" + "\n".join(found))


def test_every_allowed_test_still_needs_it() -> None:
    stale = [name for name in ALLOWED if not (ROOT / "tests" / name).is_file()
             or not any(True for _ in namings(ROOT / "tests" / name))]
    assert not stale, f"ALLOWED lists tests that no longer name a format: {stale}"
