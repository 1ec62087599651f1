"""Benchmark recspec on CARLA recorder logs.

(a) the reference path: ``recspec check --json --no-cross-check LOG`` run as a
    subprocess on synthetic logs of 50, 200 and 500 MB: throughput (file MB per
    wall-clock second, MB = 10**6 bytes) and peak RSS;
(b) the Kaitai-generated parser (``recspec/_ksy/carla_recorder.py``) reading the
    header and then packet by packet from a file stream, on a 20 MB log.

Every measured command runs in a fresh process pinned to one CPU (``taskset``)
with the log already in the page cache (the file is read once beforehand), so
the figures are CPU-bound parsing, not disk. Peak RSS comes from
``/usr/bin/time -v`` or, without it, from ``getrusage(RUSAGE_CHILDREN)``.

Usage::

    python benchmarks/bench_carla.py [--sizes 50MB,200MB,500MB] [--kaitai-size 20MB]
                                     [--repeat N] [--workdir DIR] [--keep] [--no-kaitai]

The logs are written by ``benchmarks/make_carla_log.py`` into ``--workdir``
(default: a new temporary directory) and deleted afterwards unless ``--keep``.
With ``--keep --workdir DIR`` a later run reuses the logs it finds there.
Results are printed as a table and written as JSON to ``benchmarks/out/``.
"""

from __future__ import annotations

import argparse
import datetime as _dt
import importlib.util
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
sys.path.insert(0, str(HERE))

import make_carla_log  # noqa: E402  (sits next to this file)

BAR_MB_PER_S = 20.0
#: Peak RSS on the largest log may exceed the one on the smallest by this factor
#: and still count as "the same" (allocator and page-cache noise; a footprint
#: that grows with the file grows by far more than 10 % from 50 to 500 MB).
RSS_TOLERANCE = 1.10
#: GNU time, for peak RSS; without it a Python wrapper reads getrusage(RUSAGE_CHILDREN).
TIME_BIN = "/usr/bin/time"

# What the fallback and the Kaitai runner execute (python -c, in a fresh process).
LIBRARY_RUNNER = r"""
import json, sys, time
t0 = time.perf_counter()
from recspec.conformance.carla import check_stream
path = sys.argv[1]
with open(path, "rb") as f:
    r = check_stream(f, path=path, variant=None, profile="spec")
print(json.dumps({"verdict": r.verdict.value, "variant": r.variant, "findings": len(r.findings),
                  "frames": r.stats["frames"], "in_process_s": time.perf_counter() - t0}))
"""

KAITAI_RUNNER = r"""
import json, os, sys, time
t0 = time.perf_counter()
from kaitaistruct import KaitaiStream
from recspec._ksy.carla_recorder import CarlaRecorder
path, code = sys.argv[1], int(sys.argv[2])
packets = 0
with open(path, "rb") as f:
    size = os.fstat(f.fileno()).st_size
    io = KaitaiStream(f)
    header = CarlaRecorder.Header(io)
    header._read()
    # KaitaiStream.is_eof() seeks to the end and back on every call (dropping the
    # read buffer), so compare with the known size instead.
    while io.pos() < size:
        p = CarlaRecorder.Packet(code, io)
        p._read()
        packets += 1
print(json.dumps({"packets": packets, "map": header.map_name.value, "in_process_s": time.perf_counter() - t0}))
"""


# --- helpers -------------------------------------------------------------------


def _label(n: int) -> str:
    return f"{n / 1e6:g}MB"


def _warm(path: Path) -> None:
    """Read the file once so that every measured run finds it in the page cache."""
    with open(path, "rb", buffering=0) as f:
        while f.read(8 << 20):
            pass


def _pin_prefix(pin: bool) -> tuple[list[str], int | None]:
    if not pin or shutil.which("taskset") is None or not hasattr(os, "sched_getaffinity"):
        return [], None
    cpu = max(os.sched_getaffinity(0))  # the last allowed CPU: cpu 0 tends to take the interrupts
    return ["taskset", "-c", str(cpu)], cpu


