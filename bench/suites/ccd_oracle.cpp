// SPDX-License-Identifier: MIT
#include "suites/ccd_oracle.hpp"

#include "ccd/reference.hpp"  // tests/ccd/reference.hpp, the ccd tests' oracle

#include <algorithm>
#include <cmath>

namespace proxima::bench {
namespace {

/// Samples over the whole step: a contact lasting more than 1% of the step cannot be skipped.
constexpr int kSamples = 100;
/// Dense search around a candidate earlier than the samples' answer: from just before it to a
/// little after, with this many samples.
constexpr double kCandidateBefore = 1e-6, kCandidateAfter = 5e-3;
constexpr int kCandidateSamples = 50;

}  // namespace

bool have_ccd_oracle() { return true; }

double oracle_first_contact(const mesh::Mesh& a, const mesh::Mesh& b, const Pose& b_in_a, const ccd::Screw& screw,
                            double candidate) {
  const ccd::testing::Reference oracle(a, b, b_in_a, screw);
  double first = oracle.first_contact(kSamples, kCcdOracleTolerance);
  if (std::isfinite(candidate) && (std::isnan(first) || candidate < first)) {
    const double near = oracle.first_contact(kCandidateSamples, kCcdOracleTolerance,
                                             std::max(0.0, candidate - kCandidateBefore),
                                             std::min(1.0, candidate + kCandidateAfter));
    if (!std::isnan(near)) first = near;
  }
  return first;
}

}  // namespace proxima::bench
