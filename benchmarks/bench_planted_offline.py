#!/usr/bin/env python3
"""Does the `ref` harness's oracle see a planted bug on what its own mutator makes? In-process, no campaign.

    python benchmarks/bench_planted_offline.py                        # SAMPLE, 3,000 inputs each
    python benchmarks/bench_planted_offline.py --only nanover-bond-orders --inputs 10000
    python benchmarks/bench_planted_offline.py --control carla --only carla-attr-swapped   # a control run first
    cd OTHER && OTHER/.venv/bin/python THIS/benchmarks/bench_planted_offline.py   # OTHER's harness

A faster, coarser companion of bench_planted.py (whose 60 s campaigns are the measure): each bug (one
of bench_planted's ``PLANTED``, or of ``SAMPLE`` below) is planted in this process the way
bench_planted plants it (the edited module imported in place of the checkout's), then the format's
seeds and ``--inputs`` mutants made by the harness's own ``mutate`` (from the seeds and a tenth of
the mutants made so far, ``--seed``) go through the harness's ``ref`` target. A bug is *found* when an
input raises; the row gives the first input that did and the signatures. No coverage feedback, no
libFuzzer mutations: what a bug needs that only coverage guidance reaches is missed here.

``SAMPLE`` holds NanoVer bugs written after the frame rules' second opinion (fuzz/_nanover_facts.py),
without tuning either to the other: a wider sample of the kinds the planted benchmark stands for
(weakened and inverted checks, deleted findings, lost findings in a fast path, off-by-one limits,
decoder misreadings), for the harness of whichever checkout runs the script. One bug per process:
the script runs itself for each.

The other tuples hold bugs of the value-reading oracles, each planted and run before its oracle was written
(but ``MATRIX_RECOUNT``, written after): ``VALUE_CONTENTS`` (NanoVer values, arrays, keys, deletions),
``MATRIX_TYPED`` (the Matrix-SMT typed reader), ``MATRIX_RECOUNT`` (a finding lost beside another of its
rule), ``RASKAT_SAMPLES`` (raSkat samples and strings) and ``CARLA_VARIABLE`` (CARLA strings and variable-size
records). ``--control FORMAT`` runs a format with nothing planted first: an input that raises there is a false
alarm of an oracle (or a bug of the checkout), and no planted bug's.
"""

from __future__ import annotations

import argparse
import collections
import os
import random
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import bench_planted as bp

