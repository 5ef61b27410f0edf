#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Builds the test suite with clang and sanitizers in its own build directory and runs it with
# ctest; any sanitizer report fails the run (halt_on_error, -fno-sanitize-recover=all).
#   tools/sanitize.sh            AddressSanitizer + UndefinedBehaviorSanitizer (+ LeakSanitizer),
#                                every test layer but the oracle sweeps (below), build dir build-asan
#   tools/sanitize.sh --thread   ThreadSanitizer on the hardening tests only, build dir build-tsan
#   tools/sanitize.sh --layers "gjk lp"   ASan+UBSan on those test layers only (ctest labels)
#   tools/sanitize.sh --configure-only     configure build-asan and stop (tools/ci/fuzz.sh uses it)
# The ASan build is also compiled with -fsanitize=fuzzer-no-link (coverage counters only; they do
# nothing without libFuzzer), so tools/ci/fuzz.sh links its fuzz targets against the same library
# objects instead of building the library a third time.
# The default ASan run leaves out the layers in oracle_layers, sweeps that compare answers with
# CGAL and brute-force oracles on random inputs (measured 2026-12-02: 13% of the ASan build's
# compile time and 24% of its test time), to keep CI within its 90 minutes; the Release suite runs
# them in full, and random inputs under ASan+UBSan come from the unit layers' own seeded tests and
# from tools/ci/fuzz.sh. `tools/sanitize.sh --layers "property consistency"` runs them.
# PROXIMA_TEST_CASE_DIVISOR=4 (tests/support/case_divisor.hpp) shortens the heaviest seeded sweeps.
# Environment: JOBS (build parallelism, default 2), CTEST_JOBS (default 2), SANITIZE_NO_APT=1 to
# skip the package check, BUILD_DIR to override the build directory.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
mode="address"
layers=""
configure_only=0
if [ "${1:-}" = "--configure-only" ]; then
  configure_only=1
elif [ "${1:-}" = "--thread" ]; then
  mode="thread"
elif [ "${1:-}" = "--layers" ] && [ -n "${2:-}" ]; then
  layers="$2"
elif [ -n "${1:-}" ]; then
  echo "usage: tools/sanitize.sh [--thread | --layers \"layer ...\" | --configure-only]" >&2
  exit 2
fi
jobs="${JOBS:-2}"
oracle_layers="property consistency"
ctest_jobs="${CTEST_JOBS:-2}"

