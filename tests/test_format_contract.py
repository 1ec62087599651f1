"""Every registered format fulfils the whole contract of ``recspec.formats``.

Adding a format means one registry entry plus the format's own folders; this
test names the member a new format is missing. It finds the format's code, corpus and
document through its registry entry (``FormatInfo.module``, ``corpus`` and so on), not
under this checkout, so that a format from another package passes it too when it is
installed (tests/test_plugin_toy.py runs it on the toy plugin)."""

from __future__ import annotations

import importlib.util
import inspect
import json
from pathlib import Path

import pytest

from recspec.conformance.corpus import corpus_folder
from recspec.formats import FORMATS, FormatInfo, FormatModule, KaitaiComparison, ReferenceCodec
from recspec.fuzz._paths import dictionary_file

ROOT = Path(__file__).resolve().parents[1]
FORMAT_INFOS = list(FORMATS.values())


def _manifest(info: FormatInfo) -> dict:
    """The format's corpus manifest, from the corpus folder its registry entry gives."""
    return json.loads((corpus_folder(info.id) / "manifest.json").read_text())


def _first_valid(info: FormatInfo) -> Path:
    """The first valid file of the format's corpus manifest."""
    return corpus_folder(info.id) / next(e["path"] for e in _manifest(info)["files"] if e["path"].startswith("valid/"))


def _members(protocol: type) -> set[str]:
    names = {n for n in vars(protocol) if not n.startswith("_")}
    names |= set(getattr(protocol, "__annotations__", {}))
    return names


def _has(module: object, name: str) -> bool:
    """Whether a plugin has a member: a lazily loaded one whose submodule is missing counts as missing."""
    try:
        getattr(module, name)
    except (AttributeError, ImportError):
        return False
    return True


@pytest.mark.parametrize("info", FORMAT_INFOS, ids=lambda i: i.id)
def test_plugin_module_has_every_member(info: FormatInfo) -> None:
    module = info.load()
    missing = sorted(n for n in _members(FormatModule) if not _has(module, n))
    assert not missing, f"{info.module} lacks {missing}"
    assert module.RULES and set(module.RULES_BY_ID) == {r.id for r in module.RULES}
    assert module.STRATEGIES, "a format declares at least one Hypothesis strategy"
    seeds = list(module.seeds())
    assert any(s.name.startswith("valid/") for s in seeds) and any(s.name.startswith("invalid/") for s in seeds)


@pytest.mark.parametrize("info", FORMAT_INFOS, ids=lambda i: i.id)
def test_the_check_takes_every_keyword_the_pipeline_passes(info: FormatInfo) -> None:
    """``FormatModule.check``'s keywords (the pipeline passes each, ``run_files`` included), by name."""
    from recspec.formats import CheckFunction

    wanted = set(inspect.signature(CheckFunction.__call__).parameters) - {"self", "f"}
    got = inspect.signature(info.load().check).parameters
    missing = sorted(n for n in wanted if n not in got)
    assert not missing, f"{info.module}.check lacks the keyword(s) {missing}"


@pytest.mark.parametrize("info", FORMAT_INFOS, ids=lambda i: i.id)
def test_kaitai_comparison_has_every_member(info: FormatInfo) -> None:
    comparison = info.load().KAITAI
    missing = sorted(n for n in _members(KaitaiComparison) if not hasattr(comparison, n))
    assert not missing, f"{info.module}.KAITAI lacks {missing}"
    assert comparison.rule.endswith("-XCHECK-001") and comparison.rule in info.load().RULES_BY_ID


@pytest.mark.parametrize("info", FORMAT_INFOS, ids=lambda i: i.id)
def test_reference_codec_has_every_member(info: FormatInfo) -> None:
    codec = info.load_reference()
    missing = sorted(n for n in _members(ReferenceCodec) if not hasattr(codec, n))
    assert not missing, f"{info.reference_module} lacks {missing}"
    named = f"iter_{codec.UNIT}s"
    assert getattr(codec, named) is codec.iter_units, f"{info.reference_module}.{named} is its iter_units"
    for fn in (codec.decode, codec.encode, codec.iter_units):
        variant = inspect.signature(fn).parameters.get("variant")
        assert variant is not None and variant.kind is inspect.Parameter.KEYWORD_ONLY, f"{fn.__qualname__}: variant="


