"""Write recspec_toy/corpus/toy/ (valid/, invalid/, damaged/, manifest.json) from the seeds, byte for byte;
``--check`` fails when the committed corpus differs (tests/test_plugin_toy.py runs it).

Run it with the plugin installed (the damaged-header files go through the registry), e.g.
``pip install --no-deps --target /tmp/toy-site tests/plugins/toy`` and
``PYTHONPATH=tests/plugins/toy:/tmp/toy-site python tests/plugins/toy/make_corpus.py``."""

from __future__ import annotations

import sys
from pathlib import Path

from recspec.conformance.corpus import build_manifest, damaged_header_seeds, manifest_json
from recspec_toy.conformance._seeds import seeds

FOLDER = Path(__file__).resolve().parent / "recspec_toy" / "corpus" / "toy"


def main(argv: list[str]) -> int:
    built = list(seeds())
    built += damaged_header_seeds("toy", built)
    wanted = {s.name: s.data for s in built}
    wanted["manifest.json"] = manifest_json(build_manifest("toy", built, {"files": []})).encode()
    if "--check" in argv:
        stale = [n for n, data in wanted.items() if not (FOLDER / n).is_file() or (FOLDER / n).read_bytes() != data]
        for name in stale:
            print(f"{FOLDER / name}: differs from the seeds; run {Path(__file__).name}", file=sys.stderr)
        return 1 if stale else 0
    for name, data in wanted.items():
        (FOLDER / name).parent.mkdir(parents=True, exist_ok=True)
        (FOLDER / name).write_bytes(data)
    print(f"toy: {len(built)} files, manifest {FOLDER / 'manifest.json'}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
