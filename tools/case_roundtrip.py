"""Which files come back byte for byte through their lossless case.

For every file under the given folders (the format sniffed as `recspec check` does, the
variant detected), ``encode(from_case(to_case(decode(f))))`` through JSON text is
compared with the file. Prints one line per file that does not come back (``differs``:
the sizes and the first differing offset; ``no case``: why), then the counts:

    python tools/case_roundtrip.py corpus/carla corpus/nanover ../shared/real

``exact`` files come back; ``differs`` ones say more than a case can (README, "The
reference implementation as a tool"); ``no decode`` ones are not files of their format
(truncated, malformed), which have no case.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path

from recspec._case_json import CaseError, case_text
from recspec.api import check
from recspec.errors import DecodeError, EncodeError, UsageError
from recspec.formats import sniff


def roundtrip(path: Path) -> tuple[str, str]:
    """(outcome, detail) of one file: exact, differs, no case, no decode or unknown."""
    data = path.read_bytes()
    info, _ = sniff(data[:65536], path)
    if info is None:
        return "unknown", "no format recognises it"
    variant = check(path, format=info.id, cross_check=False).variant
    codec = info.load_reference()
    try:
        model = codec.decode(data, variant=variant)
    except DecodeError as e:
        return "no decode", f"{e.rule}: {e}"
    except UsageError as e:  # no variant found: a NanoVer file whose kind neither its name nor records say
        return "no decode", str(e).split("\n")[0]
    try:
        case = codec.to_case(model, variant=variant)
        again = codec.encode(codec.from_case(json.loads(case_text(case))), variant=case["variant"])
    except (CaseError, EncodeError) as e:
        return "no case", str(e).split("\n")[0]
    if again == data:
        return "exact", ""
    at = next((i for i, (a, b) in enumerate(zip(data, again)) if a != b), min(len(data), len(again)))
    return "differs", f"{len(data)} bytes, {len(again)} again, first difference at offset {at}"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("folders", nargs="+", type=Path)
    args = ap.parse_args()
    counts: Counter[str] = Counter()
    for folder in args.folders:
        for path in sorted(p for p in folder.rglob("*") if p.is_file() and p.suffix not in (".md", ".json")):
            outcome, detail = roundtrip(path)
            counts[outcome] += 1
            if outcome in ("differs", "no case"):
                print(f"{outcome}: {path}: {detail}")
    print(", ".join(f"{counts[k]} {k}" for k in ("exact", "differs", "no case", "no decode", "unknown")))
    return 0


if __name__ == "__main__":
    sys.exit(main())
