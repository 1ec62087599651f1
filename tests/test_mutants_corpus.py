"""The seed corpus's builders (``conformance/corpus.py``), run in this process (``tools/make_corpus.py --check``
runs them in another) and held to what the module's docstring and the committed corpus say: each generated
file and manifest byte for byte, ``detect`` true for valid and damaged files and files of no variant,
damaged files marked ``format_from: extension`` and made of their valid seed with only the written bytes
changed, entries under ``regressions/`` kept, and each format's folder where the registry puts it."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from recspec.conformance import corpus
from recspec.formats import FORMATS, Seed

ROOT = Path(__file__).resolve().parent.parent
FORMAT_IDS = sorted(FORMATS)


@pytest.fixture(scope="module")
def built() -> dict[str, list[Seed]]:
    makers = corpus.generated_formats()
    assert sorted(makers) == FORMAT_IDS
    return {fid: list(make()) for fid, make in makers.items()}


@pytest.mark.parametrize("fid", FORMAT_IDS)
def test_the_generated_files_and_manifest_are_the_committed_ones(fid: str, built: dict[str, list[Seed]]) -> None:
    folder = ROOT / "corpus" / fid
    assert corpus.corpus_folder(fid) == folder
    for seed in built[fid]:
        assert (folder / seed.name).read_bytes() == seed.data, seed.name
    old = corpus.load_manifest(folder)
    text = corpus.manifest_json(corpus.build_manifest(fid, built[fid], old))
    assert text == (folder / "manifest.json").read_text(encoding="utf-8")


@pytest.mark.parametrize("fid", FORMAT_IDS)
def test_damaged_files_are_their_valid_seed_with_only_the_written_bytes_changed(fid: str,
                                                                                built: dict[str, list[Seed]]) -> None:
    damages = FORMATS[fid].load().DAMAGED_HEADERS
    made = {s.name: s for s in built[fid] if s.name.startswith("damaged/")}
    assert sorted(made) == sorted(d.name for d in damages)
    for d in damages:
        base = (ROOT / "corpus" / fid / d.base).read_bytes()
        data = made[d.name].data
        assert len(data) == len(base) and data != base
        assert data[:d.at] == base[:d.at] and data[d.at + len(d.written):] == base[d.at + len(d.written):]
        assert data[d.at:d.at + len(d.written)] == d.written


def _seed(name: str, variant: str | None, rules: tuple[str, ...] = ()) -> Seed:
    return Seed(name, b"", variant, {"spec": ("invalid", rules), "compat": ("valid", ())}, "why")


def test_a_manifest_entry_as_the_docstring_describes_it() -> None:
    seeds = [_seed("valid/a.x", "v1"), _seed("invalid/B-001.x", "v1", ("B-001", "A-002", "B-001")),
             _seed("invalid/C-001.x", None), _seed("damaged/d.x", "v1"), _seed("invalid/E-001.x", "v2")]
    regression = {"path": "regressions/r.x", "variant": None, "detect": True, "description": "kept", "expect": {}}
    old = {"files": [{"path": "invalid/old.x"}, dict(regression, path="regressions/z.x"), regression]}
    manifest = corpus.build_manifest("fmt", seeds, old)
    assert manifest["format"] == "fmt"
    files = manifest["files"]
    assert [e["path"] for e in files] == ["valid/a.x", "invalid/B-001.x", "invalid/C-001.x", "damaged/d.x",
                                          "invalid/E-001.x", "regressions/r.x", "regressions/z.x"]
    assert [e["detect"] for e in files[:5]] == [True, False, True, True, False]
    assert [e.get("format_from") for e in files[:5]] == [None, None, None, "extension", None]
    assert files[1]["expect"] == {"spec": {"verdict": "invalid", "rules": ["A-002", "B-001"]},
                                  "compat": {"verdict": "valid", "rules": []}}
    assert (files[0]["variant"], files[0]["description"]) == ("v1", "why")


def test_the_manifest_text_is_json_indented_by_two_and_ends_with_a_newline() -> None:
    expected = '{\n  "files": [\n    {\n      "path": "é"\n    }\n  ]\n}\n'
    assert corpus.manifest_json({"files": [{"path": "é"}]}) == expected


def test_a_format_from_another_package_has_its_registry_entrys_folder(tmp_path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    info = dataclasses.replace(next(iter(FORMATS.values())), id="elsewhere", corpus=str(tmp_path))
    monkeypatch.setattr(corpus, "FORMATS", {**FORMATS, "elsewhere": info})  # as the registry lists a plugin
    assert corpus.corpus_folder("elsewhere") == tmp_path
    assert corpus.corpus_folder("not-registered") == ROOT / "corpus" / "not-registered"
