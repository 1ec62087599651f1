"""`recspec drive reader` notes (never fails) a reader that accepts a file breaking only recspec's own policy
rules (a limit, a refused group): NanoVer's protobuf runtime reader (tests/testees/nanover_runtime_reader.py),
which accepts the corpus's group and deep-Struct files as NanoVer's readers do."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

from helpers import REPO, TESTEES, drive_report
from recspec.cli import main
from recspec.testing import DriveFailure, check_reader

sys.path.insert(0, str(TESTEES))
PY = sys.executable
#: NanoVer's policy rules (tests/test_drive_policy.py lists every format's)
POLICY = {"NANOVER-LIMIT-001", "NANOVER-LIMIT-002", "NANOVER-LIMIT-003", "NANOVER-LIMIT-004", "NANOVER-PROTO-006",
          "NANOVER-XCHECK-001"}


def test_rules_and_explain_show_the_policy_rules(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "nanover"]) == 0
    lines = capsys.readouterr().out.splitlines()
    marked = {line.split()[0] for line in lines if line.endswith("[recspec policy]")}
    assert marked == {r for r in POLICY if r.startswith("NANOVER-")}
    assert main(["rules", "nanover", "--json"]) == 0
    by_id = {r["id"]: r["source"] for r in json.loads(capsys.readouterr().out)}
    assert by_id["NANOVER-PROTO-006"] == "recspec" and by_id["NANOVER-PROTO-001"] == "format"
    assert main(["explain", "NANOVER-LIMIT-002"]) == 0
    assert "source:     recspec's own policy" in capsys.readouterr().out


@pytest.mark.parametrize(("variant", "policy_rule"), [("traj", "NANOVER-PROTO-006"), ("state", "NANOVER-LIMIT-002")])
def test_a_protobuf_runtime_reader_accepting_policy_breaks_passes_with_a_note(variant: str, policy_rule: str) -> None:
    """The runtime reader accepts the corpus's group (traj) and 33-deep Struct (state) files, as NanoVer's
    readers do; before the split each was DRIVE-READER-006, "accepted a malformed file"."""
    code, report = drive_report("reader", "nanover", "--variant", variant, "--max-examples", "20", "--seed", "1",
                                "--", PY, str(TESTEES / "nanover_runtime_reader.py"), variant, "{file}")
    assert code == 0, report
    findings = report["files"][0]["findings"]
    assert not any(f["rule"] == "DRIVE-READER-006" for f in findings)
    (note,) = [f for f in findings if f["rule"] == "DRIVE-READER-008"]
    assert note["severity"] == "info" and note["path"] == policy_rule


def test_a_file_breaking_a_format_rule_as_well_still_fails_the_reader() -> None:
    import nanover_runtime_reader

    group = (REPO / "corpus" / "nanover" / "invalid" / "NANOVER-PROTO-006.traj").read_bytes()

    def read(path: Path) -> Any:
        return nanover_runtime_reader.read(str(path), "traj")

    assert check_reader(read, format="nanover", variant="traj", data=group) is None  # a note only
    with pytest.raises(DriveFailure) as failure:  # the same file cut short: NANOVER-STREAM-001 is the format's
        check_reader(lambda path: {}, format="nanover", variant="traj", data=group[:-3])
    assert failure.value.verdicts == ("accepts-malformed",)
