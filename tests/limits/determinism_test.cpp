// SPDX-License-Identifier: MIT
// Determinism: the same inputs give bit-identical results across runs and thread counts. Every
// query kind the batch API offers (intersect, distance, penetration) on every AnyConvex alternative
// (the 11 primitives and the 4 runtime compounds, all 225 ordered kind pairs) at seeded poses,
// run twice with 1, 2 and 4 threads and with each pose layout (Pose objects, quaternion rows,
// 4 x 4 matrices); every output array must be identical byte for byte to the single-threaded
// first run, and each element to the scalar query (batch::scalar_*). A last test shows the
// comparison sees a one-ulp change.
#include <proxima/batch/batch.hpp>
#include <proxima/shapes/any_convex.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

namespace proxima::batch {
namespace {

constexpr std::uint64_t kSeed = 80808;
constexpr int kPosesPerPair = 2;

std::vector<AnyConvex> every_kind(std::mt19937_64& rng) {
  std::normal_distribution<double> g(0, 1);
  std::vector<Vec3> cloud;
  for (int i = 0; i < 24; ++i) cloud.push_back(0.8 * Vec3{g(rng), g(rng), g(rng)}.normalized());
  std::vector<AnyConvex> out;
  out.emplace_back(Point(Vec3(0.1, -0.2, 0.05)));
  out.emplace_back(Segment(Vec3(-0.6, 0.1, 0), Vec3(0.5, -0.2, 0.3)));
  out.emplace_back(Triangle(Vec3(-0.5, -0.4, 0), Vec3(0.6, -0.3, 0.1), Vec3(0, 0.7, -0.1)));
  out.emplace_back(Sphere(0.55));
  out.emplace_back(Box(Vec3(0.5, 0.3, 0.7)));
  out.emplace_back(Capsule(0.3, 0.5));
  out.emplace_back(Cylinder(0.4, 0.6));
  out.emplace_back(Cone(0.5, 0.6));
  out.emplace_back(Ellipsoid(Vec3(0.7, 0.4, 0.5)));
  out.emplace_back(Polytope(cloud));
  out.emplace_back(Superquadric(Vec3(0.6, 0.5, 0.7), Vec3(2.5, 4, 1.5)));
  out.push_back(AnyConvex::rounded(Box(Vec3(0.3, 0.2, 0.4)), 0.15));
  Mat3 shear;
  shear << 1, 0.3, 0, 0, 0.8, 0.2, 0.1, 0, 1.1;
  out.push_back(AnyConvex::affine(Cylinder(0.4, 0.5), shear, Vec3(0.05, 0, -0.1)));
  out.push_back(AnyConvex::minkowski(Box(Vec3(0.3, 0.2, 0.25)), Ellipsoid(Vec3(0.2, 0.3, 0.1))));
  out.push_back(AnyConvex::hull({Sphere(0.3), AnyConvex::transformed(Box(Vec3(0.2, 0.2, 0.2)), Pose::from_translation(Vec3(0.5, 0, 0)))}));
  return out;
}

struct Inputs {
  std::vector<AnyConvex> a, b;
  std::vector<double> rows_a, rows_b;  // quaternion rows [t, q]
  std::vector<double> mats_a, mats_b;  // 4 x 4 row-major, from the Pose objects
  std::vector<Pose> poses_a, poses_b;
};

void append_matrix(const Pose& p, std::vector<double>& out) {
  for (int r = 0; r < 3; ++r) {
    for (int c = 0; c < 3; ++c) out.push_back(p.rotation()(r, c));
    out.push_back(p.translation()[r]);
  }
  for (double v : {0.0, 0.0, 0.0, 1.0}) out.push_back(v);
}

Inputs make_inputs() {
  std::mt19937_64 rng(kSeed);
  const std::vector<AnyConvex> kinds = every_kind(rng);
  std::uniform_real_distribution<double> u(-1, 1);
  std::normal_distribution<double> g(0, 1);
  Inputs in;
  for (const AnyConvex& ka : kinds) {
    for (const AnyConvex& kb : kinds) {
      for (int k = 0; k < kPosesPerPair; ++k) {
        in.a.push_back(ka);
        in.b.push_back(kb);
        for (auto* rows : {&in.rows_a, &in.rows_b}) {
          for (double v : {u(rng), u(rng), u(rng), g(rng), g(rng), g(rng), g(rng)}) rows->push_back(v);
        }
      }
    }
  }
  const PoseArray qa = PoseArray::quaternions(in.rows_a.data(), in.a.size());
  const PoseArray qb = PoseArray::quaternions(in.rows_b.data(), in.b.size());
  for (std::size_t i = 0; i < in.a.size(); ++i) {
    in.poses_a.push_back(qa.at(i, "pose_a"));
    in.poses_b.push_back(qb.at(i, "pose_b"));
    append_matrix(in.poses_a.back(), in.mats_a);
    append_matrix(in.poses_b.back(), in.mats_b);
  }
  return in;
}

template <class T>
bool same_bytes(const std::vector<T>& x, const std::vector<T>& y) {
  return x.size() == y.size() && (x.empty() || std::memcmp(x.data(), y.data(), x.size() * sizeof(T)) == 0);
}

bool same(const IntersectBatch& x, const IntersectBatch& y) {
  return same_bytes(x.intersect, y.intersect) && same_bytes(x.separating_axis, y.separating_axis) &&
         same_bytes(x.iterations, y.iterations) && same_bytes(x.status, y.status) && same_bytes(x.detail, y.detail);
}
bool same(const DistanceBatch& x, const DistanceBatch& y) {
  return same_bytes(x.distance, y.distance) && same_bytes(x.intersect, y.intersect) && same_bytes(x.point_a, y.point_a) &&
         same_bytes(x.point_b, y.point_b) && same_bytes(x.normal, y.normal) && same_bytes(x.gap, y.gap) &&
         same_bytes(x.iterations, y.iterations) && same_bytes(x.status, y.status) && same_bytes(x.detail, y.detail);
}
bool same(const PenetrationBatch& x, const PenetrationBatch& y) {
  return same_bytes(x.intersect, y.intersect) && same_bytes(x.depth, y.depth) && same_bytes(x.normal, y.normal) &&
         same_bytes(x.point_a, y.point_a) && same_bytes(x.point_b, y.point_b) && same_bytes(x.iterations, y.iterations) &&
         same_bytes(x.status, y.status) && same_bytes(x.detail, y.detail);
}

bool same_bits(double x, double y) { return std::memcmp(&x, &y, sizeof x) == 0; }
bool same_bits3(const std::vector<double>& arr, std::size_t i, const Vec3& v) {
  return same_bits(arr[3 * i], v.x()) && same_bits(arr[3 * i + 1], v.y()) && same_bits(arr[3 * i + 2], v.z());
}

// Runs `query` for every layout, thread count and repetition; all must equal the first run.
template <class Run>
auto check_all(const Inputs& in, const char* name, const Run& run) {
  const std::span<const AnyConvex> sa(in.a), sb(in.b);
  BatchOptions one;
  one.threads = 1;
  const auto reference = run(sa, PoseArray(in.poses_a), sb, PoseArray(in.poses_b), one);
  for (int layout = 0; layout < 3; ++layout) {
    const PoseArray pa = layout == 0 ? PoseArray(in.poses_a)
                         : layout == 1 ? PoseArray::quaternions(in.rows_a.data(), in.a.size())
                                       : PoseArray::matrices(in.mats_a.data(), in.a.size());
    const PoseArray pb = layout == 0 ? PoseArray(in.poses_b)
                         : layout == 1 ? PoseArray::quaternions(in.rows_b.data(), in.b.size())
                                       : PoseArray::matrices(in.mats_b.data(), in.b.size());
    for (int threads : {1, 2, 4}) {
      for (int rep = 0; rep < 2; ++rep) {
        BatchOptions options;
        options.threads = threads;
        EXPECT_TRUE(same(run(sa, pa, sb, pb, options), reference))
            << name << ": layout " << layout << ", " << threads << " threads, run " << rep;
      }
    }
  }
  return reference;
}

// Every layout of the same poses (the 4x4 matrix of a pose is kept bit for bit by
// Pose::from_matrix, kRotationExactTolerance), every thread count and every run: the same bits.
TEST(Determinism, IntersectEveryKindPairThreadsLayoutsRuns) {
  const Inputs in = make_inputs();
  const IntersectBatch ref = check_all(in, "intersect", [](auto a, const PoseArray& pa, auto b, const PoseArray& pb,
                                                           const BatchOptions& o) { return intersect(a, pa, b, pb, o); });
  int hits = 0;
  for (std::size_t i = 0; i < in.a.size(); ++i) {
    const IntersectResult s = scalar_intersect(in.a[i], in.poses_a[i], in.b[i], in.poses_b[i]);
    hits += s.intersect;
    EXPECT_EQ(ref.intersect[i], s.intersect) << i;
    EXPECT_TRUE(same_bits3(ref.separating_axis, i, s.separating_axis)) << i;
    EXPECT_EQ(ref.iterations[i], s.iterations) << i;
  }
  const int n = static_cast<int>(in.a.size());
  EXPECT_GT(hits, n / 5);
  EXPECT_LT(hits, 4 * n / 5);
}

// Every layout of the same poses (the 4x4 matrix of a pose is kept bit for bit by
// Pose::from_matrix, kRotationExactTolerance), every thread count and every run: the same bits.
TEST(Determinism, DistanceEveryKindPairThreadsLayoutsRuns) {
  const Inputs in = make_inputs();
  const DistanceBatch ref = check_all(in, "distance", [](auto a, const PoseArray& pa, auto b, const PoseArray& pb,
                                                         const BatchOptions& o) { return distance(a, pa, b, pb, o); });
  for (std::size_t i = 0; i < in.a.size(); ++i) {
    const DistanceResult s = scalar_distance(in.a[i], in.poses_a[i], in.b[i], in.poses_b[i]);
    EXPECT_TRUE(same_bits(ref.distance[i], s.distance)) << i;
    EXPECT_TRUE(same_bits3(ref.point_a, i, s.point_a) && same_bits3(ref.point_b, i, s.point_b)) << i;
    EXPECT_TRUE(same_bits3(ref.normal, i, s.normal)) << i;
    EXPECT_TRUE(same_bits(ref.gap[i], s.gap)) << i;
  }
}

// Every layout of the same poses (the 4x4 matrix of a pose is kept bit for bit by
// Pose::from_matrix, kRotationExactTolerance), every thread count and every run: the same bits.
TEST(Determinism, PenetrationEveryKindPairThreadsLayoutsRuns) {
  const Inputs in = make_inputs();
  const PenetrationBatch ref = check_all(in, "penetration", [](auto a, const PoseArray& pa, auto b, const PoseArray& pb,
                                                               const BatchOptions& o) { return penetration(a, pa, b, pb, o); });
  for (std::size_t i = 0; i < in.a.size(); ++i) {
    const PenetrationResult s = scalar_penetration(in.a[i], in.poses_a[i], in.b[i], in.poses_b[i]);
    EXPECT_TRUE(same_bits(ref.depth[i], s.depth)) << i;
    EXPECT_TRUE(same_bits3(ref.normal, i, s.normal)) << i;
    EXPECT_TRUE(same_bits3(ref.point_a, i, s.point_a) && same_bits3(ref.point_b, i, s.point_b)) << i;
  }
}

TEST(Determinism, ComparisonSeesOneUlp) {
  const Inputs in = make_inputs();
  BatchOptions one;
  one.threads = 1;
  const DistanceBatch ref = distance(in.a, PoseArray(in.poses_a), in.b, PoseArray(in.poses_b), one);
  DistanceBatch changed = ref;
  std::size_t i = 0;
  while (i < changed.distance.size() && !(changed.distance[i] > 0)) ++i;
  ASSERT_LT(i, changed.distance.size());
  changed.distance[i] = std::nextafter(changed.distance[i], 1e300);
  EXPECT_FALSE(same(changed, ref));
}

}  // namespace
}  // namespace proxima::batch
