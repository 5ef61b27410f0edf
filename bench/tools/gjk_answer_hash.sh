#!/bin/sh
# SPDX-License-Identifier: MIT
# Hash of every GJK/EPA answer field on the benchmark inputs (bench/tools/gjk_answer_hash.cpp), to
# show a change is bit-identical: run on the build before and after and compare the last line.
# usage: bench/tools/gjk_answer_hash.sh BUILD_DIR [SOURCE_DIR]   (a configured build with
# proxima_shapes built; SOURCE_DIR defaults to this checkout: its include/ is the code hashed)
set -e
BUILD=${1:?build directory}
SRC=${2:-$(cd "$(dirname "$0")/../.." && pwd)}
TOOLS=$(cd "$(dirname "$0")/../.." && pwd)
OUT=$(mktemp -d)
FLAGS="-O3 -DNDEBUG -std=c++20 -I$TOOLS/bench -I$SRC/include -isystem /usr/include/eigen3"
g++ $FLAGS "$TOOLS/bench/tools/gjk_answer_hash.cpp" "$TOOLS/bench/inputs.cpp" "$TOOLS/bench/reference/minkowski.cpp" \
  "$BUILD/libproxima_shapes.a" "$BUILD/libproxima_core.a" -lqhull_r -o "$OUT/hash"
"$OUT/hash"
rm -rf "$OUT"
