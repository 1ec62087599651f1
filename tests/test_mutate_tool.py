"""tools/mutate.py: the mutants it makes from a known source, spliced in place, and a
mutant run through the import hook (killed when a test fails, survived when none does)."""

from __future__ import annotations

import textwrap
from pathlib import Path

from helpers import load_script
from recspec.formats import FORMATS

ROOT = Path(__file__).resolve().parent.parent
mutate = load_script("tools/mutate.py", "mutate_tool")

SOURCE = textwrap.dedent('''\
    """Doc: 5 is not a constant to mutate."""
    import struct


    def f(sink, x, y, b):
        if x < 3 and y:
            raise ValueError("x")
        sink.add("CARLA-FRAME-001", "m", 0)
        sink.add("not a rule", 1)
        if not b:
            return False
        return struct.unpack("<I", b), int.from_bytes(b, "little"), True
''')


def test_the_mutants_of_a_known_source() -> None:
    # line:column (of the node, in the source above) : kind : what it was -> what it becomes
    assert [m.key for m in mutate.mutants(SOURCE)] == [
        "6:7:boolop:x < 3 and y -> x < 3 or y",
        "6:7:compare:x < 3 -> x <= 3",
        "6:11:constant:3 -> 2",
        "6:11:constant:3 -> 4",
        '7:8:raise:raise ValueError("x") -> pass',
        '8:4:finding:sink.add("CARLA-FRAME-001", "m", 0) -> pass',  # the call naming a rule id; not line 9's
        "8:37:constant:0 -> -1",
        "8:37:constant:0 -> 1",
        "9:27:constant:1 -> 0",
        "9:27:constant:1 -> 2",
        "11:15:return:False -> True",  # a returned boolean is negated; any other value becomes None
        """12:11:return:struct.unpack("<I", b), int.from_bytes(b, "little"), True -> None""",
        """12:25:endian:"<I" -> '>I'""",
        """12:53:endian:"little" -> 'big'""",
    ]  # the docstring's 5 and the True are left alone


def test_a_mutant_is_spliced_into_the_source() -> None:
    by_key = {m.key: m for m in mutate.mutants(SOURCE)}
    raised = by_key['7:8:raise:raise ValueError("x") -> pass'].apply(SOURCE)
    assert raised.splitlines()[6] == "        pass"
    assert raised.splitlines()[:6] == SOURCE.splitlines()[:6] and raised.splitlines()[7:] == SOURCE.splitlines()[7:]
    swapped = by_key["""12:25:endian:"<I" -> '>I'"""].apply(SOURCE)
    assert swapped.splitlines()[11] == """    return struct.unpack('>I', b), int.from_bytes(b, "little"), True"""
    for m in by_key.values():
        compile(m.apply(SOURCE), "x", "exec")


def test_module_names_follow_the_package_dir_mapping() -> None:
    # each format's packages under reference/ and conformance/ map to recspec.<top>.<package> (pyproject's
    # package-dir), and a module's default tests are its format's own (tests/test_<package>_*.py)
    in_tree = [info for info in FORMATS.values() if (ROOT / "reference" / info.package).is_dir()]
    assert in_tree
    for info in in_tree:
        for top in ("reference", "conformance"):
            part = next(p for p in sorted((ROOT / top / info.package).glob("*.py")) if p.name != "__init__.py")
            assert mutate.module_name(part) == f"recspec.{top}.{info.package}.{part.stem}"
            assert mutate.module_path(f"recspec.{top}.{info.package}.{part.stem}") == part
        own = mutate.default_tests(part)
        assert own and all(t.startswith(f"tests/test_{info.package}_") for t in own)
    assert mutate.module_name(ROOT / "recspec" / "report.py") == "recspec.report"
    assert mutate.module_path("recspec.report") == ROOT / "recspec" / "report.py"
    assert mutate.module_path("recspec.conformance._sink") == ROOT / "conformance" / "_sink.py"
    assert mutate.module_path("recspec.render") == ROOT / "recspec" / "render" / "__init__.py"


def test_a_mutant_runs_in_place_of_the_module(tmp_path: Path) -> None:
    # the module's own source, with esc() no longer escaping quotes: the test below kills it; unchanged, it survives
    path = ROOT / "recspec" / "_svg.py"
    source = path.read_text(encoding="utf-8")
    test = tmp_path / "test_probe.py"
    test.write_text("from recspec._svg import esc\n\n"
                    "def test_quote():\n    assert esc('a\"b') == 'a&quot;b'\n", encoding="utf-8")
    name = "recspec._svg"
    value = "return html.escape(str(text), quote=True)"
    broken = source.replace(value, value.replace("True", "False"))
    assert broken != source
    assert mutate.run_mutant(name, path, broken, [str(test)], 120)[0] == "killed"
    assert mutate.run_mutant(name, path, source, [str(test)], 120)[0] == "survived"


def test_every_equivalent_mutant_names_a_mutant_of_its_module_as_it_is_now():
    """A key of tools/mutate_equivalent.json is the mutant's line, column and edit: when a module's lines
    move (a change above it), the key no longer names any mutant, the mutant it meant counts as a survivor
    again and the key silently marks nothing. Every key must name a mutant the tool makes of today's source."""
    import json

    equivalent = json.loads(mutate.EQUIVALENT.read_text(encoding="utf-8"))
    stale = []
    for name, keys in equivalent.items():
        path = mutate.module_path(name)
        assert path.is_file(), f"{name}: no module at {path}"
        made = {m.key for m in mutate.mutants(path.read_text(encoding="utf-8"))}
        stale += [f"{name} {key}" for key in keys if key not in made]
    assert not stale, "keys naming no mutant of today's source (re-key them by the line's text):\n" + "\n".join(stale)
