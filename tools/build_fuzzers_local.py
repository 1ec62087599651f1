#!/usr/bin/env python3
"""Build recspec's ClusterFuzzLite / OSS-Fuzz fuzzers without Docker, and run each for a few seconds.

Runs ``fuzz/oss-fuzz/build.sh`` itself (the script the builder image runs) with this
Python environment's dependencies (PyInstaller, atheris and recspec's own: ``pip install
-e '.[test]'``); its ``pip3 install .`` goes to a temporary folder (``PIP_TARGET``, first
on ``PYTHONPATH``: PyInstaller cannot follow an editable install's package mapping), and
a ``compile_python_fuzzer`` of its own packages each entry
point the way OSS-Fuzz's does: ``pyinstaller --onefile --name <name>.pkg`` plus the
``<name>`` wrapper script the fuzzing service runs (without the sanitizer preload,
which only the builder image has). Then each packaged fuzzer runs for ``--seconds``
on its own seed corpus zip, with its ``.options``, and must exit 0 after executing
inputs. So a build that would fail on ClusterFuzzLite fails here first.

    python tools/build_fuzzers_local.py                          # every fuzzer, 5 s each
    python tools/build_fuzzers_local.py carla_ref_fuzzer --seconds 10 --out /tmp/fuzzers

Exit status 0 when every fuzzer built and ran, 1 otherwise.
"""

from __future__ import annotations

import argparse
import configparser
import os
import re
import shlex
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BUILD_SH = ROOT / "fuzz" / "oss-fuzz" / "build.sh"
FUZZERS_PY = ROOT / "fuzz" / "oss-fuzz" / "fuzzers.py"

#: compile_python_fuzzer for build.sh, as OSS-Fuzz's: PyInstaller one-file package + wrapper.
#: Only the fuzzers named in RECSPEC_LOCAL_FUZZERS are packaged (all when it is empty).
_COMPILE = r'''
compile_python_fuzzer() {
  local fuzzer_path=$1; shift
  local name; name=$(basename -s .py "$fuzzer_path")
  if [ -n "$RECSPEC_LOCAL_FUZZERS" ] && [[ " $RECSPEC_LOCAL_FUZZERS " != *" $name "* ]]; then return 0; fi
  echo "compile_python_fuzzer: $name" >&2
  pyinstaller --log-level WARN --noconfirm --distpath "$OUT" --workpath "$WORK/$name" \
    --specpath "$WORK" --onefile --name "$name.pkg" "$@" "$fuzzer_path"
  printf '%s\n' '#!/bin/sh' '# LLVMFuzzerTestOneInput for fuzzer detection.' 'this_dir=$(dirname "$0")' \
    "exec \"\$this_dir/$name.pkg\" \"\$@\"" > "$OUT/$name"
  chmod +x "$OUT/$name"
}
export -f compile_python_fuzzer
'''


def build(out: Path, names: list[str], work: Path) -> None:
    """Run build.sh with the local compile_python_fuzzer; the packaged fuzzers land in ``out``."""
    src = work / "src"
    src.mkdir()
    (src / "recspec").symlink_to(ROOT)  # build.sh works in $SRC/recspec
    bindir = Path(sys.executable).parent  # python3 and pip3 of this environment first on PATH
    site = work / "site"  # build.sh's `pip3 install .` lands here
    env = {**os.environ, "SRC": str(src), "OUT": str(out), "WORK": str(work), "PIP_TARGET": str(site),
           "PIP_NO_DEPS": "1", "PIP_NO_BUILD_ISOLATION": "0", "PIP_DISABLE_PIP_VERSION_CHECK": "1",
           "PYTHONPATH": str(site),
           "RECSPEC_LOCAL_FUZZERS": " ".join(names),
           "PATH": f"{bindir}{os.pathsep}{os.environ.get('PATH', '')}"}
    script = _COMPILE + f"\nbash {shlex.quote(str(BUILD_SH))}\n"
    subprocess.run(["bash", "-c", script], env=env, check=True)


def run(out: Path, name: str, seconds: int, work: Path) -> tuple[bool, str]:
    """Run one packaged fuzzer on its seed corpus for ``seconds``; (ran fine, the end of its log)."""
    corpus = work / f"{name}-corpus"
    corpus.mkdir()
    with zipfile.ZipFile(out / f"{name}_seed_corpus.zip") as z:
        z.extractall(corpus)
    options = configparser.ConfigParser()
    options.read(out / f"{name}.options")
    flags = [f"-{k}={(out / v) if k == 'dict' else v}" for k, v in options["libfuzzer"].items()]
    cmd = [str(out / name), *flags, f"-max_total_time={seconds}", "-print_final_stats=1", str(corpus)]
    proc = subprocess.run(cmd, capture_output=True, text=True, errors="replace", timeout=seconds + 300)
    log = proc.stdout + proc.stderr
    m = re.search(r"stat::number_of_executed_units:\s+(\d+)", log)
    ok = proc.returncode == 0 and m is not None and int(m.group(1)) > 0
    return ok, log[-3000:]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("fuzzers", nargs="*", help="fuzzer names (default all: see fuzz/oss-fuzz/fuzzers.py list)")
    ap.add_argument("--out", type=Path, help="where the fuzzers go (default a temporary folder, removed)")
    ap.add_argument("--seconds", type=int, default=5, help="how long each packaged fuzzer runs (default 5)")
    args = ap.parse_args(argv)
    every = subprocess.run([sys.executable, str(FUZZERS_PY), "list"], capture_output=True, text=True,
                           check=True).stdout.split()
    unknown = sorted(set(args.fuzzers) - set(every))
    if unknown:
        ap.error(f"no fuzzer {', '.join(unknown)}; choose from: {', '.join(every)}")
    names = args.fuzzers or every
    with tempfile.TemporaryDirectory(prefix="recspec-fuzzers-") as tmp:
        work = Path(tmp)
        out = (args.out or work / "out").resolve()
        out.mkdir(parents=True, exist_ok=True)
        build(out, names, work)
        failed = []
        for name in names:
            ok, log = run(out, name, args.seconds, work)
            print(f"{name}: {'ran' if ok else 'FAILED'}", flush=True)
            if not ok:
                failed.append(name)
                print(log, file=sys.stderr)
    where = f" in {args.out}" if args.out else ""
    print(f"{len(names) - len(failed)} of {len(names)} fuzzer(s) built and ran{where}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
