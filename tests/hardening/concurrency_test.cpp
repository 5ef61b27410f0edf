// SPDX-License-Identifier: MIT
// Thread safety and determinism of the queries on shared const shapes: gjk::distance,
// gjk::intersect, gjk::penetration (Polytope, Box, Sphere, Capsule, Superquadric, AnyConvex, every
// ordered pair) and lp::intersect (3-D and 5-D point sets) are run from 4 std::threads at once on
// the same shape objects. Oracle: a single-threaded reference computed first; every thread's
// answers must equal it bit for bit (all doubles compared as bit patterns, plus the integer and
// enum fields). Run under ThreadSanitizer by tools/sanitize.sh --thread, which also reports any
// data race the comparison itself could miss.
#include <proxima/gjk/epa.hpp>
#include <proxima/gjk/intersect.hpp>
#include <proxima/lp/intersect.hpp>
#include <proxima/shapes/any_convex.hpp>
#include <proxima/shapes/box.hpp>
#include <proxima/shapes/capsule.hpp>
#include <proxima/shapes/polytope.hpp>
#include <proxima/shapes/sphere.hpp>
#include <proxima/shapes/superquadric.hpp>

#include <gtest/gtest.h>

#include <atomic>
#include <bit>
#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <thread>
#include <vector>

namespace proxima {
namespace {

constexpr int kThreads = 4;
constexpr unsigned kSeed = 8008;

// One query's answer flattened to 64-bit words: doubles by bit pattern, ints/bools/enums widened.
using Record = std::vector<std::uint64_t>;

void put(Record& r, double x) { r.push_back(std::bit_cast<std::uint64_t>(x)); }
void put(Record& r, const Vec3& v) {
  for (int i = 0; i < 3; ++i) put(r, v[i]);
}
void put(Record& r, const Eigen::VectorXd& v) {
  r.push_back(static_cast<std::uint64_t>(v.size()));
  for (Eigen::Index i = 0; i < v.size(); ++i) put(r, v[i]);
}
void put_int(Record& r, long long x) { r.push_back(static_cast<std::uint64_t>(x)); }

struct Shapes {
  Polytope polytope;
  Box box;
  Sphere sphere;
  Capsule capsule;
  Superquadric superquadric;
  AnyConvex any;  // a rounded polytope behind the runtime interface
};

Polytope random_polytope(std::mt19937_64& rng) {
  std::normal_distribution<double> g(0, 1);
  std::vector<Vec3> points;
  for (int i = 0; i < 40; ++i) points.emplace_back(0.6 * g(rng), 0.4 * g(rng), 0.5 * g(rng));
  return Polytope(points);
}

const Shapes& shared_shapes() {
  static const Shapes shapes = [] {
    std::mt19937_64 rng(kSeed);
    Polytope p = random_polytope(rng);
    Polytope q = random_polytope(rng);
    return Shapes{p,
                  Box(Vec3(0.5, 0.3, 0.8)),
                  Sphere(0.7),
                  Capsule(0.3, 0.6),
                  Superquadric(Vec3(0.6, 0.5, 0.4), Vec3(2.5, 4.0, 1.5)),
                  AnyConvex::rounded(AnyConvex(q), 0.1)};
  }();
  return shapes;
}

constexpr int kShapeKinds = 6;

template <class F>
void with_shape(int kind, F&& f) {
  const Shapes& s = shared_shapes();
  switch (kind) {
    case 0: f(s.polytope); break;
    case 1: f(s.box); break;
    case 2: f(s.sphere); break;
    case 3: f(s.capsule); break;
    case 4: f(s.superquadric); break;
    default: f(s.any); break;
  }
}

struct GjkCase {
  int a = 0;
  int b = 0;
  Pose pose_a;
  Pose pose_b;
};

std::vector<GjkCase> gjk_cases() {
  std::mt19937_64 rng(kSeed + 1);
  std::uniform_real_distribution<double> angle(-3.14, 3.14);
  std::uniform_real_distribution<double> u(-1, 1);
  std::vector<GjkCase> cases;
  for (int a = 0; a < kShapeKinds; ++a) {
    for (int b = 0; b < kShapeKinds; ++b) {
      for (int k = 0; k < 12; ++k) {
        const Vec3 ta(u(rng), u(rng), u(rng));
        // Offsets up to about two shape radii give a mix of overlapping and separated pairs.
        const Vec3 offset = Vec3(u(rng), u(rng), u(rng)) * 1.6;
        cases.push_back({a, b, Pose::from_euler_xyz(angle(rng), angle(rng), angle(rng), ta),
                         Pose::from_euler_xyz(angle(rng), angle(rng), angle(rng), ta + offset)});
      }
    }
  }
  return cases;
}

Record run_gjk_case(const GjkCase& c) {
  Record r;
  with_shape(c.a, [&](const auto& a) {
    with_shape(c.b, [&](const auto& b) {
      const DistanceResult d = gjk::distance(a, c.pose_a, b, c.pose_b);
      put(r, d.distance);
      put_int(r, d.intersect);
      put(r, d.point_a);
      put(r, d.point_b);
      put(r, d.normal);
      put(r, d.gap);
      put_int(r, d.iterations);
      put_int(r, static_cast<int>(d.status));
      put_int(r, static_cast<int>(d.detail));
      const IntersectResult i = gjk::intersect(a, c.pose_a, b, c.pose_b);
      put_int(r, i.intersect);
      put(r, i.separating_axis);
      put_int(r, i.iterations);
      put_int(r, static_cast<int>(i.status));
      put_int(r, static_cast<int>(i.detail));
      const PenetrationResult p = gjk::penetration(a, c.pose_a, b, c.pose_b);
      put_int(r, p.intersect);
      put(r, p.depth);
      put(r, p.normal);
      put(r, p.point_a);
      put(r, p.point_b);
      put_int(r, p.iterations);
      put_int(r, static_cast<int>(p.status));
      put_int(r, static_cast<int>(p.detail));
    });
  });
  return r;
}

struct LpCase {
  Eigen::MatrixXd a;
  Eigen::MatrixXd b;
};

std::vector<LpCase> lp_cases() {
  std::mt19937_64 rng(kSeed + 2);
  std::normal_distribution<double> g(0, 1);
  std::uniform_real_distribution<double> u(-1, 1);
  std::vector<LpCase> cases;
  for (int k = 0; k < 120; ++k) {
    const int n = k % 2 == 0 ? 3 : 5;
    const int na = 6 + k % 11, nb = 5 + (k * 7) % 13;
    LpCase c{Eigen::MatrixXd(n, na), Eigen::MatrixXd(n, nb)};
    for (Eigen::Index j = 0; j < c.a.cols(); ++j)
      for (int i = 0; i < n; ++i) c.a(i, j) = g(rng);
    Eigen::VectorXd offset(n);
    for (int i = 0; i < n; ++i) offset[i] = 2.5 * u(rng);
    for (Eigen::Index j = 0; j < c.b.cols(); ++j)
      for (int i = 0; i < n; ++i) c.b(i, j) = g(rng) + offset[i];
    cases.push_back(std::move(c));
  }
  return cases;
}

Record run_lp_case(const LpCase& c) {
  Record r;
  const lp::LpIntersectResult x = lp::intersect(c.a, c.b);
  put_int(r, x.intersect);
  put(r, x.common_point);
  put(r, x.weights_a);
  put(r, x.weights_b);
  put(r, x.residual);
  put(r, x.separating_normal);
  put(r, x.separating_offset);
  put(r, x.margin);
  put_int(r, x.iterations);
  put_int(r, x.converged);
  put_int(r, static_cast<int>(x.status));
  put_int(r, static_cast<int>(x.detail));
  return r;
}

// Runs run(cases[i]) for all i on kThreads threads at once; thread t starts at a different case
// so the threads hit the same shapes in different orders. Returns each thread's records.
template <class Case, class Run>
std::vector<std::vector<Record>> run_concurrently(const std::vector<Case>& cases, Run run) {
  std::vector<std::vector<Record>> out(kThreads, std::vector<Record>(cases.size()));
  std::atomic<int> ready{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      ready.fetch_add(1);
      while (ready.load() < kThreads) std::this_thread::yield();
      const std::size_t n = cases.size();
      for (std::size_t k = 0; k < n; ++k) {
        const std::size_t i = (k + static_cast<std::size_t>(t) * n / kThreads) % n;
        out[static_cast<std::size_t>(t)][i] = run(cases[i]);
      }
    });
  }
  for (std::thread& th : threads) th.join();
  return out;
}

