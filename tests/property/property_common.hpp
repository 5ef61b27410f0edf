// SPDX-License-Identifier: MIT
// Shared bookkeeping of the property sweeps: failure reports that replay (seed, case index and a
// one-line scene JSON), the tolerance model, and the mix counters whose assertions prove that the
// samples are informative.
#pragma once

#include "support/random_shapes.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <map>
#include <string>

namespace proxima::property {

/// Prints at most kMaxPrinted failing cases in full (the rest are only counted), so one broken
/// invariant does not flood the log; every failure still fails the test.
class FailureLog {
 public:
  FailureLog(std::uint64_t seed, std::string kind) : seed_(seed), kind_(std::move(kind)) {}

  void fail(int index, const testgen::PairCase& c, const std::string& what) {
    ++count_;
    if (count_ <= kMaxPrinted) {
      ADD_FAILURE() << what << "\n  seed " << seed_ << ", case " << index << " (" << c.label
                    << ", scale " << c.scale << ", factor " << c.factor << ")\n  scene: "
                    << testgen::scene_json(c, kind_, std::string("seed") + std::to_string(seed_) + "_case" + std::to_string(index));
    } else {
      ADD_FAILURE() << what << " (seed " << seed_ << ", case " << index << "; scene not printed)";
    }
  }
  int count() const { return count_; }

 private:
  static constexpr int kMaxPrinted = 3;
  std::uint64_t seed_;
  std::string kind_;
  int count_ = 0;
};

/// Size of a placed pair: the bounding radii of the shapes plus the distance of their centres.
/// Relative tolerances multiply it.
inline double pair_size(const testgen::PairCase& c) {
  return c.a.bounding_radius() + c.b.bounding_radius() + (c.pose_b.translation - c.pose_a.translation).norm();
}

/// Rounding floor of a query on this pair: the poses are applied in double, so world coordinates
/// carry about one unit roundoff of |translation| + size each (the oracles see the rounded world
/// vertices, the algorithm the exact local ones and the poses). A small multiple of that.
inline double rounding_floor(const testgen::PairCase& c) {
  constexpr double kRoundoffMultiple = 64;
  const double reach = std::max(c.pose_a.translation.norm(), c.pose_b.translation.norm()) + pair_size(c);
  return kRoundoffMultiple * std::numeric_limits<double>::epsilon() * reach;
}

/// Counts per label, printed as the test's summary line.
class Mix {
 public:
  void add(const std::string& key) { ++counts_[key]; }
  int operator[](const std::string& key) const {
    const auto it = counts_.find(key);
    return it == counts_.end() ? 0 : it->second;
  }
  void print(const char* test) const {
    std::printf("[%s]", test);
    for (const auto& [k, v] : counts_) std::printf(" %s=%d", k.c_str(), v);
    std::printf("\n");
  }

 private:
  std::map<std::string, int> counts_;
};

}  // namespace proxima::property
