"""``recspec corpus``: check every file of a seed corpus against its manifest.

This is recspec's main self-test: every manifest entry is checked through the
same pipeline as ``recspec check`` (``recspec.pipeline.check_file``) and its
verdict, rule ids and detected variant are compared with what the manifest
expects (``recspec.conformance.corpus`` describes the manifests and builds them).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

from recspec.conformance.corpus import corpus_folder, load_manifest
from recspec.formats import FormatInfo
from recspec.pipeline import check_file
from recspec.report import Severity

__all__ = ["verify_corpus"]


@dataclass
class Outcome:
    path: str
    profile: str
    ok: bool
    detail: str


def _check_entry(info: FormatInfo, folder: Path, entry: Mapping[str, Any]) -> Iterator[Outcome]:
    path = folder / entry["path"]
    for profile, want in sorted(entry["expect"].items()):
        if not path.is_file():
            yield Outcome(entry["path"], profile, False, "file listed in the manifest is missing")
            continue
        variant = None if entry.get("detect") else entry.get("variant")
        by_extension = entry.get("format_from") == "extension"  # checked as `recspec check` without --format
        report = check_file(path, fmt=None if by_extension else info, variant=variant, profile=profile)
        assert report is not None
        got_rules = sorted({f.rule for f in report.findings if f.severity.rank >= Severity.WARNING.rank})
        problems = []
        if report.verdict.value != want["verdict"]:
            problems.append(f"verdict {report.verdict.value}, expected {want['verdict']}")
        if got_rules != sorted(want["rules"]):
            problems.append(f"rules {got_rules}, expected {sorted(want['rules'])}")
        if report.format != info.id:
            problems.append(f"reported as {report.format or 'unrecognized'}, expected {info.id}")
        if entry.get("detect") and report.variant != entry.get("variant"):
            problems.append(f"detected variant {report.variant}, expected {entry.get('variant')}")
        yield Outcome(entry["path"], profile, not problems, "; ".join(problems) or report.verdict.value)


def verify_corpus(infos: Iterable[FormatInfo], *, corpus_dir: Path | None = None,
                  verbose: bool = False, out: TextIO, err: TextIO) -> int:
    """Check every manifest entry; print a summary; 0 when all match, 1 otherwise, 2 if nothing to check."""
    base = corpus_dir
    total = failed = 0
    for info in infos:
        folder = (base / info.id) if base is not None else corpus_folder(info.id)
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
        for sub in ("valid", "invalid", "damaged", "regressions"):
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
