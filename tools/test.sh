#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The README's test command (and .ci/run): install packages, configure, build (Release), run the
# whole test suite (C++, Python, CLI, headless-browser viewer test, docs checks) with ctest,
# install the package and build the examples/ consumer against the installed copy, then the
# packaging stage (shared + static install trees, find_package and pkg-config consumers).
# Each part prints its wall time. PROXIMA_CI_STAGES picks the stages after the main suite
# (default "packaging"; "" for none). The hardening stages tools/ci/sanitizers.sh (the whole suite
# under ASan+UBSan, the concurrency tests under TSan) and tools/ci/fuzz.sh (bounded libFuzzer runs
# of every target from fuzz/corpus) are opt-in: on this 2-core machine they add two clang builds of
# the library and the tests (the ASan one alone took 35 min of wall time at load 4, its suite
# 8 min; docs/reliability.md); a quiet clean-clone run of all stages has not yet been timed
# against CI's 90 minutes, so they stay out of the default until it has:
#   PROXIMA_CI_STAGES="packaging sanitizers fuzz" bash tools/test.sh
set -euo pipefail
cd "$(dirname "$0")/.."
bash tools/setup-debian.sh
jobs=$(nproc)
# ccache: paths relative to the checkout, so a fresh clone reuses what an earlier clone compiled.
export CCACHE_BASEDIR="$PWD" CCACHE_NOHASHDIR=1
stage_start=$(date +%s)
stage_done() { echo "test.sh: $1 took $(( $(date +%s) - stage_start )) s"; stage_start=$(date +%s); }

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

for stage in ${PROXIMA_CI_STAGES-packaging}; do
  PROXIMA_PACKAGING_STATIC_FROM="$PWD/build" bash "tools/ci/$stage.sh"
  stage_done "$stage stage"
done
