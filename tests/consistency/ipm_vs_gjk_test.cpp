// SPDX-License-Identifier: MIT
// Consistency: GJK distance (query::distance, default options, as `proxima run` answers a
// "distance" query) against the interior-point distance (ipm::distance_report, method "ipm") on
// the shapes both can express: ellipsoids, superquadrics (exponents 1.05..25) and polytopes given
// twice, as a halfspace intersection (ipm) and as the vertex list of the same solid (GJK). Seeded
// placements (tests/support/random_shapes.hpp) at scales 1e-3..1e5 and translations to 1e5,
// B at 0.5..1.5 times the touching distance from A, plus touching pairs made by moving B onto A
// along GJK's normal. Tolerances: docs/reliability.md, "Consistency sweep".
#include "consistency/sweep_common.hpp"
#include "support/shape_builder.hpp"

#include <proxima/ipm/distance.hpp>
#include <proxima/query/query.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

namespace proxima::consistency {
namespace {

using property::Mix;
using testgen::PairCase;
using testgen::ShapeKind;

// Distances agree to this fraction of the distance ... (both solvers certify about 1e-12
// relative; 1e-9 leaves room for the superquadric support root find and the IPM's stationarity
// tolerance, kIpmStationarityRelativeTolerance = 1e-9)
constexpr double kRelativeTolerance = 1e-8;
// ... plus this fraction of the pair's size (the IPM stops on a stationarity residual relative to
// the query scale, so near contact its distance is only known to about 1e-9 of the size) ...
constexpr double kSizeTolerance = 1e-8;
// ... plus both certificates (DistanceResult::gap) and the rounding floor of the poses.
// The intersect flags may differ only when the separated side's distance is below this fraction of
// the size (touching band: both answers are right to rounding).
constexpr double kTouchBand = 1e-8;

/// A halfspace polytope: unit normals and offsets (local frame), and its vertices.
struct HPolytope {
  std::vector<Vec3> normals;
  std::vector<double> offsets;
  std::vector<Vec3> vertices;
};

/// The 8 normals (+-1, +-1, +-1)/sqrt 3 turned by a random rotation and each tilted by up to
/// 0.3 rad (they still span space positively, so the set is bounded), plus 0..6 random extra
/// normals; offsets in [0.5, 1]. Vertices by enumerating plane triples (generic normals: every
/// triple is well-conditioned or irrelevant).
HPolytope random_hpolytope(Rng& rng) {
  HPolytope p;
  const Mat3 r = PoseSpec{testgen::random_quaternion(rng), Vec3::Zero()}.pose().rotation();
  for (int i = 0; i < 8; ++i) {
    const Vec3 base = r * Vec3((i & 1) ? 1 : -1, (i & 2) ? 1 : -1, (i & 4) ? 1 : -1).normalized();
    const double tilt = testgen::uniform(rng, 0, 1);
    p.normals.push_back((base + 0.3 * tilt * testgen::random_unit_vector(rng)).normalized());
  }
  const int extra = std::uniform_int_distribution<int>(0, 6)(rng);
  for (int i = 0; i < extra; ++i) p.normals.push_back(testgen::random_unit_vector(rng));
  for (std::size_t i = 0; i < p.normals.size(); ++i) p.offsets.push_back(testgen::uniform(rng, 0.5, 1));
  const std::size_t n = p.normals.size();
  constexpr double kMinDeterminant = 1e-6;
  constexpr double kInsideSlack = 1e-12;
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t j = i + 1; j < n; ++j) {
      for (std::size_t k = j + 1; k < n; ++k) {
        Mat3 m;
        m.row(0) = p.normals[i];
        m.row(1) = p.normals[j];
        m.row(2) = p.normals[k];
        if (std::abs(m.determinant()) < kMinDeterminant) continue;
        const Vec3 x = m.partialPivLu().solve(Vec3(p.offsets[i], p.offsets[j], p.offsets[k]));
        bool inside = true;
        for (std::size_t q = 0; q < n && inside; ++q) inside = p.normals[q].dot(x) <= p.offsets[q] + kInsideSlack;
        if (inside) p.vertices.push_back(x);
      }
    }
  }
  return p;
}

ipm::Object halfspace_object(const HPolytope& p, double scale) {
  std::vector<ipm::Part> parts;
  for (std::size_t k = 0; k < p.normals.size(); ++k) parts.emplace_back(ipm::Halfspace(p.normals[k], scale * p.offsets[k]));
  return ipm::Object(std::move(parts));
}

ipm::Object smooth_object(const ShapeSpec& s) {
  if (s.kind == ShapeKind::ellipsoid) return ipm::Object(ipm::Quadric::ellipsoid(s.semiaxes));
  return ipm::Object(ipm::Superquadric(s.semiaxes, s.exponents));
}

