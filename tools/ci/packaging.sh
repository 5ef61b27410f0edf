#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Packaging check: builds a SHARED install tree (library + the proxima command) and a STATIC one
# (library only); no tests, no bench. Then against each installed copy
#   1. checks the tree: headers (with the generated version.hpp), the layer libraries, the CMake
#      package with its version file, proxima.pc; for the shared tree the RUNPATH of the installed
#      command and of the libraries, and that the command runs with no LD_LIBRARY_PATH;
#   2. builds examples/ with find_package(proxima) and runs hello_distance;
#   3. checks the version file refuses an incompatible version request;
#   4. builds and runs a tiny consumer through pkg-config (cflags + libs only).
# Usage: tools/ci/packaging.sh            (build dirs build-packaging-{shared,static} in the repo)
#        PROXIMA_PACKAGING_PREFIX=/path/build-x tools/ci/packaging.sh   (dirs /path/build-x-{shared,static})
#        PROXIMA_PACKAGING_STATIC_FROM=/path/build tools/ci/packaging.sh
#          (the static tree is installed from that existing static build instead of a new one;
#          tools/test.sh passes its main build)
# Uses ccache when installed (the top-level CMakeLists.txt picks it up). The trees are configured
# with the same flags as tools/test.sh's main build (Release, warnings as errors): the shared
# layer libraries and the command then compile to the same ccache entries as the main build's
# (ccache's preprocessor mode ignores the -D<target>_EXPORTS a shared library adds), so after the
# main build this stage is mostly cache hits, not a second compile of the library (measured: 62 of
# 64 compiles hit, 12 s instead of ~300 s on a 2-core machine). Prints its duration.
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
prefix_dir="${PROXIMA_PACKAGING_PREFIX:-$repo/build-packaging}"
jobs="${PROXIMA_JOBS:-2}"
start=$(date +%s)

say() { printf '\n== packaging: %s\n' "$*"; }
fail() { printf 'packaging: FAILED: %s\n' "$*" >&2; exit 1; }

for kind in shared static; do
  build="$prefix_dir-$kind"
  install="$build/install"
  shared=OFF apps=OFF
  # The command is built (and its RUNPATH checked) in the shared tree only: a static command
  # needs nothing at run time, and skipping it saves the viewer's build.
  [[ $kind == shared ]] && shared=ON apps=ON
  rm -rf "$install" "$build/examples" "$build/consumer" "$build/version-check"
  if [[ $kind == static && -n ${PROXIMA_PACKAGING_STATIC_FROM:-} ]]; then
    # A static Release build made already (tools/test.sh's main build): install it instead of
    # compiling the library a second time with the same compiler and build type.
    grep -q '^BUILD_SHARED_LIBS:BOOL=ON' "$PROXIMA_PACKAGING_STATIC_FROM/CMakeCache.txt" \
      && fail "PROXIMA_PACKAGING_STATIC_FROM=$PROXIMA_PACKAGING_STATIC_FROM is a shared build"
    say "$kind: install the existing build $PROXIMA_PACKAGING_STATIC_FROM"
    mkdir -p "$build"
    cmake --install "$PROXIMA_PACKAGING_STATIC_FROM" --prefix "$install" >/dev/null
  else
    say "$kind: configure + build + install ($build)"
    cmake -S "$repo" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DBUILD_SHARED_LIBS=$shared \
      -DPROXIMA_WARNINGS_AS_ERRORS=ON \
      -DPROXIMA_BUILD_TESTS=OFF -DPROXIMA_BUILD_BENCH=OFF -DPROXIMA_BUILD_PYTHON=OFF \
      -DPROXIMA_BUILD_APPS=$apps -DCMAKE_INSTALL_PREFIX="$install" >/dev/null
    cmake --build "$build" -j"$jobs"
    cmake --install "$build" >/dev/null
  fi

  say "$kind: install tree"
  libdir="$(dirname "$(find "$install" -name proxima.pc -path '*/pkgconfig/*' | head -n1)")/.."
  libdir="$(cd "$libdir" && pwd)"
  for f in include/proxima/version.hpp include/proxima/gjk/distance.hpp include/proxima/query/query.hpp; do
    [[ -e "$install/$f" ]] || fail "$kind: missing $f"
  done
  for f in cmake/proxima/proximaConfig.cmake cmake/proxima/proximaConfigVersion.cmake \
           cmake/proxima/proximaTargets.cmake pkgconfig/proxima.pc; do
    [[ -e "$libdir/$f" ]] || fail "$kind: missing lib/$f"
  done
  ext=a
  [[ $kind == shared ]] && ext=so
  # Every library proxima.pc names (header-only layers such as gjk have none) is installed.
  libs="$(sed -n 's/^Libs: .*}//p' "$libdir/pkgconfig/proxima.pc")"
  [[ $libs == *-lproxima_core* && $libs == *-lproxima_query* ]] || fail "$kind: proxima.pc Libs is '$libs'"
  for lib in $libs; do
    [[ -e "$libdir/lib${lib#-l}.$ext" ]] || fail "$kind: missing lib${lib#-l}.$ext"
  done
  if [[ $kind == shared ]]; then
    if compgen -G "$libdir/libproxima_*.a" >/dev/null; then fail "shared: static archives installed"; fi
    runpath="$(readelf -d "$install/bin/proxima" | sed -n 's/.*R\(UN\)\?PATH.*\[\(.*\)\]/\2/p')"
    [[ $runpath == *'$ORIGIN/../lib'* ]] || fail "shared: bin/proxima RUNPATH is '$runpath'"
    readelf -d "$install/bin/proxima" | grep -q 'NEEDED.*libproxima_' || fail "shared: bin/proxima does not use the shared libraries"
    # The installed command runs from the install tree alone (no LD_LIBRARY_PATH, no build dir).
    env -u LD_LIBRARY_PATH "$install/bin/proxima" --version | grep -q '^proxima [0-9]' || fail "shared: installed proxima does not run"
    exported=$(nm -D --defined-only "$libdir"/libproxima_*.so | grep -c ' [TW] ' || true)
    echo "shared: installed proxima runs; RUNPATH $runpath; $exported exported text symbols in the layer libraries"
  else
    if compgen -G "$libdir/libproxima_*.so" >/dev/null; then fail "static: shared libraries installed"; fi
  fi
  grep -H '^Requires\|^Libs' "$libdir/pkgconfig/proxima.pc"

  say "$kind: examples/ with find_package(proxima)"
  cmake -S "$repo/examples" -B "$build/examples" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_PREFIX_PATH="$install" >/dev/null
  cmake --build "$build/examples" -j"$jobs" >/dev/null
  env -u LD_LIBRARY_PATH "$build/examples/hello_distance"

  say "$kind: the version file refuses proxima 99"
  mkdir -p "$build/version-check"
  cat >"$build/version-check/CMakeLists.txt" <<'CMAKE'
