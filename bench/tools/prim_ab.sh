#!/bin/sh
# SPDX-License-Identifier: MIT
# In-process A/B timing of a closed-form header change against a base commit on the bench's
# capsule-capsule and sphere-box rows (bench/tools/prim_ab_main.cpp).
# usage: bench/tools/prim_ab.sh BUILD_DIR BASE_COMMIT [seed [repeat]]
#   BUILD_DIR: a configured build with proxima_shapes built (both sides link its libraries, so
#   changes under src/ are not compared). Built and run by header_ab.sh, pinned to CPU 1.
AB_DRIVER=prim_ab exec "$(dirname "$0")/header_ab.sh" "$@"
