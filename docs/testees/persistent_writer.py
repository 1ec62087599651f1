"""A persistent Python writer for `recspec drive writer --persistent`: one process writes every case.

    recspec drive writer nanover --persistent -- python docs/testees/persistent_writer.py

recspec sends each request as a 4-byte little-endian length and that many bytes of UTF-8 JSON on standard
input, ``{"case": {...}, "out": "/path/to/write"}``, and reads each answer the same way on standard output:
``{"ok": true}`` once the file is written, ``{"ok": false, "error": "why"}`` to refuse a case the format cannot
hold. Standard input ends when there is nothing more to write. Anything the writer prints must go to standard
error: standard output carries the answers.

The writer here is the NanoVer adapter of test_nanover_writer.py (recspec's own incremental writer standing in
for yours); ``serve`` is the part to copy."""

import json
import struct
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from test_nanover_writer import write  # your adapter: write(case, out_path)


def serve(handle) -> None:
    """Answer requests until standard input ends: ``handle(request)`` does one and returns the answer."""
    stdin, stdout = sys.stdin.buffer, sys.stdout.buffer
    while True:
        head = stdin.read(4)
        if len(head) < 4:
            return  # no more requests
        (size,) = struct.unpack("<I", head)
        request = json.loads(stdin.read(size))
        body = json.dumps(handle(request)).encode("utf-8")
        stdout.write(struct.pack("<I", len(body)) + body)
        stdout.flush()


def handle(request: dict) -> dict:
    try:
        write(request["case"], Path(request["out"]))
    except (ValueError, OverflowError) as e:  # what your writer raises for a case it cannot hold
        return {"ok": False, "error": str(e)}
    return {"ok": True}


if __name__ == "__main__":
    serve(handle)