cmake_minimum_required(VERSION 3.22)
project(version_check LANGUAGES CXX)
find_package(proxima 99 CONFIG QUIET)
if(proxima_FOUND)
  message(FATAL_ERROR "find_package(proxima 99) accepted version ${proxima_VERSION}")
endif()
find_package(proxima CONFIG REQUIRED)
message(STATUS "proxima ${proxima_VERSION}: version 99 refused, unversioned request accepted")
CMAKE
  cmake -S "$build/version-check" -B "$build/version-check/build" -DCMAKE_PREFIX_PATH="$install" | grep 'version 99 refused'

  say "$kind: a consumer through pkg-config"
  mkdir -p "$build/consumer"
  cat >"$build/consumer/consumer.cpp" <<'CPP'
// Uses three layers (query over runtime shapes, with a qhull-built polytope; lp; the version).
#include <proxima/lp/intersect.hpp>
#include <proxima/query/query.hpp>
#include <proxima/shapes/any_convex.hpp>
#include <proxima/version.hpp>
#include <cmath>
#include <cstdio>
int main() {
  using namespace proxima;
  const AnyConvex rock = Polytope({{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}});
  const AnyConvex ball = Sphere(0.5);
  const DistanceResult d = query::distance(rock, Pose(), ball, Pose::from_translation(Vec3(3, 0, 0)));
  Eigen::MatrixXd a(2, 2), b(2, 2);
  a << 0, 1, 0, 0;
  b << 0, 1, 1, 2;
  const lp::LpIntersectResult l = lp::intersect(a, b);
  std::printf("proxima %s via pkg-config: distance %.6f (expect 1.5), lp intersect %d (expect 0)\n",
              kVersionString, d.distance, int(l.intersect));
  return std::abs(d.distance - 1.5) < 1e-9 && !l.intersect ? 0 : 1;
}
CPP
  export PKG_CONFIG_PATH="$libdir/pkgconfig"
  pkg-config --exists --print-errors proxima || fail "$kind: pkg-config cannot read proxima.pc"
  [[ "$(pkg-config --modversion proxima)" == "$(sed -n 's/.*kVersionString = "\(.*\)";/\1/p' "$install/include/proxima/version.hpp")" ]] \
    || fail "$kind: pkg-config version differs from version.hpp"
  # shellcheck disable=SC2046
  c++ -std=c++20 -O1 "$build/consumer/consumer.cpp" -o "$build/consumer/consumer" \
    $(pkg-config --cflags --libs proxima) -Wl,-rpath,"$libdir"
  env -u LD_LIBRARY_PATH "$build/consumer/consumer"
  unset PKG_CONFIG_PATH
done

say "OK: shared and static install trees, find_package and pkg-config consumers ($(( $(date +%s) - start )) s)"
