// SPDX-License-Identifier: MIT
// Case counts of the heaviest seeded sweeps in the sanitizer build.
//
// tools/sanitize.sh runs the suite under ASan+UBSan at -O1, several times slower than the Release
// build, on CI's 2 cores within its 90 minutes. It sets PROXIMA_TEST_CASE_DIVISOR=4, and a sweep
// that asks `cases(n)` then runs the first ceil(n / 4) of its n seeded cases: the same inputs as
// the Release run's first cases, in the same order, with every check and coverage threshold
// scaled to the count. Unset (the Release suite, tools/test.sh's main build): every case.
// Header-only.
#pragma once

#include "support/env_int.hpp"

namespace proxima::test {

/// PROXIMA_TEST_CASE_DIVISOR: an integer in [1, 64]; 1 when unset or out of range.
inline int case_divisor() { return env_int("PROXIMA_TEST_CASE_DIVISOR", 1, 64, 1); }

/// The number of cases a sweep of `full` cases runs: ceil(full / case_divisor()), at least 1.
inline int cases(int full) {
  const int d = case_divisor();
  const int n = (full + d - 1) / d;
  return n >= 1 ? n : 1;
}

}  // namespace proxima::test
