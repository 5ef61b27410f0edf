#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The README's test command: install packages, configure, build (Release), run the whole test
# suite, install the package and build the examples/ consumer against the installed copy.
set -euo pipefail
cd "$(dirname "$0")/.."
bash tools/setup-debian.sh
jobs=$(nproc)
# Python: Debian's interpreter (the one python3-numpy and friends are installed for).
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DPROXIMA_WARNINGS_AS_ERRORS=ON \
  -DPROXIMA_BUILD_PYTHON=ON -DPython_EXECUTABLE=/usr/bin/python3 -DPYTHON_EXECUTABLE=/usr/bin/python3
cmake --build build -j "$jobs"
ctest --test-dir build --output-on-failure -j "$jobs" --timeout 300
rm -rf build/install build/examples
cmake --install build --prefix "$PWD/build/install" > /dev/null
cmake -S examples -B build/examples -G Ninja -DCMAKE_PREFIX_PATH="$PWD/build/install"
cmake --build build/examples -j "$jobs"
for exe in build/examples/*; do
  if [ -f "$exe" ] && [ -x "$exe" ]; then "$exe"; fi
done
echo "examples: built against the installed package and ran"
