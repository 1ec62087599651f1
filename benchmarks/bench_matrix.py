"""Benchmark recspec on Matrix-SMT recordings.

(a) the reference path: ``recspec check --json --no-cross-check FILE`` run as a
    subprocess on synthetic recordings (default 50 and 200 MB, spec encoding,
    8 objects, 60 frames/s): throughput (file MB per wall-clock second and per
    CPU second, MB = 10**6 bytes) and peak RSS;
(b) the same on a compat-encoded recording (``--compat-size``, default 50 MB):
    the producer's encoding does not take the fast path, so this is the full
    walk's speed;
(c) the cross-check readers on a small recording (``--xcheck-size``, default
    2 MB): the Kaitai parser (``recspec/_ksy/matrix_smt_record.py``, debug mode)
    and pymongo's ``bson.decode``, each in a fresh process.

Every measured command runs in a fresh process pinned to one CPU (``taskset``)
with the file already in the page cache. The helpers (timing, pinning, RSS) are
``bench_carla.py``'s.

Usage::

    python benchmarks/bench_matrix.py [--sizes 50MB,200MB] [--compat-size 50MB] [--xcheck-size 2MB]
                                      [--repeat N] [--workdir DIR] [--keep]

Results are printed as a table and written as JSON to ``benchmarks/out/``.
"""

from __future__ import annotations

import argparse
import datetime as _dt
import json
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import make_matrix_recording  # noqa: E402  (sits next to this file)
from bench_carla import (  # noqa: E402  (the shared timing helpers)
    _cpu_model,
    _git_commit,
    _json_tail,
    _label,
    _pin_prefix,
    _summarise,
    _verdict_of,
    _warm,
    cli_command,
    measure,
)

#: The throughput bar of the reference path (MB/s on one core), on recordings of at least BAR_MIN_BYTES.
BAR_MB_PER_S = 30.0
BAR_MIN_BYTES = 200 * 10**6

_KAITAI = r"""
import io, sys
from kaitaistruct import KaitaiStream
from recspec._ksy.matrix_smt_record import MatrixSmtRecord
with open(sys.argv[1], "rb") as f:
    r = MatrixSmtRecord(KaitaiStream(f)); r._read()
print('{"verdict": "parsed"}')
"""
_PYMONGO = r"""
import sys, bson
with open(sys.argv[1], "rb") as f:
    doc = bson.decode(f.read())
print('{"verdict": "parsed", "frames": %d}' % len(doc["frames"]))
"""


def _file(workdir: Path, size: int, profile: str, seed: int) -> tuple[Path, dict[str, Any]]:
    path = workdir / f"matrix-{profile}-{_label(size)}-seed{seed}.bson"
    meta_path = path.with_suffix(".json")
    if path.exists() and meta_path.exists():
        meta = json.loads(meta_path.read_text())
        if meta.get("bytes") == path.stat().st_size:
            return path, meta
    print(f"  writing {path} ...", end="", flush=True)
    t0 = time.perf_counter()
    meta = make_matrix_recording.write(path, size, seed=seed, profile=profile)
    meta["generate_s"] = time.perf_counter() - t0
    meta_path.write_text(json.dumps(meta))
    print(f" {meta['bytes']} bytes, {meta['frames']} frames in {meta['generate_s']:.0f} s", flush=True)
    return path, meta


def _run(cmd: list[str], path: Path, repeat: int, tmp: Path) -> dict[str, Any]:
    _warm(path)
    runs = [measure([*cmd, str(path)], tmp) for _ in range(repeat)]
    row = _summarise(runs, path.stat().st_size)
    row.update(_verdict_of(_json_tail(runs[-1]["stdout"])))
    row["exit"] = runs[-1].get("exit")
    row["bytes"] = path.stat().st_size
    return row


