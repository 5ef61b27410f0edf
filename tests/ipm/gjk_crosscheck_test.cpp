// SPDX-License-Identifier: MIT
// ipm distance against GJK (include/proxima/gjk/distance.hpp, header-only on the shapes layer)
// on every shape both can express: ellipsoids, superquadrics, boxes (six halfspaces vs Box) and
// polytopes (halfspace intersections vs vertex lists). Same distance to 1e-8 relative.
#include "support/draws.hpp"

#include <proxima/gjk/distance.hpp>
#include <proxima/ipm/distance.hpp>
#include <proxima/shapes/box.hpp>
#include <proxima/shapes/ellipsoid.hpp>
#include <proxima/shapes/polytope.hpp>
#include <proxima/shapes/superquadric.hpp>

#include <gtest/gtest.h>

#include <random>
#include <vector>

namespace proxima::ipm {
namespace {

Pose random_pose(std::mt19937_64& rng, double spread) {
  std::normal_distribution<double> n(0, 1);
  std::uniform_real_distribution<double> u(-spread, spread);
  return proxima::test::draw_quaternion_pose(n, u, rng);
}

/// Compares ipm and GJK on `cases` random pose pairs; counts separated cases checked.
template <class ShapeA, class ShapeB>
int compare(const Object& ia, const ShapeA& ga, const Object& ib, const ShapeB& gb, std::uint64_t seed, int cases,
            double tolerance) {
  std::mt19937_64 rng(seed);
  gjk::GjkOptions options;
  options.max_iterations = 1000;  // smooth shapes converge linearly in GJK
  options.nesterov = true;
  int separated = 0;
  for (int trial = 0; trial < cases; ++trial) {
    SCOPED_TRACE("seed " + std::to_string(seed) + " trial " + std::to_string(trial));
    const Pose pa = random_pose(rng, 2), pb = random_pose(rng, 2);
    const DistanceResult ri = distance(ia, pa, ib, pb);
    const DistanceResult rg = gjk::distance(ga, pa, gb, pb, options);
    EXPECT_EQ(ri.status, Status::converged);
    if (rg.status != Status::converged) continue;
    EXPECT_EQ(ri.intersect, rg.intersect) << "ipm " << ri.distance << " gjk " << rg.distance;
    if (ri.intersect || rg.intersect) continue;
    ++separated;
    EXPECT_NEAR(ri.distance, rg.distance, tolerance * (rg.distance + 1e-3) + rg.gap);
  }
  return separated;
}

TEST(IpmVersusGjk, Ellipsoids) {
  const Vec3 ea(1, 0.5, 0.8), eb(0.3, 1.2, 0.6);
  const int n = compare(Object(Quadric::ellipsoid(ea)), Ellipsoid(ea), Object(Quadric::ellipsoid(eb)), Ellipsoid(eb),
                        401, 150, 1e-8);
  EXPECT_GE(n, 60);
}

TEST(IpmVersusGjk, Superquadrics) {
  const Vec3 sa(1, 1, 1.7), na(23.0 / 11, 11.0 / 5, 179.0 / 13), sb(1, 0.7, 1.5), nb(2.5, 3, 4);
  const int n = compare(Object(Superquadric(sa, na)), proxima::Superquadric(sa, na), Object(Superquadric(sb, nb)),
                        proxima::Superquadric(sb, nb), 402, 150, 1e-8);
  EXPECT_GE(n, 50);
}

std::vector<Part> box_parts(const Vec3& h) {
  std::vector<Part> parts;
  for (int i = 0; i < 3; ++i) {
    for (int s : {-1, 1}) {
      Vec3 n = Vec3::Zero();
      n[i] = s;
      parts.emplace_back(Halfspace(n, h[i]));
    }
  }
  return parts;
}

TEST(IpmVersusGjk, BoxesAndPolytopes) {
  const Vec3 ha(1, 0.4, 0.7), hb(0.5, 0.9, 0.3);
  EXPECT_GE(compare(Object(box_parts(ha)), Box(ha), Object(box_parts(hb)), Box(hb), 403, 150, 1e-8), 50);
  // Octahedron |x| + |y| + |z| <= 1 as eight halfspaces vs its six vertices; tetrahedron likewise.
  std::vector<Part> octa;
  for (int sx : {-1, 1}) {
    for (int sy : {-1, 1}) {
      for (int sz : {-1, 1}) octa.emplace_back(Halfspace(Vec3(sx, sy, sz), 1));
    }
  }
  const Polytope octa_v({{1, 0, 0}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}, {0, 0, 1}, {0, 0, -1}});
  const std::vector<Vec3> tv = {{0, 0, 0}, {1.2, 0, 0}, {0.2, 0.9, 0}, {0.3, 0.3, 1.1}};
  std::vector<Part> tetra;
  const Vec3 centroid = (tv[0] + tv[1] + tv[2] + tv[3]) / 4;
  for (int skip = 0; skip < 4; ++skip) {
    Vec3 f[3];
    for (int k = 0, c = 0; k < 4; ++k) {
      if (k != skip) f[c++] = tv[static_cast<std::size_t>(k)];
    }
    Vec3 n = (f[1] - f[0]).cross(f[2] - f[0]);
    if (n.dot(centroid - f[0]) > 0) n = -n;
    tetra.emplace_back(Halfspace(n, n.dot(f[0])));
  }
  const Polytope tetra_v(std::span<const Vec3>(tv.data(), tv.size()));
  EXPECT_GE(compare(Object(std::move(octa)), octa_v, Object(std::move(tetra)), tetra_v, 404, 150, 1e-8), 50);
}

}  // namespace
}  // namespace proxima::ipm
