#!/bin/bash -eu
# ClusterFuzzLite builds recspec's fuzzers exactly as OSS-Fuzz does: see fuzz/oss-fuzz/build.sh.
exec bash "$SRC/recspec/fuzz/oss-fuzz/build.sh"
