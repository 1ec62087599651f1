"""A toy reader written apart from recspec_toy (the struct layout of docs/toy.md), for `recspec drive reader`.

    python toy_reader.py FILE [--bug-trailing]

Prints the file's canonical case, or exits 1 to reject it. ``--bug-trailing`` plants a bug: bytes after the
last record are ignored instead of rejected (TOY-SIZE-001)."""

import json
import struct
import sys


def read(data: bytes, bug_trailing: bool) -> dict:
    if len(data) < 8 or data[:4] != b"TOYF":
        raise ValueError("not a toy file")
    version, flags, count = struct.unpack_from("<BBH", data, 4)
    end = 8 + 8 * count
    if len(data) < end or (len(data) > end and not bug_trailing):
        raise ValueError(f"the file has {len(data)} bytes, its records end at {end}")
    records = []
    for i in range(count):
        rid, value, _checksum, _reserved = struct.unpack_from("<HiBB", data, 8 + 8 * i)
        records.append({"id": rid, "value": value})
    return {"recspec_case": 2, "format": "toy", "variant": None, "version": version, "flags": flags,
            "records": records}


if __name__ == "__main__":
    with open(sys.argv[1], "rb") as f:
        try:
            case = read(f.read(), "--bug-trailing" in sys.argv)
        except ValueError as e:
            print(f"rejected: {e}", file=sys.stderr)
            sys.exit(1)
    print(json.dumps(case))
