"""A correct writer for every format: recspec's reference encoder wrapped as a command.

    python reference_writer.py CASE.json OUT [PROFILE]

Reads the case, writes the canonical file; exits 1 (refusing) when the format
cannot hold the case."""

import json
import sys
from pathlib import Path

from _command import reference_encoding

from recspec.errors import EncodeError


def main() -> int:
    case = json.loads(Path(sys.argv[1]).read_text(encoding="utf-8"))
    profile = sys.argv[3] if len(sys.argv) > 3 else "spec"
    try:
        data = reference_encoding(case, profile)
    except EncodeError as e:
        print(f"cannot write this case: {e}", file=sys.stderr)
        return 1
    with open(sys.argv[2], "wb") as f:
        f.write(data)
    return 0


if __name__ == "__main__":
    sys.exit(main())