_C, _P = "conformance/nanover/_check.py", "reference/nanover/_payload.py"
SAMPLE = (
    bp.Planted("nv-short-arrays", "nanover", _C, "if got is not None and got != per * N:",
               "if got is not None and got > per * N:", "per-particle arrays shorter than particle.count accepted"),
    bp.Planted("nv-without-count", "nanover", _C, "            if present:\n",
               "            if len(present) > 1:\n", "one particle.* array without particle.count accepted"),
    bp.Planted("nv-sparse-short", "nanover", _C, "us != 3 * ui", "us < 3 * ui",
               "forces.user.sparse longer than 3 per index accepted"),
    bp.Planted("nv-odd-pairs", "nanover", _C, "            if bonds % 2:", "            if bonds % 2 and bonds > 2:",
               "an odd bond.pairs of 1 index accepted"),
    bp.Planted("nv-residue-sized", "nanover", _C, "if got is not None and got != int(c):",
               "if got is not None and got < int(c):", "residue/chain arrays longer than their count accepted"),
    bp.Planted("nv-refs-without-count", "nanover", _C, "elif self._len(refs) and bound not in numbers:",
               "elif False:", "the finding for residue indices without residue.count deleted"),
    bp.Planted("nv-count-fast", "nanover", _C,
               "                    if not (x >= 0 and math.isfinite(x) and x == int(x)):",
               "                    if not (x >= -1 and math.isfinite(x) and x == int(x)):",
               "a count of -1 accepted in the fast path"),
    bp.Planted("nv-ids-kind", "nanover", _C, 'elif key == "residue.ids" and member == "float_values":',
               'elif key == "residue.ids" and member == "index_values":', "FRAME-005 tests the wrong array kind"),
    bp.Planted("nv-empty-kind-inverted", "nanover", _C, 'if member == "index_values" and not a.index_values.values:',
               'if member == "index_values" and a.index_values.values:', "FRAME-006's emptiness check inverted"),
    bp.Planted("nv-state-kind-fast", "nanover", _C, "if k is None or (nested and", "if (nested and",
               "a state value with no kind lost in the fast path (PROTO-005)"),
    bp.Planted("nv-box-general", "nanover", _C, 'if key == "system.box.vectors" and len(arrays[key][1]) != 9:',
               'if key == "system.box.vectors" and len(arrays[key][1]) < 9:',
               "a box of more than 9 floats accepted off the fast path"),
    bp.Planted("nv-version", "nanover", _C, "    if header.version != FORMAT_VERSION:",
               "    if header.version > FORMAT_VERSION:", "versions below 2 accepted"),
    bp.Planted("nv-gap", "nanover", _C, "MAX_GAP_US = 120_000_000", "MAX_GAP_US = 120_000_001",
               "a gap of exactly 120 s accepted (off by one)"),
    bp.Planted("nv-string-strip", "nanover", _P, "        return v.string_value",
               "        return v.string_value.strip()", "the decoder strips strings"),
    bp.Planted("nv-reset-lost", "nanover", _P, "    return Frame(msg.frame_index,",
               "    return Frame(msg.frame_index or 1,", "the decoder never reads a reset (frame index 0)"),
)
#: Decoder bugs that alter a decoded value's contents (a number, a float array, a key's value, a list item, a
#: deleted key), planted before the oracle that reads values back from the bytes (``content_view``) was
#: written: the blind measure of that oracle (with ``nv-string-strip`` above).
VALUE_CONTENTS = (
    bp.Planted("nv-float-rounded", "nanover", _P,
               "    return Array(_ARRAY_KIND[member], tuple(getattr(a, member).values))",
               "    vals = getattr(a, member).values\n"
               "    return Array(_ARRAY_KIND[member], tuple(round(x, 4) for x in vals)"
               " if member == \"float_values\" else tuple(vals))", "the decoder rounds packed floats to 4 decimals"),
    bp.Planted("nv-number-rounded", "nanover", _P, "        return v.number_value",
               "        return round(v.number_value, 6)", "the decoder rounds a Value's number to 6 decimals"),
    bp.Planted("nv-values-swapped", "nanover", _P,
               "                 {k: value_from_message(f.values[k]) for k in canonical_keys(f.values)},",
               "                 dict(zip(keys := canonical_keys(f.values), [value_from_message(f.values[k]) for k in"
               " keys[1::-1] + keys[2:]])),", "the decoder swaps the values of a frame's first two keys"),
    bp.Planted("nv-list-last", "nanover", _P, "    return [value_from_message(x) for x in v.list_value.values]",
               "    return [value_from_message(x) for x in v.list_value.values][:-1]",
               "the decoder drops a ListValue's last item"),
    bp.Planted("nv-state-null-dropped", "nanover", _P,
               "    return StateUpdate({k: value_from_message(fields[k]) for k in canonical_keys(fields)})",
               "    return StateUpdate({k: value_from_message(fields[k]) for k in canonical_keys(fields)\n"
               "                        if fields[k].WhichOneof(\"kind\") != \"null_value\" or len(fields) > 2})",
               "the decoder drops a state update's deletions when it changes one or two keys"),
)

