#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# CI stage: the test suite (every layer but the oracle sweeps, tools/sanitize.sh) under
# AddressSanitizer + UndefinedBehaviorSanitizer (+ LeakSanitizer) in build-asan, then the
# concurrency tests under ThreadSanitizer in build-tsan (tools/sanitize.sh does each; any report
# fails the test that triggered it, and so this stage). Python bindings, bench and examples are
# not built; only the test executables (and the command the cli tests run).
# Prints the wall time of each part. Environment: as tools/sanitize.sh (JOBS, CTEST_JOBS,
# SANITIZE_NO_APT); SANITIZERS_SKIP_TSAN=1 runs the ASan+UBSan part only.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"

t0=$(date +%s)
asan=0
"$root/tools/sanitize.sh" || asan=$?
t1=$(date +%s)
tsan=0
if [ "${SANITIZERS_SKIP_TSAN:-0}" != "1" ]; then
  "$root/tools/sanitize.sh" --thread || tsan=$?
fi
t2=$(date +%s)

echo "sanitizers.sh: ASan+UBSan suite $((t1 - t0)) s (exit $asan), TSan concurrency $((t2 - t1)) s (exit $tsan), total $((t2 - t0)) s"
[ "$asan" -eq 0 ] && [ "$tsan" -eq 0 ]
