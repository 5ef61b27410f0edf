#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Installs the Debian 12 packages proxima's build, tests and benchmark use. Safe to re-run.
# Library: Eigen, qhull. Tests: GoogleTest, CGAL (exact oracle). CLI: nlohmann-json (private).
# Bench peers: libccd, FCL, Bullet, GLPK (lp suite), Google Benchmark. Python: pybind11, numpy, pytest, dask.
# Ipopt: test-only oracle of the ipm module. clang 14 + runtimes: sanitizer and fuzz stages. Viewer: nodejs + npm (build: `npm ci` of three.js),
# chromium (the viewer's browser test; fonts-dejavu-core gives the page a font).
set -euo pipefail
packages=(build-essential cmake ninja-build ccache pkg-config
  libeigen3-dev libqhull-dev nlohmann-json3-dev
  libgtest-dev libgmock-dev libcgal-dev libgmp-dev libmpfr-dev
  clang-14 libclang-rt-14-dev
  libccd-dev libfcl-dev libbullet-dev libglpk-dev libbenchmark-dev coinor-libipopt-dev
  python3 python3-dev python3-pybind11 python3-numpy python3-pytest python3-dask python3-distributed
  nodejs chromium fonts-dejavu-core)
# npm: Debian's package, unless the installed Node.js bundles its own (NodeSource's does, and
# conflicts with Debian's npm).
command -v npm >/dev/null 2>&1 || packages+=(npm)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "setup-debian: all packages present"
  exit 0
fi
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
