#!/usr/bin/env python3
"""Rebuild the generated seed corpus and its manifests, byte for byte.

    python tools/make_corpus.py            # rewrite corpus/<format>/valid, invalid and manifest.json
    python tools/make_corpus.py --check    # exit 1 if the committed corpus differs from what is built

The files come from the reference encoders (``recspec.conformance.<format>._seeds``);
``regressions/`` (crashes found by fuzzing) is kept as it is and its entries stay
in the manifest.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from recspec.conformance.corpus import (
    build_manifest,
    generated_formats,
    load_manifest,
    manifest_json,
)

ROOT = Path(__file__).resolve().parent.parent


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--check", action="store_true", help="compare instead of writing; exit 1 on any difference")
    ap.add_argument("--corpus", type=Path, default=ROOT / "corpus", help="corpus folder (default: ./corpus)")
    args = ap.parse_args()
    problems = []
    for fmt, seeds in generated_formats().items():
        folder = args.corpus / fmt
        old = load_manifest(folder) if (folder / "manifest.json").exists() else {"files": []}
        built = list(seeds())
        manifest = build_manifest(fmt, built, old)
        for seed in built:
            target = folder / seed.name
            if args.check:
                if not target.is_file() or target.read_bytes() != seed.data:
                    problems.append(f"{target}: differs from what the reference encoder builds")
            else:
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_bytes(seed.data)
        text = manifest_json(manifest)
        mpath = folder / "manifest.json"
        if args.check:
            if not mpath.is_file() or mpath.read_text(encoding="utf-8") != text:
                problems.append(f"{mpath}: differs from the built manifest")
            names = {s.name for s in built}
            for sub in ("valid", "invalid", "damaged"):
                for p in sorted((folder / sub).glob("*")) if (folder / sub).is_dir() else []:
                    if f"{sub}/{p.name}" not in names:
                        problems.append(f"{p}: not built by the generator (stale file)")
        else:
            mpath.write_text(text, encoding="utf-8")
            print(f"{fmt}: {len(built)} files, manifest {mpath}")
    for p in problems:
        print(p, file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