@pytest.mark.parametrize("info", FORMAT_INFOS, ids=lambda i: i.id)
def test_case_codec_round_trips_a_corpus_file(info: FormatInfo) -> None:
    """The case codec: every format declares float32, its other tolerances are checked by a function, and
    the first valid corpus file's case encodes and decodes back to itself (tests/test_case.py has the
    property over generated cases)."""
    codec = info.load_reference()
    assert "float32" in codec.CASE_TOLERANCES and set(codec.CASE_TOLERANCE_CHECKS) <= set(codec.CASE_TOLERANCES)
    entry = next(e for e in _manifest(info)["files"] if e["path"].startswith("valid/"))
    # where the suffix tells the variant (FormatInfo.variant_suffixes), the manifest leaves it to detection
    variant = entry.get("variant") or next((v for v, suffix in info.variant_suffixes
                                            if entry["path"].endswith(suffix)), None)
    data = (corpus_folder(info.id) / entry["path"]).read_bytes()
    case = codec.to_case(codec.decode(data, variant=variant), variant=variant)
    assert case["recspec_case"] == 2 and case["format"] == info.id
    again = codec.encode(codec.from_case(json.loads(json.dumps(case))), variant=case["variant"])
    assert again == data  # the lossless case is the file
    assert codec.to_case(codec.decode(again, variant=variant), variant=variant) == case
    assert "canonical" in inspect.signature(codec.to_case).parameters
    assert "properties" in codec.case_schema() or "oneOf" in codec.case_schema()


@pytest.mark.parametrize("info", FORMAT_INFOS, ids=lambda i: i.id)
def test_the_formats_own_folders_and_files_exist(info: FormatInfo) -> None:
    """Where the registry entry says the format's code, corpus and document are, they are."""
    for module in (info.module, info.reference_module, info.fuzz_module):
        assert importlib.util.find_spec(module) is not None, f"{info.id}: no module {module}"
    assert (corpus_folder(info.id) / "manifest.json").is_file()
    docs = Path(info.docs)
    assert (docs if docs.is_absolute() else ROOT / docs).is_file(), f"{info.id}: FormatInfo.docs"
    if info.fuzz_module.startswith("recspec.fuzz."):  # recspec's own harnesses ship their dictionary beside them
        assert dictionary_file(info.dictionary) is not None, f"{info.id}: fuzz/dictionaries/{info.dictionary}"
    assert info.cross_check_limit > 0 and info.stats_keys


