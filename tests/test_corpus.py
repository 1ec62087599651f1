"""The generated corpus is what the reference encoder builds, and every file gets
the verdict and rule ids its manifest entry states."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from recspec.corpus_check import verify_corpus
from recspec.formats import FORMATS

ROOT = Path(__file__).resolve().parents[1]


def test_committed_corpus_matches_generator():
    run = subprocess.run([sys.executable, str(ROOT / "tools" / "make_corpus.py"), "--check"],
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr


def _entries():
    manifest = json.loads((ROOT / "corpus" / "carla" / "manifest.json").read_text())
    return manifest["files"]


def test_every_rule_has_an_invalid_file_or_a_reason():
    from recspec.conformance.carla import RULES

    have = {Path(e["path"]).stem for e in _entries() if e["path"].startswith("invalid/")}
    # Rules no generated file can break, each with why:
    not_seeded = {
        "CARLA-LIMIT-001": "needs a packet declaring more than 256 MiB; tested in tests/test_carla_limits.py",
        "CARLA-PACKET-003": "an info-level rule; seeded as valid/0.9.15-user-packet.log",
        "CARLA-XCHECK-001": "fires only when recspec's two readers disagree, which the corpus must never show",
    }
    assert {r.id for r in RULES} - have == set(not_seeded)


@pytest.mark.parametrize("entry", _entries(), ids=lambda e: e["path"])
def test_manifest_entry(entry, tmp_path):
    manifest = {"format": "carla", "files": [entry]}
    folder = tmp_path / "carla"
    (folder / Path(entry["path"]).parent).mkdir(parents=True)
    (folder / entry["path"]).write_bytes((ROOT / "corpus" / "carla" / entry["path"]).read_bytes())
    (folder / "manifest.json").write_text(json.dumps(manifest))
    out, err = io.StringIO(), io.StringIO()
    assert verify_corpus([FORMATS["carla"]], corpus_dir=tmp_path, out=out, err=err, verbose=True) == 0, out.getvalue()
