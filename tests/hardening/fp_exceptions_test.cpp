// SPDX-License-Identifier: MIT
// No floating-point exception on valid input. Users run debug builds with
// feenableexcept(FE_DIVBYZERO | FE_INVALID | FE_OVERFLOW), so that the first inf or NaN raises
// SIGFPE where it is made; a division by zero or a NaN made inside the library, even in a SIMD
// lane or a value that is later discarded, would crash their program on a valid query. Each test
// clears the sticky flags right before a family of queries (after the shapes, poses and motions are
// built) and asserts that none of the three was raised, naming the flags and the family. The sticky
// flags catch the same sites as a trap and do not stop at the first one; to locate a site, run the
// test under gdb with `call feenableexcept(13)` after feclearexcept and catch SIGFPE.
// Families (docs/reliability.md, "Floating-point exceptions"):
//  - gjk::distance / intersect / penetration (EPA) with the bench's three option sets, on random
//    polytopes (8 and 32 vertices), every primitive pair of the bench's primitives suite, and the
//    nasty polytope cases (touching, parallel faces, duplicate and coplanar vertices, flat shapes,
//    segments, deep overlap), identical shapes at one pose, and touching primitives;
//  - gjk::Pair (warm-started after a move) and query:: (AnyConvex) on the same shapes;
//  - ccd::screw_collisions, exact and raster (low, medium, high), all collisions and first contact
//    only, on the bench's ccd cases (cube, car, car hull, torus, L-prism vs torus) with general and
//    pass-through motions, plus zero motion, pure translation and pure rotation;
//  - ccd::toi_translate and ccd::toi_screw on the convex cases (Box and Polytope);
//  - lp::intersect / contains / distance and ipm::distance_report on seeded inputs.
//  - the same queries on compound runtime shapes (point, segment, triangle, superquadric, affine
//    image, placed shape, Minkowski sum, convex hull, rounded), and through the batch API
//    (batch::intersect / distance / penetration, including the small-polytope AVX2 kernel that
//    answers four poses in the lanes of one register, and the time-of-impact batches);
//  - ipm's continuous queries (toi_translate, interval_translate, collision_intervals).
// Each family's answers are counted (both hit and miss must occur) so the sample is informative.
// The batches run on one thread: the flags are per thread, and the caller's thread does the work.
#include "support/ccd_motions.hpp"
#include "support/draws.hpp"
#include "support/nasty_cases.hpp"
#include "support/shape_builder.hpp"

#include <proxima/batch/batch.hpp>
#include <proxima/batch/toi.hpp>
#include <proxima/ccd/screw_collisions.hpp>
#include <proxima/ccd/toi.hpp>
#include <proxima/core/tolerance.hpp>
#include <proxima/gjk/epa.hpp>
#include <proxima/gjk/intersect.hpp>
#include <proxima/gjk/pair.hpp>
#include <proxima/ipm/continuous.hpp>
#include <proxima/ipm/distance.hpp>
#include <proxima/ipm/presets.hpp>
#include <proxima/lp/contains.hpp>
#include <proxima/lp/distance.hpp>
#include <proxima/lp/intersect.hpp>
#include <proxima/mesh/generators.hpp>
#include <proxima/query/query.hpp>
#include <proxima/shapes/box.hpp>
#include <proxima/shapes/capsule.hpp>
#include <proxima/shapes/cone.hpp>
#include <proxima/shapes/cylinder.hpp>
#include <proxima/shapes/ellipsoid.hpp>
#include <proxima/shapes/point.hpp>
#include <proxima/shapes/polytope.hpp>
#include <proxima/shapes/segment.hpp>
#include <proxima/shapes/sphere.hpp>
#include <proxima/shapes/superquadric.hpp>
#include <proxima/shapes/triangle.hpp>

#include <gtest/gtest.h>

#include <cfenv>
#include <cstdint>
#include <numbers>
#include <random>
#include <string>
#include <vector>