def test_the_report_schema_is_generated_from_the_registry() -> None:
    """The schema's per-format stats clauses are the registry's stats_keys (tools/make_schema.py)."""
    import subprocess
    import sys

    done = subprocess.run([sys.executable, str(ROOT / "tools" / "make_schema.py"), "--check"],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    schema = json.loads((ROOT / "recspec" / "schemas" / "report-1.schema.json").read_text())
    clauses = schema["$defs"]["file"]["allOf"]
    assert {c["if"]["properties"]["format"]["const"]: c["then"]["properties"]["stats"]["required"] for c in clauses} \
        == {fid: list(info.stats_keys) for fid, info in FORMATS.items()}


@pytest.mark.parametrize("info", FORMAT_INFOS, ids=lambda i: i.id)
def test_every_stats_key_is_in_a_real_report(info: FormatInfo) -> None:
    import recspec

    report = recspec.check(_first_valid(info), format=info.id)
    assert set(info.stats_keys) <= set(report.stats)


@pytest.mark.parametrize("info", FORMAT_INFOS, ids=lambda i: i.id)
def test_the_registry_entry_states_its_static_facts(info: FormatInfo) -> None:
    """The facts a shared module would otherwise keep in a table of its own, keyed by format id."""
    import re

    assert info.finding_index, f"{info.id}: FormatInfo.finding_index (where a finding's path holds its index)"
    assert re.compile(info.finding_index).groups == 1, f"{info.id}: finding_index has one group, the index"
    assert set(info.legacy_variants) <= set(info.variants), f"{info.id}: legacy_variants are variants"
    for variant, suffix in info.variant_suffixes:
        assert variant in info.variants and suffix in info.extensions, f"{info.id}: variant_suffixes {variant}"
        assert info.suffix_of(variant) == suffix
    assert info.suffix_of(None) == (info.extensions[0] if info.extensions else ".bin")


@pytest.mark.parametrize("info", FORMAT_INFOS, ids=lambda i: i.id)
def test_the_plugins_members_for_pictures_and_drive(info: FormatInfo) -> None:
    from hypothesis.strategies import SearchStrategy

    module = info.load()
    assert isinstance(module.TRACE, type), f"{info.module}.TRACE is the class of its trace"
    assert callable(module.picture), f"{info.module}.picture draws a trace"
    variants = [v for v in info.variants if v not in info.legacy_variants] or [None]
    for variant in variants:
        for profile in info.profiles:
            drawn = module.drive_cases(variant, profile, 2)
            assert isinstance(drawn, SearchStrategy), f"{info.module}.drive_cases({variant!r}, {profile!r})"
    assert module.field_path("header.version") == "header.version"
    for eq in module.EQUIVALENCES:
        assert eq.format == info.id and eq.profiles <= set(info.profiles), f"{info.module}.EQUIVALENCES {eq.name}"
        assert "spec" not in eq.profiles or eq.basis.startswith("docs/"), eq.name


@pytest.mark.parametrize("info", FORMAT_INFOS, ids=lambda i: i.id)
def test_the_plugins_examples_for_the_shared_tests(info: FormatInfo) -> None:
    """``EXAMPLES``: what tests/test_cli.py, test_case.py and the others take from the format."""
    from recspec._case_json import CaseError

    module = info.load()
    ex = module.EXAMPLES
    assert (corpus_folder(info.id) / "valid" / ex.valid_file).is_file(), f"{info.module}.EXAMPLES.valid_file"
    assert ex.valid_profile in info.profiles, f"{info.module}.EXAMPLES.valid_profile"
    name, broken = ex.invalid_file
    entry = next((e for e in _manifest(info)["files"] if e["path"] == f"invalid/{name}"), None)
    assert entry is not None, f"{info.module}.EXAMPLES.invalid_file: no invalid/{name} in the corpus manifest"
    assert entry["expect"][info.default_profile] == {"verdict": "invalid", "rules": [broken]}, \
        f"{info.module}.EXAMPLES.invalid_file breaks {broken} alone under {info.default_profile}"
    rule, words = ex.explain
    assert rule.upper() in module.RULES_BY_ID and words, f"{info.module}.EXAMPLES.explain"
    assert ex.corpus_rules_more_than > 0
    assert ex.run_sample in ("default", "own", "none"), f"{info.module}.EXAMPLES.run_sample"
    assert ex.case_targets and all(v is None or v in info.variants for v, _ in ex.case_targets), \
        f"{info.module}.EXAMPLES.case_targets"
    assert ex.small_cases is not None, f"{info.module}.EXAMPLES.small_cases"
    assert ex.malformed_case is not None, f"{info.module}.EXAMPLES.malformed_case"
    assert set(ex.unseeded_rules) <= set(module.RULES_BY_ID) and all(ex.unseeded_rules.values())
    case, path = ex.malformed_case
    with pytest.raises(CaseError) as e:
        info.load_reference().from_case(case)
    assert e.value.path == path


def test_a_format_whose_plugin_draws_no_picture_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    """The HTML report calls the plugin's ``picture``; a plugin without one gets a line saying so, not
    silence, and a format with one draws its trace."""
    import types

    import recspec
    from recspec.render import _pictures

    info = FORMAT_INFOS[0]
    report = recspec.check(_first_valid(info), format=info.id, trace=True)
    assert isinstance(report.trace, info.load().TRACE)
    assert _pictures.picture(report, lambda f: "a").startswith("<figure>")
    without = types.SimpleNamespace(TRACE=info.load().TRACE)  # a plugin with no picture member
    monkeypatch.setattr(FormatInfo, "load", lambda self: without)
    line = _pictures.picture(report, lambda f: "a")
    assert line.startswith('<p class="no-picture">No picture for this format') and info.id in line


@pytest.mark.parametrize("info", [i for i in FORMAT_INFOS if i.variant_suffixes], ids=lambda i: i.id)
def test_drive_names_and_feeds_a_variant_by_its_suffix(info: FormatInfo) -> None:
    """Where the suffix tells the variant (``FormatInfo.variant_suffixes``), drive writes the variant's files
    with it and feeds a reader only the corpus files that carry it (or none)."""
    from recspec.drive._engine import DriveOptions, _corpus_files

    for variant, suffix in info.variant_suffixes:
        opts = DriveOptions(info, variant, info.default_profile)
        assert opts.suffix == suffix
        fed = [name for name, _ in _corpus_files(opts)]
        assert fed and all(Path(name).suffix in ("", suffix) for name in fed), (variant, fed)
        others = {s for v, s in info.variant_suffixes if v != variant}
        assert any(Path(e["path"]).suffix in others for e in _manifest(info)["files"])  # there were others to leave out
