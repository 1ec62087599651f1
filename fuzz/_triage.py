"""Crash triage: minimising a crashing input, and grouping a folder of crashes by signature.

* :func:`minimise`: the smallest input the runner can find that fails with the
  same signature, by deleting runs of bytes (halving the run length whenever
  none can go) and then setting bytes to zero, in a subprocess that is not
  instrumented, within a time budget. An attempt that fails differently, or
  runs longer than ``ATTEMPT_TIMEOUT_S``, does not count as failing.
* :func:`triage` (``recspec fuzz FORMAT --triage DIR``): runs every input of a
  folder (crashes downloaded from ClusterFuzzLite or other machines, or a
  campaign's crash folder) through the harness of its target and groups the
  failures by signature, the same signature a campaign saves crashes under.

Both run the harnesses in a child process, so that a hang or a crash of the
interpreter costs one input, never the command.
"""

from __future__ import annotations

import json
import os
import re
import resource
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

from recspec.errors import UsageError
from recspec.formats import resolve_format

from ._harness import TARGETS, checked_harness, load_harness
from ._signature import crash_info, signature

__all__ = ["ATTEMPT_TIMEOUT_S", "Shrunk", "minimise", "shrink", "triage"]

#: One attempt (one input through one harness) that runs longer than this is a hang (seconds).
ATTEMPT_TIMEOUT_S = 10
#: The address space of the child that runs the inputs: an input that needs more is an ``oom``.
CHILD_MEMORY_BYTES = 4 << 30
#: Inputs longer than this are not simplified byte by byte (only cut).
ZERO_PASS_MAX = 4096

#: A ClusterFuzzLite / OSS-Fuzz fuzzer name in an artifact's path: ``<format>_<target>_fuzzer``.
_FUZZER_NAME = re.compile(r"_(ref|ksy|diff)_fuzzer")


class _Hang(Exception):
    """An attempt ran past ``ATTEMPT_TIMEOUT_S``."""


def _limit_memory() -> None:
    try:
        resource.setrlimit(resource.RLIMIT_AS, (CHILD_MEMORY_BYTES, CHILD_MEMORY_BYTES))
    except (ValueError, OSError):  # a lower hard limit is already set: keep it
        pass


def _on_alarm(signum: int, frame: Any) -> None:
    raise _Hang(f"ran longer than {ATTEMPT_TIMEOUT_S} s")


def _attempt(harness: Callable[[bytes], None], data: bytes) -> BaseException | None:
    """What leaves the harness on ``data`` (``None``: the invariant holds)."""
    signal.signal(signal.SIGALRM, _on_alarm)
    signal.setitimer(signal.ITIMER_REAL, ATTEMPT_TIMEOUT_S)
    try:
        harness(data)
    except (Exception, RecursionError, MemoryError) as e:
        return e
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
    return None


