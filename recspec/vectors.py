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


def export_vectors(infos: Iterable[FormatInfo], out: Path, *, corpus_dir: Path | None = None) -> dict[str, Any]:
    """Write the vectors of ``infos``' corpora (the bundled one, or ``corpus_dir/<format>``) to ``out``;
    the manifest written."""
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
