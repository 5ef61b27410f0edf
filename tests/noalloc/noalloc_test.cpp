// SPDX-License-Identifier: MIT
// No heap allocation inside a query of the convex core (STYLE.md point 8): gjk::distance,
// gjk::intersect, gjk::penetration (GJK + EPA) and gjk::Pair on concrete shapes, and query:: on
// AnyConvex for every ordered pair of the 15 AnyConvex alternatives, at overlapping and separated
// poses. This executable is its own test layer because it replaces the C allocation functions for
// the whole process (glibc: forwarding to __libc_malloc & co.), which sees operator new, Eigen and
// every std container; a deliberate allocation checks that the counter works. Under ASan, TSan or
// MSan the interceptors own malloc, so the test reports itself skipped (as tests/lp does).
#include "support/draws.hpp"

#include <proxima/batch/batch.hpp>
#include <proxima/ccd/screw_collisions.hpp>
#include <proxima/gjk/distance.hpp>
#include <proxima/gjk/epa.hpp>
#include <proxima/gjk/intersect.hpp>
#include <proxima/gjk/pair.hpp>
#include <proxima/ipm/distance.hpp>
#include <proxima/ipm/presets.hpp>
#include <proxima/mesh/generators.hpp>
#include <proxima/query/query.hpp>
#include <proxima/shapes/any_convex.hpp>

#include <gtest/gtest.h>

#include <array>
#include <atomic>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define PROXIMA_MALLOC_HOOK_UNAVAILABLE 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || __has_feature(memory_sanitizer)
#define PROXIMA_MALLOC_HOOK_UNAVAILABLE 1
#endif
#endif

#ifdef PROXIMA_MALLOC_HOOK_UNAVAILABLE
TEST(NoAlloc, ConvexCoreQueries) { GTEST_SKIP() << "malloc counting hook disabled under sanitizers"; }
#else

namespace {
std::atomic<long> g_allocations{0};
}  // namespace

extern "C" {
void* __libc_malloc(std::size_t size);             // NOLINT(bugprone-reserved-identifier): glibc
void* __libc_calloc(std::size_t n, std::size_t size);  // NOLINT(bugprone-reserved-identifier)
void* __libc_realloc(void* p, std::size_t size);   // NOLINT(bugprone-reserved-identifier)
void* __libc_memalign(std::size_t alignment, std::size_t size);  // NOLINT(bugprone-reserved-identifier)

void* malloc(std::size_t size) {
  g_allocations.fetch_add(1, std::memory_order_relaxed);
  return __libc_malloc(size);
}
void* calloc(std::size_t n, std::size_t size) {
  g_allocations.fetch_add(1, std::memory_order_relaxed);
  return __libc_calloc(n, size);
}
void* realloc(void* p, std::size_t size) {
  g_allocations.fetch_add(1, std::memory_order_relaxed);
  return __libc_realloc(p, size);
}
int posix_memalign(void** out, std::size_t alignment, std::size_t size) {
  g_allocations.fetch_add(1, std::memory_order_relaxed);
  *out = __libc_memalign(alignment, size);
  return *out == nullptr ? 12 /* ENOMEM */ : 0;
}
void* aligned_alloc(std::size_t alignment, std::size_t size) {
  g_allocations.fetch_add(1, std::memory_order_relaxed);
  return __libc_memalign(alignment, size);
}
}

