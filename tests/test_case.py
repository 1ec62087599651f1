"""Cases: every format's case codec round-trips through the reference codec, matches the shipped JSON
Schema, rejects malformed cases with a located error, and `recspec case FILE` prints one."""

from __future__ import annotations

import json
import math
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest
from hypothesis import HealthCheck, given, settings

from recspec._case_json import CaseError, first_difference
from recspec.cli import main
from recspec.formats import FORMATS, FormatInfo

ROOT = Path(__file__).resolve().parents[1]
SCHEMA = json.loads((ROOT / "recspec" / "schemas" / "case-2.schema.json").read_text())
VALIDATOR = jsonschema.Draft202012Validator(SCHEMA)

#: (format, variant, encode options): every format's targets (its plugin's ``EXAMPLES.case_targets``)
TARGETS = [(info.id, variant, dict(options)) for info in FORMATS.values()
           for variant, options in info.load().EXAMPLES.case_targets]


@pytest.mark.parametrize(("fmt", "variant", "options"), TARGETS,
                         ids=[f"{f}-{v or o.get('profile')}" for f, v, o in TARGETS])
def test_decode_of_encode_is_the_case(fmt: str, variant: str | None, options: dict) -> None:
    """The property of the issue: decode(encode(case)) == case, for every format and variant; each drawn
    case (through JSON, as a writer receives it) also matches the shipped schema."""
    codec = FORMATS[fmt].load_reference()

    @settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(FORMATS[fmt].load().EXAMPLES.small_cases(variant))
    def roundtrip(case: dict) -> None:
        case = json.loads(json.dumps(case))
        VALIDATOR.validate(case)
        data = codec.encode(codec.from_case(case), variant=case["variant"], **options)
        back = codec.to_case(codec.decode(data, variant=variant), variant=variant, canonical=True)
        assert first_difference(case, back) is None, first_difference(case, back)

    roundtrip()


def test_the_case_schema_is_generated_from_the_codecs() -> None:
    done = subprocess.run([sys.executable, str(ROOT / "tools" / "make_case_schema.py"), "--check"],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


@pytest.mark.parametrize("info", list(FORMATS.values()), ids=lambda i: i.id)
def test_recspec_case_prints_a_corpus_files_case(info: FormatInfo, capsys: pytest.CaptureFixture[str]) -> None:
    manifest = json.loads((ROOT / "corpus" / info.id / "manifest.json").read_text())
    entry = next(e for e in manifest["files"] if e["path"].startswith("valid/"))
    assert main(["case", str(ROOT / "corpus" / info.id / entry["path"])]) == 0
    case = json.loads(capsys.readouterr().out)
    VALIDATOR.validate(case)
    assert case["format"] == info.id and case["recspec_case"] == 2
    if info.variants and entry.get("variant"):
        assert case["variant"] == entry["variant"]
    # and the case is the file: the reference encoder writes it back to an equal case
    codec = info.load_reference()
    data = codec.encode(codec.from_case(case), variant=case["variant"])
    assert codec.to_case(codec.decode(data, variant=case["variant"]), variant=case["variant"]) == case


@pytest.mark.parametrize("info", list(FORMATS.values()), ids=lambda i: i.id)
def test_a_malformed_case_is_a_located_case_error(info: FormatInfo) -> None:
    case, path = info.load().EXAMPLES.malformed_case
    with pytest.raises(CaseError) as e:
        info.load_reference().from_case(case)
    assert e.value.path == path
    assert not VALIDATOR.is_valid(case)


def test_case_equality_keeps_the_sign_of_zero_and_the_type_of_numbers() -> None:
    assert first_difference({"x": 0.0}, {"x": -0.0}) is not None
    assert first_difference({"x": math.nan}, {"x": math.nan}) is None
    assert first_difference({"x": 1}, {"x": 1.0}) is not None
    assert first_difference({"x": 3.3}, {"x": 3.299999952316284}) is not None
    assert first_difference({"x": 3.3}, {"x": 3.299999952316284}, ("float32",)) is None
    assert str(first_difference({"a": [1, 2]}, {"a": [1]})) == "a[1]: expected 2, got nothing"
