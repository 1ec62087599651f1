"""``recspec corpus export DIR``: the seed corpus as test vectors any language can run.

The layout (recspec/schemas/vectors-1.schema.json; docs/testees/vectors.md shows a
reader and a writer in C++ running them)::

    DIR/manifest.json                      {"recspec_vectors": 1, "case_schema": 2, "vectors": [...]}
    DIR/<format>/<valid|invalid|damaged|regressions>/<name>    the file, byte for byte
    DIR/<format>/<valid|invalid|damaged|regressions>/<name>.json  its sidecar

A sidecar holds what the manifest of ``corpus/<format>/`` states by hand (the
verdict and the rule ids at warning level or above, per profile; whether the
variant is detected from content) and what the reference decoder reads from the
file: ``case``, the lossless case (``case_is_exact``: ``recspec encode`` of it
gives these bytes; false where the file says more than a case can, e.g. a
protobuf field the schema does not know), and ``canonical_case``, the content alone (what a reader is compared with by
``recspec drive reader``), null with ``no_case`` saying why for a file that
does not decode (``case`` is null too) or whose content is no case (a CARLA log
not bracketed into frames, which has a lossless case of its packets). Everything is deterministic: the same corpus
exports to the same bytes.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from recspec._case_json import CASE_VERSION, CaseError, case_text
from recspec._version import __version__
from recspec.conformance.corpus import corpus_folder, load_manifest
from recspec.errors import DecodeError, EncodeError, UsageError
from recspec.formats import FormatInfo

__all__ = ["VECTORS_VERSION", "export_vectors", "sidecar"]

#: ``recspec_vectors`` of the manifest and ``recspec_vector`` of each sidecar; bumped when a field changes meaning.
VECTORS_VERSION = 1


def _json(obj: Any) -> str:
    return case_text(obj) + "\n"


def sidecar(info: FormatInfo, entry: Mapping[str, Any], data: bytes) -> dict[str, Any]:
    """The sidecar of one manifest entry whose file holds ``data``."""
    variant = entry.get("variant")
    codec = info.load_reference()
    case = canonical = None
    no_case = None
    exact = False
    try:
        model = codec.decode(data, variant=variant)
        case = codec.to_case(model, variant=variant)
        exact = codec.encode(codec.from_case(json.loads(case_text(case))), variant=variant) == data
        canonical = codec.to_case(model, variant=variant, canonical=True)
    except DecodeError as e:
        no_case = {"error": str(e), "rule": e.rule, "offset": e.offset}
    except (CaseError, EncodeError, UsageError) as e:
        # UsageError: a damaged/ file whose header no longer names its variant (a NanoVer kind) cannot be decoded
        no_case = {"error": str(e).split("\n  hint:")[0], "rule": None, "offset": None}
    return {
        "recspec_vector": VECTORS_VERSION,
        "format": info.id,
        "file": Path(entry["path"]).name,
        "size": len(data),
        "sha256": hashlib.sha256(data).hexdigest(),
        "variant": variant,
        "detect_variant": bool(entry.get("detect")),
        "description": entry.get("description", ""),
        "expect": {p: {"verdict": e["verdict"], "rules": sorted(e["rules"])}
                   for p, e in sorted(entry["expect"].items())},
        "case": case,
        "case_is_exact": exact,
        "canonical_case": canonical,
        "no_case": no_case,
    }


def _clear_previous_export(out: Path) -> None:
    """Make ``out`` ready for an export: a new or empty folder as it is; a previous export's files (those its
    manifest lists, with their sidecars) removed, so no vector of an older corpus stays beside the new manifest;
    any other non-empty folder refused (it is not ours to overwrite or delete from)."""
    if not out.exists():
        return
    if not out.is_dir():
        raise UsageError(f"{out} exists and is not a folder", "recspec corpus export DIR")
    if not any(out.iterdir()):
        return
    manifest_path = out / "manifest.json"
    try:
        old = json.loads(manifest_path.read_text(encoding="utf-8"))
        listed = [(v["file"], v["sidecar"]) for v in old["vectors"]] if "recspec_vectors" in old else None
    except (OSError, ValueError, TypeError, KeyError):
        listed = None
    if listed is None:
        raise UsageError(f"{out} is not empty and holds no recspec vectors manifest; export into a new or empty "
                         "folder (or a previous export, which is replaced)", "recspec corpus export DIR")
    root = out.resolve()
    for names in listed:
        for name in names:
            target = (out / name).resolve()
            if root in target.parents and target.is_file():  # never outside DIR, whatever the manifest says
                target.unlink()
    manifest_path.unlink()


def export_vectors(infos: Iterable[FormatInfo], out: Path, *, corpus_dir: Path | None = None) -> dict[str, Any]:
    """Write the vectors of ``infos``' corpora (the bundled one, or ``corpus_dir/<format>``) to ``out``;
    the manifest written. ``out`` is new, empty or a previous export (whose files are replaced: what it listed
    is removed first); any other non-empty folder is a :class:`UsageError`."""
    _clear_previous_export(out)
    vectors: list[dict[str, Any]] = []
    for info in infos:
        folder = corpus_dir / info.id if corpus_dir is not None else corpus_folder(info.id)
        if not (folder / "manifest.json").is_file():
            raise UsageError(f"{info.id}: no corpus manifest at {folder / 'manifest.json'}")
        for entry in load_manifest(folder)["files"]:
            data = (folder / entry["path"]).read_bytes()
            side = sidecar(info, entry, data)
            target = out / info.id / entry["path"]
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data)
            (target.parent / (target.name + ".json")).write_text(_json(side), encoding="utf-8")
            vectors.append({"format": info.id, "file": f"{info.id}/{entry['path']}",
                            "sidecar": f"{info.id}/{entry['path']}.json", "variant": side["variant"],
                            "sha256": side["sha256"], "has_case": side["case"] is not None})
    manifest = {"recspec_vectors": VECTORS_VERSION, "recspec_version": __version__, "case_schema": CASE_VERSION,
                "vectors": vectors}
    out.mkdir(parents=True, exist_ok=True)
    (out / "manifest.json").write_text(_json(manifest), encoding="utf-8")
    return manifest
