// SPDX-License-Identifier: MIT
// The edge-edge triple product of both screw_collisions modes (src/ccd/triple_product.hpp): its
// value against the triple product of B's edge carried by Screw::apply / Screw::rotate (an
// independent evaluation, to rounding), and the raster's cheaper ways of building it (the
// coefficients computed later, the turn handed in from properness.hpp's turn_at) against the plain
// constructor, bit for bit.
#include <proxima/ccd/screw.hpp>

#include "ccd/properness.hpp"
#include "ccd/triple_product.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <string>

namespace proxima::ccd {
namespace {

using detail::EdgeTripleProduct;

struct RandomEdges {
  Screw screw;
  Vec3 pa, da, qb, db;
};

RandomEdges random_edges(std::mt19937_64& rng) {
  std::uniform_real_distribution<double> u(-1, 1);
  auto vec = [&] { return Vec3{u(rng), u(rng), u(rng)}; };
  RandomEdges r;
  Vec3 axis = vec();
  for (int k = 0; k < 8 && axis.norm() < 0.1; ++k) {
    axis = vec();
  }
  r.screw = Screw{vec(), axis.normalized(), 2 * u(rng), u(rng)};
  r.pa = vec();
  r.da = vec();
  r.qb = vec();
  r.db = vec();
  return r;
}

bool same_bits(const Vec3& x, const Vec3& y) { return x.x() == y.x() && x.y() == y.y() && x.z() == y.z(); }

TEST(EdgeTripleProduct, ValueIsTheTripleProductOfTheCarriedEdge) {
  const std::uint64_t seed = 2801;
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> time(0, 1);
  for (int k = 0; k < 500; ++k) {
    const RandomEdges e = random_edges(rng);
    const EdgeTripleProduct triple(e.screw, e.pa, e.da, e.qb, e.db);
    for (int i = 0; i < 4; ++i) {
      const double s = time(rng);
      const Vec3 q = e.screw.apply(e.qb, s);
      const Vec3 d = e.screw.rotate(e.db, s);
      const double direct = (q - e.pa).dot(e.da.cross(d));
      const double scale = (q - e.pa).norm() * e.da.norm() * d.norm() + 1;
      ASSERT_NEAR(triple.value(s), direct, 1e-12 * scale) << "seed " << seed << " case " << k << " s " << s;
    }
  }
}

TEST(EdgeTripleProduct, DeferredCoefficientsAndAHandedTurnGiveTheSameBits) {
  const std::uint64_t seed = 2802;
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> time(0, 1);
  for (int k = 0; k < 500; ++k) {
    const RandomEdges e = random_edges(rng);
    const std::string label = "seed " + std::to_string(seed) + " case " + std::to_string(k);
    const EdgeTripleProduct plain(e.screw, e.pa, e.da, e.qb, e.db);
    EdgeTripleProduct deferred(e.screw, e.pa, e.da, e.qb, e.db, EdgeTripleProduct::DeferCoefficients{});
    const double s = time(rng);
    // The turn the raster computes for its properness bound, handed over before the first motion.
    deferred.remember_turn(s, detail::turn_at(s, e.screw.angle));
    Vec3 q0, e0, q1, e1;
    plain.motion(s, q0, e0);
    deferred.motion(s, q1, e1);
    ASSERT_TRUE(same_bits(q0, q1) && same_bits(e0, e1)) << label;
    ASSERT_EQ(plain.stays_parallel(1e-9), deferred.stays_parallel(1e-9)) << label;
    deferred.compute_coefficients();
    for (std::size_t i = 0; i < 4; ++i) {
      for (std::size_t j = 0; j < 3; ++j) {
        ASSERT_EQ(plain.k[i][j], deferred.k[i][j]) << label << " k " << i << j;
      }
    }
    for (double t : {s, time(rng), 0.0, 1.0}) {
      ASSERT_EQ(plain.value(t), deferred.value(t)) << label << " t " << t;
      ASSERT_EQ(plain.slope(t), deferred.slope(t)) << label << " t " << t;
      double a1 = 0, a2 = 0, b1 = 0, b2 = 0;
      plain.bounds(std::min(s, t), std::max(s, t), a1, a2);
      deferred.bounds(std::min(s, t), std::max(s, t), b1, b2);
      ASSERT_TRUE(a1 == b1 && a2 == b2) << label << " t " << t;
    }
  }
}

}  // namespace
}  // namespace proxima::ccd
