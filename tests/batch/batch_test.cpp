// SPDX-License-Identifier: MIT
// Batch queries: element i equals the scalar reference bit for bit for 1, 2 and 4 threads on
// seeded random poses; sphere pairs against the closed form; broadcasting and arrays of shapes;
// the pose layouts; bad input (lengths, NaN poses, zero quaternions, outputs, threads).
#include <proxima/batch/batch.hpp>
#include <proxima/core/error.hpp>

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

namespace proxima::batch {
namespace {

constexpr std::uint32_t kSeed = 20261122;

Polytope random_polytope(std::mt19937& rng, int count, double radius) {
  std::normal_distribution<double> g(0.0, 1.0);
  std::vector<Vec3> points;
  for (int i = 0; i < count; ++i) points.push_back(radius * Vec3{g(rng), g(rng), g(rng)}.normalized());
  return Polytope(points);
}

// Rows [tx, ty, tz, qw, qx, qy, qz] with translations in a cube of half side `spread`.
std::vector<double> random_quaternion_rows(std::mt19937& rng, std::size_t n, double spread) {
  std::uniform_real_distribution<double> u(-spread, spread);
  std::normal_distribution<double> g(0.0, 1.0);
  std::vector<double> rows;
  for (std::size_t i = 0; i < n; ++i) {
    for (double v : {u(rng), u(rng), u(rng), g(rng), g(rng), g(rng), g(rng)}) rows.push_back(v);
  }
  return rows;
}

std::vector<Pose> to_poses(const std::vector<double>& rows) {
  const PoseArray view = PoseArray::quaternions(rows.data(), rows.size() / 7);
  std::vector<Pose> poses;
  for (std::size_t i = 0; i < view.size(); ++i) poses.push_back(view.at(i, "rows"));
  return poses;
}

bool same_bits(double x, double y) { return std::bit_cast<std::uint64_t>(x) == std::bit_cast<std::uint64_t>(y); }
bool same_bits(const double* x, const Vec3& v) { return same_bits(x[0], v.x()) && same_bits(x[1], v.y()) && same_bits(x[2], v.z()); }

template <class F>
std::string field_of(F&& f) {
  try {
    f();
  } catch (const InvalidInput& e) {
    return e.field() + " | " + e.what();
  }
  return "no exception";
}

struct PairCase {
  std::string name;
  AnyConvex a;
  AnyConvex b;
  double spread;
};

std::vector<PairCase> cases() {
  std::mt19937 rng(kSeed);
  std::vector<PairCase> c;
  c.push_back({"polytope8-polytope8", random_polytope(rng, 8, 1.0), random_polytope(rng, 8, 1.0), 1.2});
  c.push_back({"polytope32-box", random_polytope(rng, 32, 1.0), Box(Vec3(0.5, 0.7, 0.3)), 1.2});
  c.push_back({"sphere-capsule", Sphere(0.6), Capsule(0.3, 0.8), 1.0});
  c.push_back({"ellipsoid-cylinder", Ellipsoid(Vec3(0.8, 0.5, 0.4)), Cylinder(0.5, 0.6), 1.0});
  return c;
}

TEST(Batch, EqualsScalarBitForBitForOneTwoFourThreads) {
  constexpr std::size_t kN = 300;
  std::mt19937 rng(kSeed + 1);
  for (const PairCase& pc : cases()) {
    const std::vector<double> rows_a = random_quaternion_rows(rng, kN, pc.spread);
    const std::vector<double> rows_b = random_quaternion_rows(rng, kN, pc.spread);
    const std::vector<Pose> pa = to_poses(rows_a);
    const std::vector<Pose> pb = to_poses(rows_b);
    const std::span<const AnyConvex> sa(&pc.a, 1);
    const std::span<const AnyConvex> sb(&pc.b, 1);
    int hits = 0;
    for (int threads : {1, 2, 4}) {
      BatchOptions options;
      options.threads = threads;
      const IntersectBatch bi = intersect(sa, PoseArray::quaternions(rows_a.data(), kN), sb,
                                          PoseArray::quaternions(rows_b.data(), kN), options);
      const DistanceBatch bd = distance(sa, pa, sb, pb, options);
      const PenetrationBatch bp = penetration(sa, pa, sb, pb, options);
      for (std::size_t i = 0; i < kN; ++i) {
        SCOPED_TRACE("seed " + std::to_string(kSeed) + " case " + pc.name + " threads " + std::to_string(threads) +
                     " element " + std::to_string(i));
        const IntersectResult si = scalar_intersect(pc.a, pa[i], pc.b, pb[i]);
        ASSERT_EQ(bi.intersect[i], si.intersect ? 1 : 0);
        ASSERT_TRUE(same_bits(&bi.separating_axis[3 * i], si.separating_axis));
        ASSERT_EQ(bi.iterations[i], si.iterations);
        ASSERT_EQ(bi.status[i], static_cast<std::uint8_t>(si.status));
        ASSERT_EQ(bi.detail[i], static_cast<std::uint8_t>(si.detail));
        if (threads == 1) hits += si.intersect ? 1 : 0;

        const DistanceResult sd = scalar_distance(pc.a, pa[i], pc.b, pb[i]);
        ASSERT_TRUE(same_bits(bd.distance[i], sd.distance));
        ASSERT_EQ(bd.intersect[i], sd.intersect ? 1 : 0);
        ASSERT_TRUE(same_bits(&bd.point_a[3 * i], sd.point_a));
        ASSERT_TRUE(same_bits(&bd.point_b[3 * i], sd.point_b));
        ASSERT_TRUE(same_bits(&bd.normal[3 * i], sd.normal));
        ASSERT_TRUE(same_bits(bd.gap[i], sd.gap));
        ASSERT_EQ(bd.iterations[i], sd.iterations);
        ASSERT_EQ(bd.status[i], static_cast<std::uint8_t>(sd.status));

        const PenetrationResult sp = scalar_penetration(pc.a, pa[i], pc.b, pb[i]);
        ASSERT_EQ(bp.intersect[i], sp.intersect ? 1 : 0);
        ASSERT_TRUE(same_bits(bp.depth[i], sp.depth));
        ASSERT_TRUE(same_bits(&bp.normal[3 * i], sp.normal));
        ASSERT_TRUE(same_bits(&bp.point_a[3 * i], sp.point_a));
        ASSERT_TRUE(same_bits(&bp.point_b[3 * i], sp.point_b));
        ASSERT_EQ(bp.iterations[i], sp.iterations);
        ASSERT_EQ(bp.status[i], static_cast<std::uint8_t>(sp.status));
      }
    }
    // The sample must exercise both answers: between 15% and 85% overlapping pairs.
    EXPECT_GT(hits, static_cast<int>(kN) * 15 / 100) << pc.name;
    EXPECT_LT(hits, static_cast<int>(kN) * 85 / 100) << pc.name;
  }
}

// Large batches are cut into many blocks that the threads take as they free up (thread_pool.hpp):
// the answers still equal the scalar query for 1, 2 and 3 threads, and with the throwing policy
// the lowest bad element is named even when later blocks (taken first by another thread) hold
// bad elements too.
TEST(Batch, ManyBlocksSameAnswersAndLowestBadElement) {
  constexpr std::size_t kN = 9000;  // 2 threads: 32 blocks; 3 threads: 35
  std::mt19937 rng(kSeed + 6);
  const AnyConvex a = random_polytope(rng, 8, 1.0);
  const AnyConvex b = Box(Vec3(0.4, 0.6, 0.5));
  const AnyConvex c = random_polytope(rng, 10, 0.8);
  std::vector<double> rows = random_quaternion_rows(rng, kN, 1.3);
  const std::vector<Pose> poses = to_poses(rows);
  const Pose identity;
  std::vector<std::uint8_t> reference_hit;
  for (int threads : {1, 2, 3}) {
    SCOPED_TRACE("seed " + std::to_string(kSeed + 6) + " threads " + std::to_string(threads));
    BatchOptions options;
    options.threads = threads;
    const IntersectBatch small = intersect(std::span(&a, 1), std::span(&identity, 1), std::span(&c, 1),
                                           PoseArray::quaternions(rows.data(), kN), options);
    const DistanceBatch d = distance(std::span(&a, 1), std::span(&identity, 1), std::span(&b, 1), poses, options);
    int hits = 0;
    for (std::size_t i = 0; i < kN; ++i) {
      const IntersectResult si = scalar_intersect(a, identity, c, poses[i]);
      ASSERT_EQ(small.intersect[i], si.intersect ? 1 : 0) << i;
      ASSERT_EQ(small.iterations[i], si.iterations) << i;
      ASSERT_TRUE(same_bits(&small.separating_axis[3 * i], si.separating_axis)) << i;
      ASSERT_TRUE(same_bits(d.distance[i], scalar_distance(a, identity, b, poses[i]).distance)) << i;
      hits += si.intersect ? 1 : 0;
    }
    EXPECT_GT(hits, static_cast<int>(kN) / 5);
    EXPECT_LT(hits, static_cast<int>(kN) * 4 / 5);
  }
  rows[7 * 8700 + 2] = std::nan("");  // in the last block
  rows[7 * 4321 + 5] = std::nan("");  // in a middle block: the one reported
  for (int threads : {1, 2, 3}) {
    BatchOptions options;
    options.threads = threads;
    const std::string msg = field_of([&] {
      (void)intersect(std::span(&a, 1), std::span(&identity, 1), std::span(&c, 1),
                      PoseArray::quaternions(rows.data(), kN), options);
    });
    EXPECT_EQ(msg.rfind("pose_b[4321] |", 0), 0u) << threads << ": " << msg;
  }
  // mark_element: the two bad rows are marked, every other element still equals the scalar.
  BatchOptions mark;
  mark.threads = 2;
  mark.bad_poses = BadPosePolicy::mark_element;
  const IntersectBatch marked = intersect(std::span(&a, 1), std::span(&identity, 1), std::span(&c, 1),
                                          PoseArray::quaternions(rows.data(), kN), mark);
  for (std::size_t i = 0; i < kN; ++i) {
    if (i == 4321 || i == 8700) {
      EXPECT_EQ(marked.status[i], static_cast<std::uint8_t>(Status::degenerate_input)) << i;
      EXPECT_EQ(marked.detail[i], static_cast<std::uint8_t>(Detail::non_finite)) << i;
      EXPECT_EQ(marked.iterations[i], 0) << i;
      continue;
    }
    const IntersectResult si = scalar_intersect(a, identity, c, poses[i]);
    ASSERT_EQ(marked.intersect[i], si.intersect ? 1 : 0) << i;
    ASSERT_EQ(marked.iterations[i], si.iterations) << i;
    ASSERT_TRUE(same_bits(&marked.separating_axis[3 * i], si.separating_axis)) << i;
  }
}

TEST(Batch, SpherePairsMatchTheClosedForm) {
  constexpr std::size_t kN = 500;
  std::mt19937 rng(kSeed + 2);
  std::uniform_real_distribution<double> u(-3.0, 3.0);
  std::vector<Pose> pb;
  for (std::size_t i = 0; i < kN; ++i) pb.push_back(Pose::from_translation(Vec3{u(rng), u(rng), u(rng)}));
  const AnyConvex a = Sphere(0.7);
  const AnyConvex b = Sphere(1.1);
  const Pose identity;
  const DistanceBatch d = distance(std::span(&a, 1), std::span(&identity, 1), std::span(&b, 1), pb, {.threads = 2});
  int separated = 0;
  for (std::size_t i = 0; i < kN; ++i) {
    const double expected = std::max(0.0, pb[i].translation().norm() - 1.8);
    EXPECT_NEAR(d.distance[i], expected, 1e-9) << "seed " << kSeed + 2 << " element " << i;
    separated += expected > 0 ? 1 : 0;
  }
  EXPECT_GT(separated, 100);
  EXPECT_LT(separated, 480);
}

TEST(Batch, ArraysOfShapesAndBroadcast) {
  std::mt19937 rng(kSeed + 3);
  constexpr std::size_t kN = 64;
  std::vector<AnyConvex> shapes_b;
  for (std::size_t i = 0; i < kN; ++i) {
    if (i % 2 == 0) {
      shapes_b.emplace_back(random_polytope(rng, 12, 0.8));
    } else {
      shapes_b.emplace_back(Sphere(0.2 + 0.01 * static_cast<double>(i)));
    }
  }
  const std::vector<double> rows_b = random_quaternion_rows(rng, kN, 2.0);
  const std::vector<Pose> pb = to_poses(rows_b);
  const AnyConvex a = Box(Vec3(0.6, 0.6, 0.6));
  const Pose pa = Pose::from_euler_xyz(0.1, 0.2, 0.3);
  const DistanceBatch d = distance(std::span(&a, 1), std::span(&pa, 1), shapes_b, pb, {.threads = 3});
  for (std::size_t i = 0; i < kN; ++i) {
    const DistanceResult s = scalar_distance(a, pa, shapes_b[i], pb[i]);
    EXPECT_TRUE(same_bits(d.distance[i], s.distance)) << "element " << i;
  }
}

TEST(Batch, MatrixLayoutEqualsQuaternionLayout) {
  std::mt19937 rng(kSeed + 4);
  constexpr std::size_t kN = 50;
  const std::vector<double> rows = random_quaternion_rows(rng, kN, 1.5);
  const std::vector<Pose> poses = to_poses(rows);
  std::vector<double> matrices;
  for (const Pose& p : poses) {
    for (int i = 0; i < 3; ++i) {
      for (int j = 0; j < 3; ++j) matrices.push_back(p.rotation()(i, j));
      matrices.push_back(p.translation()[i]);
    }
    for (double v : {0.0, 0.0, 0.0, 1.0}) matrices.push_back(v);
  }
  const PoseArray m = PoseArray::matrices(matrices.data(), kN);
  for (std::size_t i = 0; i < kN; ++i) {
    const Pose q = m.at(i, "m");
    EXPECT_LT((q.rotation() - poses[i].rotation()).norm(), 1e-14) << i;
    EXPECT_EQ(q.translation(), poses[i].translation()) << i;
  }
}

TEST(Batch, BadInputNamesTheArgument) {
  std::mt19937 rng(kSeed + 5);
  const AnyConvex a = Sphere(1.0);
  const AnyConvex b = Box(Vec3(1, 1, 1));
  std::vector<double> rows_a = random_quaternion_rows(rng, 10, 2.0);
  std::vector<double> rows_b = random_quaternion_rows(rng, 9, 2.0);
  const std::span sa(&a, 1);
  const std::span sb(&b, 1);

  std::string msg = field_of([&] { (void)distance(sa, PoseArray::quaternions(rows_a.data(), 10), sb, PoseArray::quaternions(rows_b.data(), 9)); });
  EXPECT_EQ(msg.rfind("pose_b | pose_b: has 9 entries, expected 1 (broadcast) or 10", 0), 0u) << msg;

  rows_b = random_quaternion_rows(rng, 10, 2.0);
  rows_b[7 * 7 + 4] = std::nan("");
  msg = field_of([&] { (void)distance(sa, PoseArray::quaternions(rows_a.data(), 10), sb, PoseArray::quaternions(rows_b.data(), 10)); });
  EXPECT_EQ(msg.rfind("pose_b[7] |", 0), 0u) << msg;
  EXPECT_NE(msg.find("nan"), std::string::npos) << msg;

  rows_a[3 * 7 + 3] = rows_a[3 * 7 + 4] = rows_a[3 * 7 + 5] = rows_a[3 * 7 + 6] = 0.0;
  msg = field_of([&] { (void)intersect(sa, PoseArray::quaternions(rows_a.data(), 10), sb, PoseArray::quaternions(rows_b.data(), 10)); });
  EXPECT_EQ(msg.rfind("pose_a[3] | pose_a[3]: quaternion", 0), 0u) << msg;

  // mark_element: the bad elements get an error status, the rest is answered as the scalar.
  BatchOptions mark;
  mark.bad_poses = BadPosePolicy::mark_element;
  const DistanceBatch d = distance(sa, PoseArray::quaternions(rows_a.data(), 10), sb, PoseArray::quaternions(rows_b.data(), 10), mark);
  for (std::size_t i = 0; i < 10; ++i) {
    if (i == 3 || i == 7) {
      EXPECT_EQ(d.status[i], static_cast<std::uint8_t>(Status::degenerate_input)) << i;
      EXPECT_EQ(d.detail[i], static_cast<std::uint8_t>(Detail::non_finite)) << i;
      EXPECT_TRUE(std::isnan(d.distance[i])) << i;
    } else {
      const DistanceResult s = scalar_distance(a, PoseArray::quaternions(rows_a.data(), 10).at(i, "a"), b,
                                               PoseArray::quaternions(rows_b.data(), 10).at(i, "b"));
      EXPECT_TRUE(same_bits(d.distance[i], s.distance)) << i;
    }
  }

  std::vector<double> too_short(5);
  const Pose identity;
  msg = field_of([&] { distance(sa, std::span(&identity, 1), sb, std::span(&identity, 1), DistanceOutputs{.point_a = too_short}); });
  EXPECT_EQ(msg.rfind("out.point_a |", 0), 0u) << msg;
  msg = field_of([&] { (void)distance(sa, std::span(&identity, 1), sb, std::span(&identity, 1), {.threads = -1}); });
  EXPECT_EQ(msg.rfind("threads |", 0), 0u) << msg;
  msg = field_of([&] { (void)distance(std::span<const AnyConvex>(), std::span(&identity, 1), sb, std::span(&identity, 1)); });
  EXPECT_EQ(msg.rfind("a |", 0), 0u) << msg;

  std::vector<double> m = {1, 0, 0, 0, 0, 2, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};  // a scaling
  msg = field_of([&] { (void)PoseArray::matrices(m.data(), 1).at(0, "poses"); });
  EXPECT_EQ(msg.rfind("poses[0] |", 0), 0u) << msg;
}

}  // namespace
}  // namespace proxima::batch