_MC = "reference/matrix_smt/_codec.py"
#: Bugs of the Matrix-SMT typed codec (``from_document``: the BSON document to the typed recording), planted
#: before the oracle that compares its fields with pymongo's reading (``_matrix_smt_typed.typed_view``).
MATRIX_TYPED = (
    bp.Planted("mx-ray-default", "matrix-smt", _MC, '"ex": 0.0, "ey": 1.0, "ez": 0.0,',
               '"ex": 0.0, "ey": 0.0, "ez": 0.0,',
               "the typed reader's default for a ray's missing end y is 0, not the viewer's 1"),
    bp.Planted("mx-rotation-reversed", "matrix-smt", _MC, '                 _vector(need("r"), 4, path + ".r", 0))',
               '                 _vector(need("r"), 4, path + ".r", 0)[::-1])',
               "the typed reader reverses a state's quaternion (w, z, y, x)"),
    bp.Planted("mx-time-first", "matrix-smt", _MC, '    if "t" in m:\n        time = _number(m["t"]',
               '    if "t" in m and "time" not in m:\n        time = _number(m["t"]',
               "the typed reader takes 'time' over 't' when a frame has both"),
    bp.Planted("mx-destroyed-flag", "matrix-smt", _MC, '"destroyed": Presence.DESTROYED}',
               '"destroyed": Presence.INSTANTIATED}', "the typed reader reads compat's 'destroyed' as instantiated"),
    bp.Planted("mx-static-default", "matrix-smt", _MC, 'static = d.get("static", False)',
               'static = d.get("static", True)', "the typed reader's default for a missing 'static' is true"),
)
_MK = "conformance/matrix_smt/_check.py"
#: Matrix-SMT checker bugs that lose a finding while another of the same rule still fires in the same file (the
#: verdict stays; the count changes): for the rules the recount (``check_recounted``) took in when it was widened
#: from ten rules to all 27 the second opinion judges. Written after that widening (not blind).
MATRIX_RECOUNT = (
    bp.Planted("mx-unknown-key-once", "matrix-smt", _MK,
               "                         doc.offsets[i] if doc.offsets else None, None, _join(path, k), None, k)\n",
               "                         doc.offsets[i] if doc.offsets else None, None, _join(path, k), None, k)\n"
               "                return\n", "only the first unknown key of a document is noted (DOC-002)"),
    bp.Planted("mx-style-first", "matrix-smt", _MK,
               '                            f"{path}.{key}", "[0, 1]", v)\n',
               '                            f"{path}.{key}", "[0, 1]", v)\n                        break\n',
               "only the first command style value outside [0, 1] is reported (CMD-003)"),
    bp.Planted("mx-missing-first", "matrix-smt", _MK,
               '                    add("MATRIX-OBJ-001", f"{path} has no {key!r}", off, None, path, key, None)\n',
               '                    add("MATRIX-OBJ-001", f"{path} has no {key!r}", off, None, path, key, None)\n'
               '                    break\n', "only the first missing required key of an object is reported (OBJ-001)"),
)
_CD = "reference/carla/_decode.py"
#: CARLA decoder bugs in what no fixed-layout view reads (strings, names, variable-size records), planted before
#: the oracle that reads them back from the bytes (``_carla_variable.variable_view``) was written.
CARLA_VARIABLE = (
    bp.Planted("carla-attr-swapped", "carla", _CD,
               '        a = m.ActorAttribute(atype, bytes(buf[pos + 3:at_value]).decode("utf-8", "surrogateescape"),\n'
               '                             bytes(buf[at_value + 2:stop]).decode("utf-8", "surrogateescape"))',
               '        a = m.ActorAttribute(atype, bytes(buf[at_value + 2:stop]).decode("utf-8", "surrogateescape"),\n'
               '                             bytes(buf[pos + 3:at_value]).decode("utf-8", "surrogateescape"))',
               "the decoder swaps an actor attribute's id and value"),
    bp.Planted("carla-string-cut", "carla", _CD,
               '        return bytes(self.buf[start:self.pos]).decode("utf-8", "surrogateescape")',
               '        return bytes(self.buf[start:self.pos])[:20].decode("utf-8", "surrogateescape")',
               "the decoder cuts a payload's strings (blueprint ids, bone names) to 20 bytes"),
    bp.Planted("carla-map-suffix", "carla", _CD,
               '    text = bytes(buf[offset:offset + n]).decode("utf-8", "surrogateescape")\n',
               '    text = bytes(buf[offset:offset + n]).decode("utf-8", "surrogateescape").rstrip("_Opt")\n',
               "the decoder strips the header strings' _Opt suffix (Town10HD_Opt read as Town10HD)"),
    bp.Planted("carla-bone-swapped", "carla", _CD, "        bones.append(m.WalkerBone(name, loc, rot))",
               "        bones.append(m.WalkerBone(name, rot, loc))",
               "the decoder swaps a walker bone's location and rotation"),
    bp.Planted("carla-wheel-angles", "carla", _CD,
               '    wheels = tuple(m.WheelAnim(*c.take(_S_WHEEL_ANIM, "wheels[{}]", i)) for i in range(n))',
               '    wheels = tuple(m.WheelAnim(*(lambda t: (t[0], t[2], t[1]))(c.take(_S_WHEEL_ANIM, "wheels[{}]", i)))'
               ' for i in range(n))', "the decoder swaps a wheel's steering angle and tyre rotation"),
)
_RS, _RM = "reference/raskat_signal/_signal.py", "reference/raskat_signal/_msgpack.py"
#: raSkat decoder bugs that alter sample values or strings, planted before the samples were read back from the
#: bytes (``raskat_signal.read_fields``: v1/v2 samples by ``struct``, v3/v4 arrays of any plain values by msgpack).
RASKAT_SAMPLES = (
    bp.Planted("rk-v1-endian", "raskat-signal", _RS,
               '    if (version == 2) != (struct.pack("=h", 1) == struct.pack("<h", 1)):', "    if False:",
               "the v1 samples read little-endian, not big-endian"),
    bp.Planted("rk-v2-unsigned", "raskat-signal", _RS, '    a = array("h")', '    a = array("H")',
               "the v1/v2 samples read as unsigned int16"),
    bp.Planted("rk-float-sample", "raskat-signal", _RM,
               "            v, p = unpack(buf, p, depth=depth + 1, max_depth=max_depth, note=note)\n"
               "            append(v)",
               "            v, p = unpack(buf, p, depth=depth + 1, max_depth=max_depth, note=note)\n"
               "            append(float(int(v)) if type(v) is float and abs(v) < 1e300 else v)",
               "the msgpack walk truncates a float inside an array to a whole number"),
    bp.Planted("rk-fixstr-strip", "raskat-signal", _RM,
               '        return buf[pos + 1:pos + 1 + n].decode("utf-8", "surrogateescape"), pos + 1 + n',
               '        return buf[pos + 1:pos + 1 + n].decode("utf-8", "surrogateescape").strip(), pos + 1 + n',
               "the msgpack walk strips a fixstr"),
)
BUGS = {b.name: b for b in (*bp.PLANTED, *SAMPLE, *VALUE_CONTENTS, *MATRIX_TYPED, *MATRIX_RECOUNT, *RASKAT_SAMPLES,
                             *CARLA_VARIABLE)}


