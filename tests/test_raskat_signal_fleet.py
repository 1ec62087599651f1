"""The long-run sample of the cross-check (conformance/_plugin.py ``run_sampled_out``, the rule every format
follows) holds across shards on raSkat folders, raw and tar.xz signals: the merged shards' report is the
whole run's (tests/test_fleet.py shows the same on the other formats)."""

from __future__ import annotations

import shutil
from pathlib import Path
from unittest import mock

from helpers import run_cli
from recspec.conformance import _plugin
from recspec.report import SAMPLED_OUT

CORPUS = Path(__file__).resolve().parents[1] / "corpus" / "raskat-signal"


def test_merged_shards_of_a_sampled_run_are_the_whole_run(tmp_path: Path) -> None:
    data = tmp_path / "data"
    sources = sorted(p for sub in ("valid", "invalid") for p in (CORPUS / sub).iterdir() if p.is_file())
    for i, src in enumerate(sources * 2):
        dst = data / f"d{i % 3}" / f"{i:03d}-{src.name}"
        dst.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(src, dst)
    with mock.patch.object(_plugin, "RUN_SAMPLE_FROM", 2):
        _, whole, _ = run_cli("check", "--json", "--profile", "compat", str(data))
        for k in (1, 2, 3):
            code, _, err = run_cli("check", "--profile", "compat", str(data), "--shard", f"{k}/3",
                                   f"--report=json:{tmp_path / f'{k}.json'}")
            assert code in (0, 1), err
    assert f"{SAMPLED_OUT} on this file" in whole  # the sample applied
    code, merged, err = run_cli("merge", "--json", *(str(tmp_path / f"{k}.json") for k in (1, 2, 3)))
    assert code in (0, 1), err
    assert merged == whole
