"""recspec's reference codec as a persistent testee (``recspec drive --persistent``), with two planted faults.

    python persistent_testee.py [--crash-above-sample-rate N] [--hang-from-flags N] [PROFILE]   # a writer
    python persistent_testee.py --read FORMAT [VARIANT]                                    # a reader

One process answers every request (a 4-byte little-endian length, then UTF-8 JSON, each way): a writer request
``{"case": ..., "out": PATH}`` is written by the reference encoder (``{"ok": false}`` to refuse a case the format
cannot hold); a reader request ``{"file": PATH}`` is read by the reference decoder (``{"ok": true, "case": ...}``;
``{"ok": false}`` to reject a file recspec does not find valid). The planted faults, for raSkat v2 cases: the
process kills itself with SIGSEGV on a case whose sample_rate is above N (the smallest: N + 1), and stops
answering (sleeps) on one whose flags are N or more (the smallest: N). ``recspec drive`` must report each
against its case, restart the process, and go on."""

import json
import os
import signal
import struct
import sys
import time

from _command import reference_encoding

import recspec
from recspec.errors import EncodeError
from recspec.formats import FORMATS


def _args() -> tuple[int | None, int | None, str]:
    argv = [a for a in sys.argv[1:] if a != "--read"]
    crash = hang = None
    if "--crash-above-sample-rate" in argv:
        i = argv.index("--crash-above-sample-rate")
        crash = int(argv.pop(i + 1))
        argv.pop(i)
    if "--hang-from-flags" in argv:
        i = argv.index("--hang-from-flags")
        hang = int(argv.pop(i + 1))
        argv.pop(i)
    return crash, hang, argv[0] if argv else "spec"


def write(case: dict, out: str, profile: str, crash: int | None, hang: int | None) -> dict:
    if crash is not None and case.get("sample_rate", 0) > crash:
        os.kill(os.getpid(), signal.SIGSEGV)
    if hang is not None and case.get("flags", -1) >= hang:
        time.sleep(3600)
    try:
        data = reference_encoding(case, profile)
    except EncodeError as e:
        return {"ok": False, "error": str(e)}
    with open(out, "wb") as f:
        f.write(data)
    return {"ok": True}


def read(path: str, fmt: str, variant: str | None, profile: str) -> dict:
    """As tests/testees/reference_reader.py: reject what recspec does not find valid, else print its case."""
    report = recspec.check(path, format=fmt, variant=variant, profile=profile, cross_check=False)
    if report.verdict.value != "valid":
        return {"ok": False, "error": f"rejected: {report.verdict.value}"}
    codec = FORMATS[fmt].load_reference()
    with open(path, "rb") as f:
        data = f.read()
    return {"ok": True, "case": codec.to_case(codec.decode(data, variant=variant), variant=variant)}


def main() -> int:
    crash, hang, profile = _args()
    stdin, stdout = sys.stdin.buffer, sys.stdout.buffer
    while len(head := stdin.read(4)) == 4:
        request = json.loads(stdin.read(struct.unpack("<I", head)[0]))
        if "case" in request:
            answer = write(request["case"], request["out"], profile, crash, hang)
        else:
            fmt, variant = sys.argv[2], (sys.argv[3] if len(sys.argv) > 3 else "") or None
            answer = read(request["file"], fmt, variant, "spec")
        body = json.dumps(answer).encode("utf-8")
        stdout.write(struct.pack("<I", len(body)) + body)
        stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
