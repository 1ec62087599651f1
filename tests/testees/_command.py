"""What the testees do as commands: a reader prints the case it read, or rejects the file with status 1; a writer
writes the file of the case named on its command line, or refuses a case it cannot write with status 1."""

import json
import sys
from collections.abc import Callable
from pathlib import Path

from recspec.errors import DecodeError, EncodeError
from recspec.formats import FORMATS


def reader_main(read: Callable[[], dict]) -> int:
    """Run ``read()`` (the testee's reading of the file named on its command line) as ``recspec drive`` expects."""
    try:
        case = read()
    except DecodeError as e:
        print(f"rejected: {e}", file=sys.stderr)
        return 1
    print(json.dumps(case))
    return 0


def reference_encoding(case: dict, profile: str) -> bytes:
    """The reference encoder's file for ``case`` (Matrix-SMT's form follows ``profile``); ``EncodeError`` for a case
    the format cannot hold."""
    codec = FORMATS[case["format"]].load_reference()
    extra = {"profile": profile} if case["format"] == "matrix-smt" else {}
    return codec.encode(codec.from_case(case), variant=case["variant"], **extra)


def writer_main(write: Callable[[dict, str], None]) -> int:
    """Run ``write(case, out_path)`` on ``CASE.json OUT`` from the command line, as ``recspec drive`` expects."""
    try:
        write(json.loads(Path(sys.argv[1]).read_text(encoding="utf-8")), sys.argv[2])
    except EncodeError as e:
        print(f"cannot write this case: {e}", file=sys.stderr)
        return 1
    return 0