/// One compared case: the placed pair (GJK side), the IPM objects, and the halfspaces when the
/// shapes are halfspace polytopes (for the scene).
struct Compared {
  PairCase pair;
  const HPolytope* ha = nullptr;
  const HPolytope* hb = nullptr;
};

Scene scene_of(const Compared& c) {
  Scene s;
  s.shape("a", shape_json(c.pair.a));
  s.shape("b", shape_json(c.pair.b));
  const auto scaled_offsets = [&](const HPolytope& h) {
    std::vector<double> out;
    for (double o : h.offsets) out.push_back(c.pair.scale * o);
    return out;
  };
  if (c.ha != nullptr) s.shape("a_h", implicit_halfspaces_json(c.ha->normals, scaled_offsets(*c.ha)));
  if (c.hb != nullptr) s.shape("b_h", implicit_halfspaces_json(c.hb->normals, scaled_offsets(*c.hb)));
  s.pair_query("gjk", "distance", "a", c.pair.pose_a, "b", c.pair.pose_b, R"(,"method":"gjk")");
  s.pair_query("ipm", "distance", c.ha ? "a_h" : "a", c.pair.pose_a, c.hb ? "b_h" : "b", c.pair.pose_b,
               R"(,"method":"ipm")");
  return s;
}

struct Sweep {
  Sweep(std::string name, std::uint64_t s) : log(std::move(name), s), seed(s) {}
  Disagreements log;
  std::uint64_t seed;
  Mix mix;
  int index = 0;
  double worst = 0;  // worst |d_ipm - d_gjk| / tolerance
};

/// Compares the two answers on one case; returns GJK's answer (for the touching variant).
DistanceResult compare(Sweep& sweep, const Compared& c, const ipm::Object& ia, const ipm::Object& ib) {
  const int index = sweep.index++;
  const AnyConvex ga = testgen::to_any_convex(c.pair.a);
  const AnyConvex gb = testgen::to_any_convex(c.pair.b);
  const Pose pa = c.pair.pose_a.pose();
  const Pose pb = c.pair.pose_b.pose();
  const DistanceResult g = query::distance(ga, pa, gb, pb);
  const DistanceResult i = ipm::distance_report(ia, pa, ib, pb).result;
  const double size = property::pair_size(c.pair);
  const double tol = kRelativeTolerance * std::max(g.distance, i.distance) + kSizeTolerance * size +
                     (std::isfinite(g.gap) ? g.gap : 0) + (std::isfinite(i.gap) ? i.gap : 0) +
                     property::rounding_floor(c.pair);
  std::ostringstream what;
  what.precision(17);
  what << "gjk distance " << g.distance << " (" << to_string(g.status) << ", gap " << g.gap << ", " << g.iterations
       << " it), ipm distance " << i.distance << " (" << to_string(i.status) << ", gap " << i.gap << ", " << i.iterations
       << " it), tolerance " << tol;
  sweep.mix.add(g.status == Status::converged ? "gjk_converged" : "gjk_" + std::string(to_string(g.status)));
  sweep.mix.add(i.intersect ? "hit" : "miss");
  sweep.mix.add(std::string("decade") + std::to_string(testgen::decade(c.pair.scale)));
  if (i.status == Status::iteration_limit) {
    // The IPM's iterates are feasible, so a capped answer is still an upper bound with its gap
    // (it is checked against GJK below like any other); near touching polytope vertices it can
    // converge too slowly to certify within its budget (docs/reliability.md). Counted, bounded.
    sweep.mix.add("ipm_capped");
    sweep.log.note(index, c.pair.label, "ipm reached its iteration cap: " + what.str(), scene_of(c));
  } else if (i.status != Status::converged) {
    sweep.log.report(index, c.pair.label, "ipm did not converge: " + what.str(), scene_of(c));
    return g;
  }
  if (g.intersect != i.intersect) {
    const double separated = g.intersect ? i.distance : g.distance;
    sweep.mix.add("intersect_differs_in_band");
    if (!(separated <= kTouchBand * size + property::rounding_floor(c.pair))) {
      sweep.log.report(index, c.pair.label, "intersect differs outside the touching band: " + what.str(), scene_of(c));
    }
    return g;
  }
  const double err = std::abs(g.distance - i.distance);
  sweep.worst = std::max(sweep.worst, err / tol);
  if (!(err <= tol)) sweep.log.report(index, c.pair.label, "distances differ: " + what.str(), scene_of(c));
  return g;
}

