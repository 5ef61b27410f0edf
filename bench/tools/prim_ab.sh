#!/bin/sh
# SPDX-License-Identifier: MIT
# In-process A/B timing of a closed-form header change against a base commit on the bench's
# capsule-capsule and sphere-box rows (bench/tools/prim_ab_main.cpp).
# usage: bench/tools/prim_ab.sh BUILD_DIR BASE_COMMIT [seed [repeat]]
#   BUILD_DIR: a configured build with proxima_shapes built (both sides link its libraries, so
#   changes under src/ are not compared). Builds the driver, runs it pinned to CPU 1.
set -e
BUILD=$(cd "${1:?build directory}" && pwd)
BASE=${2:?base commit}
shift 2
SRC=$(cd "$(dirname "$0")/../.." && pwd)
OUT=$(mktemp -d)
mkdir "$OUT/base"
git -C "$SRC" archive "$BASE" include | tar -x -C "$OUT/base"
FLAGS="-O3 -DNDEBUG -std=c++20 -I$SRC/bench -isystem /usr/include/eigen3"
g++ $FLAGS -I"$OUT/base/include" -Dgjk=gjk_base -DAB_SIDE=base -c "$SRC/bench/tools/prim_ab_query.cpp" -o "$OUT/base.o"
g++ $FLAGS -I"$SRC/include" -DAB_SIDE=next -c "$SRC/bench/tools/prim_ab_query.cpp" -o "$OUT/next.o"
g++ $FLAGS -I"$SRC/include" "$SRC/bench/tools/prim_ab_main.cpp" "$OUT/base.o" "$OUT/next.o" "$SRC/bench/inputs.cpp" \
  "$SRC/bench/reference/minkowski.cpp" "$BUILD/libproxima_shapes.a" "$BUILD/libproxima_core.a" -lqhull_r -o "$OUT/prim_ab"
taskset -c 1 "$OUT/prim_ab" "$@"
rm -rf "$OUT"
