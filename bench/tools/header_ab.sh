#!/bin/sh
# SPDX-License-Identifier: MIT
# In-process A/B timing of a header-only change against a base commit (bench/tools/header_ab_main.cpp).
# usage: bench/tools/header_ab.sh BUILD_DIR BASE_COMMIT [epa|distance|intersect N [repeat]]
#   BUILD_DIR: a configured build with proxima_shapes built (both sides link its libraries, so
#   changes under src/ are not compared); BASE_COMMIT: the commit whose include/ is the base side.
# Builds the driver, then runs it pinned to CPU 1 (default: epa 32 5).
# AB_DRIVER=prim_ab builds bench/tools/prim_ab_{query,main}.cpp instead (bench/tools/prim_ab.sh).
set -e
DRIVER=${AB_DRIVER:-header_ab}
BUILD=$(cd "${1:?build directory}" && pwd)
BASE=${2:?base commit}
shift 2
SRC=$(cd "$(dirname "$0")/../.." && pwd)
OUT=$(mktemp -d)
mkdir "$OUT/base"
git -C "$SRC" archive "$BASE" include | tar -x -C "$OUT/base"
FLAGS="-O3 -DNDEBUG -std=c++20 -I$SRC/bench -isystem /usr/include/eigen3"
g++ $FLAGS -I"$OUT/base/include" -Dgjk=gjk_base -DAB_SIDE=base -c "$SRC/bench/tools/${DRIVER}_query.cpp" -o "$OUT/base.o"
# The base side's EPA cone kernel (an out-of-line function in namespace gjk, renamed gjk_base here)
# is compiled from this checkout's source against the base headers when the base has it.
EXTRA=""
if [ -f "$OUT/base/include/proxima/gjk/epa_face_planes.hpp" ]; then
  g++ $FLAGS -I"$OUT/base/include" -Dgjk=gjk_base -c "$SRC/src/shapes/epa_face_planes.cpp" -o "$OUT/base_planes.o"
  EXTRA="$OUT/base_planes.o"
fi
g++ $FLAGS -I"$SRC/include" -DAB_SIDE=next -c "$SRC/bench/tools/${DRIVER}_query.cpp" -o "$OUT/next.o"
g++ $FLAGS -I"$SRC/include" "$SRC/bench/tools/${DRIVER}_main.cpp" "$OUT/base.o" $EXTRA "$OUT/next.o" "$SRC/bench/inputs.cpp" \
  "$SRC/bench/reference/minkowski.cpp" "$BUILD/libproxima_shapes.a" "$BUILD/libproxima_core.a" -lqhull_r -o "$OUT/$DRIVER"
if [ $# -eq 0 ] && [ "$DRIVER" = header_ab ]; then set -- epa 32 5; fi
taskset -c 1 "$OUT/$DRIVER" "$@"
rm -rf "$OUT"