/// B moved along -normal by GJK's distance: touching to within GJK's accuracy (the pair keeps its
/// label with "_touching").
PairCase touching_variant(const PairCase& c, const DistanceResult& g) {
  PairCase t = c;
  t.label += "_touching";
  t.pose_b.translation -= g.distance * g.normal;
  return t;
}

void finish(Sweep& sweep, const char* name, int min_touching) {
  sweep.mix.print(name);
  std::printf("[%s] %d cases (seed %llu, scale %d), %d disagreements, %d capped ipm answers, worst error / tolerance %.3g\n",
              name, sweep.index, static_cast<unsigned long long>(sweep.seed), sweep_scale(), sweep.log.count(),
              sweep.log.notes(), sweep.worst);
  EXPECT_EQ(sweep.log.count(), 0);
  EXPECT_LE(sweep.log.notes(), sweep.index / kNonAnswerRarity) << "capped ipm answers";
  EXPECT_GE(sweep.mix["hit"], sweep.index / 4) << "hits";
  EXPECT_GE(sweep.mix["miss"], sweep.index / 4) << "misses";
  EXPECT_GE(sweep.mix["touching"], min_touching);
  for (int d = -3; d <= 4; ++d) EXPECT_GT(sweep.mix[std::string("decade") + std::to_string(d)], 0) << "decade " << d;
}

ShapeSpec random_superquadric(Rng& rng, int block) {
  // Block 0: the generators' range (exponents 1.5..8); 1: near 1 (1.05..1.5, sharp edges);
  // 2: large (8..25, nearly boxes).
  const double lo = block == 0 ? 1.5 : block == 1 ? 1.05 : 8;
  const double hi = block == 0 ? 8 : block == 1 ? 1.5 : 25;
  const Vec3 e{testgen::uniform(rng, lo, hi), testgen::uniform(rng, lo, hi), testgen::uniform(rng, lo, hi)};
  return testgen::superquadric_spec(testgen::random_smooth_spec(rng, ShapeKind::ellipsoid).semiaxes, e);
}

TEST(ConsistencyIpmGjk, EllipsoidsAndSuperquadrics) {
  Sweep sweep("ipm_gjk_smooth", seed(8001));
  Rng rng(sweep.seed);
  const int n = cases(240);
  for (int k = 0; k < n; ++k) {
    const int family = k % 4;  // 0: ellipsoids; 1-3: superquadric blocks 0-2
    const ShapeSpec sa = family == 0 ? testgen::random_smooth_spec(rng, ShapeKind::ellipsoid) : random_superquadric(rng, family - 1);
    const ShapeSpec sb = family == 0 ? testgen::random_smooth_spec(rng, ShapeKind::ellipsoid) : random_superquadric(rng, family - 1);
    Compared c{testgen::place_pair(rng, family == 0 ? "ellipsoids" : "superquadrics" + std::to_string(family - 1), sa, sb)};
    const ipm::Object ia = smooth_object(c.pair.a);
    const ipm::Object ib = smooth_object(c.pair.b);
    const DistanceResult g = compare(sweep, c, ia, ib);
    if (k % 4 == 0 && !g.intersect && g.status == Status::converged) {
      sweep.mix.add("touching");
      compare(sweep, Compared{touching_variant(c.pair, g)}, ia, ib);
    }
  }
  finish(sweep, "ipm vs gjk, smooth", n / 20);
}

TEST(ConsistencyIpmGjk, HalfspacePolytopesAgainstVertexPolytopes) {
  Sweep sweep("ipm_gjk_polytope", seed(8002));
  Rng rng(sweep.seed);
  const int n = cases(160);
  for (int k = 0; k < n; ++k) {
    const HPolytope ha = random_hpolytope(rng);
    const HPolytope hb = random_hpolytope(rng);
    ASSERT_GE(ha.vertices.size(), 4u);
    ASSERT_GE(hb.vertices.size(), 4u);
    Compared c{testgen::place_pair(rng, "hpolytopes", testgen::polytope_spec(ha.vertices), testgen::polytope_spec(hb.vertices)),
               &ha, &hb};
    const ipm::Object ia = halfspace_object(ha, c.pair.scale);
    const ipm::Object ib = halfspace_object(hb, c.pair.scale);
    const DistanceResult g = compare(sweep, c, ia, ib);
    if (k % 3 == 0 && !g.intersect && g.status == Status::converged) {
      sweep.mix.add("touching");
      compare(sweep, Compared{touching_variant(c.pair, g), &ha, &hb}, ia, ib);
    }
  }
  finish(sweep, "ipm vs gjk, halfspace polytopes", n / 10);
}

}  // namespace
}  // namespace proxima::consistency