# clang 14 and its sanitizer runtimes (the LeakSanitizer/ASan/TSan/libFuzzer libraries live in
# libclang-rt-14-dev).
if [ "${SANITIZE_NO_APT:-0}" != "1" ]; then
  missing=()
  for p in clang-14 libclang-rt-14-dev ninja-build cmake; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  if [ ${#missing[@]} -gt 0 ]; then
    SUDO=""
    [ "$(id -u)" -eq 0 ] || SUDO="sudo"
    export DEBIAN_FRONTEND=noninteractive
    $SUDO apt-get update -qq
    $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
  fi
fi
cxx="$(command -v clang++-14 || command -v clang++)"

# ccache: clang's precompiled headers carry a timestamp that defeats caching unless it is turned
# off (-fno-pch-timestamp) and ccache is told to accept PCH (sloppiness); the cache then survives
# between runs and between build directories.
export CCACHE_SLOPPINESS="pch_defines,time_macros,include_file_mtime,include_file_ctime"
export CCACHE_BASEDIR="$root"
export CCACHE_NOHASHDIR=1

# ASan+UBSan at -O1, the usual sanitizer level: -O0 makes the property tests several times slower,
# -O2 costs build time. TSan at -O0: it runs only the concurrency tests (seconds), and -O0
# compiles the library about 4x faster than -O1 under TSan (src/query/penetration_1.cpp: 10 s
# against 39 s) while every memory access stays in the code for TSan to see.
# -gline-tables-only: enough for symbolised stack traces (file:line in every report) at a fraction
# of full -g's compile, link and disk cost. CGAL's exact predicates need -frounding-math (clang 14
# accepts it).
common="-gline-tables-only -fno-omit-frame-pointer -frounding-math -Xclang -fno-pch-timestamp -Wno-ignored-optimization-argument -Wno-unused-command-line-argument"
if [ "$mode" = "address" ]; then
  build="${BUILD_DIR:-$root/build-asan}"
  flags="-O1 $common -fsanitize=address,undefined,fuzzer-no-link -fno-sanitize-recover=all"
  link="-fsanitize=address,undefined"
  fuzz="ON"
  # Tests excluded from this run, each with the finding that excludes it (empty: none).
  exclude=""
else
  build="${BUILD_DIR:-$root/build-tsan}"
  flags="-O0 $common -fsanitize=thread"
  link="-fsanitize=thread"
  fuzz="OFF"
  exclude=""
fi

cmake -S "$root" -B "$build" -G Ninja \
  -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_CXX_COMPILER="$cxx" \
  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="" \
  -DCMAKE_CXX_FLAGS="$flags" \
  -DCMAKE_EXE_LINKER_FLAGS="$link" \
  -DCMAKE_SHARED_LINKER_FLAGS="$link" \
  -DPROXIMA_BUILD_BENCH=OFF -DPROXIMA_BUILD_PYTHON=OFF -DPROXIMA_BUILD_TESTS=ON -DPROXIMA_BUILD_APPS=ON \
  -DPROXIMA_BUILD_FUZZ="$fuzz" \
  -DPROXIMA_WARNINGS_AS_ERRORS=OFF >/dev/null
[ "$configure_only" = "1" ] && exit 0

# Only what the tests need: the test executables (and the command the cli tests run), not the
# fuzz targets, the examples or anything else under `all`.
targets=()
if [ "$mode" = "thread" ]; then
  targets=(proxima_hardening_tests)
elif [ -n "$layers" ]; then
  for l in $layers; do targets+=("proxima_${l}_tests"); done
else
  mapfile -t targets < <(cmake --build "$build" --target help | sed -n 's/^\(proxima_[a-z0-9_]*_tests\):.*/\1/p' \
    | grep -v -x -E "proxima_($(echo $oracle_layers | tr ' ' '|'))_tests")
fi
for t in "${targets[@]}"; do
  if [ "$t" = "proxima_cli_tests" ]; then targets+=(proxima_cli); fi
done

start=$(date +%s)
cmake --build "$build" -j"$jobs" --target "${targets[@]}"
built=$(date +%s)

# Any report stops the process with a non-zero exit code, so ctest counts the test as failed.
export ASAN_OPTIONS="halt_on_error=1:abort_on_error=0:detect_leaks=1:print_stacktrace=1:strict_string_checks=1:detect_stack_use_after_return=1:check_initialization_order=1"
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1"
export TSAN_OPTIONS="halt_on_error=1:second_deadlock_stack=1"
export PROXIMA_TEST_CASE_DIVISOR=4
ctest_args=(--test-dir "$build" --output-on-failure -j"$ctest_jobs" --timeout 1800)
if [ "$mode" = "thread" ]; then
  ctest_args+=(-L '^hardening$' -R Concurrency)
elif [ -n "$layers" ]; then
  ctest_args+=(-L "^($(echo $layers | tr ' ' '|'))\$")
else
  # An executable that is not built leaves a placeholder test <target>_NOT_BUILT (unlabelled).
  skipped="^proxima_($(echo $oracle_layers | tr ' ' '|'))_tests_NOT_BUILT\$"
  ctest_args+=(-LE "^($(echo $oracle_layers | tr ' ' '|'))\$")
  exclude="${exclude:+$exclude|}$skipped"
fi
if [ -n "$exclude" ]; then
  ctest_args+=(-E "$exclude")
fi
status=0
ctest "${ctest_args[@]}" || status=$?
done_at=$(date +%s)
echo "sanitize.sh ($mode): build $((built - start)) s, tests $((done_at - built)) s, exit $status"
exit $status