template <class Case, class Run>
void expect_identical(const std::vector<Case>& cases, Run run, const char* what) {
  std::vector<Record> reference;
  for (const Case& c : cases) reference.push_back(run(c));
  const auto threaded = run_concurrently(cases, run);
  int mismatches = 0;
  for (int t = 0; t < kThreads; ++t) {
    for (std::size_t i = 0; i < cases.size(); ++i) {
      if (threaded[static_cast<std::size_t>(t)][i] != reference[i]) {
        ++mismatches;
        ADD_FAILURE() << what << ": thread " << t << " case " << i << " differs from the single-threaded answer (seed "
                      << kSeed << ")";
      }
    }
  }
  EXPECT_EQ(mismatches, 0);
}

TEST(Concurrency, GjkQueriesOnSharedShapesAreDeterministic) {
  const std::vector<GjkCase> cases = gjk_cases();
  ASSERT_EQ(cases.size(), static_cast<std::size_t>(kShapeKinds * kShapeKinds * 12));
  // The sample must contain both answers to be informative.
  int hits = 0;
  for (const GjkCase& c : cases) hits += run_gjk_case(c)[1] != 0 ? 1 : 0;  // DistanceResult::intersect
  EXPECT_GT(hits, static_cast<int>(cases.size()) / 5) << "seed " << kSeed;
  EXPECT_LT(hits, static_cast<int>(cases.size()) * 4 / 5) << "seed " << kSeed;
  expect_identical(cases, run_gjk_case, "gjk");
}

TEST(Concurrency, LpIntersectOnSharedPointSetsIsDeterministic) {
  const std::vector<LpCase> cases = lp_cases();
  int hits = 0;
  for (const LpCase& c : cases) hits += run_lp_case(c)[0] != 0 ? 1 : 0;
  EXPECT_GT(hits, static_cast<int>(cases.size()) / 5) << "seed " << kSeed;
  EXPECT_LT(hits, static_cast<int>(cases.size()) * 4 / 5) << "seed " << kSeed;
  expect_identical(cases, run_lp_case, "lp");
}

// The comparison can fail: a record differing in one bit is reported as a mismatch.
TEST(Concurrency, RecordComparisonSeesOneBit) {
  Record a, b;
  put(a, 1.0);
  put(b, std::nextafter(1.0, 2.0));
  EXPECT_NE(a, b);
}

}  // namespace
}  // namespace proxima
