#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The README's demo command: install packages, build Release, run `proxima demo`.
set -euo pipefail
cd "$(dirname "$0")/.."
bash tools/setup-debian.sh
cmake -S . -B build-release -G Ninja -DCMAKE_BUILD_TYPE=Release -DPROXIMA_BUILD_TESTS=OFF -DPROXIMA_BUILD_BENCH=OFF
cmake --build build-release -j "$(nproc)" --target proxima_cli
./build-release/apps/proxima_cli/proxima demo
