"""A toy writer written apart from recspec_toy (the struct layout of docs/toy.md), for `recspec drive writer`.

    python toy_writer.py CASE.json OUT [--bug-reserved]

``--bug-reserved`` plants a bug: every record's reserved byte is written as 0xFF (TOY-RESERVED-001)."""

import json
import struct
import sys


def write(case: dict, bug_reserved: bool) -> bytes:
    out = bytearray(b"TOYF" + struct.pack("<BBH", case["version"], case["flags"], len(case["records"])))
    for rec in case["records"]:
        body = struct.pack("<Hi", rec["id"], rec["value"])
        checksum = rec.get("checksum", sum(body) % 256)
        out += body + bytes([checksum, 0xFF if bug_reserved else rec.get("reserved", 0)])
    return bytes(out)


if __name__ == "__main__":
    with open(sys.argv[1], encoding="utf-8") as f:
        data = write(json.load(f), "--bug-reserved" in sys.argv)
    with open(sys.argv[2], "wb") as f:
        f.write(data)
