"""The seed corpus and its manifests: building them and checking recspec against them.

Each format has ``corpus/<format>/manifest.json``::

    {"format": "carla", "files": [
      {"path": "invalid/CARLA-FRAME-004.log", "variant": "0.9.15", "detect": false,
       "description": "...",
       "expect": {"spec": {"verdict": "invalid", "rules": ["CARLA-FRAME-004"]},
                  "compat": {"verdict": "invalid", "rules": ["CARLA-FRAME-004"]}}}]}

``rules`` lists every rule that must be reported at warning level or above, and
no others (info findings are not compared). ``detect: true`` means the variant
must be found from content; otherwise the file is checked with that variant
forced. Entries under ``regressions/`` are written by hand when a fuzz-found
case is kept, and survive ``tools/make_corpus.py``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator, Mapping, TextIO

from recspec._paths import corpus_dir as _bundled_corpus
from recspec.formats import FORMATS, FormatInfo, Seed
from recspec.report import Severity

__all__ = ["build_manifest", "generated_formats", "load_manifest", "manifest_json", "verify_corpus"]


def generated_formats() -> dict[str, Callable[[], Iterable[Seed]]]:
    """format id -> the function that builds its generated seed files (every registered format)."""
    return {fid: info.load().seeds for fid, info in FORMATS.items()}


def build_manifest(fmt: str, seeds: Iterable[Seed], old: Mapping[str, Any]) -> dict[str, Any]:
    files = []
    for s in seeds:
        files.append({
            "path": s.name,
            "variant": s.variant,
            "detect": s.name.startswith("valid/") or s.variant is None,
            "description": s.description,
            "expect": {p: {"verdict": v, "rules": sorted(set(r))} for p, (v, r) in s.expect.items()},
        })
    kept = [e for e in old.get("files", []) if e["path"].startswith("regressions/")]
    return {"format": fmt, "files": files + sorted(kept, key=lambda e: e["path"])}


def manifest_json(manifest: Mapping[str, Any]) -> str:
    return json.dumps(manifest, indent=2, ensure_ascii=False) + "\n"


def load_manifest(folder: Path) -> dict[str, Any]:
    with open(folder / "manifest.json", encoding="utf-8") as f:
        return json.load(f)


@dataclass
class Outcome:
    path: str
    profile: str
    ok: bool
    detail: str


def _check_entry(info: FormatInfo, folder: Path, entry: Mapping[str, Any]) -> Iterator[Outcome]:
    from recspec.pipeline import check_file

    path = folder / entry["path"]
    for profile, want in sorted(entry["expect"].items()):
        if not path.is_file():
            yield Outcome(entry["path"], profile, False, "file listed in the manifest is missing")
            continue
        variant = None if entry.get("detect") else entry.get("variant")
        report = check_file(path, fmt=info, variant=variant, profile=profile)
        assert report is not None
        got_rules = sorted({f.rule for f in report.findings if f.severity.rank >= Severity.WARNING.rank})
        problems = []
        if report.verdict.value != want["verdict"]:
            problems.append(f"verdict {report.verdict.value}, expected {want['verdict']}")
        if got_rules != sorted(want["rules"]):
            problems.append(f"rules {got_rules}, expected {sorted(want['rules'])}")
        if entry.get("detect") and report.variant != entry.get("variant"):
            problems.append(f"detected variant {report.variant}, expected {entry.get('variant')}")
        yield Outcome(entry["path"], profile, not problems, "; ".join(problems) or report.verdict.value)


def verify_corpus(infos: Iterable[FormatInfo], *, corpus_dir: Path | None = None,
                  verbose: bool = False, out: TextIO, err: TextIO) -> int:
    """Check every manifest entry; print a summary; 0 when all match, 1 otherwise, 2 if nothing to check."""
    base = corpus_dir
    total = failed = 0
    for info in infos:
        folder = (base / info.id) if base is not None else _default_dir(info.id)
        if not (folder / "manifest.json").is_file():
            err.write(f"recspec corpus: {info.id}: no manifest at {folder / 'manifest.json'}\n")
            continue
        manifest = load_manifest(folder)
        listed = {e["path"] for e in manifest["files"]}
        n_ok = n = 0
        for entry in manifest["files"]:
            for o in _check_entry(info, folder, entry):
                n += 1
                n_ok += o.ok
                if verbose or not o.ok:
                    out.write(f"  {'ok  ' if o.ok else 'FAIL'} {info.id}/{o.path} [{o.profile}] {o.detail}\n")
        for sub in ("valid", "invalid", "regressions"):
            d = folder / sub
            for p in sorted(d.iterdir()) if d.is_dir() else []:
                if p.suffix != ".json" and not p.name.startswith(".") and f"{sub}/{p.name}" not in listed:
                    n += 1
                    out.write(f"  FAIL {info.id}/{sub}/{p.name}: not in the manifest (add its expected outcome)\n")
        out.write(f"{info.id}: {len(manifest['files'])} files, {n} checks, {n_ok} as expected, {n - n_ok} not\n")
        total += n
        failed += n - n_ok
    if total == 0:
        err.write("recspec corpus: nothing to check\n")
        return 2
    out.write(f"corpus: {total} checks, {total - failed} as expected, {failed} not\n")
    return 0 if failed == 0 else 1


def _default_dir(fmt: str) -> Path:
    return _bundled_corpus(fmt)
