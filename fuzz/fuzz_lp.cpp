// SPDX-License-Identifier: MIT
// libFuzzer target: the LP queries (include/proxima/lp/) on fuzzed point sets: dimension 1..8,
// 0..12 points per set, coordinates from fuzz_numbers.hpp (grid, small, huge/tiny, raw bits:
// NaN and infinities included). Runs lp::intersect, lp::contains (both orders) and lp::distance
// (1-norm and infinity-norm), cold and then warm-started from a shared workspace.
// Accepted outcome: InvalidInput for a non-finite coordinate. Findings: a crash, a hang, a
// sanitizer report, any other exception, or a converged answer that breaks its contract:
//  - intersect, separated: the hyperplane must pass check_separation on the input points (the
//    documented double-precision check), margin > 0; intersecting: finite common point, weights
//    and residual;
//  - contains, false: finite unit normal and margin > 0 for a non-empty B;
//  - distance: 0 <= lower_bound-ish, distance finite (both sets non-empty), finite points.
#include "fuzz_numbers.hpp"

#include <proxima/core/error.hpp>
#include <proxima/lp/contains.hpp>
#include <proxima/lp/distance.hpp>
#include <proxima/lp/intersect.hpp>

#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace {

using namespace proxima;

[[noreturn]] void finding(const char* what) {
  std::fprintf(stderr, "fuzz_lp finding: %s\n", what);
  std::abort();
}

void check_intersect(const Eigen::MatrixXd& a, const Eigen::MatrixXd& b, const lp::LpIntersectResult& r) {
  if (r.status != Status::converged) return;
  if (!r.converged) finding("intersect: status converged but converged == false");
  if (r.intersect) {
    if (!r.common_point.allFinite() || !r.weights_a.allFinite() || !r.weights_b.allFinite())
      finding("intersect: non-finite common point or weights");
    if (!std::isfinite(r.residual)) finding("intersect: non-finite residual");
  } else if (a.cols() > 0 && b.cols() > 0) {
    if (!(r.margin > 0)) finding("intersect: separated without a positive margin");
    if (!lp::check_separation(a, b, r.separating_normal, r.separating_offset).valid)
      finding("intersect: separating hyperplane fails check_separation on the input points");
  }
}

void check_contains(const Eigen::MatrixXd& b, const lp::LpContainsResult& r) {
  if (r.status != Status::converged) return;
  if (r.contains) return;
  if (b.cols() == 0) return;  // vacuous normal, offset -inf (documented)
  if (r.outside_vertex < 0) finding("contains: false without an outside vertex");
  if (!r.separating_normal.allFinite() || !std::isfinite(r.separating_offset))
    finding("contains: non-finite separating plane");
  if (!(r.margin > 0)) finding("contains: false without a positive margin");
}

void check_distance(const Eigen::MatrixXd& a, const Eigen::MatrixXd& b, const lp::LpDistanceResult& r) {
  if (r.status != Status::converged) return;
  if (a.cols() == 0 || b.cols() == 0) return;  // +inf by contract
  if (!std::isfinite(r.distance) || r.distance < 0) finding("distance: converged, not finite or negative");
  if (!r.point_a.allFinite() || !r.point_b.allFinite()) finding("distance: non-finite closest points");
  if (!std::isfinite(r.lower_bound)) finding("distance: non-finite lower bound");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  FuzzedDataProvider in(data, size);
  const int n = in.ConsumeIntegralInRange<int>(1, 8);
  const int na = in.ConsumeIntegralInRange<int>(0, 12);
  const int nb = in.ConsumeIntegralInRange<int>(0, 12);
  Eigen::MatrixXd a(n, na), b(n, nb);
  for (int j = 0; j < na; ++j)
    for (int i = 0; i < n; ++i) a(i, j) = fuzz::number(in);
  for (int j = 0; j < nb; ++j)
    for (int i = 0; i < n; ++i) b(i, j) = fuzz::number(in);
  // Translated copies for the warm-started second round (a small motion of B).
  Eigen::MatrixXd b2 = b;
  if (nb > 0) b2.colwise() += Eigen::VectorXd::Constant(n, in.ConsumeFloatingPointInRange<double>(-0.1, 0.1));
  try {
    check_intersect(a, b, lp::intersect(a, b));
    check_contains(b, lp::contains(a, b));
    check_contains(a, lp::contains(b, a));
    check_distance(a, b, lp::distance(a, b, lp::DistanceNorm::l1));
    check_distance(a, b, lp::distance(a, b, lp::DistanceNorm::linf));
    lp::LpWorkspace ws;
    check_intersect(a, b, lp::intersect(a, b, ws));
    check_intersect(a, b2, lp::intersect(a, b2, ws));
    check_distance(a, b2, lp::distance(a, b2, lp::DistanceNorm::l1, ws));
    check_contains(b2, lp::contains(a, b2, ws));
  } catch (const InvalidInput&) {
    // a non-finite coordinate, refused with its field name: the documented outcome
  }
  return 0;
}