def control(fmt: str) -> bp.Planted:
    """The control run of ``fmt``: nothing planted (any input that raises is a false alarm or a real bug)."""
    return bp.Planted(f"control:{fmt}", fmt, "", "", "", "nothing planted (control)")


def one(bug: bp.Planted, inputs: int, seed: int) -> str:
    """This process with ``bug`` planted (none for a control): the row of its result."""
    source = Path(os.environ.get("TMPDIR", "/tmp")) / f"planted-offline-{os.getpid()}.py"
    if bug.path:
        source.write_text(bp.planted_source(bug), encoding="utf-8")
        os.environ.update({"RECSPEC_PLANT_MODULE": bp.module_name(bug.path),
                           "RECSPEC_PLANT_ORIGIN": str(bp.ROOT / bug.path), "RECSPEC_PLANT_SOURCE": str(source)})
        exec(bp._SITECUSTOMIZE, {})  # the finder bench_planted puts in a campaign's sitecustomize, at its own top level
    from recspec.formats import FORMATS
    from recspec.fuzz._harness import load_harness

    harness = load_harness(FORMATS[bug.format])
    corpus = bp.ROOT / "corpus" / bug.format
    pool = [p.read_bytes() for sub in ("valid", "invalid", "damaged", "regressions") if (corpus / sub).is_dir()
            for p in sorted((corpus / sub).iterdir()) if p.is_file() and p.suffix != ".json"]
    pool += [data for _, data in harness.synthetic_seeds()]
    seeds = len(pool)
    rng = random.Random(seed)
    signatures: collections.Counter[str] = collections.Counter()
    first: int | None = None
    for i in range(seeds + inputs):
        data = pool[i] if i < seeds else harness.mutate(rng.choice(pool), 4096, rng.randrange(1 << 30))
        if i >= seeds and rng.random() < 0.1:
            pool.append(data)
        try:
            harness.TARGETS["ref"](data)
        except Exception as e:  # noqa: BLE001 - whatever the harness raises is the finding
            signature = e.signature() if hasattr(e, "signature") else type(e).__name__
            signatures[signature] += 1
            first = i if first is None else first
    source.unlink(missing_ok=True)
    return (f"| `{bug.name}` | {bug.what} | {'yes' if signatures else 'no'} | {first if first is not None else '-'} "
            f"| {', '.join(sorted(signatures))} |")


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--only", nargs="+", metavar="NAME", help="these bugs (bench_planted's or SAMPLE's names)")
    p.add_argument("--inputs", type=int, default=3000, help="mutants per bug after the seeds (default 3000)")
    p.add_argument("--seed", type=int, default=1, help="the mutants' random seed (default 1)")
    p.add_argument("--control", nargs="+", metavar="FORMAT", default=[],
                   help="also run these formats with nothing planted first (an input that raises there is a false "
                        "alarm of an oracle, or a bug of the checkout)")
    p.add_argument("--one", metavar="NAME", help=argparse.SUPPRESS)  # the child: one bug in this process
    args = p.parse_args(argv)
    if args.one:
        bug = control(args.one.removeprefix("control:")) if args.one.startswith("control:") else BUGS[args.one]
        print(one(bug, args.inputs, args.seed), flush=True)
        return 0
    names = [f"control:{fmt}" for fmt in args.control] + (args.only or ([] if args.control else
                                                                         [b.name for b in SAMPLE]))
    unknown = [n for n in names if n not in BUGS and not n.startswith("control:")]
    if unknown:
        p.error(f"no planted bug named {', '.join(unknown)}")
    for name in names:
        if name in BUGS:
            bp.planted_source(BUGS[name])  # each edit applies before any run
    print(f"load before: {Path('/proc/loadavg').read_text().split()[0]}; {args.inputs} inputs per bug, seed "
          f"{args.seed}; harness of the checkout in {Path.cwd()}\n")
    print("| bug | what | found | first input that raised | signatures |")
    print("|---|---|---|---|---|")
    found = 0
    for name in names:
        row = subprocess.run([sys.executable, __file__, "--one", name, "--inputs", str(args.inputs), "--seed",
                              str(args.seed)], capture_output=True, text=True).stdout.strip()
        print(row or f"| `{name}` | (the run failed) | - | - | |", flush=True)
        found += "| yes |" in row and not name.startswith("control:")
    print(f"\n{found}/{len([n for n in names if n in BUGS])} found")
    return 0


if __name__ == "__main__":
    sys.exit(main())
