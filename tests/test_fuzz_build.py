"""The ClusterFuzzLite / OSS-Fuzz build: entry points, staged files, and one fuzzer built and run.

``fuzz/oss-fuzz/build.sh`` is what the builder image runs; ``tools/build_fuzzers_local.py``
runs that same script without Docker (its ``compile_python_fuzzer`` packages with
PyInstaller as OSS-Fuzz's does) and then runs the packaged fuzzer on its seed corpus zip,
so a change that breaks the build fails here (``slow``: about a minute).
"""

from __future__ import annotations

import configparser
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from recspec.formats import FORMATS, FormatInfo
from recspec.fuzz import TARGETS, _paths

REPO = Path(__file__).resolve().parents[1]
FUZZERS_PY = REPO / "fuzz" / "oss-fuzz" / "fuzzers.py"


def _fuzzers(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(FUZZERS_PY), *args], capture_output=True, text=True)


def test_one_fuzzer_per_format_and_target_with_a_generated_entry_point(tmp_path: Path) -> None:
    """Entry points are generated from the registry at build time (none is committed), so a new format gets
    its fuzzers without a file of its own in fuzz/."""
    names = _fuzzers("list").stdout.split()
    expected = {f"{info.fuzz_module.rsplit('.', 1)[1]}_{t}_fuzzer" for info in FORMATS.values() for t in TARGETS}
    assert set(names) == expected and len(names) == len(FORMATS) * len(TARGETS)
    (tmp_path / "stale_ref_fuzzer.py").write_text("")
    assert _fuzzers("entrypoints", "--out", str(tmp_path)).returncode == 0
    assert sorted(p.stem for p in tmp_path.iterdir()) == sorted(names)  # the stale one is gone
    paths = _fuzzers("list", "--paths", "--dir", str(tmp_path)).stdout.split()
    assert sorted(paths) == sorted(str(tmp_path / f"{n}.py") for n in names)
    for info in FORMATS.values():
        for target in TARGETS:
            text = (tmp_path / f"{info.package}_{target}_fuzzer.py").read_text()
            assert "atheris.instrument_imports" in text and "exclude=not_instrumented()" in text
            assert f"import {info.fuzz_module} as harness" in text and f'main(harness, "{target}", sys.argv)' in text
    tracked = subprocess.run(["git", "ls-files", "fuzz/entrypoints"], cwd=REPO, capture_output=True, text=True)
    assert tracked.stdout == ""


@pytest.mark.parametrize("info", FORMATS.values(), ids=FORMATS.keys())
def test_stage_writes_seed_corpus_dictionary_and_options(info: FormatInfo, tmp_path: Path) -> None:
    name = f"{info.package}_diff_fuzzer"
    assert _fuzzers("stage", "--out", str(tmp_path), "--only", name).returncode == 0
    with zipfile.ZipFile(tmp_path / f"{name}_seed_corpus.zip") as z:
        seeds = [z.read(n) for n in z.namelist()]
    assert len(seeds) > 20 and all(seeds)
    assert (REPO / "corpus" / info.id / "valid" / info.load().EXAMPLES.valid_file).read_bytes() in seeds
    dict_path = _paths.dictionary_file(info.dictionary)
    assert dict_path is not None and (tmp_path / f"{name}.dict").read_text() == dict_path.read_text()
    options = configparser.ConfigParser()
    options.read(tmp_path / f"{name}.options")
    assert dict(options["libfuzzer"]) == {"dict": f"{name}.dict", "max_len": "65536", "timeout": "30"}


def test_build_sh_runs_the_steps_the_local_build_runs() -> None:
    text = (REPO / "fuzz" / "oss-fuzz" / "build.sh").read_text()
    for step in ("pip3 install .", "fuzzers.py entrypoints", 'fuzzers.py stage --out "$OUT"',
                 "fuzzers.py list --paths", 'compile_python_fuzzer "$fuzzer"'):
        assert step in text, step


@pytest.mark.slow
def test_one_fuzzer_builds_with_pyinstaller_and_runs_on_its_seed_corpus(tmp_path: Path) -> None:
    pytest.importorskip("atheris", reason="atheris is not installed (pip install 'recspec[fuzz]')")
    pytest.importorskip("PyInstaller", reason="PyInstaller is not installed (pip install -e '.[test]')")
    out = tmp_path / "out"
    # one fuzzer as an example: raSkat's, whose harness imports least and starts fastest
    proc = subprocess.run([sys.executable, str(REPO / "tools" / "build_fuzzers_local.py"), "raskat_signal_ref_fuzzer",
                           "--seconds", "3", "--out", str(out)], capture_output=True, text=True, timeout=900)
    assert proc.returncode == 0, proc.stdout + proc.stderr[-4000:]
    assert "raskat_signal_ref_fuzzer: ran" in proc.stdout
    for name in ("raskat_signal_ref_fuzzer", "raskat_signal_ref_fuzzer.pkg", "raskat_signal_ref_fuzzer.options",
                 "raskat_signal_ref_fuzzer.dict", "raskat_signal_ref_fuzzer_seed_corpus.zip"):
        assert (out / name).is_file(), name
    assert "LLVMFuzzerTestOneInput" in (out / "raskat_signal_ref_fuzzer").read_text()  # how the service finds it