_TIME_FIELDS = {
    "Maximum resident set size (kbytes)": ("max_rss_kib", int),
    "User time (seconds)": ("user_s", float),
    "System time (seconds)": ("sys_s", float),
    "Exit status": ("exit", int),
}

_RUSAGE_WRAPPER = r"""
import json, resource, subprocess, sys
rc = subprocess.run(sys.argv[2:]).returncode
ru = resource.getrusage(resource.RUSAGE_CHILDREN)
with open(sys.argv[1], "w") as f:
    json.dump({"max_rss_kib": ru.ru_maxrss, "user_s": ru.ru_utime, "sys_s": ru.ru_stime, "exit": rc}, f)
"""


def measure(cmd: list[str], tmp: Path) -> dict[str, Any]:
    """Run ``cmd``; its wall time, CPU time, peak RSS, exit status and stdout."""
    stats_file = tmp / "time.out"
    if os.path.exists(TIME_BIN):
        wrapped = [TIME_BIN, "-v", "-o", str(stats_file), *cmd]
        how = "/usr/bin/time -v"
    else:
        wrapped = [sys.executable, "-c", _RUSAGE_WRAPPER, str(stats_file), *cmd]
        how = "getrusage(RUSAGE_CHILDREN)"
    t0 = time.perf_counter()
    proc = subprocess.run(wrapped, capture_output=True, text=True)
    wall = time.perf_counter() - t0
    out: dict[str, Any] = {"wall_s": wall, "rss_from": how}
    text = stats_file.read_text() if stats_file.exists() else ""
    if how.startswith("/usr/bin/time"):
        for line in text.splitlines():
            key, _, value = line.strip().rpartition(": ")
            if key in _TIME_FIELDS:
                name, conv = _TIME_FIELDS[key]
                out[name] = conv(value)
    elif text:
        out.update(json.loads(text))
    out.setdefault("exit", proc.returncode)
    out["stdout"] = proc.stdout
    out["stderr_tail"] = proc.stderr[-2000:]
    stats_file.unlink(missing_ok=True)
    return out


def _json_tail(text: str) -> Any:
    """The JSON document in ``text`` (the whole of it, or its last line)."""
    for candidate in (text, *reversed(text.strip().splitlines())):
        try:
            return json.loads(candidate)
        except ValueError:
            continue
    return None


def _verdict_of(doc: Any) -> dict[str, Any]:
    """verdict / variant / findings from a ``recspec check --json`` report or the fallback runner."""
    if not isinstance(doc, dict):
        return {}
    if isinstance(doc.get("files"), list) and doc["files"]:
        doc = doc["files"][0]
    findings = doc.get("findings")
    return {"verdict": doc.get("verdict"), "variant": doc.get("variant"),
            "findings": len(findings) if isinstance(findings, list) else findings}


def cli_command() -> list[str] | None:
    """The ``recspec`` console script, if it exists and ``recspec.cli`` is importable."""
    if importlib.util.find_spec("recspec.cli") is None:
        return None
    script = Path(sys.executable).parent / "recspec"
    if script.exists():
        return [str(script)]
    found = shutil.which("recspec")
    return [found] if found else None


