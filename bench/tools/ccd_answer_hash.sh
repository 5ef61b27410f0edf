#!/bin/sh
# SPDX-License-Identifier: MIT
# Hash of every field of every screw_collisions answer on the ccd bench's motions, exact mode or,
# with the argument `raster`, the raster mode at its three presets (bench/tools/ccd_answer_hash.cpp),
# to show a change is bit-identical: run on the build before and after and compare the last line.
# Extra arguments go to the tool (default: hash).
# usage: bench/tools/ccd_answer_hash.sh BUILD_DIR [ARGS...]   (a configured build with proxima_ccd built)
set -e
BUILD=${1:?build directory}
shift
SRC=$(cd "$(dirname "$0")/../.." && pwd)
OUT=$(mktemp -d)
FLAGS="-O3 -DNDEBUG -std=c++20 -I$SRC/bench -I$SRC/include -isystem /usr/include/eigen3"
g++ $FLAGS "$SRC/bench/tools/ccd_answer_hash.cpp" "$SRC/bench/suites/ccd_cases.cpp" "$BUILD/libproxima_ccd.a" \
  "$BUILD/libproxima_mesh.a" "$BUILD/libproxima_shapes.a" "$BUILD/libproxima_core.a" -lqhull_r -o "$OUT/hash"
if [ $# -eq 0 ]; then set -- hash; fi
"$OUT/hash" "$@"
rm -rf "$OUT"
