"""A correct reader for every format: recspec's reference decoder wrapped as a command.

    python reference_reader.py FORMAT VARIANT FILE [case|stats] [PROFILE]

Prints the file's case (or the stats of recspec's report); exits 1 to reject a
file recspec does not find valid under PROFILE (default spec)."""

import json
import sys

import recspec
from recspec.formats import FORMATS


def main() -> int:
    fmt, variant, path = sys.argv[1], sys.argv[2] or None, sys.argv[3]
    what = sys.argv[4] if len(sys.argv) > 4 else "case"
    profile = sys.argv[5] if len(sys.argv) > 5 else "spec"
    report = recspec.check(path, format=fmt, variant=variant, profile=profile, cross_check=False)
    if report.verdict.value != "valid":
        print(f"rejected: {report.verdict.value}", file=sys.stderr)
        return 1
    if what == "stats":
        print(json.dumps(report.stats))
        return 0
    codec = FORMATS[fmt].load_reference()
    with open(path, "rb") as f:
        data = f.read()
    print(json.dumps(codec.to_case(codec.decode(data, variant=variant), variant=variant, canonical=True)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
