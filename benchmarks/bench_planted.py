#!/usr/bin/env python3
"""How many planted semantic bugs does a `ref` fuzz campaign find, and how fast?

    python benchmarks/bench_planted.py                   # every bug, 60 s campaigns
    python benchmarks/bench_planted.py --time 20 --only nanover-header-span carla-times-swapped

Each planted bug is one small edit of a decoder or a rule (``PLANTED`` below: the module, the
text replaced, what it breaks). The bug is planted in a campaign's processes only: a
``sitecustomize`` on ``PYTHONPATH`` (which the runner's atheris child inherits) imports the
edited source in place of the module, so the checkout is never written. The campaign is
``recspec fuzz FORMAT --target ref --time T --seed S --out TMP`` from the seeds, as a user
runs it; a bug is *found* when the campaign saves a crash that the format's control campaign
does not, and the time is when the first crash file appeared. Before the campaigns, each bug
is checked to change its module (the replaced text is there exactly once). First, per format,
a control campaign with nothing planted (same length and seed; ``--no-control`` skips it): a
crash it saves too is not the planted bug's.

Prints one Markdown row per bug and a summary per format (fuzz/README.md, "Planted bugs",
records a run). The campaigns run one after another: a run takes about (T + 10 s) per bug.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


@dataclass(frozen=True)
class Planted:
    name: str
    format: str
    path: str  # the module's file in the checkout
    old: str
    new: str
    what: str


PLANTED = (
    Planted("nanover-header-span", "nanover", "conformance/nanover/_check.py",
            "e.available if isinstance(e, Truncated) else HEADER_SIZE", "HEADER_SIZE",
            "a header cut short is reported as 16 bytes, past the end of a shorter file"),
    Planted("nanover-time-bit", "nanover", "conformance/nanover/_check.py",
            "        if ts >> 64:\n            add(\"NANOVER-TIME-001\"",
            "        if ts >> 65:\n            add(\"NANOVER-TIME-001\"",
            "the timestamp width check off by one bit (upper half 1 is missed)"),
    Planted("nanover-bond-orders", "nanover", "conformance/nanover/_check.py",
            "            if orders is not None and orders != bonds // 2:\n                add(",
            "            if False:\n                add(",
            "the per-bond array's length finding deleted"),
    Planted("nanover-template-time", "nanover", "conformance/nanover/_check.py",
            "fi = template.match(payload) if template is not None and prev < ts < prev + MAX_GAP_US else None",
            "fi = template.match(payload) if template is not None and prev <= ts < prev + MAX_GAP_US else None",
            "a frame the template proves is taken under a timestamp equal to the last (NANOVER-TIME-003 missed)"),
    Planted("carla-times-swapped", "carla", "reference/carla/_decode.py",
            "K.FRAME_START: (struct.Struct(\"<Qdd\"), lambda t: m.FrameStart(*t))",
            "K.FRAME_START: (struct.Struct(\"<Qdd\"), lambda t: m.FrameStart(t[0], t[2], t[1]))",
            "the decoder reads FrameStart's elapsed as durationThis and back"),
    Planted("carla-del-deleted", "carla", "conformance/carla/_check.py",
            "                if actor in alive:\n                    alive.discard(actor)\n                elif",
            "                if True:\n                    alive.discard(actor)\n                elif",
            "the finding for deleting an actor that does not exist deleted"),
    Planted("matrix-bool", "matrix-smt", "reference/matrix_smt/_bson.py",
            "            if b > 1:\n                raise self.fail(R_BOOL",
            "            if b > 2:\n                raise self.fail(R_BOOL",
            "the boolean check off by one (the byte 2 reads as false)"),
    Planted("matrix-trailing-offset", "matrix-smt", "conformance/matrix_smt/_check.py",
            "size {w.size})\", w.declared, w.trailing,", "size {w.size})\", w.declared + 1, w.trailing,",
            "trailing bytes located one byte late"),
    Planted("raskat-coordinates", "raskat-signal", "reference/raskat_signal/_signal.py",
            "coordinate_1 = property(lambda self: self._get(2),", "coordinate_1 = property(lambda self: self._get(3),",
            "a public property of the model returns the wrong field"),
    Planted("carla-bulk-flags", "carla", "conformance/carla/_frames.py",
            "if b.flags is not None and max(b.flags(t)) > 1:", "if b.flags is not None and max(b.flags(t)) > 2:",
            "the bulk frame proof accepts a flag of 2 (the walk reports CARLA-VALUE-001)"),
    Planted("raskat-proof", "raskat-signal", "reference/raskat_signal/_msgpack_fast.py",
            "if pos != len(buf) or b\"\".join(map(_PACK, fields)) != buf[2:]:", "if pos != len(buf):",
            "the C unpacker's proof accepts a body that is not canonical (the walk notes RSIG-MSGPACK-002)"),
    Planted("raskat-rate", "raskat-signal", "conformance/raskat_signal/_check.py",
            "        if rate <= 0:", "        if rate < 0:",
            "a zero sample rate is accepted"),
    # bugs of other kinds, added with the second-opinion oracle so that the measure is not the twelve alone:
    # off-by-one ranges, a swapped field, a lost finding in a fast path, a lost running maximum
    Planted("carla-door-range", "carla", "conformance/carla/_fields.py",
            'K.VEHICLE_DOOR: (1, "door", "CARLA-ENUM-003", 7)', 'K.VEHICLE_DOOR: (1, "door", "CARLA-ENUM-003", 8)',
            "the vehicle door range off by one (door 7 is accepted)"),
    Planted("carla-flag-swapped", "carla", "conformance/carla/_fields.py",
            'K.STATE: ((1, "is_frozen"),),', 'K.STATE: ((3, "is_frozen"),),',
            "the traffic-light flag check reads the state field instead of is_frozen"),
    Planted("nanover-state-fast", "nanover", "conformance/nanover/_check.py",
            'changes[key] = None if k == "null_value" else KEPT', "changes[key] = KEPT",
            "the fast path of state updates reads a deletion as a change (NANOVER-STATE-001 lost)"),
    Planted("nanover-residue-range", "nanover", "conformance/nanover/_check.py",
            "if self._len(refs) and c is not None and self._maximum(refs) >= c:",
            "if self._len(refs) and c is not None and self._maximum(refs) > c:",
            "a residue/chain index equal to its count is accepted (off by one)"),
    Planted("raskat-antenna", "raskat-signal", "conformance/raskat_signal/_check.py",
            'if want(10, "uint") and f[10] > 2:', 'if want(10, "uint") and f[10] > 3:',
            "antenna type 3 is accepted (off by one)"),
    Planted("raskat-v2-swapped", "raskat-signal", "reference/raskat_signal/_signal.py",
            "Fixed(lon_i, lon_f), Fixed(lat_i, lat_f), Fixed(alt_i, alt_f)",
            "Fixed(lat_i, lat_f), Fixed(lon_i, lon_f), Fixed(alt_i, alt_f)",
            "the v2 decoder swaps longitude and latitude"),
    Planted("matrix-time-max", "matrix-smt", "conformance/matrix_smt/_check.py",
            "self.prev_time = t if prev is None or t > prev else prev", "self.prev_time = t",
            "frame times are compared with the previous frame's, not the latest so far"),
    Planted("matrix-duplicate-id", "matrix-smt", "conformance/matrix_smt/_check.py",
            "            elif oid in self.objects:", "            elif False:",
            "the finding for an object id used twice deleted"),
    # Matrix-SMT bugs planted before the re-derivations of every decidable rule were written (a blind measure
    # of them): an off-by-one size range, two fields swapped in a rule, a decoder's fast element loop
    # reading int32 as unsigned, a deleted finding
    Planted("matrix-box-zero", "matrix-smt", "conformance/matrix_smt/_check.py",
            "if hd is not None and min(hd) <= 0:", "if hd is not None and min(hd) < 0:",
            "a box's half size of 0 is accepted (off by one at the range's edge)"),
    Planted("matrix-ray-swapped", "matrix-smt", "conformance/matrix_smt/_check.py",
            '(values["ox"], values["oy"], values["oz"]) == (values["ex"], values["ey"], values["ez"])',
            '(values["ox"], values["oy"], values["oz"]) == (values["ex"], values["ez"], values["ey"])',
            "the ray-length check compares the origin with the end point's y and z swapped"),
    Planted("matrix-int32-unsigned", "matrix-smt", "reference/matrix_smt/_bson.py",
            "_FIXED = {T_DOUBLE: (8, _F64), T_INT32: (4, _I32)}", "_FIXED = {T_DOUBLE: (8, _F64), T_INT32: (4, _U32)}",
            "the BSON decoder's fast element loop reads int32 values as unsigned (-1 reads as 4294967295)"),
    Planted("matrix-state-twice", "matrix-smt", "conformance/matrix_smt/_check.py",
            "            if sid in seen:\n                add(\"MATRIX-STATE-005\"",
            "            if False:\n                add(\"MATRIX-STATE-005\"",
            "the finding for a second state of one object in a frame deleted"),
    # NanoVer bugs planted before the frame rules' second opinion was written, in rules and a decoder that the
    # earlier bugs leave alone: an off-by-one index range, a check weakened in the fast path only, and a
    # decoder that reads one kind of Value as another
    Planted("nanover-user-index-range", "nanover", "conformance/nanover/_check.py",
            'if ui and count is not None and self._maximum("forces.user.index") >= count:',
            'if ui and count is not None and self._maximum("forces.user.index") > count:',
            "a forces.user.index entry equal to particle.count is accepted (off by one)"),
    Planted("nanover-box-fast", "nanover", "conformance/nanover/_check.py",
            'if m != 9 and key == "system.box.vectors":', 'if m > 9 and key == "system.box.vectors":',
            "the fast path accepts a system.box.vectors of fewer than 9 floats (NANOVER-FRAME-004 lost)"),
    Planted("nanover-bool-number", "nanover", "reference/nanover/_payload.py",
            "        return v.bool_value", "        return float(v.bool_value)",
            "the decoder reads a boolean Value as a number (1.0 or 0.0)"),
    # planted before the CARLA second opinion grew past frame times, lifetimes, flags and two enums, and
    # before its boundary mutations: in rules and decoders that oracle did not re-derive
    Planted("carla-invalid-actor-fast", "carla", "conformance/carla/_check.py",
            "if max(map(_THIRD, records)) < last_type and", "if max(map(_THIRD, records)) <= last_type and",
            "the fast path of clean EventAdd chunks accepts the INVALID actor type (CARLA-ENUM-001 lost)"),
    Planted("carla-parent-unchecked", "carla", "conformance/carla/_check.py",
            'for col, what in ((0, "database_id"), (1, "database_id_parent")):',
            'for col, what in ((0, "database_id"),):',
            "an EventParent's parent id is not checked (CARLA-ACTOR-001 lost)"),
    Planted("carla-light-swapped", "carla", "reference/carla/_decode.py",
            "K.COLLISION: m.Collision, K.STATE: m.TrafficLightState,",
            "K.COLLISION: m.Collision, K.STATE: lambda i, frozen, t, state: m.TrafficLightState(i, state, t, frozen),",
            "the decoder swaps a traffic light's frozen flag and state"),
)

_SITECUSTOMIZE = r'''
import importlib.abc, importlib.util, os, sys
_name = os.environ["RECSPEC_PLANT_MODULE"]
_origin, _path = os.environ["RECSPEC_PLANT_ORIGIN"], os.environ["RECSPEC_PLANT_SOURCE"]
_source = open(_path, encoding="utf-8").read()

class _Planted(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    def find_spec(self, fullname, path=None, target=None):
        if fullname != _name:
            return None
        return importlib.util.spec_from_loader(fullname, self, origin=_origin)
    def create_module(self, spec):
        return None
    def exec_module(self, module):
        module.__file__ = _origin
        exec(compile(_source, _origin, "exec"), module.__dict__)

sys.meta_path.insert(0, _Planted())
'''


def module_name(path: str) -> str:
    parts = list(Path(path).with_suffix("").parts)
    return ".".join(["recspec", *parts] if parts[0] in ("reference", "conformance", "fuzz") else parts)


def planted_source(bug: Planted) -> str:
    source = (ROOT / bug.path).read_text(encoding="utf-8")
    if source.count(bug.old) != 1:
        raise SystemExit(f"{bug.name}: the text to replace occurs {source.count(bug.old)} times in {bug.path}")
    return source.replace(bug.old, bug.new)


def run_fuzz(fmt: str, seconds: int, seed: int, plant: tuple[str, str, str] | None = None,
             checkout: Path = ROOT, python: str = sys.executable) -> tuple[float | None, list[str], str]:
    """One ``recspec fuzz FMT --target ref`` campaign, with ``plant`` = (module, its file, the edited
    source) imported in place of the module, or none, run by ``python`` in ``checkout`` (another
    checkout's interpreter runs that checkout's recspec). Returns (seconds to the first saved crash,
    the saved crashes' signatures, the campaign's last progress line)."""
    with tempfile.TemporaryDirectory() as tmp:
        site, out = Path(tmp) / "site", Path(tmp) / "out"
        site.mkdir()
        env = dict(os.environ)
        if plant is not None:
            module, origin, source = plant
            (site / "sitecustomize.py").write_text(_SITECUSTOMIZE, encoding="utf-8")
            (site / "planted.py").write_text(source, encoding="utf-8")
            env.update({"PYTHONPATH": os.pathsep.join(filter(None, [str(site), os.environ.get("PYTHONPATH")])),
                        "RECSPEC_PLANT_MODULE": module, "RECSPEC_PLANT_ORIGIN": origin,
                        "RECSPEC_PLANT_SOURCE": str(site / "planted.py")})
        started = time.monotonic()
        log = Path(tmp) / "log"
        with log.open("w", encoding="utf-8") as sink:  # a file, not a pipe: a long campaign's log cannot stall it
            proc = subprocess.Popen([python, "-m", "recspec", "fuzz", fmt, "--target", "ref",
                                     "--time", str(seconds), "--seed", str(seed), "--out", str(out)],
                                    cwd=checkout, env=env, stdout=sink, stderr=subprocess.STDOUT)
        first: float | None = None

        def crashed() -> bool:
            return out.is_dir() and any(p.suffix != ".json" and p.name.startswith("crash-") for p in out.iterdir())

        while proc.poll() is None:
            if first is None and crashed():
                first = time.monotonic() - started
            time.sleep(0.25)
        text = log.read_text(encoding="utf-8", errors="replace")
        if first is None and crashed():
            first = time.monotonic() - started
        signatures = sorted(json.loads(p.read_text(encoding="utf-8")).get("signature", "?")
                            for p in out.glob("crash-*.json")) if out.is_dir() else []
        last = next((line for line in reversed(re.split(r"[\r\n]", text)) if "execs (" in line), "")
        return first, signatures, last


def campaign(bug: Planted, seconds: int, seed: int, control: set[str]) -> tuple[bool, float | None, str]:
    """(found, seconds to the first saved crash, its signatures): found when the campaign saves a
    crash whose signature the format's control campaign (no bug planted) did not save too."""
    first, signatures, _ = run_fuzz(bug.format, seconds, seed,
                                    (module_name(bug.path), str(ROOT / bug.path), planted_source(bug)))
    new = [s for s in signatures if s not in control]
    return bool(new), first if new else None, ", ".join(new)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--time", type=int, default=60, help="seconds per campaign (default 60)")
    p.add_argument("--seed", type=int, default=1, help="libFuzzer seed (default 1)")
    p.add_argument("--only", nargs="+", metavar="NAME", help="only these planted bugs")
    p.add_argument("--list", action="store_true", help="list the planted bugs and exit")
    p.add_argument("--no-control", action="store_true",
                   help="skip the control campaign per format (nothing planted) whose crashes do not count")
    args = p.parse_args(argv)
    bugs = [b for b in PLANTED if not args.only or b.name in args.only]
    for bug in bugs:
        planted_source(bug)  # each edit applies before any campaign runs
    if args.list:
        for bug in bugs:
            print(f"{bug.name:24} {bug.format:14} {bug.path}: {bug.what}")
        return 0
    print(f"load before: {Path('/proc/loadavg').read_text().split()[0] if Path('/proc/loadavg').exists() else '?'}; "
          f"{args.time} s campaigns, seed {args.seed}\n")
    print("| bug | format | what | found | first crash after | signature |")
    print("|---|---|---|---|---|---|")
    found: dict[str, list[bool]] = {}
    controls: dict[str, set[str]] = {}
    for fmt in dict.fromkeys(b.format for b in bugs):
        if args.no_control:
            controls[fmt] = set()
            continue
        _, signatures, _ = run_fuzz(fmt, args.time, args.seed)
        controls[fmt] = set(signatures)
        print(f"| (control: nothing planted) | {fmt} | the checkout as it is | - | - | "
              f"{', '.join(signatures) or 'no crash'} |", flush=True)
    for bug in bugs:
        hit, seconds, signature = campaign(bug, args.time, args.seed, controls[bug.format])
        found.setdefault(bug.format, []).append(hit)
        print(f"| `{bug.name}` | {bug.format} | {bug.what} | {'yes' if hit else 'no'} | "
              f"{f'{seconds:.0f} s' if seconds is not None else '-'} | {signature} |", flush=True)
    print()
    for fmt, hits in found.items():
        print(f"{fmt}: {sum(hits)}/{len(hits)} found")
    total = [h for hits in found.values() for h in hits]
    print(f"all: {sum(total)}/{len(total)} found")
    return 0


if __name__ == "__main__":
    sys.exit(main())
