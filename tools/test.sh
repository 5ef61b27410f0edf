#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The README's test command (and .ci/run): install packages, configure, build (Release), run the
# whole test suite (C++, Python, CLI, headless-browser viewer test, docs checks) with ctest,
# install the package and build the examples/ consumer against the installed copy, then the
# packaging stage (shared + static install trees, find_package and pkg-config consumers).
# Each part prints its wall time. PROXIMA_CI_STAGES picks the stages after the main suite
# (default "packaging sanitizers fuzz"; "" for none): packaging (shared + static install trees),
# tools/ci/sanitizers.sh (the suite but its oracle sweeps under ASan+UBSan, the concurrency tests
# under TSan) and tools/ci/fuzz.sh (60 s of libFuzzer per target from fuzz/corpus). Timed end to end on a clean
# clone with an empty ccache on this kind of 2-core machine (docs/reliability.md, "CI budget").
# A quicker run without the hardening stages:
#   PROXIMA_CI_STAGES="packaging" bash tools/test.sh
set -euo pipefail
cd "$(dirname "$0")/.."
bash tools/setup-debian.sh
jobs=$(nproc)
# ccache: paths relative to the checkout, so a fresh clone reuses what an earlier clone compiled.
export CCACHE_BASEDIR="$PWD" CCACHE_NOHASHDIR=1
stage_start=$(date +%s)
# Each stage also prints the disk space left: a CI run once failed linking on a full disk.
stage_done() {
  echo "test.sh: $1 took $(( $(date +%s) - stage_start )) s, $(df -h --output=avail . | tail -1 | tr -d ' ') left on disk"
  stage_start=$(date +%s)
}

# Python: Debian's interpreter (the one python3-numpy and friends are installed for).
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DPROXIMA_WARNINGS_AS_ERRORS=ON \
  -DPROXIMA_BUILD_PYTHON=ON -DPython_EXECUTABLE=/usr/bin/python3 -DPYTHON_EXECUTABLE=/usr/bin/python3
cmake --build build -j "$jobs"
stage_done "main build"
ctest --test-dir build --output-on-failure -j "$jobs" --timeout 300
stage_done "main suite"
rm -rf build/install build/examples
cmake --install build --prefix "$PWD/build/install" > /dev/null
cmake -S examples -B build/examples -G Ninja -DCMAKE_PREFIX_PATH="$PWD/build/install"
cmake --build build/examples -j "$jobs"
for exe in build/examples/*; do
  if [ -f "$exe" ] && [ -x "$exe" ]; then "$exe"; fi
done
echo "examples: built against the installed package and ran"
stage_done "examples"

for stage in ${PROXIMA_CI_STAGES-packaging sanitizers fuzz}; do
  PROXIMA_PACKAGING_STATIC_FROM="$PWD/build" bash "tools/ci/$stage.sh"
  stage_done "$stage stage"
done
