// SPDX-License-Identifier: MIT
// The batch's small-polytope intersect kernels (src/batch/small_polytope.hpp): on both CPU paths
// of the one-element kernel (portable and, where the CPU has it, AVX2) and on the AVX2 lanes
// kernel (4 elements at a time), every field of the answer equals the scalar query's
// bit for bit, on seeded random poses of both shapes, on touching pairs (B moved onto A along the
// distance normal), at scales 1e-3 to 1e5, on flat, collinear and tie-prone (cube) polytopes, and
// with non-default options (iteration caps of 1-3, Nesterov, other tolerances). Also: which shapes
// the kernel accepts, and the public batch (which takes the kernel for one small polytope pair) on
// every output with 1, 2 and 3 threads.
#include "batch/small_polytope.hpp"
#include "support/draws.hpp"

#include <proxima/batch/batch.hpp>

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <limits>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace proxima::batch {
namespace {

constexpr std::uint32_t kSeed = 20261124;

bool same_bits(double x, double y) { return std::bit_cast<std::uint64_t>(x) == std::bit_cast<std::uint64_t>(y); }
bool same_bits(const Vec3& x, const Vec3& y) {
  return same_bits(x.x(), y.x()) && same_bits(x.y(), y.y()) && same_bits(x.z(), y.z());
}

Polytope sphere_points(std::mt19937& rng, int count, double radius) {
  std::normal_distribution<double> g(0.0, 1.0);
  std::vector<Vec3> points;
  for (int i = 0; i < count; ++i) points.push_back(radius * Vec3{g(rng), g(rng), g(rng)}.normalized());
  return Polytope(points);
}

Pose random_pose(std::mt19937& rng, double spread) {
  std::uniform_real_distribution<double> u(-spread, spread);
  std::normal_distribution<double> g(0.0, 1.0);
  return proxima::test::draw_quaternion_pose(g, u, rng);
}

struct Shape {
  std::string name;
  AnyConvex shape;
  double radius;  // about the size, for the pose spread
};

std::vector<Shape> shapes() {
  std::mt19937 rng(kSeed);
  std::vector<Shape> s;
  for (int n : {4, 8, 13, 32, 47}) s.push_back({"sphere" + std::to_string(n), sphere_points(rng, n, 1.0), 1.0});
  s.push_back({"cube", Polytope({{-1, -1, -1}, {1, -1, -1}, {-1, 1, -1}, {1, 1, -1},
                                 {-1, -1, 1}, {1, -1, 1}, {-1, 1, 1}, {1, 1, 1}}), 1.7});
  s.push_back({"flat", Polytope({{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}, {0.5, 1.3, 0}}), 0.8});
  s.push_back({"collinear", Polytope({{-1, 0, 0}, {0.2, 0, 0}, {1, 0, 0}}), 1.0});
  s.push_back({"tiny8", sphere_points(rng, 8, 1e-3), 1e-3});
  s.push_back({"huge8", sphere_points(rng, 8, 1e5), 1e5});
  return s;
}

std::vector<detail::KernelPath> paths() {
  std::vector<detail::KernelPath> p = {detail::KernelPath::portable};
  if (detail::best_path() == detail::KernelPath::avx2) p.push_back(detail::KernelPath::avx2);
  return p;
}

// Every field of the kernel's answer against scalar_intersect, on each path.
void expect_same(const detail::SmallPolytope& ka, const AnyConvex& a, const Pose& pa, const detail::SmallPolytope& kb,
                 const AnyConvex& b, const Pose& pb, const gjk::GjkOptions& options, const std::string& where) {
  const IntersectResult s = scalar_intersect(a, pa, b, pb, options);
  for (detail::KernelPath path : paths()) {
    const IntersectResult k = detail::intersect_small_polytopes(ka, pa, kb, pa.inverse() * pb, options, path);
    const std::string trace = where + (path == detail::KernelPath::avx2 ? " avx2" : " portable");
    ASSERT_EQ(k.intersect, s.intersect) << trace;
    ASSERT_TRUE(same_bits(k.separating_axis, s.separating_axis)) << trace;
    ASSERT_EQ(k.iterations, s.iterations) << trace;
    ASSERT_EQ(k.status, s.status) << trace;
    ASSERT_EQ(k.detail, s.detail) << trace;
  }
}

// The lanes kernel (4 elements at a time in AVX2 lanes) on a whole list of elements, every field
// against the scalar query; its separating axis comes in A's frame and is rotated here.
void expect_lanes_same(const detail::SmallPolytope& ka, const AnyConvex& a, const detail::SmallPolytope& kb,
                       const AnyConvex& b, const std::vector<Pose>& pa, const std::vector<Pose>& pb,
                       const gjk::GjkOptions& options, const std::string& where) {
  if (!detail::lanes_available() || options.nesterov) return;
  std::vector<IntersectResult> lanes(pa.size());
  for (std::size_t first = 0; first < pa.size(); first += detail::PoseGroup::kSize) {
    const std::size_t count = std::min(detail::PoseGroup::kSize, pa.size() - first);
    detail::PoseGroup group;
    for (std::size_t e = 0; e < count; ++e) group.set(e, pa[first + e].inverse() * pb[first + e]);
    detail::intersect_small_polytopes_lanes(ka, kb, group, count, options, lanes.data() + first);
  }
  for (std::size_t e = 0; e < pa.size(); ++e) {
    const IntersectResult s = scalar_intersect(a, pa[e], b, pb[e], options);
    IntersectResult k = lanes[e];
    if (!k.intersect) k.separating_axis = pa[e].rotate(k.separating_axis);
    const std::string trace = where + " lanes element " + std::to_string(e);
    ASSERT_EQ(k.intersect, s.intersect) << trace;
    ASSERT_TRUE(same_bits(k.separating_axis, s.separating_axis)) << trace;
    ASSERT_EQ(k.iterations, s.iterations) << trace;
    ASSERT_EQ(k.status, s.status) << trace;
    ASSERT_EQ(k.detail, s.detail) << trace;
  }
}

TEST(SmallPolytopeKernel, AcceptsOnlyPolytopesThatScan) {
  std::mt19937 rng(kSeed + 1);
  detail::SmallPolytope k;
  EXPECT_TRUE(detail::load_small_polytope(AnyConvex(sphere_points(rng, 8, 1.0)), k));
  EXPECT_EQ(k.size, 8);
  EXPECT_EQ(k.padded, 8u);
  const AnyConvex big = sphere_points(rng, 200, 1.0);
  ASSERT_GE(std::get<Polytope>(big.variant()).size(), kPolytopeHillClimbMinVertices);
  EXPECT_FALSE(detail::load_small_polytope(big, k));
  EXPECT_FALSE(detail::load_small_polytope(AnyConvex(Box(Vec3(1, 1, 1))), k));
  EXPECT_FALSE(detail::load_small_polytope(AnyConvex(Sphere(1.0)), k));
  // Padding repeats vertex 0.
  EXPECT_TRUE(detail::load_small_polytope(AnyConvex(Polytope({{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}, {1, 1, 1}})), k));
  EXPECT_EQ(k.padded, 8u);
  EXPECT_EQ(k.x[5], k.x[0]);
  EXPECT_EQ(k.z[7], k.z[0]);
}

TEST(SmallPolytopeKernel, EqualsScalarBitForBitOnBothPaths) {
  std::mt19937 rng(kSeed + 2);
  const std::vector<Shape> all = shapes();
  int hits = 0;
  int misses = 0;
  int touching = 0;
  for (const Shape& sa : all) {
    for (const Shape& sb : all) {
      if ((sa.name == "tiny8") != (sb.name == "tiny8") || (sa.name == "huge8") != (sb.name == "huge8")) continue;
      detail::SmallPolytope ka;
      detail::SmallPolytope kb;
      ASSERT_TRUE(detail::load_small_polytope(sa.shape, ka)) << sa.name;
      ASSERT_TRUE(detail::load_small_polytope(sb.shape, kb)) << sb.name;
      const double spread = 1.3 * (sa.radius + sb.radius) / 2;
      std::vector<Pose> all_pa;
      std::vector<Pose> all_pb;
      for (int i = 0; i < 200; ++i) {
        const std::string where = "seed " + std::to_string(kSeed + 2) + " " + sa.name + "-" + sb.name + " #" +
                                  std::to_string(i);
        const Pose pa = random_pose(rng, spread);
        Pose pb = random_pose(rng, spread);
        if (i % 4 == 3) {
          // Touching: move B onto A along the distance normal (separated pairs only).
          const DistanceResult d = scalar_distance(sa.shape, pa, sb.shape, pb);
          if (d.intersect || !d.normal.allFinite()) continue;
          pb = Pose::from_translation(-d.distance * d.normal) * pb;
          ++touching;
        }
        expect_same(ka, sa.shape, pa, kb, sb.shape, pb, {}, where);
        if (HasFatalFailure()) return;
        (scalar_intersect(sa.shape, pa, sb.shape, pb).intersect ? hits : misses) += 1;
        all_pa.push_back(pa);
        all_pb.push_back(pb);
      }
      expect_lanes_same(ka, sa.shape, kb, sb.shape, all_pa, all_pb, {},
                        "seed " + std::to_string(kSeed + 2) + " " + sa.name + "-" + sb.name);
      if (HasFatalFailure()) return;
    }
  }
  // Informative sample: both answers well represented, and many touching pairs.
  const int total = hits + misses;
  EXPECT_GT(hits, total * 3 / 10) << hits << " of " << total;
  EXPECT_GT(misses, total * 2 / 10) << misses << " of " << total;
  EXPECT_GT(touching, 1000);
}

TEST(SmallPolytopeKernel, EqualsScalarWithOtherOptions) {
  std::mt19937 rng(kSeed + 3);
  const std::vector<Shape> all = shapes();
  std::vector<gjk::GjkOptions> options(6);
  options[0].max_iterations = 1;
  options[1].max_iterations = 2;
  options[2].max_iterations = 3;
  options[3].nesterov = true;
  options[4].relative_tolerance = 1e-4;
  options[4].absolute_tolerance = 1e-6;
  options[5].max_iterations = 0;
  int limited = 0;
  for (std::size_t o = 0; o < options.size(); ++o) {
    for (std::size_t s = 0; s + 1 < all.size(); s += 2) {
      detail::SmallPolytope ka;
      detail::SmallPolytope kb;
      ASSERT_TRUE(detail::load_small_polytope(all[s].shape, ka));
      ASSERT_TRUE(detail::load_small_polytope(all[1].shape, kb));
      std::vector<Pose> all_pa;
      std::vector<Pose> all_pb;
      for (int i = 0; i < 100; ++i) {
        const Pose pa = random_pose(rng, 1.5);
        const Pose pb = random_pose(rng, 1.5);
        expect_same(ka, all[s].shape, pa, kb, all[1].shape, pb, options[o],
                    "seed " + std::to_string(kSeed + 3) + " options " + std::to_string(o) + " " + all[s].name + " #" +
                        std::to_string(i));
        if (HasFatalFailure()) return;
        limited += scalar_intersect(all[s].shape, pa, all[1].shape, pb, options[o]).status == Status::iteration_limit;
        all_pa.push_back(pa);
        all_pb.push_back(pb);
      }
      expect_lanes_same(ka, all[s].shape, kb, all[1].shape, all_pa, all_pb, options[o],
                        "seed " + std::to_string(kSeed + 3) + " options " + std::to_string(o) + " " + all[s].name);
      if (HasFatalFailure()) return;
    }
  }
  EXPECT_GT(limited, 200);  // the caps were reached often
}

TEST(SmallPolytopeKernel, LanesAreAvailableOnThisMachineWhenItHasAvx2) {
  // Not a check of the code but of the sample: on a machine with AVX2 the lanes tests above ran.
  if (detail::best_path() == detail::KernelPath::avx2) {
    EXPECT_TRUE(detail::lanes_available());
  }
}

// The lanes' pose conversion: rows [t q] to inverse_a * Pose::from_quaternion(q, t), every entry
// bit for bit against Pose's own arithmetic, and exactly the rows PoseArray::get refuses marked
// invalid (NaN, infinite, zero and too-short quaternions), for full and partial groups of 4; rows
// of huge finite entries are valid.
TEST(SmallPolytopeKernel, QuaternionRowsGiveTheSameRelativePoses) {
  if (!detail::lanes_available()) GTEST_SKIP() << "no AVX2";
  std::mt19937 rng(kSeed + 5);
  std::normal_distribution<double> g(0.0, 1.0);
  const Pose pose_a = Pose::from_euler_xyz(0.4, -1.1, 2.0, Vec3(0.3, -0.2, 1.5));
  const Pose inverse_a = pose_a.inverse();
  for (std::size_t count : {1u, 3u, 4u, 37u, 64u}) {
    std::vector<double> rows;
    for (std::size_t e = 0; e < count; ++e) {
      for (int k = 0; k < 7; ++k) rows.push_back(3 * g(rng));
    }
    if (count >= 37) {
      rows[7 * 2 + 1] = std::nan("");                                   // NaN translation
      rows[7 * 5 + 4] = std::numeric_limits<double>::infinity();        // infinite quaternion
      for (int k = 3; k < 7; ++k) rows[7 * 9 + static_cast<std::size_t>(k)] = 0.0;  // zero quaternion
      for (int k = 3; k < 7; ++k) rows[7 * 11 + static_cast<std::size_t>(k)] = 4e-13;  // norm 8e-13
      for (int k = 3; k < 7; ++k) rows[7 * 12 + static_cast<std::size_t>(k)] = 6e-13;  // norm 1.2e-12: valid
      // Finite quaternions whose squares overflow: valid, scaled before the norm (rows 13 and 14
      // share a group of 4 with ordinary rows 12 and 15, which must keep their bits).
      rows[7 * 13 + 3] = 1e200;
      rows[7 * 13 + 4] = -1e200;
      rows[7 * 14 + 5] = -std::numeric_limits<double>::max();
      // A rejected row (NaN) with a huge finite entry beside it.
      rows[7 * 16 + 3] = std::nan("");
      rows[7 * 16 + 4] = 1e300;
    }
    detail::PoseGroup group;
    bool valid[detail::PoseGroup::kSize] = {};
    detail::relative_poses_from_quaternions(inverse_a, rows.data(), count, group, valid);
    const PoseArray view = PoseArray::quaternions(rows.data(), count);
    int refused = 0;
    for (std::size_t e = 0; e < count; ++e) {
      Pose pb;
      const bool ok = view.get(e, pb);
      ASSERT_EQ(valid[e], ok) << "count " << count << " row " << e;
      if (!ok) {
        ++refused;
        continue;
      }
      const Pose expected = inverse_a * pb;
      for (int i = 0; i < 3; ++i) {
        for (int j = 0; j < 3; ++j) {
          ASSERT_TRUE(same_bits(group.r[3 * i + j][e], expected.rotation()(i, j))) << e << " R" << i << j;
        }
        ASSERT_TRUE(same_bits(group.t[i][e], expected.translation()[i])) << e << " t" << i;
      }
    }
    EXPECT_EQ(refused, count >= 37 ? 5 : 0);
  }
}

TEST(SmallPolytopeKernel, BatchUsesItAndMatchesScalarOnEveryOutput) {
  std::mt19937 rng(kSeed + 4);
  const AnyConvex a = sphere_points(rng, 8, 1.0);
  const AnyConvex b = sphere_points(rng, 12, 0.7);
  constexpr std::size_t kN = 1001;
  std::vector<Pose> pa;
  std::vector<Pose> pb;
  for (std::size_t i = 0; i < kN; ++i) {
    pa.push_back(random_pose(rng, 1.0));
    pb.push_back(random_pose(rng, 1.0));
  }
  const Pose fixed = Pose::from_euler_xyz(0.3, -0.2, 0.1, Vec3(0.1, 0.2, -0.3));
  std::vector<double> rows_b;  // pb as [t q] rows: the batch's quaternion-row path
  for (const Pose& p : pb) {
    const Eigen::Quaterniond q = p.quaternion();
    rows_b.insert(rows_b.end(), {p.translation().x(), p.translation().y(), p.translation().z(), q.w(), q.x(), q.y(), q.z()});
  }
  const std::vector<Pose> pb_rows = [&] {
    std::vector<Pose> v;
    for (std::size_t i = 0; i < kN; ++i) v.push_back(PoseArray::quaternions(rows_b.data(), kN).at(i, "rows"));
    return v;
  }();
  for (int variant = 0; variant < 3; ++variant) {  // pose_a per element; broadcast; broadcast + rows
    const bool broadcast_a = variant > 0;
    const bool rows = variant == 2;
    for (int threads : {1, 2, 3}) {
      BatchOptions options;
      options.threads = threads;
      const std::vector<Pose> pose_a = broadcast_a ? std::vector<Pose>{fixed} : pa;
      const IntersectBatch r = rows ? intersect(std::span(&a, 1), pose_a, std::span(&b, 1),
                                                PoseArray::quaternions(rows_b.data(), kN), options)
                                    : intersect(std::span(&a, 1), pose_a, std::span(&b, 1), pb, options);
      int hits = 0;
      for (std::size_t i = 0; i < kN; ++i) {
        const Pose& p = broadcast_a ? fixed : pa[i];
        const IntersectResult s = scalar_intersect(a, p, b, rows ? pb_rows[i] : pb[i]);
        const std::string where = "threads " + std::to_string(threads) + " element " + std::to_string(i);
        ASSERT_EQ(r.intersect[i], s.intersect ? 1 : 0) << where;
        ASSERT_TRUE(same_bits(r.separating_axis[3 * i], s.separating_axis.x())) << where;
        ASSERT_TRUE(same_bits(r.separating_axis[3 * i + 1], s.separating_axis.y())) << where;
        ASSERT_TRUE(same_bits(r.separating_axis[3 * i + 2], s.separating_axis.z())) << where;
        ASSERT_EQ(r.iterations[i], s.iterations) << where;
        ASSERT_EQ(r.status[i], static_cast<std::uint8_t>(s.status)) << where;
        ASSERT_EQ(r.detail[i], static_cast<std::uint8_t>(s.detail)) << where;
        hits += s.intersect ? 1 : 0;
      }
      EXPECT_GT(hits, static_cast<int>(kN) / 5);
      EXPECT_LT(hits, static_cast<int>(kN) * 4 / 5);
    }
  }
}

}  // namespace
}  // namespace proxima::batch