def shrink(data: bytes, fails: Callable[[bytes], bool], *, deadline: float,
           max_tries: int = 100_000) -> tuple[bytes, int]:
    """The smallest input found that still ``fails``, and how many attempts it took.

    Deletes runs of bytes, longest first (half the input, then a quarter, ... one
    byte), keeping every deletion that still fails; then sets each byte of a short
    input to zero where it still fails. Stops at ``deadline`` (``time.monotonic``).
    """
    best, tries = data, 0
    run = max(1, len(best) // 2)
    while run >= 1 and best:
        i, changed = 0, False
        while i < len(best):
            if time.monotonic() > deadline or tries >= max_tries:
                return best, tries
            candidate = best[:i] + best[i + run:]
            tries += 1
            if fails(candidate):
                best, changed = candidate, True
            else:
                i += run
        if not changed:
            run //= 2
    if len(best) <= ZERO_PASS_MAX:
        for i in range(len(best)):
            if best[i] == 0:
                continue
            if time.monotonic() > deadline or tries >= max_tries:
                break
            candidate = best[:i] + b"\x00" + best[i + 1:]
            tries += 1
            if fails(candidate):
                best = candidate
    return best, tries


@dataclass(frozen=True)
class Shrunk:
    data: bytes
    info: dict[str, Any]  # the runner's crash description of ``data``
    tries: int


def _load(fmt: str, target: str, variant: str | None) -> tuple[Any, Callable[[bytes], None]]:
    mod = load_harness(resolve_format(fmt))
    mod.use_variant(variant)
    return mod, checked_harness(mod, target)


def _minimise_main(argv: Sequence[str] | None = None) -> None:
    """Child: ``FORMAT TARGET VARIANT INPUT SIGNATURE SECONDS``; prints the result as JSON."""
    fmt, target, variant, path, sig, seconds = list(sys.argv[1:] if argv is None else argv)
    _limit_memory()
    mod, harness = _load(fmt, target, variant or None)
    deadline = time.monotonic() + float(seconds)

    def fails(data: bytes) -> bool:
        e = _attempt(harness, data)
        return e is not None and not isinstance(e, _Hang) and signature(e) == sig

    original = Path(path).read_bytes()
    if not fails(original):
        print(json.dumps({"reproduced": False}))
        return
    data, tries = shrink(original, fails, deadline=deadline)
    e = _attempt(harness, data)
    assert e is not None
    print(json.dumps({"reproduced": True, "data": data.hex(), "tries": tries,
                      "info": crash_info(e, data, mod.describe_input)}, default=str))


def minimise(fmt: str, target: str, variant: str | None, data: bytes, sig: str, *, seconds: float) -> Shrunk | None:
    """``data`` shrunk while it fails with signature ``sig`` (``None``: it does not fail so
    outside the campaign, or the minimiser itself failed)."""
    with tempfile.NamedTemporaryFile(prefix="recspec-minimise-", delete=False) as f:
        f.write(data)
    code = "from recspec.fuzz._triage import _minimise_main; _minimise_main()"
    try:
        proc = subprocess.run([sys.executable, "-c", code, fmt, target, variant or "", f.name, sig, str(seconds)],
                              capture_output=True, text=True, timeout=seconds + 60)
        out = json.loads(proc.stdout.strip().splitlines()[-1]) if proc.returncode == 0 and proc.stdout.strip() \
            else {}
    except (subprocess.TimeoutExpired, ValueError, IndexError):
        out = {}
    finally:
        os.unlink(f.name)
    if not out.get("reproduced"):
        return None
    return Shrunk(bytes.fromhex(out["data"]), out["info"], int(out["tries"]))


# --- triage ---------------------------------------------------------------------------------


def _triage_main() -> None:
    """Child: ``FORMAT VARIANT``; reads ``[[path, [target, ...]], ...]`` as JSON on stdin and
    prints one JSON line per input and target (``{"start": path}`` before each input)."""
    fmt, variant = sys.argv[1], sys.argv[2] or None
    jobs = json.loads(sys.stdin.read())
    _limit_memory()
    mod = load_harness(resolve_format(fmt))
    mod.use_variant(variant)
    harnesses = {t: checked_harness(mod, t) for t in mod.TARGETS}
    for path, targets in jobs:
        print(json.dumps({"start": path}), flush=True)
        data = Path(path).read_bytes()
        for target in targets:
            e = _attempt(harnesses[target], data)
            row: dict[str, Any] = {"file": path, "target": target, "size": len(data)}
            if e is None:
                row["ok"] = True
            elif isinstance(e, _Hang):
                row.update(ok=False, signature="timeout", exception="timeout", message=str(e), where=None, rule=None)
            else:
                info = crash_info(e, data, mod.describe_input)
                row.update(ok=False, signature=signature(e), exception=info["exception"],
                           message=str(info["message"]).splitlines()[0][:200] if info["message"] else "",
                           where=info["where"], rule=info["rule"])
            print(json.dumps(row, default=str), flush=True)


def _inputs(root: Path) -> list[Path]:
    if root.is_file():
        return [root]
    return sorted(p for p in root.rglob("*") if p.is_file() and not p.name.startswith(".")
                  and p.suffix != ".json" and p.name != "triage.json")


def _targets_of(path: Path, root: Path, given: str | None, all_targets: Sequence[str]) -> list[str]:
    """The target an input is for: ``--target``, else its runner JSON's, else a ClusterFuzzLite
    fuzzer folder in its path (``carla_ref_fuzzer/``), else every target."""
    if given is not None:
        return [given]
    meta = path.with_suffix(".json")
    if meta.is_file():
        try:
            target = json.loads(meta.read_text()).get("target")
        except (OSError, ValueError, AttributeError):
            target = None
        if target in all_targets:
            return [target]
    for part in path.parts:
        m = _FUZZER_NAME.search(part)
        if m:
            return [m.group(1)]
    return list(all_targets)


def _run_triage_child(fmt: str, variant: str | None, jobs: list[tuple[str, list[str]]]) -> Iterator[dict[str, Any]]:
    """The rows of every job; an input that kills the child is a row of its own, and the rest go on."""
    code = "from recspec.fuzz._triage import _triage_main; _triage_main()"
    while jobs:
        current: str | None = None
        done: set[str] = set()
        with tempfile.TemporaryFile("w+") as errors, \
                subprocess.Popen([sys.executable, "-c", code, fmt, variant or ""], stdin=subprocess.PIPE,
                                 stdout=subprocess.PIPE, stderr=errors, text=True) as proc:
            assert proc.stdin is not None and proc.stdout is not None
            proc.stdin.write(json.dumps(jobs))
            proc.stdin.close()
            for line in proc.stdout:
                try:
                    row = json.loads(line)
                except ValueError:
                    continue
                if "start" in row:
                    if current is not None:
                        done.add(current)
                    current = row["start"]
                else:
                    yield row
            code_ = proc.wait()
            errors.seek(0)
            stderr = errors.read()
        if code_ == 0:
            return
        if current is None:
            raise UsageError(f"the triage process failed before the first input (exit status {code_})",
                             stderr.strip().splitlines()[-1] if stderr.strip() else None)
        kind = "oom" if "MemoryError" in stderr else "crash"
        for target in dict(jobs)[current]:
            yield {"file": current, "target": target, "size": Path(current).stat().st_size, "ok": False,
                   "signature": f"{kind}:process exited with status {code_}", "exception": kind,
                   "message": (stderr.strip().splitlines() or [""])[-1][:200], "where": None, "rule": None}
        done.add(current)
        jobs = [(p, t) for p, t in jobs if p not in done]


def triage(fmt: str, root: Path, *, target: str | None = None, variant: str | None = None,
           out: TextIO, err: TextIO) -> int:
    """Group the inputs under ``root`` (a folder, or one file) by the signature they fail with.

    Prints one line per distinct failure (target, signature, how many inputs, the
    smallest, how to replay it), writes every row to ``<root>/triage.json`` when
    ``root`` is a writable folder, and returns 1 when any input fails, 0 when all
    hold, 2 for a usage problem.
    """
    info = resolve_format(fmt)
    mod = load_harness(info)
    try:
        mod.use_variant(variant)
    finally:
        mod.use_variant(None)
    if not root.exists():
        raise UsageError(f"{root} does not exist")
    inputs = _inputs(root)
    if not inputs:
        raise UsageError(f"no inputs in {root}")
    jobs = [(str(p), _targets_of(p, root, target, TARGETS)) for p in inputs]
    rows = list(_run_triage_child(info.id, variant, jobs))
    groups: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for row in rows:
        if not row["ok"]:
            groups.setdefault((row["target"], row["signature"]), []).append(row)
    holding = sorted({r["file"] for r in rows} - {r["file"] for g in groups.values() for r in g})
    v = f" --variant {variant}" if variant else ""
    lines = [f"recspec fuzz {info.id} --triage {root}: {len(inputs)} input(s), {len(rows)} run(s); "
             f"{len(groups)} distinct failure(s)"]
    for (t, sig), members in sorted(groups.items(), key=lambda kv: (-len(kv[1]), kv[0])):
        smallest = min(members, key=lambda r: (r["size"], r["file"]))
        lines.append(f"  {t:4} {sig}")
        lines.append(f"       {len(members)} input(s); smallest {smallest['file']} ({smallest['size']} bytes): "
                     f"{smallest['exception']}: {smallest['message']}")
        lines.append(f"       replay: recspec fuzz {info.id} --target {t} --triage {smallest['file']}{v}; "
                     f"recspec reproduce {smallest['file']}{v}")
    lines.append(f"{len(holding)} input(s) hold under every target they were run against")
    out.write("\n".join(lines) + "\n")
    if root.is_dir():
        report = {"format": info.id, "variant": variant, "inputs": len(inputs), "rows": rows,
                  "groups": [{"target": t, "signature": sig, "count": len(m), "files": [r["file"] for r in m]}
                             for (t, sig), m in sorted(groups.items())]}
        try:
            (root / "triage.json").write_text(json.dumps(report, indent=2) + "\n")
            out.write(f"details: {root / 'triage.json'}\n")
        except OSError as e:
            err.write(f"recspec fuzz: cannot write {root / 'triage.json'}: {e.strerror or e}\n")
    return 1 if groups else 0
