#!/bin/bash -eu
# Builds recspec's fuzzers the way OSS-Fuzz builds Python projects: one atheris fuzzer per
# registered format and target (<package>_<target>_fuzzer, e.g. carla_ref_fuzzer), each
# packaged by compile_python_fuzzer (PyInstaller), with <name>_seed_corpus.zip from corpus/,
# <name>.dict and <name>.options beside it in $OUT.
#
# Runs in the OSS-Fuzz / ClusterFuzzLite builder image (gcr.io/oss-fuzz-base/base-builder-python),
# from the source folder ($SRC/recspec). Without Docker, tools/build_fuzzers_local.py runs the
# same steps (and tests/test_fuzz_build.py runs them for one fuzzer).
set -euo pipefail  # also when run as `bash build.sh`
cd "$SRC/recspec"
pip3 install .
python3 fuzz/oss-fuzz/fuzzers.py entrypoints  # fuzz/entrypoints/, from the registry
python3 fuzz/oss-fuzz/fuzzers.py stage --out "$OUT"
read -r -a pyinstaller_args <<< "$(python3 fuzz/oss-fuzz/fuzzers.py pyinstaller-args)"
for fuzzer in $(python3 fuzz/oss-fuzz/fuzzers.py list --paths); do
  compile_python_fuzzer "$fuzzer" "${pyinstaller_args[@]}"
done
