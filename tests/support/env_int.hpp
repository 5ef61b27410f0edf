// SPDX-License-Identifier: MIT
// Integer knobs of the test suite read from the environment (sweep sizes, case divisors): one
// parser, so every knob treats an unset, malformed or out-of-range value the same way (its
// default) instead of each test rolling its own atoi. Header-only.
#pragma once

#include <cerrno>
#include <cstdlib>

namespace proxima::test {

/// The integer in environment variable `name` when it parses completely and lies in [lo, hi];
/// `fallback` when the variable is unset, empty, not an integer, or out of range.
inline int env_int(const char* name, int lo, int hi, int fallback) {
  const char* s = std::getenv(name);
  if (s == nullptr || *s == '\0') return fallback;
  char* end = nullptr;
  errno = 0;
  const long v = std::strtol(s, &end, 10);
  if (errno != 0 || *end != '\0' || v < lo || v > hi) return fallback;
  return static_cast<int>(v);
}

}  // namespace proxima::test