namespace proxima {
namespace {

/// Allocations made by f().
template <class F>
long allocations_in(const F& f) {
  const long before = g_allocations.load();
  f();
  return g_allocations.load() - before;
}

std::vector<AnyConvex> every_kind() {
  std::mt19937_64 rng(4242);
  std::normal_distribution<double> g(0, 1);
  std::vector<Vec3> cloud;
  for (int i = 0; i < 64; ++i) cloud.push_back(0.8 * Vec3{g(rng), g(rng), g(rng)}.normalized());
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
  out.emplace_back(Polytope(cloud));  // 64 points: above the hill-climbing threshold
  out.emplace_back(Superquadric(Vec3(0.6, 0.5, 0.7), Vec3(2.5, 4, 1.5)));
  out.push_back(AnyConvex::rounded(Box(Vec3(0.3, 0.2, 0.4)), 0.15));
  Mat3 shear;
  shear << 1, 0.3, 0, 0, 0.8, 0.2, 0.1, 0, 1.1;
  out.push_back(AnyConvex::affine(Cylinder(0.4, 0.5), shear, Vec3(0.05, 0, -0.1)));
  out.push_back(AnyConvex::minkowski(Box(Vec3(0.3, 0.2, 0.25)), Ellipsoid(Vec3(0.2, 0.3, 0.1))));
  out.push_back(AnyConvex::hull({Sphere(0.3), AnyConvex::transformed(Box(Vec3(0.2, 0.2, 0.2)), Pose::from_translation(Vec3(0.5, 0, 0)))}));
  return out;
}

// Overlapping (EPA runs), touching-ish and separated placements.
const Pose kPoseA = Pose::from_euler_xyz(0.3, -0.2, 0.5, Vec3(0.1, 0.2, -0.3));
const Pose kPosesB[] = {Pose::from_euler_xyz(-0.4, 0.7, 0.1, Vec3(0.4, 0.3, -0.1)),
                        Pose::from_euler_xyz(0.9, 0.1, -0.6, Vec3(1.0, -0.4, 0.2)),
                        Pose::from_euler_xyz(0.2, -0.5, 0.3, Vec3(3, 1, -0.5))};

TEST(NoAlloc, CounterSeesAllocations) {
  const long n = allocations_in([] {
    std::vector<double> v(1000);
    ASSERT_EQ(v.size(), 1000u);
  });
  EXPECT_GE(n, 1);
}

TEST(NoAlloc, QueryOnAnyConvexEveryKindPair) {
  const std::vector<AnyConvex> kinds = every_kind();
  int checked = 0;
  for (std::size_t i = 0; i < kinds.size(); ++i) {
    for (std::size_t j = 0; j < kinds.size(); ++j) {
      for (const Pose& pb : kPosesB) {
        const AnyConvex& a = kinds[i];
        const AnyConvex& b = kinds[j];
        const std::string pair = std::string(a.kind()) + "-" + std::string(b.kind());
        DistanceResult d;
        IntersectResult x;
        PenetrationResult p;
        gjk::WarmStart warm;
        EXPECT_EQ(allocations_in([&] { d = query::distance(a, kPoseA, b, pb); }), 0) << "query::distance " << pair;
        EXPECT_EQ(allocations_in([&] { d = query::distance(a, kPoseA, b, pb, {}, warm); }), 0) << "warm distance " << pair;
        EXPECT_EQ(allocations_in([&] { x = query::intersect(a, kPoseA, b, pb); }), 0) << "query::intersect " << pair;
        EXPECT_EQ(allocations_in([&] { p = query::penetration(a, kPoseA, b, pb); }), 0) << "query::penetration " << pair;
        checked += 4;
      }
    }
  }
  EXPECT_EQ(checked, 15 * 15 * 3 * 4);
}

template <class A, class B>
void check_concrete(const A& a, const B& b, const char* name) {
  for (const Pose& pb : kPosesB) {
    gjk::WarmStart warm;
    gjk::EpaHull hull;
    EXPECT_EQ(allocations_in([&] { (void)gjk::distance(a, kPoseA, b, pb); }), 0) << "gjk::distance " << name;
    EXPECT_EQ(allocations_in([&] { (void)gjk::distance(a, kPoseA, b, pb, {}, warm); }), 0) << "warm gjk::distance " << name;
    EXPECT_EQ(allocations_in([&] { (void)gjk::intersect(a, kPoseA, b, pb); }), 0) << "gjk::intersect " << name;
    EXPECT_EQ(allocations_in([&] { (void)gjk::penetration(a, kPoseA, b, pb); }), 0) << "gjk::penetration " << name;
    EXPECT_EQ(allocations_in([&] { (void)gjk::penetration(a, kPoseA, b, pb, {}, warm, hull); }), 0)
        << "gjk::penetration with workspace " << name;
  }
  // The pair object allocates its EPA hull once, at construction; queries and pose updates none.
  gjk::Pair<A, B> pair(a, b, kPoseA, kPosesB[0]);
  for (const Pose& pb : kPosesB) {
    EXPECT_EQ(allocations_in([&] {
                pair.set_pose_b(pb);
                (void)pair.collide();
                (void)pair.distance();
                (void)pair.penetration();
              }),
              0)
        << "gjk::Pair " << name;
  }
}

TEST(NoAlloc, GjkEpaAndPairOnConcreteShapes) {
  const std::vector<AnyConvex> kinds = every_kind();
  const Polytope& poly = *kinds[9].get_if<Polytope>();
  const Box box(Vec3(0.5, 0.3, 0.7));
  const Sphere sphere(0.55);
  const Capsule capsule(0.3, 0.5);
  const Superquadric sq(Vec3(0.6, 0.5, 0.7), Vec3(2.5, 4, 1.5));
  const Ellipsoid ell(Vec3(0.7, 0.4, 0.5));
  const Cylinder cyl(0.4, 0.6);
  const Cone cone(0.5, 0.6);
  check_concrete(poly, poly, "polytope-polytope");
  check_concrete(poly, box, "polytope-box");
  check_concrete(sphere, capsule, "sphere-capsule");
  check_concrete(sq, ell, "superquadric-ellipsoid");
  check_concrete(cyl, cone, "cylinder-cone");
  check_concrete(kinds[11], kinds[14], "anyconvex rounded-hull");
}

// The batch API allocates its output arrays and nothing per element: the number of allocations of
// a whole batch call (with the pool's two threads) is the same for 64 and for 4,096 elements.
TEST(NoAlloc, BatchAllocationsDoNotGrowWithTheBatch) {
  std::mt19937_64 rng(4242);
  std::normal_distribution<double> g(0, 1);
  std::vector<Vec3> cloud;
  for (int i = 0; i < 8; ++i) cloud.push_back(Vec3{g(rng), g(rng), g(rng)});
  const std::vector<AnyConvex> a = {AnyConvex(Polytope(cloud))}, b = {AnyConvex(Box(Vec3(0.3, 0.4, 0.5)))};
  auto poses = [&](std::size_t n) {
    std::vector<Pose> out;
    for (std::size_t i = 0; i < n; ++i) {
      out.push_back(proxima::test::draw_quaternion_pose(g, g, rng));
    }
    return out;
  };
  const std::vector<Pose> pa = {kPoseA}, small = poses(64), large = poses(4096);
  batch::BatchOptions two;
  two.threads = 2;
  (void)batch::distance(a, pa, b, small, two);  // creates the process-wide pool once
  auto count = [&](const std::vector<Pose>& pb) {
    return std::array<long, 3>{allocations_in([&] { (void)batch::intersect(a, pa, b, pb, two); }),
                               allocations_in([&] { (void)batch::distance(a, pa, b, pb, two); }),
                               allocations_in([&] { (void)batch::penetration(a, pa, b, pb, two); })};
  };
  const std::array<long, 3> n_small = count(small), n_large = count(large);
  for (int k = 0; k < 3; ++k) {
    EXPECT_EQ(n_small[static_cast<std::size_t>(k)], n_large[static_cast<std::size_t>(k)]) << "query kind " << k;
    EXPECT_LT(n_large[static_cast<std::size_t>(k)], 64) << "query kind " << k;
    EXPECT_GT(n_large[static_cast<std::size_t>(k)], 0) << "the output arrays are allocations the counter must see";
  }
}

// ipm::DistanceSolver owns its buffers: once they have grown to the largest pair, a solve
// allocates nothing, the separating-plane certificate (support_lower_bound, which copied the
// multipliers into a new vector until 2026-11-25) and the epigraph reformulation included. Every
// pair of the paper's six objects (none is halfspaces only: the LP support bound of such an
// object allocates and is documented as the rare exception) at seeded poses, cold and warm,
// after one pass over the same queries.
// screw_collisions keeps its working vectors per thread (both modes): once warm, a query's
// allocations are its result's, the same count every time; ccd::release_thread_storage() frees
// the storage, so the next query allocates it again (many more allocations), and two queries later
// (the raster's pixel records alternate between two vectors) the count is the warm one again.
TEST(NoAlloc, CcdWorkspaceIsKeptPerThreadUntilReleased) {
  const mesh::Mesh a = mesh::make_torus(1, 0.3, 20, 15);
  const mesh::Mesh b = mesh::make_torus(0.8, 0.25, 20, 15);
  const Pose b_start = Pose::from_euler_xyz(0.4, 0.2, 0, Vec3(3, 0.2, 0.1));
  const Pose b_end = Pose::from_euler_xyz(0.4, 0.2, 0.5, Vec3(-3, -0.1, 0.2));
  for (const ccd::ScrewMethod method : {ccd::ScrewMethod::exact, ccd::ScrewMethod::raster}) {
    for (const bool first_only : {false, true}) {
      ccd::ScrewOptions options;
      options.method = method;
      options.first_contact_only = first_only;
      std::size_t collisions = 0;
      auto query = [&] { collisions = ccd::screw_collisions(a, Pose(), Pose(), b, b_start, b_end, options).collisions.size(); };
      query();
      query();
      const long warm = allocations_in(query);
      ccd::release_thread_storage();
      const long regrown = allocations_in(query);
      query();
      const long warm_again = allocations_in(query);
      const std::string mode = std::string(method == ccd::ScrewMethod::exact ? "exact" : "raster") +
                               (first_only ? ", first contact only" : ", every collision");
      EXPECT_GT(collisions, 0U) << mode;
      EXPECT_EQ(warm_again, warm) << mode;
      EXPECT_GT(regrown, warm + 10) << mode << ": released storage is allocated again";
      // A warm query allocates its result's collision vector and nothing else (every sort of a
      // query is heap-free: std::stable_sort would take a temporary buffer).
      EXPECT_EQ(warm, 1) << mode << ": " << collisions << " collisions";
    }
  }
}

TEST(NoAlloc, IpmDistanceSolverOnceGrown) {
  std::vector<ipm::Object> objects;
  for (const auto name : ipm::kPresetNames) objects.push_back(ipm::preset(name));
  std::mt19937_64 rng(2024);
  std::normal_distribution<double> quat(0, 1);
  std::uniform_real_distribution<double> shift(-2.5, 2.5);
  std::vector<std::array<Pose, 2>> poses;
  for (int k = 0; k < 40; ++k) {
    const Pose pa = proxima::test::draw_quaternion_pose(quat, shift, rng);
    const Pose pb = proxima::test::draw_quaternion_pose(quat, shift, rng);
    poses.push_back({pa, pb});
  }
  ipm::DistanceSolver solver;
  int plane_certified = 0, reformulated = 0;
  auto sweep = [&] {
    for (std::size_t i = 0; i < objects.size(); ++i) {
      for (std::size_t j = i; j < objects.size(); ++j) {
        for (const auto& p : poses) {
          const ipm::DistanceReport cold = solver.distance(objects[i], p[0], objects[j], p[1]);
          const ipm::DistanceReport warm = solver.distance_warm(objects[i], p[0], objects[j], p[1]);
          plane_certified += static_cast<int>(cold.support_certified) + static_cast<int>(warm.support_certified);
          reformulated += static_cast<int>(cold.reformulated) + static_cast<int>(warm.reformulated);
        }
      }
    }
  };
  sweep();
  const int plane_first = plane_certified;
  EXPECT_EQ(allocations_in(sweep), 0);
  EXPECT_EQ(plane_certified, 2 * plane_first);
  // The sample must reach the paths that matter (seed 2024, 40 poses: 696 plane-certified answers
  // per pass, one reformulated query).
  EXPECT_GT(plane_first, 0) << "no answer certified by the separating plane";
  EXPECT_GT(reformulated, 0) << "no answer from the epigraph reformulation";
}

}  // namespace
}  // namespace proxima
#endif  // PROXIMA_MALLOC_HOOK_UNAVAILABLE
