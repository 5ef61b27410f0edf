// SPDX-License-Identifier: MIT
// FNV-1a over the bytes of answer fields, for the answer-hash tools (gjk_answer_hash.cpp,
// ccd_answer_hash.cpp): equal hashes before and after a change show every hashed value is the
// same bit for bit. `values` counts the fields added.
#pragma once

#include <proxima/core/types.hpp>

#include <cstddef>
#include <cstdint>

namespace proxima::bench {

struct FnvHasher {
  std::uint64_t h = 1469598103934665603ULL;
  long values = 0;
  void bytes(const void* p, std::size_t n) {
    const auto* c = static_cast<const unsigned char*>(p);
    for (std::size_t i = 0; i < n; ++i) h = (h ^ c[i]) * 1099511628211ULL;
  }
  void add(double x) { bytes(&x, sizeof x); ++values; }
  void add(int x) { bytes(&x, sizeof x); ++values; }
  void add(bool x) { add(x ? 1 : 0); }
  void add(const Vec3& v) { add(v.x()); add(v.y()); add(v.z()); }
};

}  // namespace proxima::bench
