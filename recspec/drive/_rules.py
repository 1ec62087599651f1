"""The rules a driven writer or reader is judged by (``DRIVE-WRITER-*``, ``DRIVE-READER-*``).

They are recspec's findings about a testee, not about a file: each names the
verdict of one example (``crash``, ``mismatch``, ...). The written file's own
findings keep their format's rule ids.
"""

from __future__ import annotations

from recspec.formats import FormatInfo
from recspec.report import Rule, Severity, rule

__all__ = ["DRIVE", "DRIVE_RULES", "DRIVE_RULES_BY_ID", "VERDICT_RULES"]

E, W, INFO = Severity.ERROR, Severity.WARNING, Severity.INFO
_W = "recspec drive writer"
_R = "recspec drive reader"

#: The pseudo-format that owns the drive rules in reports (SARIF rule metadata, JUnit families).
DRIVE = FormatInfo("recspec-drive", "recspec drive: a writer or reader under test", (), (), (), ("spec", "compat"),
                   "spec", cross_check_limit=0, stats_keys=())

DRIVE_RULES: tuple[Rule, ...] = (
    rule("DRIVE-WRITER-001", "The writer does not crash", _W,
         "The writer was killed by a signal (a segmentation fault, an abort) while writing a case. "
         "Verdict 'crash'.", E),
    rule("DRIVE-WRITER-002", "The writer finishes within the time limit", _W,
         "The writer ran longer than --timeout on one case and was killed with its process group. Verdict "
         "'timeout'.", E),
    rule("DRIVE-WRITER-003", "The writer writes a file", _W,
         "The writer exited with status 0 but wrote nothing: no file at {out} (or nothing on standard output when "
         "the command has no {out}). Verdict 'no-output'.", E),
    rule("DRIVE-WRITER-004", "The writer writes every case the format can hold", _W,
         "The writer exited with a non-zero status on a case the reference encoder writes. Verdict 'refused'.", E),
    rule("DRIVE-WRITER-005", "The writer refuses a case the format cannot hold", _W,
         "The case holds a value the format cannot store (a negative raSkat v2 coordinate: the layout's parts are "
         "unsigned), so the reference encoder refuses it; the writer wrote a file instead, which cannot mean what "
         "the case says. Exit non-zero instead. Verdict 'wrote-unrepresentable'.", E),
    rule("DRIVE-WRITER-006", "The written file breaks no rule the reference file keeps", _W,
         "recspec check, under the chosen profile, finds errors in the written file that it does not find in the "
         "reference encoder's file of the same case. The finding lists each rule; the report carries the file's "
         "findings with their offsets. Verdict 'invalid-file'.", E),
    rule("DRIVE-WRITER-007", "The written file holds the case it was given", _W,
         "The reference decoder reads the written file back into a case that differs from the one the writer was "
         "given (the first difference's JSON path, the expected and the actual value are in the finding), within "
         "the declared tolerances named by --tolerance and the profile's value equivalences (none under spec; "
         "under compat what recspec check accepts as the same value stored another way, "
         "recspec/drive/_equivalences.py). Verdict 'mismatch'.", E),
    rule("DRIVE-WRITER-008", "The written file is byte for byte the reference encoder's", _W,
         "With --byte-exact: the written bytes differ from the reference encoder's canonical file of the case "
         "(the finding gives the first differing offset). Verdict 'not-byte-exact'.", E),
    rule("DRIVE-READER-001", "The reader does not crash", _R,
         "The reader was killed by a signal while reading a file. Verdict 'crash'.", E),
    rule("DRIVE-READER-002", "The reader finishes within the time limit", _R,
         "The reader ran longer than --timeout on one file and was killed. Verdict 'timeout'.", E),
    rule("DRIVE-READER-003", "The reader accepts every valid file", _R,
         "The reader exited non-zero (rejected) on a file recspec finds valid under the chosen profile. Verdict "
         "'rejects-valid'.", E),
    rule("DRIVE-READER-004", "The reader prints a case (or the stats object)", _R,
         "The reader exited with status 0 but its standard output is not a case of the format (JSON, the schema "
         "recspec/schemas/case-2.schema.json) or, with --compare stats, not a JSON object. Verdict 'bad-output'.", E),
    rule("DRIVE-READER-005", "The reader reads what the reference reads", _R,
         "On a valid file the reader printed a case (or stats) that differs from the reference decoder's: the "
         "finding names the first difference. Verdict 'disagrees'.", E),
    rule("DRIVE-READER-006", "The reader rejects a malformed file", _R,
         "The reader accepted a file recspec finds malformed (a structural rule: truncation, a size that does not "
         "fit, trailing bytes) and printed a reading of it: silent disagreement, e.g. a truncated file read as "
         "complete. Verdict 'accepts-malformed'.", E),
    rule("DRIVE-READER-007", "The reader rejects an invalid file", _R,
         "The reader accepted a file recspec finds invalid (well-formed, breaking a value rule). Readers may be "
         "lenient, so this is a warning naming the rules the file breaks. Verdict 'lenient'.", W),
    rule("DRIVE-READER-008", "A file that breaks only recspec's policy may be accepted", _R,
         "The reader accepted a file whose every error comes from a policy rule: recspec's own limit or refusal "
         "(a nesting or size limit, a protobuf group), not the format's (`recspec rules` marks them [recspec "
         "policy]). That is the reader's right, so it is a note naming the rules, never DRIVE-READER-006 or -007. "
         "Verdict 'accepts-policy'.", INFO),
)

DRIVE_RULES_BY_ID = {r.id: r for r in DRIVE_RULES}

#: Example verdict -> the rule that reports it (per direction).
VERDICT_RULES = {
    ("writer", "crash"): "DRIVE-WRITER-001", ("writer", "timeout"): "DRIVE-WRITER-002",
    ("writer", "no-output"): "DRIVE-WRITER-003", ("writer", "refused"): "DRIVE-WRITER-004",
    ("writer", "wrote-unrepresentable"): "DRIVE-WRITER-005", ("writer", "invalid-file"): "DRIVE-WRITER-006",
    ("writer", "mismatch"): "DRIVE-WRITER-007", ("writer", "not-byte-exact"): "DRIVE-WRITER-008",
    ("reader", "crash"): "DRIVE-READER-001", ("reader", "timeout"): "DRIVE-READER-002",
    ("reader", "rejects-valid"): "DRIVE-READER-003", ("reader", "bad-output"): "DRIVE-READER-004",
    ("reader", "disagrees"): "DRIVE-READER-005", ("reader", "accepts-malformed"): "DRIVE-READER-006",
    ("reader", "lenient"): "DRIVE-READER-007", ("reader", "accepts-policy"): "DRIVE-READER-008",
}