namespace proxima {
namespace {

constexpr int kTrapped = FE_DIVBYZERO | FE_INVALID | FE_OVERFLOW;

/// The trapped flags among `flags`, by name ("none" when there are none).
std::string flag_names(int flags) {
  std::string out;
  if (flags & FE_DIVBYZERO) out += "FE_DIVBYZERO ";
  if (flags & FE_INVALID) out += "FE_INVALID ";
  if (flags & FE_OVERFLOW) out += "FE_OVERFLOW ";
  return out.empty() ? "none" : out.substr(0, out.size() - 1);
}

/// What a family of queries answered: hits and misses (both must occur, so the family exercised
/// both branches). The reported number beside each answer is not judged here (other tests judge
/// the answers); passing it makes each call site read the result it checks the flags of.
struct Tally {
  int hits = 0;
  int misses = 0;
  void add(bool hit, double /*value*/) { (hit ? hits : misses) += 1; }
};

/// Runs `queries` (which fill `tally`) with the flags cleared right before, and expects none of the
/// trapped flags raised and, with `both_answers`, hits and misses among the results (without it,
/// for a family whose sample holds one answer only, e.g. all touching: some result).
template <class Queries>
void expect_clean(const std::string& family, Queries&& queries, bool both_answers = true) {
  Tally tally;
  std::feclearexcept(FE_ALL_EXCEPT);
  queries(tally);
  const int raised = std::fetestexcept(kTrapped);
  EXPECT_EQ(flag_names(raised), "none") << family;
  if (both_answers) {
    EXPECT_GT(tally.hits, 0) << family;
    EXPECT_GT(tally.misses, 0) << family;
  } else {
    EXPECT_GT(tally.hits + tally.misses, 0) << family;
  }
}

// ------------------------------------------------------------------------------------------------
// gjk: distance, intersect, penetration
// ------------------------------------------------------------------------------------------------

/// The bench's three option sets (bench/proxima_impl.cpp): default (closed forms, Newton, box
/// pre-pass), Nesterov-accelerated GJK, and plain GJK.
std::vector<std::pair<std::string, gjk::GjkOptions>> option_sets() {
  gjk::GjkOptions plain;
  gjk::GjkOptions nesterov;
  nesterov.nesterov = true;
  nesterov.closed_forms = false;
  nesterov.ellipsoid_newton = false;
  nesterov.box_box = false;
  gjk::GjkOptions gjk_only;
  gjk_only.closed_forms = false;
  gjk_only.ellipsoid_newton = false;
  gjk_only.box_box = false;
  gjk_only.first_support_overlap = false;
  return {{"default", plain}, {"nesterov", nesterov}, {"gjk_only", gjk_only}};
}

/// distance, intersect and penetration of every pair under every option set, and the same pairs
/// through gjk::Pair (collide, distance, penetration; moved, then again warm-started).
template <class A, class B>
void expect_clean_gjk(const std::string& family, const std::vector<A>& as, const std::vector<B>& bs,
                      const std::vector<std::pair<Pose, Pose>>& poses, bool both_answers = true) {
  for (const auto& [name, options] : option_sets()) {
    auto queries = [&, &o = options](Tally& t) {
      gjk::EpaHull workspace;
      for (std::size_t i = 0; i < poses.size(); ++i) {
        const auto& [pa, pb] = poses[i];
        const DistanceResult d = gjk::distance(as[i], pa, bs[i], pb, o);
        t.add(d.intersect, d.distance);
        const IntersectResult x = gjk::intersect(as[i], pa, bs[i], pb);
        t.add(x.intersect, x.separating_axis.x());
        gjk::WarmStart warm;
        const PenetrationResult p = gjk::penetration(as[i], pa, bs[i], pb, gjk::EpaOptions{}, warm, workspace);
        t.add(p.intersect, p.depth);
      }
    };
    expect_clean(family + ", " + name, queries, both_answers);
  }
  auto pair_queries = [&](Tally& t) {
    for (std::size_t i = 0; i < poses.size(); ++i) {
      const auto& [pa, pb] = poses[i];
      gjk::Pair<A, B> pair(as[i], bs[i], pa, pb);
      t.add(pair.collide().intersect, 0);
      t.add(pair.distance().intersect, pair.distance().distance);
      t.add(pair.penetration().intersect, pair.penetration().depth);
      pair.set_pose_b(Pose::from_translation(Vec3(0.05, -0.03, 0.02)) * pb);
      t.add(pair.penetration().intersect, pair.penetration().depth);
      t.add(pair.distance().intersect, pair.distance().distance);
      t.add(pair.collide().intersect, 0);
    }
  };
  expect_clean(family + ", gjk::Pair", pair_queries, both_answers);
}

/// A random rotation with the translation `t`.
Pose random_pose(testgen::Rng& rng, const Vec3& t) {
  const Eigen::Vector4d q = testgen::random_quaternion(rng);
  return Pose::from_quaternion(q[0], q[1], q[2], q[3], t);
}

/// `count` poses of pairs whose origins are `reach` times a factor in [0.5, 1.5] apart along a
/// random direction (the bench's placement: about half overlap, half are apart).
std::vector<std::pair<Pose, Pose>> random_placements(testgen::Rng& rng, int count, double reach) {
  std::vector<std::pair<Pose, Pose>> poses;
  for (int i = 0; i < count; ++i) {
    const Vec3 ta = testgen::random_unit_vector(rng);
    const Pose pa = random_pose(rng, ta);
    const Vec3 u = testgen::random_unit_vector(rng);
    const double factor = testgen::uniform(rng, 0.5, 1.5);
    const Pose pb = random_pose(rng, ta + factor * reach * u);
    poses.emplace_back(pa, pb);
  }
  return poses;
}

/// Points on the bench's ellipsoid (semiaxes 1, 0.7, 0.5), centred on their mean.
Polytope random_polytope(testgen::Rng& rng, int vertices) {
  std::vector<Vec3> points = testgen::ellipsoid_points(rng, vertices);
  Vec3 mean = Vec3::Zero();
  for (const Vec3& p : points) mean += p;
  mean /= vertices;
  for (Vec3& p : points) p -= mean;
  return Polytope(points);
}

TEST(FpExceptions, GjkRandomPolytopes) {
  testgen::Rng rng(3701);
  for (const int vertices : {8, 32}) {
    std::vector<Polytope> as, bs;
    for (int i = 0; i < 24; ++i) {
      as.push_back(random_polytope(rng, vertices));
      bs.push_back(random_polytope(rng, vertices));
    }
    const auto poses = random_placements(rng, 24, 1.4);
    expect_clean_gjk("polytopes N=" + std::to_string(vertices), as, bs, poses);
  }
}

/// The shapes of the bench's primitive rows, sizes uniform in [0.3, 1] per axis.
template <class Make>
auto primitives(testgen::Rng& rng, int count, Make&& make) {
  std::vector<decltype(make(Vec3()))> out;
  for (int i = 0; i < count; ++i) {
    const double x = testgen::uniform(rng, 0.3, 1.0);
    const double y = testgen::uniform(rng, 0.3, 1.0);
    const double z = testgen::uniform(rng, 0.3, 1.0);
    out.push_back(make(Vec3(x, y, z)));
  }
  return out;
}

TEST(FpExceptions, GjkBenchPrimitivePairs) {
  testgen::Rng rng(3702);
  constexpr int kCount = 24;
  auto box = [](const Vec3& s) { return Box(s); };
  auto sphere = [](const Vec3& s) { return Sphere(s.x()); };
  auto capsule = [](const Vec3& s) { return Capsule(s.x(), s.y()); };
  auto cylinder = [](const Vec3& s) { return Cylinder(s.x(), s.y()); };
  auto cone = [](const Vec3& s) { return Cone(s.x(), s.y()); };
  auto ellipsoid = [](const Vec3& s) { return Ellipsoid(s); };
  // One named local per draw, so GCC and clang draw the same shapes (support/draws.hpp).
  auto check = [&](const std::string& family, auto make_a, auto make_b, double reach) {
    const auto as = primitives(rng, kCount, make_a);
    const auto bs = primitives(rng, kCount, make_b);
    const auto poses = random_placements(rng, kCount, reach);
    expect_clean_gjk(family, as, bs, poses);
  };
  check("box-box", box, box, 1.6);
  check("sphere-box", sphere, box, 1.3);
  check("capsule-capsule", capsule, capsule, 1.5);
  check("cylinder-cone", cylinder, cone, 1.6);
  check("ellipsoid-ellipsoid", ellipsoid, ellipsoid, 1.3);
}

TEST(FpExceptions, GjkNastyPolytopeCases) {
  testgen::Rng rng(3703);
  std::vector<Polytope> as, bs;
  std::vector<std::pair<Pose, Pose>> poses;
  for (const testgen::NastyCase& c : testgen::nasty_polytope_cases(rng)) {
    for (const testgen::PairCase& p : {c.pair, testgen::randomly_moved(rng, c.pair, 1e-2, 1e2, 1e2)}) {
      as.emplace_back(std::span<const Vec3>(p.a.vertices));
      bs.emplace_back(std::span<const Vec3>(p.b.vertices));
      poses.emplace_back(p.pose_a.pose(), p.pose_b.pose());
    }
  }
  expect_clean_gjk("nasty polytope cases", as, bs, poses);
}

TEST(FpExceptions, GjkIdenticalAndTouchingPrimitives) {
  testgen::Rng rng(3704);
  const Pose pose = random_pose(rng, Vec3(0.3, -0.2, 0.1));
  const Polytope poly = random_polytope(rng, 32);
  // Identical shapes at one pose (deepest overlap, every support point shared).
  expect_clean_gjk("identical polytopes", std::vector<Polytope>{poly}, std::vector<Polytope>{poly},
                   {{pose, pose}}, false);
  expect_clean_gjk("identical boxes", std::vector<Box>{Box(Vec3(0.5, 0.5, 0.5))}, std::vector<Box>{Box(Vec3(0.5, 0.5, 0.5))},
                   {{pose, pose}}, false);
  expect_clean_gjk("identical spheres", std::vector<Sphere>{Sphere(0.5)}, std::vector<Sphere>{Sphere(0.5)},
                   {{pose, pose}}, false);
  expect_clean_gjk("identical capsules", std::vector<Capsule>{Capsule(0.3, 0.5)}, std::vector<Capsule>{Capsule(0.3, 0.5)},
                   {{pose, pose}}, false);
  expect_clean_gjk("identical cylinders", std::vector<Cylinder>{Cylinder(0.3, 0.5)},
                   std::vector<Cylinder>{Cylinder(0.3, 0.5)}, {{pose, pose}}, false);
  // Exactly touching (face to face, end to end, side by side) and parallel capsules (parallel
  // segments: the closest points are not unique).
  const Pose origin;
  expect_clean_gjk("touching boxes", std::vector<Box>(2, Box(Vec3(0.5, 0.5, 0.5))),
                   std::vector<Box>(2, Box(Vec3(0.5, 0.5, 0.5))),
                   {{origin, Pose::from_translation(Vec3(1, 0.25, 0))}, {origin, Pose::from_translation(Vec3(1, 1, 1))}},
                   false);
  expect_clean_gjk("touching spheres", std::vector<Sphere>(1, Sphere(0.5)), std::vector<Sphere>(1, Sphere(0.5)),
                   {{origin, Pose::from_translation(Vec3(1, 0, 0))}}, false);
  expect_clean_gjk("parallel capsules", std::vector<Capsule>(3, Capsule(0.25, 0.5)),
                   std::vector<Capsule>(3, Capsule(0.25, 0.5)),
                   {{origin, Pose::from_translation(Vec3(0.5, 0, 0))},
                    {origin, Pose::from_translation(Vec3(1, 0.25, 0))},
                    {origin, Pose::from_translation(Vec3(0.25, 0.5, 0))}});
  expect_clean_gjk("coaxial cylinders", std::vector<Cylinder>(2, Cylinder(0.3, 0.5)),
                   std::vector<Cylinder>(2, Cylinder(0.3, 0.5)),
                   {{origin, Pose::from_translation(Vec3(0, 0, 1))}, {origin, Pose::from_translation(Vec3(0, 0, 1.5))}});
}

/// query::distance, intersect and penetration on every ordered pair of `shapes`, 4 random
/// placements each (centres within about `spread`), with the flags checked.
void expect_query_clean(const std::string& family, testgen::Rng& rng, const std::vector<AnyConvex>& shapes,
                        double spread) {
  const std::vector<std::pair<Pose, Pose>> poses =
      random_placements(rng, 4 * static_cast<int>(shapes.size() * shapes.size()), spread);
  expect_clean(family, [&](Tally& t) {
    std::size_t k = 0;
    for (const AnyConvex& a : shapes) {
      for (const AnyConvex& b : shapes) {
        for (int i = 0; i < 4; ++i, ++k) {
          const auto& [pa, pb] = poses[k];
          const DistanceResult d = query::distance(a, pa, b, pb);
          t.add(d.intersect, d.distance);
          t.add(query::intersect(a, pa, b, pb).intersect, 0);
          const PenetrationResult p = query::penetration(a, pa, b, pb);
          t.add(p.intersect, p.depth);
        }
      }
    }
  });
}

TEST(FpExceptions, QueryOnAnyConvex) {
  testgen::Rng rng(3705);
  std::vector<AnyConvex> shapes;
  for (const testgen::ShapeKind kind :
       {testgen::ShapeKind::sphere, testgen::ShapeKind::box, testgen::ShapeKind::capsule, testgen::ShapeKind::cylinder,
        testgen::ShapeKind::cone, testgen::ShapeKind::ellipsoid, testgen::ShapeKind::superquadric}) {
    shapes.push_back(testgen::to_any_convex(testgen::random_smooth_spec(rng, kind)));
  }
  shapes.push_back(random_polytope(rng, 16));
  shapes.push_back(AnyConvex::rounded(AnyConvex(random_polytope(rng, 16)), 0.1));
  expect_query_clean("query:: on AnyConvex", rng, shapes, 1.5);
}

/// Runtime shapes of every compound kind and the small primitives, each centred near its origin
/// with a reach of about 1.
std::vector<AnyConvex> compound_shapes(testgen::Rng& rng) {
  std::vector<AnyConvex> shapes;
  shapes.push_back(Point(Vec3(0.1, -0.05, 0.02)));
  shapes.push_back(Segment(Vec3(-0.6, 0.1, 0), Vec3(0.5, -0.2, 0.1)));
  shapes.push_back(Triangle(Vec3(-0.6, -0.4, 0), Vec3(0.7, -0.3, 0.1), Vec3(0, 0.6, -0.1)));
  shapes.push_back(Superquadric(Vec3(0.6, 0.5, 0.4), Vec3(1, 2.5, 7)));
  Mat3 shear;
  shear << 1, 0.4, 0, 0, 0.7, 0.2, 0.1, 0, 0.5;
  shapes.push_back(AnyConvex::affine(AnyConvex(Box(Vec3(0.5, 0.4, 0.3))), shear, Vec3(0.05, 0, -0.05)));
  shapes.push_back(AnyConvex::transformed(AnyConvex(Capsule(0.2, 0.4)), Pose::from_euler_xyz(0.3, -0.2, 0.5, Vec3(0.1, 0, 0))));
  shapes.push_back(AnyConvex::minkowski(AnyConvex(Box(Vec3(0.3, 0.2, 0.4))), AnyConvex(Sphere(0.2))));
  shapes.push_back(AnyConvex::hull({AnyConvex(Sphere(0.3)),
                                    AnyConvex::transformed(AnyConvex(Box(Vec3(0.2, 0.2, 0.2))),
                                                           Pose::from_translation(Vec3(0.5, 0, 0))),
                                    AnyConvex(random_polytope(rng, 8))}));
  shapes.push_back(AnyConvex::rounded(AnyConvex(Segment(Vec3(0, -0.4, 0), Vec3(0, 0.4, 0))), 0.25));
  shapes.push_back(AnyConvex::rounded(AnyConvex(Triangle(Vec3(-0.4, 0, 0), Vec3(0.4, 0, 0), Vec3(0, 0.5, 0))), 0.1));
  return shapes;
}

TEST(FpExceptions, QueryOnCompoundShapes) {
  testgen::Rng rng(3709);
  expect_query_clean("query:: on compound AnyConvex", rng, compound_shapes(rng), 1.2);
}

// ------------------------------------------------------------------------------------------------
// ccd: screw_collisions and time of impact
// ------------------------------------------------------------------------------------------------

/// The convex hull of a mesh's vertices as a mesh (the bench's car hull).
mesh::Mesh hull_mesh(const mesh::Mesh& m) {
  const Polytope hull(m.vertices());
  std::vector<std::vector<int>> faces;
  for (const auto& f : hull.faces()) faces.push_back({f[0], f[1], f[2]});
  return mesh::Mesh::from_faces(hull.vertices(), faces);
}

struct CcdCase {
  std::string name;
  mesh::Mesh a, b;
  std::vector<test::Motion> motions;
};

/// The bench's ccd cases (bench/suites/ccd_cases.cpp) with seeded motions of the ccd tests
/// (general and pass-through, support/ccd_motions.hpp), plus zero motion, pure translation and
/// pure rotation of B.
std::vector<CcdCase> ccd_cases() {
  const mesh::Mesh cube = mesh::make_box(Vec3(0.5, 0.5, 0.5));
  const mesh::Mesh car = mesh::make_car();
  const mesh::Mesh torus = mesh::make_torus(1, 0.3);
  std::vector<CcdCase> cases = {{"cube-cube", cube, cube, {}},
                                {"car-car", car, car, {}},
                                {"carhull-carhull", hull_mesh(car), hull_mesh(car), {}},
                                {"torus-torus", torus, torus, {}},
                                {"lprism-torus", mesh::make_l_prism(), torus, {}}};
  std::mt19937_64 rng(3706);
  for (CcdCase& c : cases) {
    const int count = c.name.find("torus") != std::string::npos ? 3 : 6;
    for (int k = 0; k < count; ++k) c.motions.push_back(test::random_motion(rng, c.a, c.b, k, k % 4 == 0 ? 0.95 : 0));
    const double reach = c.a.bounding_sphere().radius + c.b.bounding_sphere().radius;
    const Pose b0 = Pose::from_translation(Vec3(0.7 * reach, 0.1, 0));
    c.motions.push_back({Pose(), Pose(), b0, b0});  // zero motion, overlapping
    c.motions.push_back({Pose(), Pose(), Pose::from_translation(Vec3(1.5 * reach, 0, 0)),
                         Pose::from_translation(Vec3(-1.5 * reach, 0.05, 0))});  // pure translation
    c.motions.push_back({Pose(), Pose(), b0, Pose::from_euler_xyz(0, 0, 1.0, b0.translation())});  // pure rotation
  }
  return cases;
}

const std::vector<CcdCase>& shared_ccd_cases() {
  static const std::vector<CcdCase> cases = ccd_cases();
  return cases;
}

ccd::ScrewOptions screw_options(ccd::ScrewMethod method, double pixel_size, double time_resolution, bool first) {
  ccd::ScrewOptions o;
  o.method = method;
  o.pixel_size = pixel_size;
  o.time_resolution = time_resolution;
  o.first_contact_only = first;
  return o;
}

void expect_clean_screw(const std::string& mode, const ccd::ScrewOptions& options) {
  for (const CcdCase& c : shared_ccd_cases()) {
    // Set-up the first query of a pair makes (grids, runs) is part of the query: not excluded.
    expect_clean("screw_collisions " + mode + ", " + c.name, [&](Tally& t) {
      for (const test::Motion& m : c.motions) {
        const ccd::ScrewResult r = ccd::screw_collisions(c.a, m.a0, m.a1, c.b, m.b0, m.b1, options);
        t.add(r.contact, r.contact ? r.toi : 0);
      }
    });
  }
}

TEST(FpExceptions, ScrewCollisionsExact) {
  const ccd::ScrewOptions all;
  expect_clean_screw("exact", all);
  ccd::ScrewOptions first;
  first.first_contact_only = true;
  expect_clean_screw("exact first contact", first);
}

TEST(FpExceptions, ScrewCollisionsRaster) {
  using ccd::ScrewMethod;
  expect_clean_screw("raster low", screw_options(ScrewMethod::raster, kCcdRasterPixelSizeLow, kCcdRasterTimeResolutionLow, false));
  expect_clean_screw("raster medium",
                     screw_options(ScrewMethod::raster, kCcdRasterPixelSizeMedium, kCcdRasterTimeResolutionMedium, false));
  expect_clean_screw("raster high", screw_options(ScrewMethod::raster, kCcdRasterPixelSizeHigh, kCcdRasterTimeResolutionHigh, false));
  expect_clean_screw("raster medium first contact",
                     screw_options(ScrewMethod::raster, kCcdRasterPixelSizeMedium, kCcdRasterTimeResolutionMedium, true));
}

template <class Shape>
void expect_clean_toi(const std::string& family, const Shape& a, const Shape& b, const std::vector<test::Motion>& motions) {
  expect_clean("toi_screw, " + family, [&](Tally& t) {
    for (const test::Motion& m : motions) {
      const ToiResult r = ccd::toi_screw(a, m.a0, m.a1, b, m.b0, m.b1);
      t.add(r.contact, r.contact ? r.toi : 0);
    }
  });
  expect_clean("toi_translate, " + family, [&](Tally& t) {
    for (const test::Motion& m : motions) {
      // Each body moves by its translation over the step (zero for the zero motion).
      const Vec3 va = m.a1.translation() - m.a0.translation();
      const Vec3 vb = m.b1.translation() - m.b0.translation();
      const ToiResult r = ccd::toi_translate(a, m.a0, va, b, m.b0, vb, 1.0);
      t.add(r.contact, r.contact ? r.toi : 0);
    }
  });
}

TEST(FpExceptions, TimeOfImpact) {
  const std::vector<CcdCase>& cases = shared_ccd_cases();
  expect_clean_toi("boxes", Box(Vec3(0.5, 0.5, 0.5)), Box(Vec3(0.5, 0.5, 0.5)), cases[0].motions);
  expect_clean_toi("cube polytopes", Polytope(cases[0].a.vertices()), Polytope(cases[0].b.vertices()), cases[0].motions);
  expect_clean_toi("car hull polytopes", Polytope(cases[2].a.vertices()), Polytope(cases[2].b.vertices()),
                   cases[2].motions);
}

/// The poses of `poses` as the batch API's quaternion rows [tx, ty, tz, qw, qx, qy, qz] and as
/// row-major 4 x 4 matrices.
void pose_rows(const std::vector<Pose>& poses, std::vector<double>& quaternions, std::vector<double>& matrices) {
  for (const Pose& p : poses) {
    const Eigen::Quaterniond q(p.rotation());
    const Vec3 t = p.translation();
    quaternions.insert(quaternions.end(), {t.x(), t.y(), t.z(), q.w(), q.x(), q.y(), q.z()});
    for (int r = 0; r < 3; ++r) {
      for (int c = 0; c < 3; ++c) matrices.push_back(p.rotation()(r, c));
      matrices.push_back(t[r]);
    }
    matrices.insert(matrices.end(), {0.0, 0.0, 0.0, 1.0});
  }
}

/// The hits (1) and misses (0) of a batch's flag output, into the tally.
void add_flags(Tally& t, const std::vector<std::uint8_t>& flags, const std::vector<double>& values) {
  for (std::size_t i = 0; i < flags.size(); ++i) t.add(flags[i] != 0, values.empty() ? 0 : values[i]);
}

TEST(FpExceptions, BatchQueries) {
  testgen::Rng rng(3710);
  batch::BatchOptions one_thread;
  one_thread.threads = 1;  // the flags are per thread: the caller's thread does the work
  // One pair of small polytopes with many poses: batch::intersect takes the small-polytope kernel
  // (four poses in the lanes of one AVX2 register where the CPU has AVX2), whose last group of
  // lanes is partly padding.
  const std::vector<AnyConvex> small_a{AnyConvex(random_polytope(rng, 8))};
  const std::vector<AnyConvex> small_b{AnyConvex(random_polytope(rng, 12))};
  std::vector<Pose> poses_a, poses_b;
  for (const auto& [pa, pb] : random_placements(rng, 203, 1.2)) {
    poses_a.push_back(pa);
    poses_b.push_back(pb);
  }
  std::vector<double> quat_a, quat_b, mat_a, mat_b;
  pose_rows(poses_a, quat_a, mat_a);
  pose_rows(poses_b, quat_b, mat_b);
  const std::size_t n = poses_a.size();
  const batch::PoseArray layouts[][2] = {
      {batch::PoseArray(poses_a), batch::PoseArray(poses_b)},
      {batch::PoseArray::quaternions(quat_a.data(), n), batch::PoseArray::quaternions(quat_b.data(), n)},
      {batch::PoseArray::matrices(mat_a.data(), n), batch::PoseArray::matrices(mat_b.data(), n)}};
  for (const auto& layout : layouts) {
    const batch::PoseArray& pa = layout[0];  // named, not bound: clang 14 cannot capture a binding
    const batch::PoseArray& pb = layout[1];
    expect_clean("batch::intersect, small polytopes", [&](Tally& t) {
      const batch::IntersectBatch x = batch::intersect(small_a, pa, small_b, pb, one_thread);
      add_flags(t, x.intersect, {});
    });
  }
  // One pose of A for every element and B's poses as quaternion rows: the rows are turned into
  // relative poses 4 at a time in the lanes, including rows the batch rejects (zero, NaN and
  // infinite quaternions, an infinite translation), which must be answered as bad elements
  // without raising a flag in their lanes, and a huge valid one.
  std::vector<double> rejected = quat_b;
  for (const std::size_t row : {std::size_t{5}, std::size_t{6}, std::size_t{7}, std::size_t{8}}) {
    for (std::size_t k = 3; k < 7; ++k) rejected[7 * row + k] = 0.0;  // zero quaternion (row 5)
  }
  rejected[7 * 6 + 3] = kNaN;
  rejected[7 * 7 + 4] = std::numeric_limits<double>::infinity();
  rejected[7 * 8 + 3] = 1.0;
  rejected[7 * 8 + 0] = -std::numeric_limits<double>::infinity();
  // And a valid row whose entries' squares would overflow (scaled down before the norm, row 9).
  for (std::size_t k = 3; k < 7; ++k) rejected[7 * 9 + k] *= 1e200;
  // And a rejected row holding a huge finite entry beside its NaN (row 10).
  rejected[7 * 10 + 3] = kNaN;
  rejected[7 * 10 + 4] = 1e300;
  batch::BatchOptions mark = one_thread;
  mark.bad_poses = batch::BadPosePolicy::mark_element;
  expect_clean("batch::intersect, small polytopes, one pose of A, quaternion rows with rejected rows", [&](Tally& t) {
    const batch::IntersectBatch x = batch::intersect(small_a, batch::PoseArray(std::vector<Pose>{poses_a[0]}), small_b,
                                                     batch::PoseArray::quaternions(rejected.data(), n), mark);
    for (const std::size_t row : {std::size_t{5}, std::size_t{6}, std::size_t{7}, std::size_t{8}, std::size_t{10}}) {
      EXPECT_EQ(x.status[row], static_cast<std::uint8_t>(Status::degenerate_input)) << "row " << row;
    }
    EXPECT_EQ(x.status[4], static_cast<std::uint8_t>(Status::converged));
    EXPECT_EQ(x.status[9], static_cast<std::uint8_t>(Status::converged));
    add_flags(t, x.intersect, {});
  });
  // Mixed runtime shapes, element by element (the query layer's dispatch).
  std::vector<AnyConvex> mixed_a = compound_shapes(rng), mixed_b;
  for (const testgen::ShapeKind kind : {testgen::ShapeKind::sphere, testgen::ShapeKind::box, testgen::ShapeKind::capsule,
                                        testgen::ShapeKind::cylinder, testgen::ShapeKind::cone,
                                        testgen::ShapeKind::ellipsoid, testgen::ShapeKind::superquadric}) {
    mixed_a.push_back(testgen::to_any_convex(testgen::random_smooth_spec(rng, kind)));
  }
  mixed_a.push_back(random_polytope(rng, 40));
  for (std::size_t i = 0; i < mixed_a.size(); ++i) mixed_b.push_back(mixed_a[(i * 7 + 3) % mixed_a.size()]);
  std::vector<AnyConvex> as, bs;
  std::vector<Pose> mixed_pa, mixed_pb;
  for (const auto& [pa, pb] : random_placements(rng, 6 * static_cast<int>(mixed_a.size()), 1.3)) {
    as.push_back(mixed_a[as.size() % mixed_a.size()]);
    bs.push_back(mixed_b[(bs.size() / 2) % mixed_b.size()]);
    mixed_pa.push_back(pa);
    mixed_pb.push_back(pb);
  }
  expect_clean("batch::intersect, distance, penetration, mixed shapes", [&](Tally& t) {
    const batch::IntersectBatch x = batch::intersect(as, mixed_pa, bs, mixed_pb, one_thread);
    add_flags(t, x.intersect, {});
    const batch::DistanceBatch d = batch::distance(as, mixed_pa, bs, mixed_pb, one_thread);
    add_flags(t, d.intersect, d.distance);
    const batch::PenetrationBatch p = batch::penetration(as, mixed_pa, bs, mixed_pb, one_thread);
    add_flags(t, p.intersect, p.depth);
  });
  // Time of impact: translations and screw motions of the convex shapes, and meshes.
  std::vector<Vec3> velocity_a, velocity_b;
  std::vector<Pose> end_a, end_b;
  for (std::size_t i = 0; i < as.size(); ++i) {
    velocity_a.push_back(testgen::random_unit_vector(rng) * 0.5);
    velocity_b.push_back(-0.8 * (mixed_pb[i].translation() - mixed_pa[i].translation()) + velocity_a.back());
    end_a.push_back(Pose::from_euler_xyz(0.2, 0.1, -0.3, mixed_pa[i].translation() + velocity_a.back()) * mixed_pa[i]);
    end_b.push_back(Pose::from_translation(velocity_b.back()) * mixed_pb[i]);
  }
  batch::ToiBatchOptions toi_one_thread;
  toi_one_thread.threads = 1;
  expect_clean("batch::toi_translate, toi_screw, mixed shapes", [&](Tally& t) {
    std::vector<std::uint8_t> contact(as.size());
    std::vector<double> toi(as.size());
    batch::ToiOutputs out;
    out.contact = contact;
    out.toi = toi;
    batch::toi_translate(as, mixed_pa, velocity_a, bs, mixed_pb, velocity_b, 1.0, out, toi_one_thread);
    add_flags(t, contact, {});
    batch::toi_screw(as, mixed_pa, end_a, bs, mixed_pb, end_b, out, toi_one_thread);
    add_flags(t, contact, {});
  });
  const CcdCase& cubes = shared_ccd_cases()[0];
  std::vector<Pose> a0, a1, b0, b1;
  for (const test::Motion& m : cubes.motions) {
    a0.push_back(m.a0);
    a1.push_back(m.a1);
    b0.push_back(m.b0);
    b1.push_back(m.b1);
  }
  batch::ScrewBatchOptions screw_one_thread;
  screw_one_thread.threads = 1;
  for (const ccd::ScrewMethod method : {ccd::ScrewMethod::exact, ccd::ScrewMethod::raster}) {
    screw_one_thread.screw.method = method;
    expect_clean("batch::screw_first_contact, cubes", [&](Tally& t) {
      std::vector<std::uint8_t> contact(a0.size());
      batch::ToiOutputs out;
      out.contact = contact;
      batch::screw_first_contact(std::vector<mesh::Mesh>{cubes.a}, a0, a1, std::vector<mesh::Mesh>{cubes.b}, b0, b1, out,
                                 screw_one_thread);
      add_flags(t, contact, {});
    });
  }
}

// ------------------------------------------------------------------------------------------------
// lp and ipm
// ------------------------------------------------------------------------------------------------

TEST(FpExceptions, LinearProgrammingQueries) {
  std::mt19937_64 rng(3707);
  std::normal_distribution<double> g(0, 1);
  std::uniform_real_distribution<double> u(-1, 1);
  std::vector<std::pair<Eigen::MatrixXd, Eigen::MatrixXd>> sets;
  for (int k = 0; k < 40; ++k) {
    const int n = k % 2 == 0 ? 3 : 5;
    Eigen::MatrixXd a(n, 6 + k % 11), b(n, 5 + (k * 7) % 13);
    for (Eigen::Index j = 0; j < a.cols(); ++j)
      for (int i = 0; i < n; ++i) a(i, j) = g(rng);
    Eigen::VectorXd offset(n);
    for (int i = 0; i < n; ++i) offset[i] = 2.5 * u(rng);
    for (Eigen::Index j = 0; j < b.cols(); ++j)
      for (int i = 0; i < n; ++i) b(i, j) = g(rng) + offset[i];
    sets.emplace_back(a, b);
  }
  expect_clean("lp::intersect, lp::contains, lp::distance", [&](Tally& t) {
    for (const auto& [a, b] : sets) {
      const lp::LpIntersectResult x = lp::intersect(a, b);
      t.add(x.intersect, x.margin);
      t.add(lp::contains(a, b).contains, 0);
      for (const lp::DistanceNorm norm : {lp::DistanceNorm::l1, lp::DistanceNorm::linf}) {
        const lp::LpDistanceResult d = lp::distance(a, b, norm);
        t.add(d.distance > 0, d.distance);
      }
    }
  });
}

/// The ipm preset objects and a seeded draw of placements for them: A rotated about its origin, B
/// rotated and offset by up to 3 along each axis.
struct PresetPlacements {
  std::vector<ipm::Object> objects;
  std::mt19937_64 rng;
  std::uniform_real_distribution<double> angle{-3.14, 3.14};
  std::uniform_real_distribution<double> u{-1, 1};
  explicit PresetPlacements(std::uint64_t seed) : rng(seed) {
    for (std::string_view name : ipm::kPresetNames) objects.push_back(ipm::preset(name));
  }
  struct Placement {
    Vec3 offset;
    Pose pa, pb;
  };
  Placement draw() {
    const Vec3 offset = test::draw_vec3(u, rng) * 3.0;
    const Pose pa = test::draw_euler_pose(angle, rng);
    const Pose pb = test::draw_euler_pose(angle, rng, offset);
    return {offset, pa, pb};
  }
};

TEST(FpExceptions, InteriorPointDistance) {
  PresetPlacements draws(3708);
  const std::vector<ipm::Object>& objects = draws.objects;
  std::vector<std::pair<Pose, Pose>> poses;
  for (std::size_t k = 0; k < 2 * objects.size() * objects.size(); ++k) {
    const PresetPlacements::Placement p = draws.draw();
    poses.emplace_back(p.pa, p.pb);
  }
  expect_clean("ipm::distance_report on the presets", [&](Tally& t) {
    std::size_t k = 0;
    for (const ipm::Object& a : objects) {
      for (const ipm::Object& b : objects) {
        for (int i = 0; i < 2; ++i, ++k) {
          const ipm::DistanceReport d = ipm::distance_report(a, poses[k].first, b, poses[k].second);
          t.add(d.result.intersect, d.result.distance);
        }
      }
    }
  });
}

TEST(FpExceptions, InteriorPointContinuous) {
  PresetPlacements draws(3711);
  const std::vector<ipm::Object>& objects = draws.objects;
  struct Motion {
    Pose pa, pb;
    Vec3 va, vb;
  };
  std::vector<Motion> motions;
  for (std::size_t k = 0; k < objects.size() * objects.size(); ++k) {
    const PresetPlacements::Placement p = draws.draw();
    // B heads towards A (k even: through it) or sideways past it (k odd).
    const Vec3 vb = k % 2 == 0 ? Vec3(-2.0 * p.offset) : Vec3(p.offset.cross(Vec3(0.3, 0.7, -0.2)));
    motions.push_back({p.pa, p.pb, test::draw_vec3(draws.u, draws.rng) * 0.2, vb});
  }
  expect_clean("ipm::toi_translate, interval_translate, collision_intervals on the presets", [&](Tally& t) {
    std::size_t k = 0;
    for (const ipm::Object& a : objects) {
      for (const ipm::Object& b : objects) {
        const Motion& m = motions[k++];
        const ToiResult toi = ipm::toi_translate(a, m.pa, m.va, b, m.pb, m.vb, 1.0);
        t.add(toi.contact, toi.contact ? toi.toi : 0);
        const ipm::IntervalResult interval = ipm::interval_translate(a, m.pa, m.va, b, m.pb, m.vb, 1.0);
        t.add(interval.intersect, interval.min_distance);
        const Vec3 da = m.va.norm() > 0 ? Vec3(m.va) : Vec3(1, 0, 0);
        const Vec3 db = m.vb.norm() > 0 ? Vec3(m.vb) : Vec3(0, 1, 0);
        const ipm::CollisionIntervals c = ipm::collision_intervals(a, m.pa, da, m.va.norm(), b, m.pb, db, m.vb.norm());
        t.add(c.collide, c.collide ? c.s_a_min : 0);
      }
    }
  });
}

}  // namespace
}  // namespace proxima
