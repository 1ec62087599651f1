"""What every reader testee does as a command: print the case it read, or reject the file with status 1."""

import json
import sys
from collections.abc import Callable

from recspec.errors import DecodeError


def reader_main(read: Callable[[], dict]) -> int:
    """Run ``read()`` (the testee's reading of the file named on its command line) as ``recspec drive`` expects."""
    try:
        case = read()
    except DecodeError as e:
        print(f"rejected: {e}", file=sys.stderr)
        return 1
    print(json.dumps(case))
    return 0