def _table(title: str, rows: list[dict[str, Any]]) -> str:
    lines = [title, f"  {'file':<34} {'MB':>8} {'wall s':>8} {'MB/s':>7} {'MB/cpu-s':>9} {'peak RSS':>9}  verdict"]
    for r in rows:
        rss = f"{r['max_rss_mib']:.0f} MiB" if r.get("max_rss_mib") else "-"
        cpu = f"{r['mb_per_cpu_s']:.1f}" if r.get("mb_per_cpu_s") else "-"
        lines.append(f"  {r['name']:<34} {r['bytes'] / 1e6:>8.1f} {r['wall_s']:>8.2f} {r['mb_per_s']:>7.1f} "
                     f"{cpu:>9} {rss:>9}  {r.get('verdict')} ({r.get('findings')} findings)")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sizes", default="50MB,200MB", help="comma-separated sizes for (a)")
    ap.add_argument("--compat-size", default="50MB", help="size for (b); 0 skips it")
    ap.add_argument("--xcheck-size", default="2MB", help="size for (c); 0 skips it")
    ap.add_argument("--repeat", type=int, default=1)
    ap.add_argument("--workdir", type=Path)
    ap.add_argument("--keep", action="store_true", help="keep the generated files")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--no-pin", action="store_true")
    ap.add_argument("--out", type=Path, default=HERE / "out")
    args = ap.parse_args(argv)
    cli = cli_command()
    if cli is None:
        print("bench_matrix: the recspec CLI is not installed (pip install -e .)", file=sys.stderr)
        return 2
    pin, cpu = _pin_prefix(not args.no_pin)
    workdir = args.workdir or Path(tempfile.mkdtemp(prefix="recspec-bench-matrix-"))
    workdir.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix="recspec-bench-time-"))
    made: list[Path] = []
    load = os.getloadavg() if hasattr(os, "getloadavg") else None
    result: dict[str, Any] = {"date": _dt.datetime.now(_dt.UTC).isoformat(timespec="seconds"),
                              "commit": _git_commit(), "cpu": _cpu_model(), "nproc": os.cpu_count(),
                              "loadavg_before": load, "pinned_cpu": cpu, "bar_mb_per_s": BAR_MB_PER_S}
    try:
        check = [*pin, *cli, "check", "--json", "--no-cross-check"]
        rows = []
        for size in (make_matrix_recording.parse_size(s) for s in args.sizes.split(",") if s.strip()):
            path, _meta = _file(workdir, size, "spec", args.seed)
            made += [path, path.with_suffix(".json")]
            rows.append({"name": path.name, **_run(check, path, args.repeat, tmp)})
        result["reference"] = rows
        print(_table("(a) recspec check, spec encoding (fast path)", rows))
        compat_size = make_matrix_recording.parse_size(args.compat_size)
        if compat_size:
            path, _ = _file(workdir, compat_size, "compat", args.seed)
            made += [path, path.with_suffix(".json")]
            row = {"name": path.name, **_run([*check, "--profile", "compat"], path, args.repeat, tmp)}
            result["compat"] = [row]
            print(_table("(b) recspec check --profile compat, the producer's encoding (full walk)", [row]))
        xsize = make_matrix_recording.parse_size(args.xcheck_size)
        if xsize:
            path, _ = _file(workdir, xsize, "spec", args.seed)
            made += [path, path.with_suffix(".json")]
            rows = [{"name": "kaitai " + path.name, **_run([*pin, sys.executable, "-c", _KAITAI], path, 1, tmp)},
                    {"name": "pymongo " + path.name, **_run([*pin, sys.executable, "-c", _PYMONGO], path, 1, tmp)}]
            result["cross_check_readers"] = rows
            print(_table("(c) the cross-check readers, whole file", rows))
        # the bar is set on recordings of at least BAR_MIN_BYTES; smaller ones show the start-up cost
        barred = [r for r in result["reference"] if r["bytes"] >= BAR_MIN_BYTES] or result["reference"]
        slowest = min(r["mb_per_s"] for r in barred)
        result["bar_met"] = slowest >= BAR_MB_PER_S
        result["loadavg_after"] = os.getloadavg() if hasattr(os, "getloadavg") else None
        print(f"bar: reference path >= {BAR_MB_PER_S} MB/s on one core for >= 200 MB: slowest {slowest:.1f} MB/s wall "
              f"-> {'met' if result['bar_met'] else 'MISSED'} (load before {load}, nproc {os.cpu_count()})")
        args.out.mkdir(parents=True, exist_ok=True)
        out = args.out / f"matrix-{result['date'].replace(':', '')}.json"
        for r in (*result.get("reference", []), *result.get("compat", []), *result.get("cross_check_readers", [])):
            r.pop("stdout", None)
        out.write_text(json.dumps(result, indent=2))
        print(f"results: {out}")
    finally:
        if not args.keep:
            for p in made:
                p.unlink(missing_ok=True)
            if args.workdir is None:
                shutil.rmtree(workdir, ignore_errors=True)
        shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
