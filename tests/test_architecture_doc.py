"""ARCHITECTURE.md, and the design notes it points to in benchmarks/README.md, name only what exists.

Every file path, dotted name (`module.name`, `Class.attribute`, `recspec.x.y`), code-like name and
command-line flag in backticks (and the `path.py name()` pairs of its flow diagram) is looked up in the
checkout: a path on disk, a name defined in the module or class it is attached to (by parsing the
source, not by trusting the text), a flag in the source of the commands. When the code moves, this
fails naming the stale reference.
"""

from __future__ import annotations

import ast
import functools
import importlib
import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "ARCHITECTURE.md"
BENCHMARKS = ROOT / "benchmarks" / "README.md"
#: The section of benchmarks/README.md that ARCHITECTURE.md's performance notes moved to.
DESIGN_NOTES = "## How the checks are made fast (design notes)"

#: The trees whose Python sources the names may come from.
SOURCE_TREES = ("recspec", "reference", "conformance", "fuzz", "tools", "tests", "benchmarks")
#: Placeholders the doc writes inside paths, each standing for one folder or name part.
PLACEHOLDER = re.compile(r"<[a-z]+>")
#: A path: a slash in it, or a bare file name with one of the project's extensions.
PATH = re.compile(r"^[\w.<>-]*/[\w./<>-]*$|^[\w<>-]+\.(py|ksy|json|md|mjs|proto|dict|sh|toml)$")
DOTTED = re.compile(r"^[A-Za-z_]\w*(\.[A-Za-z_]\w*)+$")
#: A bare name that reads as code: private, snake_case, CamelCase or a CONSTANT (not a plain word).
CODE_NAME = re.compile(r"^(?:_\w+|[a-z]\w*_\w*|[A-Z][a-z]+[A-Z]\w*|[A-Z][A-Z0-9_]+[A-Z0-9])$")
FLAG = re.compile(r"(?<![\w-])--[a-z][a-z0-9-]+")
#: Words in backticks that name a value, a key or a field of a file format rather than code of recspec.
NOT_CODE_NAMES = frozenset({"role_name", "durationThis", "end_of_payload", "hero"})


def _design_notes() -> str:
    text = BENCHMARKS.read_text(encoding="utf-8")
    start = text.index(DESIGN_NOTES)
    return text[start : text.index("\n## ", start + 1)]


def _spans() -> list[str]:
    text = DOC.read_text(encoding="utf-8") + "\n" + _design_notes()
    prose = re.sub(r"```.*?```", "", text, flags=re.S)
    return re.findall(r"`([^`\n]+)`", prose)


def _diagram_pairs() -> list[tuple[str, str]]:
    """(file, function) pairs written `path.py name()` in the fenced diagrams."""
    text = DOC.read_text(encoding="utf-8")
    pairs: list[tuple[str, str]] = []
    for block in re.findall(r"```\n(.*?)```", text, flags=re.S):
        current = ""
        for line in block.splitlines():
            for match in re.finditer(r"([\w/<>.]+\.py)|(\b[A-Za-z_][\w.]*)\(\)", line):
                if match.group(1):
                    pairs.append((match.group(1), ""))
                    before = line[: match.start()]
                    if before.count("(") == before.count(")"):  # a path in parentheses is an aside
                        current = match.group(1)
                elif current:
                    pairs.append((current, match.group(2)))
    return pairs


@functools.cache
def _tracked() -> tuple[str, ...]:
    out = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    return tuple(out.splitlines())


def _path_exists(span: str) -> bool:
    pattern = PLACEHOLDER.sub(r"[\\w-]+", re.escape(span.rstrip("/")))
    folder = span.endswith("/")
    whole = re.compile(rf"(^|.*/){pattern}(/.*)?$" if folder else rf"(^|.*/){pattern}$")
    return any(whole.match(path) for path in _tracked())


@functools.cache
def _python_files() -> tuple[Path, ...]:
    return tuple(ROOT / p for p in _tracked() if p.endswith(".py") and p.split("/", 1)[0] in SOURCE_TREES)


