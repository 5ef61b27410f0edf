#!/bin/sh
# SPDX-License-Identifier: MIT
# Instructions per query of proxima's GJK/EPA on the benchmark inputs (bench/tools/callgrind_micro.cpp).
# usage: bench/tools/callgrind_micro.sh BUILD_DIR   (a configured build with proxima_shapes built)
# Prints one line per case: mode, N (or primitive row), instructions per query, mean iterations.
set -e
BUILD=${1:?build directory}
SRC=$(cd "$(dirname "$0")/../.." && pwd)
OUT=$(mktemp -d)
FLAGS="-O3 -DNDEBUG -std=c++20 -I$SRC/bench -I$SRC/include -isystem /usr/include/eigen3"
g++ $FLAGS "$SRC/bench/tools/callgrind_micro.cpp" "$SRC/bench/inputs.cpp" "$SRC/bench/reference/minkowski.cpp" \
  "$BUILD/libproxima_shapes.a" "$BUILD/libproxima_core.a" -lqhull_r -o "$OUT/micro"
run() {
  valgrind --tool=callgrind --instr-atstart=no --callgrind-out-file="$OUT/cg" "$OUT/micro" "$1" "$2" 1 2>/dev/null >"$OUT/txt"
  q=$(sed -n 's/.*queries=\([0-9]*\).*/\1/p' "$OUT/txt")
  ir=$(callgrind_annotate "$OUT/cg" 2>/dev/null | grep "PROGRAM TOTALS" | awk '{gsub(",","",$1); print $1}')
  echo "$1 $2 instructions/query=$((ir / q)) $(sed -n 's/.*\(mean_iters=[0-9.]*\).*/\1/p' "$OUT/txt")"
}
for m in distance intersect epa; do for n in 8 32 128 1024; do run $m $n; done; done
for k in 0 1 2 3 4; do run prim $k; done
rm -rf "$OUT"