def _git_commit() -> str | None:
    try:
        return subprocess.run(["git", "-C", str(REPO), "rev-parse", "HEAD"], capture_output=True, text=True,
                              check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return None


def _git_dirty() -> list[str] | None:
    """Files of the measured code (the installed package's folders) with uncommitted changes."""
    try:
        out = subprocess.run(["git", "-C", str(REPO), "status", "--porcelain", "--", "recspec", "reference",
                              "conformance"], capture_output=True, text=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return None
    return [line[3:] for line in out.splitlines() if line.strip()]


def _cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


class Logs:
    """Synthetic logs in the work directory: made on demand, reused when kept."""

    def __init__(self, workdir: Path, keep: bool, seed: int) -> None:
        self.workdir = workdir
        self.keep = keep
        self.seed = seed
        self.made: list[Path] = []

    def get(self, size: int) -> tuple[Path, dict[str, Any]]:
        path = self.workdir / f"carla-{_label(size)}-seed{self.seed}.log"
        meta_path = path.with_suffix(".json")
        if path.exists() and meta_path.exists():
            meta = json.loads(meta_path.read_text())
            if meta.get("requested") == size and meta.get("bytes") == path.stat().st_size \
                    and meta.get("generator_seed") == self.seed:
                print(f"  reusing {path} ({meta['bytes']} bytes, {meta['frames']} frames)", flush=True)
                return path, meta
        print(f"  writing {path} ...", end="", flush=True)
        t0 = time.perf_counter()
        meta = make_carla_log.write_log(path, size, seed=self.seed)
        meta.update(requested=size, generator_seed=self.seed, generate_s=time.perf_counter() - t0)
        meta_path.write_text(json.dumps(meta))
        self.made += [path, meta_path]
        print(f" {meta['bytes']} bytes, {meta['frames']} frames in {meta['generate_s']:.0f} s", flush=True)
        return path, meta

    def cleanup(self, remove_dir: bool) -> None:
        if self.keep:
            return
        for p in self.made:
            p.unlink(missing_ok=True)
        if remove_dir:
            shutil.rmtree(self.workdir, ignore_errors=True)


# --- the two benchmarks ------------------------------------------------------------


def _summarise(runs: list[dict[str, Any]], nbytes: int) -> dict[str, Any]:
    walls = [r["wall_s"] for r in runs]
    cpus = [r["user_s"] + r["sys_s"] for r in runs if "user_s" in r and "sys_s" in r]
    rss = [r["max_rss_kib"] for r in runs if "max_rss_kib" in r]
    wall = statistics.median(walls)
    return {
        "wall_s": wall,
        "mb_per_s": nbytes / 1e6 / wall,
        "cpu_s": statistics.median(cpus) if cpus else None,
        "mb_per_cpu_s": nbytes / 1e6 / statistics.median(cpus) if cpus else None,
        "max_rss_mib": max(rss) / 1024 if rss else None,
    }


def bench_reference(logs: Logs, sizes: list[int], repeat: int, pin: list[str], tmp: Path) -> dict[str, Any]:
    cli = cli_command()
    if cli is not None:
        mode = "cli"
        note = f"measured the real command: {' '.join(cli)} check --json --no-cross-check LOG"
    else:
        mode = "library-fallback"
        note = ("NOTE: the recspec CLI (recspec/cli.py) is not there yet; measuring a `python -c` process that "
                "calls recspec.conformance.carla.check_stream(variant=None, profile='spec') instead. "
                "Re-run once the CLI lands.")
    print(note, flush=True)
    results = []
    for size in sizes:
        path, meta = logs.get(size)
        _warm(path)
        if mode == "cli":
            cmd = [*pin, *cli, "check", "--json", "--no-cross-check", str(path)]
        else:
            cmd = [*pin, sys.executable, "-c", LIBRARY_RUNNER, str(path)]
        runs = []
        for i in range(repeat):
            r = measure(cmd, tmp)
            r.update(_verdict_of(_json_tail(r.pop("stdout"))))
            if r.get("exit") not in (0, None) and r.get("verdict") is None:
                print(f"  command failed (exit {r.get('exit')}):\n{r['stderr_tail']}", file=sys.stderr)
            runs.append(r)
            print(f"  {_label(size)} run {i + 1}/{repeat}: {meta['bytes'] / 1e6 / r['wall_s']:.1f} MB/s, "
                  f"peak RSS {r.get('max_rss_kib', 0) / 1024:.1f} MiB, verdict {r.get('verdict')}, "
                  f"{r.get('findings')} findings", flush=True)
        results.append({"size": _label(size), "bytes": meta["bytes"], "frames": meta["frames"],
                        "log": {k: meta[k] for k in ("variant", "actors", "seed", "generate_s") if k in meta},
                        "runs": runs, **_summarise(runs, meta["bytes"])})
    return {"mode": mode, "note": note, "command": " ".join(
        ["recspec", "check", "--json", "--no-cross-check", "LOG"] if mode == "cli"
        else ["python", "-c", "<check_stream runner>", "LOG"]), "results": results}


def bench_kaitai(logs: Logs, size: int, repeat: int, pin: list[str], tmp: Path) -> dict[str, Any]:
    if not (REPO / "recspec" / "_ksy" / "carla_recorder.py").exists():
        msg = "SKIPPED: recspec/_ksy/carla_recorder.py does not exist yet (the Kaitai parser is not generated)"
        print(msg, flush=True)
        return {"skipped": msg}
    path, meta = logs.get(size)
    _warm(path)
    code = make_carla_log.VARIANTS[meta["variant"]].code
    cmd = [*pin, sys.executable, "-c", KAITAI_RUNNER, str(path), str(code)]
    runs = []
    for i in range(repeat):
        r = measure(cmd, tmp)
        doc = _json_tail(r.pop("stdout"))
        r["packets"] = doc.get("packets") if isinstance(doc, dict) else None
        if r.get("exit") not in (0, None):
            print(f"  Kaitai run failed (exit {r.get('exit')}):\n{r['stderr_tail']}", file=sys.stderr)
        runs.append(r)
        print(f"  Kaitai {_label(size)} run {i + 1}/{repeat}: {meta['bytes'] / 1e6 / r['wall_s']:.2f} MB/s, "
              f"peak RSS {r.get('max_rss_kib', 0) / 1024:.1f} MiB, {r['packets']} packets", flush=True)
    return {"command": "python -c <CarlaRecorder.Header, then CarlaRecorder.Packet(variant, io) until EOF> LOG",
            "variant_code": code, "results": [{"size": _label(size), "bytes": meta["bytes"], "frames": meta["frames"],
                                               "runs": runs, **_summarise(runs, meta["bytes"])}]}


def bars(reference: dict[str, Any]) -> dict[str, Any]:
    res = [r for r in reference["results"] if all(run.get("exit") == 0 for run in r["runs"])]
    out: dict[str, Any] = {}
    if res:
        worst = min(r["mb_per_s"] for r in res)
        out["throughput"] = {"bar_mb_per_s": BAR_MB_PER_S, "worst_mb_per_s": worst, "pass": worst >= BAR_MB_PER_S}
    with_rss = [r for r in res if r["max_rss_mib"] is not None]
    if len(with_rss) >= 2:
        small = min(with_rss, key=lambda r: r["bytes"])
        large = max(with_rss, key=lambda r: r["bytes"])
        out["flat_memory"] = {
            "small": small["size"], "small_rss_mib": small["max_rss_mib"],
            "large": large["size"], "large_rss_mib": large["max_rss_mib"],
            "ratio": large["max_rss_mib"] / small["max_rss_mib"], "tolerance": RSS_TOLERANCE,
            "pass": large["max_rss_mib"] <= small["max_rss_mib"] * RSS_TOLERANCE,
        }
    return out


def _table(title: str, rows: list[dict[str, Any]]) -> str:
    lines = [title,
             f"  {'log':>7} {'bytes':>11} {'frames':>7} {'wall s':>8} {'MB/s':>7} {'MB/cpu-s':>9} "
             f"{'peak RSS MiB':>13}  verdict"]
    for r in rows:
        last = r["runs"][-1]
        verdict = f"{last.get('verdict')} ({last.get('findings')} findings)" if "verdict" in last else \
            f"{last.get('packets')} packets"
        cpu = f"{r['mb_per_cpu_s']:9.2f}" if r["mb_per_cpu_s"] else f"{'-':>9}"
        rss = f"{r['max_rss_mib']:13.1f}" if r["max_rss_mib"] is not None else f"{'-':>13}"
        lines.append(f"  {r['size']:>7} {r['bytes']:>11} {r['frames']:>7} {r['wall_s']:8.2f} {r['mb_per_s']:7.2f} "
                     f"{cpu} {rss}  {verdict}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sizes", default="50MB,200MB,500MB", help="comma-separated log sizes for (a)")
    ap.add_argument("--kaitai-size", default="20MB", help="log size for (b), the Kaitai parser")
    ap.add_argument("--no-kaitai", action="store_true", help="skip (b)")
    ap.add_argument("--repeat", type=int, default=1, help="runs per log (median wall time, max RSS)")
    ap.add_argument("--workdir", type=Path, help="where the logs go (default: a new temporary directory)")
    ap.add_argument("--keep", action="store_true", help="keep the logs (and reuse kept ones in --workdir)")
    ap.add_argument("--seed", type=int, default=1, help="generator seed")
    ap.add_argument("--no-pin", action="store_true", help="do not pin the measured process to one CPU")
    ap.add_argument("--out", type=Path, default=HERE / "out", help="directory for the JSON results")
    args = ap.parse_args(argv)
    try:
        sizes = [make_carla_log.parse_size(s) for s in args.sizes.split(",") if s.strip()]
        kaitai_size = make_carla_log.parse_size(args.kaitai_size)
    except ValueError as e:
        ap.error(str(e))
    if args.repeat < 1:
        ap.error("--repeat must be at least 1")

    made_dir = args.workdir is None
    workdir = Path(tempfile.mkdtemp(prefix="recspec-bench-")) if made_dir else args.workdir
    workdir.mkdir(parents=True, exist_ok=True)
    pin, cpu = _pin_prefix(not args.no_pin)
    logs = Logs(workdir, args.keep, args.seed)
    started = _dt.datetime.now(_dt.UTC)
    print(f"work directory {workdir}; measured processes pinned to CPU {cpu}" if cpu is not None
          else f"work directory {workdir}; measured processes not pinned", flush=True)
    try:
        with tempfile.TemporaryDirectory(prefix="recspec-bench-time-") as t:
            tmp = Path(t)
            print("(a) reference path", flush=True)
            reference = bench_reference(logs, sizes, args.repeat, pin, tmp)
            if args.no_kaitai:
                kaitai: dict[str, Any] = {"skipped": "--no-kaitai"}
            else:
                print("(b) Kaitai parser, packet by packet", flush=True)
                kaitai = bench_kaitai(logs, kaitai_size, args.repeat, pin, tmp)
    finally:
        logs.cleanup(remove_dir=made_dir)

    result = {
        "benchmark": "carla",
        "date": started.isoformat(timespec="seconds"),
        "argv": ["python", "benchmarks/bench_carla.py", *(sys.argv[1:] if argv is None else argv)],
        "git_commit": _git_commit(),
        "git_uncommitted": _git_dirty(),
        "machine": {"cpu": _cpu_model(), "cpus": os.cpu_count(), "pinned_cpu": cpu,
                    "python": platform.python_version(), "platform": platform.platform()},
        "mb": "10**6 bytes; throughput = file size / wall-clock time of the whole process (start-up included)",
        "reference": reference,
        "kaitai": kaitai,
        "bars": bars(reference),
    }
    args.out.mkdir(parents=True, exist_ok=True)
    stamp = started.strftime("%Y%m%dT%H%M%SZ")
    out_file = args.out / f"bench_carla-{stamp}.json"
    text = json.dumps(result, indent=2)
    out_file.write_text(text)
    (args.out / "bench_carla-latest.json").write_text(text)

    print()
    print(_table(f"(a) reference path [{reference['mode']}]: {reference['command']}", reference["results"]))
    if "results" in kaitai:
        print(_table("(b) Kaitai parser, packet by packet from a file stream", kaitai["results"]))
    else:
        print(f"(b) Kaitai parser: {kaitai['skipped']}")
    b = result["bars"]
    if "throughput" in b:
        t = b["throughput"]
        print(f"bar: reference path >= {t['bar_mb_per_s']:g} MB/s on one core: "
              f"{'PASS' if t['pass'] else 'FAIL'} (slowest {t['worst_mb_per_s']:.2f} MB/s)")
    if "flat_memory" in b:
        m = b["flat_memory"]
        print(f"bar: same peak memory for {m['small']} and {m['large']}: {'PASS' if m['pass'] else 'FAIL'} "
              f"({m['small_rss_mib']:.1f} vs {m['large_rss_mib']:.1f} MiB, x{m['ratio']:.3f}, "
              f"tolerance x{m['tolerance']:.2f})")
    if reference["mode"] != "cli":
        print(reference["note"])
    print(f"results: {out_file}")
    if args.keep:
        print(f"logs kept in {workdir}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