@functools.cache
def _tree(path: Path) -> ast.Module:
    return ast.parse(path.read_text(encoding="utf-8"))


def _defined_names(body: list[ast.stmt]) -> set[str]:
    names: set[str] = set()
    for node in body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.Assign):
            names |= {t.id for t in node.targets if isinstance(t, ast.Name)}
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            names |= {(a.asname or a.name).split(".")[0] for a in node.names}
        elif isinstance(node, (ast.If, ast.Try)):
            names |= _defined_names(node.body)
    return names


def _class_members(cls: ast.ClassDef) -> set[str]:
    members = _defined_names(cls.body)
    for node in ast.walk(cls):  # attributes set on self in the methods
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "self":
            members.add(node.attr)
    return members


@functools.cache
def _all_classes() -> dict[str, list[ast.ClassDef]]:
    classes: dict[str, list[ast.ClassDef]] = {}
    for path in _python_files():
        for node in ast.walk(_tree(path)):
            if isinstance(node, ast.ClassDef):
                classes.setdefault(node.name, []).append(node)
    return classes


def _classes(name: str) -> list[ast.ClassDef]:
    return _all_classes().get(name, [])


def _modules(name: str) -> list[Path]:
    return [p for p in _python_files() if p.stem == name or (p.name == "__init__.py" and p.parent.name == name)]


def _module_has(path: Path, attrs: list[str]) -> bool:
    body = _tree(path).body
    head = attrs[0]
    if head not in _defined_names(body):
        return False
    if len(attrs) == 1:
        return True
    classes = [n for n in body if isinstance(n, ast.ClassDef) and n.name == head]
    return any(_class_members(c) >= {attrs[1]} for c in classes) and len(attrs) == 2


def _importable(dotted: str) -> bool:
    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            obj = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        try:
            for attr in parts[cut:]:
                obj = getattr(obj, attr)
        except AttributeError:
            break
        return True
    return False


def _dotted_exists(span: str) -> bool:
    parts = span.split(".")
    if parts[0] == "recspec":
        if _importable(span):
            return True
        module_path = ".".join(parts[:-1]).replace("recspec.", "", 1).replace(".", "/")
        return any(
            _module_has(p, parts[-1:]) for p in _python_files()
            if str(p.relative_to(ROOT)).removesuffix(".py").removesuffix("/__init__") in
            (module_path, "recspec/" + module_path)
        )
    if parts[0].lstrip("_")[0].isupper():  # Class.attribute
        return len(parts) == 2 and any(parts[1] in _class_members(c) for c in _classes(parts[0]))
    modules = _modules(parts[0])
    if modules:
        return any(_module_has(p, parts[1:]) for p in modules)
    return _importable(span)  # the standard library or a dependency: json.dumps, struct.iter_unpack


@functools.cache
def _all_source_words() -> frozenset[str]:
    words: set[str] = set()
    for path in _tracked():
        if path.endswith((".py", ".ksy", ".proto", ".toml")):
            words |= set(re.findall(r"\w+", (ROOT / path).read_text(encoding="utf-8", errors="replace")))
    return frozenset(words)


@functools.cache
def _flags_in_source() -> frozenset[str]:
    flags: set[str] = set()
    for path in _python_files():
        if path.parts[len(ROOT.parts)] in ("recspec", "fuzz", "tools"):
            flags |= set(re.findall(r"[\"'](--[a-z][a-z0-9-]+)[\"']", path.read_text(encoding="utf-8")))
    return frozenset(flags | {"--help"})  # argparse's own


