#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# CI stage: builds the libFuzzer targets of fuzz/ (clang 14, -fsanitize=fuzzer,address,undefined)
# and runs each for a bounded time from its seed corpus (fuzz/corpus/<target>/). Any crash,
# uncaught exception, contract violation (the targets abort), hang (-timeout), memory blow-up
# (-rss_limit_mb, -malloc_limit_mb) or sanitizer report fails the stage; the input that caused it
# is left in $FUZZ_OUT/<target>-crash-* (or -timeout-*, -oom-*) to be added to the corpus.
# The library objects are those of build-asan (tools/sanitize.sh compiles them with
# -fsanitize=fuzzer-no-link as well), so after tools/ci/sanitizers.sh only the targets link.
#   tools/ci/fuzz.sh                      every target, FUZZ_SECONDS (60) each, 2 at a time
#   tools/ci/fuzz.sh fuzz_lp fuzz_mesh    only those
# Environment: FUZZ_SECONDS (per target, default 60), FUZZ_JOBS (targets run at once, default 2),
# FUZZ_OUT (work corpus and artifacts, default build-asan/fuzz-out), JOBS (build parallelism).
# Longer runs (new inputs are written to the first corpus directory):
#   build-asan/fuzz/fuzz_scene -max_total_time=3600 -timeout=5 -rss_limit_mb=2048 \
#     -dict=fuzz/scene.dict build-asan/fuzz-out/scene fuzz/corpus/scene
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
build="$root/build-asan"
seconds="${FUZZ_SECONDS:-60}"
parallel="${FUZZ_JOBS:-2}"
out="${FUZZ_OUT:-$build/fuzz-out}"
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(fuzz_scene fuzz_query fuzz_mesh fuzz_lp)

# Same configuration (and ccache settings) as tools/sanitize.sh.
export CCACHE_SLOPPINESS="pch_defines,time_macros,include_file_mtime,include_file_ctime"
export CCACHE_BASEDIR="$root"
export CCACHE_NOHASHDIR=1
t0=$(date +%s)
"$root/tools/sanitize.sh" --configure-only
cmake --build "$build" -j"${JOBS:-2}" --target "${targets[@]}"
t1=$(date +%s)

export ASAN_OPTIONS="halt_on_error=1:detect_leaks=1:print_stacktrace=1"
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1"
mkdir -p "$out"
run_one() {
  local target="$1" name="${1#fuzz_}"
  local dict=()
  [ -f "$root/fuzz/$name.dict" ] && dict=(-dict="$root/fuzz/$name.dict")
  mkdir -p "$out/$name"
  # The work corpus comes first (new inputs go there), the repository's seed corpus second.
  "$build/fuzz/$target" -max_total_time="$seconds" -timeout=5 -rss_limit_mb=2048 -malloc_limit_mb=1024 \
    -print_final_stats=1 -artifact_prefix="$out/$target-" "${dict[@]}" "$out/$name" "$root/fuzz/corpus/$name" \
    >"$out/$target.log" 2>&1
}
status=0
pids=()
names=()
for t in "${targets[@]}"; do
  run_one "$t" &
  pids+=($!)
  names+=("$t")
  if [ ${#pids[@]} -ge "$parallel" ]; then
    wait "${pids[0]}" || { echo "fuzz.sh: ${names[0]} FAILED (log: $out/${names[0]}.log)"; status=1; }
    pids=("${pids[@]:1}")
    names=("${names[@]:1}")
  fi
done
for i in "${!pids[@]}"; do
  wait "${pids[$i]}" || { echo "fuzz.sh: ${names[$i]} FAILED (log: $out/${names[$i]}.log)"; status=1; }
done
t2=$(date +%s)

for t in "${targets[@]}"; do
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$out/$t.log" | tail -1)
  used_seed=$(sed -n 's/^INFO: Seed: //p' "$out/$t.log" | head -1)
  echo "fuzz.sh: $t: ${runs:-?} executions in ${seconds} s, libFuzzer seed ${used_seed:-?}"
done
if [ "$status" -ne 0 ]; then
  # Case-insensitive: UBSan reports say "runtime error", libFuzzer says "ERROR" and "deadly signal".
  # The seed line reproduces the run (-seed=N with the same corpus).
  for t in "${targets[@]}"; do
    grep -h -m1 "INFO: Seed:" "$out/$t.log" | sed "s/^/$t: /" || true
    grep -h -i -B2 -A30 -E "error|finding|deadly signal|timeout|out-of-memory|SUMMARY" "$out/$t.log" | head -80 || true
  done
  # Each input that failed, printed in base64 so that a CI log alone reproduces it:
  #   echo <base64> | base64 -d > crash && build-asan/fuzz/<target> crash
  for f in "$out"/*-crash-* "$out"/*-timeout-* "$out"/*-oom-* "$out"/*-leak-*; do
    [ -f "$f" ] || continue
    echo "fuzz.sh: failing input $f ($(stat -c %s "$f") bytes), base64:"
    base64 -w0 "$f" | head -c 20000
    echo
  done
fi
echo "fuzz.sh: build $((t1 - t0)) s, runs $((t2 - t1)) s, exit $status"
exit $status
