"""A correct writer for every format: recspec's reference encoder wrapped as a command.

    python reference_writer.py CASE.json OUT [PROFILE]

Reads the case, writes the canonical file; exits 1 (refusing) when the format
cannot hold the case."""

import json
import sys
from pathlib import Path

from recspec.errors import EncodeError
from recspec.formats import FORMATS


def main() -> int:
    case = json.loads(Path(sys.argv[1]).read_text(encoding="utf-8"))
    profile = sys.argv[3] if len(sys.argv) > 3 else "spec"
    codec = FORMATS[case["format"]].load_reference()
    try:
        model = codec.from_case(case)
        extra = {"profile": profile} if case["format"] == "matrix-smt" else {}
        data = codec.encode(model, variant=case["variant"], **extra)
    except EncodeError as e:
        print(f"cannot write this case: {e}", file=sys.stderr)
        return 1
    with open(sys.argv[2], "wb") as f:
        f.write(data)
    return 0


if __name__ == "__main__":
    sys.exit(main())