def _references() -> list[tuple[str, str]]:
    refs: list[tuple[str, str]] = []
    for span in _spans():
        span = span.strip().removesuffix("()")
        if span.startswith("--") or span.startswith("recspec ") or span.startswith("python "):
            refs += [("flag", flag) for flag in FLAG.findall(span)]
        elif PATH.match(span) and not span.startswith("."):
            refs.append(("path", span))
        elif DOTTED.match(span):
            refs.append(("dotted", span))
        elif CODE_NAME.match(span) and span not in NOT_CODE_NAMES:
            refs.append(("name", span))
    for path, name in _diagram_pairs():
        refs.append(("path", path))
        if name:
            refs.append(("dotted", name if "." in name else f"{Path(path).stem}.{name}"))
    return sorted(set(refs))


def test_the_doc_names_things_of_every_kind() -> None:
    """The extraction finds what it is meant to (else the test below would pass on nothing)."""
    kinds = {kind for kind, _ in _references()}
    assert kinds == {"path", "dotted", "name", "flag"}
    assert ("dotted", "cli._cmd_check") in _references()
    assert ("path", "recspec/_run.py") in _references()


def test_the_checker_refuses_what_does_not_exist() -> None:
    assert not _path_exists("recspec/no_such_module.py")
    assert not _dotted_exists("pipeline.check_everything")
    assert not _dotted_exists("Spool.no_such_method")
    assert not _dotted_exists("recspec.errors.NoSuchError")
    assert _dotted_exists("Spool.put_batch") and _dotted_exists("recspec.formats.FormatInfo")


@pytest.mark.parametrize(("kind", "ref"), _references(), ids=lambda v: str(v))
def test_every_reference_in_architecture_exists(kind: str, ref: str) -> None:
    if kind == "path":
        assert _path_exists(ref), f"the docs name {ref}, which is not in the checkout"
    elif kind == "dotted":
        assert _dotted_exists(ref), f"the docs name {ref}, which is not defined where it says"
    elif kind == "name":
        assert ref in _all_source_words(), f"the docs name {ref}, which no source file mentions"
    else:
        assert ref in _flags_in_source(), f"the docs name the option {ref}, which no command has"


def test_architecture_points_to_the_design_notes() -> None:
    """The performance notes that left ARCHITECTURE.md are where its link says."""
    anchor = "benchmarks/README.md#how-the-checks-are-made-fast-design-notes"
    assert anchor in DOC.read_text(encoding="utf-8")
    slug = re.sub(r"[^\w\- ]", "", DESIGN_NOTES.removeprefix("## ").lower()).replace(" ", "-")
    assert slug == anchor.split("#")[1]
    for topic in ("CARLA frames proved clean in bulk", "Runs of one unit in bulk", "Variant detection on a prefix",
                  "Cross-check limits and sampling", "Rule engine inside the walk", "per-file economies"):
        assert topic in _design_notes(), topic


#: A citation of a part of ARCHITECTURE.md by its title: ARCHITECTURE.md followed by a comma or 's and the
#: title in double or single quotes.
_CITATION = re.compile(r"""ARCHITECTURE\.md(?:'s|,) (?:"([^"\n]+)"|'([^'\n]+)')""")


def test_every_citation_of_a_part_of_architecture_names_one() -> None:
    """Code and docs that send a reader to a part of ARCHITECTURE.md by its title find it there: a
    heading, or a bold lead-in of a list item."""
    text = DOC.read_text(encoding="utf-8")
    titles = re.findall(r"^#+ (.+)$", text, flags=re.M)
    titles += re.findall(r"^\s*(?:- |\d+\. )\*\*([^*]+)\*\*", text, flags=re.M)
    cited = [
        (path, title)
        for path in _tracked()
        if path.endswith((".py", ".md", ".toml")) and path not in ("ARCHITECTURE.md", "tests/test_architecture_doc.py")
        for quoted in _CITATION.findall((ROOT / path).read_text(encoding="utf-8", errors="replace"))
        for title in quoted
        if title
    ]
    assert len(cited) >= 5  # README, tools/mutate.py, docs/MUTATION.md, tests/test_layers.py cite parts
    missing = [(path, title) for path, title in cited if not any(t.startswith(title.rstrip("?.")) for t in titles)]
    assert missing == [], "cited parts of ARCHITECTURE.md that it does not have"
