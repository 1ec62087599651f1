"""Rewrite the per-format part of the report's JSON Schema from the format registry.

``recspec/schemas/report-1.schema.json`` requires, for each format, the stats
keys its valid and invalid reports carry; those lists are the registry's
``FormatInfo.stats_keys``. This rewrites the ``allOf`` of ``$defs.file`` from
them and leaves the rest of the file as written.

    python tools/make_schema.py            # rewrite the schema
    python tools/make_schema.py --check    # exit 1 if it differs (a test runs this)
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path

from recspec.formats import FORMATS

SCHEMA = Path(__file__).resolve().parent.parent / "recspec" / "schemas" / "report-1.schema.json"
_BLOCK = re.compile(r'(\n      "allOf": \[\n).*?(\n      \]\n    \},\n    "finding")', re.S)


def per_format_block() -> str:
    entries = []
    for info in FORMATS.values():
        when = json.dumps({"properties": {"format": {"const": info.id}, "verdict": {"enum": ["valid", "invalid"]}}})
        then = json.dumps({"properties": {"stats": {"required": list(info.stats_keys)}}})
        entries.append(f'        {{\n          "if": {when},\n          "then": {then}\n        }}')
    return ",\n".join(entries)


def rendered(text: str) -> str:
    if not _BLOCK.search(text):
        raise SystemExit(f"{SCHEMA}: the file's allOf block is not where this tool expects it")
    new = _BLOCK.sub(lambda m: m.group(1) + per_format_block() + m.group(2), text, count=1)
    json.loads(new)  # still JSON
    return new


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--check", action="store_true", help="compare instead of writing; exit 1 on any difference")
    args = ap.parse_args()
    text = SCHEMA.read_text(encoding="utf-8")
    new = rendered(text)
    if args.check:
        if new != text:
            print(f"{SCHEMA} is stale: run python tools/make_schema.py", file=sys.stderr)
            return 1
        return 0
    SCHEMA.write_text(new, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
