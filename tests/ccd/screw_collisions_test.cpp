// SPDX-License-Identifier: MIT
// Exact screw collisions: analytic head-on cases, the seed's figure 2 properness examples,
// tunneling, certificates on every reported collision, and seeded random motions compared with an
// independent reference (CGAL exact triangle-triangle tests on a sampled motion, bisected).
#include <proxima/ccd/screw_collisions.hpp>
#include <proxima/core/error.hpp>
#include <proxima/mesh/generators.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <random>
#include <sstream>
#include <utility>
#include <vector>

#ifdef PROXIMA_HAVE_CGAL
#include "ccd/reference.hpp"
#endif

namespace proxima::ccd {
namespace {

using mesh::Mesh;

Pose at(double x, double y = 0, double z = 0) { return Pose::from_translation(Vec3(x, y, z)); }

TEST(ScrewCollisions, HeadOnBoxesGiveFourProperFaceVertexContacts) {
  const Mesh a = mesh::make_box(Vec3(1, 1, 1));
  const Mesh b = mesh::make_box(Vec3(0.5, 0.5, 0.5));
  // B's left face starts at x = 3 and moves by -4: it meets A's right face (x = 1) at s = 0.5.
  const ScrewResult r = screw_collisions(a, Pose(), Pose(), b, at(3.5, 0.1, -0.2), at(-0.5, 0.1, -0.2));
  ASSERT_TRUE(r.contact);
  EXPECT_NEAR(r.toi, 0.5, 1e-12);
  int at_toi = 0;
  for (const Collision& c : r.collisions) {
    if (std::abs(c.time - 0.5) > 1e-9) continue;
    ++at_toi;
    EXPECT_EQ(c.type, CollisionType::fv);
    EXPECT_GE(c.properness, -1e-12) << "head-on contacts are proper";
    EXPECT_LT((c.normal - Vec3::UnitX()).norm(), 1e-12);
    EXPECT_NEAR(c.point.x(), 1, 1e-12);
  }
  EXPECT_EQ(at_toi, 4) << "B's four left vertices land inside A's right face";
  EXPECT_EQ(r.status, Status::converged);
}

TEST(ScrewCollisions, SeedFigure2TiltedSquareGivesProperThenSlightlyImproper) {
  // Seed 004 figure 2(b): B, tilted by alpha about z, translates leftwards into the fixed A. Its
  // lower left edge (two vertices in 3-D) touches first, properly; its upper left edge later,
  // slightly improperly (the left face is already inside A): properness about -sin(alpha).
  const double alpha = -0.05;  // clockwise: the lower left corner leads
  const Mesh a = mesh::make_box(Vec3(1, 2, 1));
  const Mesh b = mesh::make_box(Vec3(0.5, 0.5, 0.5));
  const Mat3 tilt = Eigen::AngleAxisd(alpha, Vec3::UnitZ()).toRotationMatrix();
  const Pose b0 = Pose::from_matrix(tilt, Vec3(2, 0, 0));
  const Pose b1 = Pose::from_matrix(tilt, Vec3(1, 0, 0));
  ScrewOptions keep_all;
  keep_all.properness_threshold = -1;
  const ScrewResult r = screw_collisions(a, Pose(), Pose(), b, b0, b1, keep_all);
  // Closed form: a local corner c reaches x = 1 when 2 - s + (tilt c).x == 1.
  const double lower = 1 + (tilt * Vec3(-0.5, -0.5, 0)).x();
  const double upper = 1 + (tilt * Vec3(-0.5, 0.5, 0)).x();
  ASSERT_LT(lower, upper);
  ASSERT_EQ(r.collisions.size(), 4u);
  for (int i = 0; i < 4; ++i) {
    const Collision& c = r.collisions[i];
    EXPECT_EQ(c.type, CollisionType::fv);
    EXPECT_EQ(c.face, 1) << "A's +x face";
    EXPECT_NEAR(c.time, i < 2 ? lower : upper, 1e-12);
    if (i < 2) {
      EXPECT_NEAR(c.properness, 0, 1e-12) << "the depth edge lies in A's face: proper, value 0";
    } else {
      EXPECT_NEAR(c.properness, -std::sin(std::abs(alpha)), 1e-12);
    }
  }
  // The default threshold (-0.1) keeps the slightly improper ones; a threshold of 0 drops them.
  ScrewOptions proper_only;
  proper_only.properness_threshold = 0;
  EXPECT_EQ(screw_collisions(a, Pose(), Pose(), b, b0, b1, proper_only).collisions.size(), 2u);
  EXPECT_EQ(screw_collisions(a, Pose(), Pose(), b, b0, b1).collisions.size(), 4u);
}

TEST(ScrewCollisions, SeedFigure2AlignedSquaresTouchTogether) {
  // Figure 2(a): no tilt, both left vertices (four in 3-D) touch at the same time, all proper.
  const Mesh a = mesh::make_box(Vec3(1, 2, 1));
  const Mesh b = mesh::make_box(Vec3(0.5, 0.5, 0.5));
  const ScrewResult r = screw_collisions(a, Pose(), Pose(), b, at(2), at(1));
  ASSERT_EQ(r.collisions.size(), 4u);
  for (const Collision& c : r.collisions) {
    EXPECT_NEAR(c.time, 0.5, 1e-12);
    EXPECT_GE(c.properness, 0);
  }
}

TEST(ScrewCollisions, CrossedRidgesGiveOneProperEdgeEdgeContact) {
  // A: unit cube turned 45 degrees about x, so its top is a ridge along x at z = sqrt(2) / 2.
  // B: the same cube turned 45 degrees about y, its bottom a ridge along y; B drops along -z.
  // The ridges cross at right angles: one EE collision, normal +z, and formula (7) gives
  // (n x e_A) . n_A1 = sin 45 degrees for each of the four terms.
  const Mesh cube = mesh::make_box(Vec3(0.5, 0.5, 0.5));
  const double q = std::numbers::pi / 4, ridge = std::sqrt(0.5);
  const Pose a = Pose::from_euler_xyz(q, 0, 0);
  const Pose b0 = Pose::from_euler_xyz(0, q, 0, Vec3(0.1, -0.05, 3));
  const Pose b1 = Pose::from_euler_xyz(0, q, 0, Vec3(0.1, -0.05, -1));
  const ScrewResult r = screw_collisions(cube, a, a, cube, b0, b1);
  ASSERT_TRUE(r.contact);
  const Collision& c = r.collisions.front();
  EXPECT_EQ(c.type, CollisionType::ee);
  EXPECT_NEAR(c.time, (3 - 2 * ridge) / 4, 1e-12);
  EXPECT_LT((c.normal - Vec3::UnitZ()).norm(), 1e-12);
  EXPECT_LT((c.point - Vec3(0.1, 0, ridge)).norm(), 1e-12);  // A's ridge is at y = 0, B's at x = 0.1
  EXPECT_NEAR(c.properness, std::sqrt(0.5), 1e-12);
  // The edge ids name the two ridges: A's along x, B's along y (in the world at contact).
  const mesh::Edge& ea = cube.edge(c.edge_a);
  const mesh::Edge& eb = cube.edge(c.edge_b);
  EXPECT_NEAR(std::abs(a.rotate(cube.vertex(ea.v1) - cube.vertex(ea.v0)).normalized().x()), 1, 1e-12);
  EXPECT_NEAR(std::abs(b0.rotate(cube.vertex(eb.v1) - cube.vertex(eb.v0)).normalized().y()), 1, 1e-12);
  // Nothing else touches before the ridge contact.
  for (std::size_t i = 1; i < r.collisions.size(); ++i) EXPECT_GT(r.collisions[i].time, c.time + 1e-3);
}

TEST(ScrewCollisions, TunnelingThroughInOneStepIsCaught) {
  // A thin plate; a small cube passes completely through it within the step, rotating 40 degrees.
  const Mesh plate = mesh::make_box(Vec3(0.05, 2, 2));
  const Mesh cube = mesh::make_box(Vec3(0.2, 0.2, 0.2));
  const Mat3 turn = Eigen::AngleAxisd(0.7, Vec3(0, 1, 1).normalized()).toRotationMatrix();
  const ScrewResult r = screw_collisions(plate, Pose(), Pose(), cube, at(-5), Pose::from_matrix(turn, Vec3(5, 0.3, 0)));
  ASSERT_TRUE(r.contact);
  EXPECT_GT(r.toi, 0.4);
  EXPECT_LT(r.toi, 0.5);
  EXPECT_LT(r.normal.x(), 0) << "from the plate towards the cube, which comes from -x";
  ScrewOptions first;
  first.first_contact_only = true;
  const ScrewResult f = screw_collisions(plate, Pose(), Pose(), cube, at(-5), Pose::from_matrix(turn, Vec3(5, 0.3, 0)), first);
  ASSERT_TRUE(f.contact);
  EXPECT_EQ(f.toi, r.toi);
  EXPECT_LE(f.collisions.size(), r.collisions.size());
}

TEST(ScrewCollisions, NoMotionOrFarApartGivesNothing) {
  const Mesh a = mesh::make_box(Vec3(1, 1, 1));
  EXPECT_FALSE(screw_collisions(a, Pose(), Pose(), a, at(5), at(5)).contact);
  EXPECT_FALSE(screw_collisions(a, Pose(), Pose(), a, at(5), at(5, 4)).contact);
  // Both bodies translate together: no relative motion.
  EXPECT_FALSE(screw_collisions(a, Pose(), at(0, 3), a, at(5), at(5, 3)).contact);
}

TEST(ScrewCollisions, RefusesBadInput) {
  const Mesh a = mesh::make_box(Vec3(1, 1, 1));
  const Mat3 half_turn = Eigen::AngleAxisd(std::numbers::pi, Vec3::UnitZ()).toRotationMatrix();
  try {
    screw_collisions(a, Pose(), Pose(), a, at(5), Pose::from_matrix(half_turn, Vec3(4, 0, 0)));
    ADD_FAILURE();
  } catch (const InvalidInput& e) {
    EXPECT_EQ(e.field(), "rotation");
  }
  // Both bodies turned by the same angle: no relative motion, so nothing is reported, but A's own
  // rotation must stay below pi - kScrewPiMargin in both modes. The exact mode refuses it with
  // either body first: with the torus as B it swaps the roles (a B of more than 3x A's features),
  // with the box as B it does not. The raster checks the angle by a trace test and leaves the
  // verdict near the limit to decompose: pi - 1e-5 passes through that fallback and is accepted,
  // pi - 1e-7 is inside the margin and refused.
  const Mesh torus = mesh::make_torus(1, 0.3);
  struct Turn {
    double angle;
    bool refused;
  };
  for (const Turn turn : {Turn{std::numbers::pi, true}, Turn{std::numbers::pi - 1e-7, true},
                          Turn{std::numbers::pi - 1e-5, false}, Turn{std::numbers::pi - 1e-3, false}}) {
    const Mat3 r = Eigen::AngleAxisd(turn.angle, Vec3(0.3, 1, 0.2).normalized()).toRotationMatrix();
    const Pose turned_a = Pose::from_matrix(r);
    const Pose turned_b = Pose::from_matrix(r, r * Vec3(5, 0, 0));
    for (const ScrewMethod method : {ScrewMethod::exact, ScrewMethod::raster}) {
      ScrewOptions options;
      options.method = method;
      for (const auto& [first, second] : {std::pair(&a, &torus), std::pair(&torus, &a)}) {
        std::ostringstream what;
        what << "angle pi - " << std::numbers::pi - turn.angle << ", "
             << (method == ScrewMethod::exact ? "exact" : "raster") << ", " << first->num_faces() << " faces first";
        try {
          const ScrewResult result = screw_collisions(*first, Pose(), turned_a, *second, at(5), turned_b, options);
          EXPECT_FALSE(turn.refused) << what.str();
          EXPECT_FALSE(result.contact) << what.str();
        } catch (const InvalidInput& e) {
          EXPECT_TRUE(turn.refused) << what.str();
          EXPECT_EQ(e.field(), "rotation") << what.str();
        }
      }
    }
  }
  ScrewOptions bad;
  bad.time_tolerance = 0;
  EXPECT_THROW(screw_collisions(a, Pose(), Pose(), a, at(5), at(0), bad), InvalidInput);
  EXPECT_THROW(Pose::from_quaternion(std::nan(""), 0, 0, 1), InvalidInput);
  EXPECT_THROW(Pose::from_matrix(2 * Mat3::Identity()), InvalidInput);
}

// validate_screw_options checks every option with one fast predicate first and names the field
// only on failure: each bad value must still be refused, naming its own field, in both modes.
TEST(ScrewCollisions, EachBadOptionIsRefusedNamingItsField) {
  const Mesh a = mesh::make_box(Vec3(1, 1, 1));
  struct Bad {
    const char* field;
    void (*spoil)(ScrewOptions&);
  };
  const std::vector<Bad> cases = {
      {"method", [](ScrewOptions& o) { o.method = static_cast<ScrewMethod>(7); }},
      {"properness_threshold", [](ScrewOptions& o) { o.properness_threshold = std::nan(""); }},
      {"properness_threshold", [](ScrewOptions& o) { o.properness_threshold = -INFINITY; }},
      {"time_tolerance", [](ScrewOptions& o) { o.time_tolerance = 0; }},
      {"time_tolerance", [](ScrewOptions& o) { o.time_tolerance = INFINITY; }},
      {"feature_tolerance", [](ScrewOptions& o) { o.feature_tolerance = -1e-9; }},
      {"feature_tolerance", [](ScrewOptions& o) { o.feature_tolerance = std::nan(""); }},
      {"parallel_tolerance", [](ScrewOptions& o) { o.parallel_tolerance = -1; }},
      {"parallel_tolerance", [](ScrewOptions& o) { o.parallel_tolerance = INFINITY; }},
      {"slab_sweep_fraction", [](ScrewOptions& o) { o.slab_sweep_fraction = 0; }},
      {"slab_sweep_fraction", [](ScrewOptions& o) { o.slab_sweep_fraction = std::nan(""); }},
      {"max_root_iterations", [](ScrewOptions& o) { o.max_root_iterations = 0; }},
      {"max_intervals", [](ScrewOptions& o) { o.max_intervals = 0; }},
      {"max_time_slabs", [](ScrewOptions& o) { o.max_time_slabs = 0; }},
      {"pixel_size", [](ScrewOptions& o) { o.pixel_size = -1; }},
      {"pixel_size", [](ScrewOptions& o) { o.pixel_size = INFINITY; }},
      {"time_resolution", [](ScrewOptions& o) { o.time_resolution = 0; }},
      {"time_resolution", [](ScrewOptions& o) { o.time_resolution = std::nan(""); }},
      {"max_pixel_records", [](ScrewOptions& o) { o.max_pixel_records = 0; }},
      {"max_subdivision", [](ScrewOptions& o) { o.max_subdivision = -1; }},
  };
  for (const ScrewMethod method : {ScrewMethod::exact, ScrewMethod::raster}) {
    for (const Bad& c : cases) {
      ScrewOptions o;
      o.method = method;
      c.spoil(o);
      try {
        screw_collisions(a, Pose(), Pose(), a, at(5), at(0), o);
        ADD_FAILURE() << c.field << " accepted";
      } catch (const InvalidInput& e) {
        EXPECT_EQ(e.field(), c.field);
      }
    }
    // The defaults pass, as do the boundary values each check allows.
    ScrewOptions o;
    o.method = method;
    o.feature_tolerance = 0;
    o.parallel_tolerance = 0;
    o.max_subdivision = 0;
    EXPECT_NO_THROW(screw_collisions(a, Pose(), Pose(), a, at(5), at(0), o));
  }
}

TEST(ScrewCollisions, OpenMeshesWork) {
  // A single square (open) hit by a cube from +z: properness uses the one face present.
  mesh::MeshOptions open;
  open.allow_open = true;
  const Mesh sheet = Mesh::from_faces({Vec3(-1, -1, 0), Vec3(1, -1, 0), Vec3(1, 1, 0), Vec3(-1, 1, 0)}, {{0, 1, 2, 3}}, open);
  const Mesh cube = mesh::make_box(Vec3(0.3, 0.3, 0.3));
  const ScrewResult r = screw_collisions(sheet, Pose(), Pose(), cube, at(0.1, 0, 2), at(0.1, 0, -2));
  ASSERT_TRUE(r.contact);
  EXPECT_NEAR(r.toi, (2 - 0.3) / 4, 1e-12);
  EXPECT_LT((r.normal - Vec3::UnitZ()).norm(), 1e-12);
}

#ifdef PROXIMA_HAVE_CGAL

Pose random_rotation_pose(std::mt19937_64& rng, double max_angle, const Vec3& translation) {
  std::uniform_real_distribution<double> u(-1, 1);
  Vec3 axis{u(rng), u(rng), u(rng)};
  while (axis.norm() < 0.1) axis = Vec3{u(rng), u(rng), u(rng)};
  const double angle = max_angle * (u(rng) + 1) / 2;
  return Pose::from_matrix(Eigen::AngleAxisd(angle, axis.normalized()).toRotationMatrix(), translation);
}

Vec3 random_unit(std::mt19937_64& rng) {
  std::normal_distribution<double> n;
  return Vec3{n(rng), n(rng), n(rng)}.normalized();
}

// Checks one reported collision against the geometry at its time (in A's frame): the contact
// point lies on A's feature and on B's moved feature; the normal is unit.
void check_certificate(const Mesh& a, const Mesh& b, const Pose& a_start, const Pose& a_end, const Pose& b_in_a,
                       const testing::Reference& ref, const Collision& c, double scale, const std::string& label) {
  const Pose pose_a = interpolate(a_start, a_end, c.time);
  const Vec3 p = pose_a.apply_inverse(c.point);
  const Vec3 n = pose_a.rotate_inverse(c.normal);
  const double tol = 1e-9 * scale;
  EXPECT_NEAR(n.norm(), 1, 1e-12) << label;
  auto moved = [&](int v) { return ref.move(b_in_a.apply(b.vertex(v)), c.time); };
  auto segment_distance = [](const Vec3& x, const Vec3& s0, const Vec3& s1) {
    const double t = std::clamp((x - s0).dot(s1 - s0) / (s1 - s0).squaredNorm(), 0.0, 1.0);
    return (s0 + t * (s1 - s0) - x).norm();
  };
  switch (c.type) {
    case CollisionType::vf: {
      EXPECT_LT((p - a.vertex(c.vertex)).norm(), tol) << label;
      const Vec3 q0 = moved(b.face(c.face)[0]), q1 = moved(b.face(c.face)[1]), q2 = moved(b.face(c.face)[2]);
      const Vec3 nb = (q1 - q0).cross(q2 - q0).normalized();
      EXPECT_LT(std::abs(nb.dot(p - q0)), tol) << label << " vertex on B's face plane";
      break;
    }
    case CollisionType::fv: {
      EXPECT_LT((p - moved(c.vertex)).norm(), tol) << label;
      EXPECT_LT(std::abs(a.face_normal(c.face).dot(p) - a.plane(c.face).offset), tol) << label;
      EXPECT_LT((n - a.face_normal(c.face)).norm(), 1e-12) << label;
      break;
    }
    case CollisionType::ee: {
      const mesh::Edge& ea = a.edge(c.edge_a);
      const mesh::Edge& eb = b.edge(c.edge_b);
      EXPECT_LT(segment_distance(p, a.vertex(ea.v0), a.vertex(ea.v1)), tol) << label;
      EXPECT_LT(segment_distance(p, moved(eb.v0), moved(eb.v1)), tol) << label;
      EXPECT_LT(std::abs(n.dot((a.vertex(ea.v1) - a.vertex(ea.v0)).normalized())), 1e-9) << label;
      break;
    }
  }
}

struct PairCase {
  const char* name;
  Mesh a, b;
  int count;
};

// Seeded random motions: B starts outside A's bounding sphere and ends on the far side (often
// passing completely through A within the step), rotating up to 45 degrees relative to A; A
// itself moves a little. The exact first contact must match the reference to 1e-9, with zero
// misses; every reported collision must satisfy its certificate.
TEST(ScrewCollisionsRandom, MatchReferenceWithZeroMisses) {
  std::vector<PairCase> pairs;
  pairs.push_back({"cube-cube", mesh::make_box(Vec3(0.5, 0.5, 0.5)), mesh::make_box(Vec3(0.5, 0.5, 0.5)), 200});
  pairs.push_back({"car-car", mesh::make_car(), mesh::make_car(), 150});
  pairs.push_back({"lprism-torus", mesh::make_l_prism(), mesh::make_torus(1, 0.3), 40});
  pairs.push_back({"torus-torus", mesh::make_torus(1, 0.3), mesh::make_torus(1, 0.3), 30});
  const std::uint64_t seed = 5005;
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u01(0, 1);
  for (const PairCase& pc : pairs) {
    int hits = 0, misses = 0, ref_refined = 0, tunnel = 0;
    for (int k = 0; k < pc.count; ++k) {
      const double ra = pc.a.bounding_sphere().radius, rb = pc.b.bounding_sphere().radius;
      const double reach = ra + rb;
      const Pose a_start = random_rotation_pose(rng, std::numbers::pi, Vec3::Zero());
      const Pose a_turn = random_rotation_pose(rng, 0.1, Vec3::Zero());
      const Pose a_end = a_turn * a_start * at(0.1 * u01(rng), 0, 0);
      const Vec3 dir = random_unit(rng);
      Vec3 side = random_unit(rng);
      side = (side - side.dot(dir) * dir).normalized();
      const Pose b_rot = random_rotation_pose(rng, std::numbers::pi, Vec3::Zero());
      // The line of travel passes at `offset` from A's centre: a mix of hits and near misses.
      const Vec3 offset = reach * 1.2 * u01(rng) * side;
      const Vec3 start_c = a_start.apply(pc.a.bounding_sphere().center) + reach * (1.02 + 0.5 * u01(rng)) * dir + offset;
      const Vec3 end_c = a_start.apply(pc.a.bounding_sphere().center) - reach * (0.5 + 2.5 * u01(rng)) * dir + offset;
      const Pose b_start = Pose::from_matrix(b_rot.rotation(), start_c - b_rot.rotate(pc.b.bounding_sphere().center));
      const Pose spin = random_rotation_pose(rng, std::numbers::pi / 4 - 0.1, Vec3::Zero());
      const Mat3 r_end = spin.rotation() * b_rot.rotation();
      const Pose b_end = Pose::from_matrix(r_end, end_c - r_end * pc.b.bounding_sphere().center);

      const ScrewResult r = screw_collisions(pc.a, a_start, a_end, pc.b, b_start, b_end);
      const Pose b_in_a = a_start.inverse() * b_start;
      const testing::Reference ref(pc.a, pc.b, b_in_a, r.screw);
      const std::string label = std::string(pc.name) + " seed " + std::to_string(seed) + " case " + std::to_string(k);
      ASSERT_FALSE(ref.intersect(0)) << label << ": generator must start separated";
      EXPECT_EQ(r.status, Status::converged) << label;
      EXPECT_LE(r.screw.angle, std::numbers::pi / 4 + 0.2) << label;
      double expected = ref.first_contact(100, 1e-11);
      if (ref.intersect(1) && !std::isnan(expected)) ++tunnel;  // still overlapping at the end is not tunneling
      if (r.contact && (std::isnan(expected) || r.toi < expected - 1e-9)) {
        // The samples may have stepped over a brief earlier contact: look just after r.toi.
        const double refined = ref.first_contact(50, 1e-11, std::max(0.0, r.toi - 1e-6), std::min(1.0, r.toi + 5e-3));
        if (!std::isnan(refined)) {
          expected = refined;
          ++ref_refined;
        }
      }
      if (std::isnan(expected)) {
        ++misses;
        EXPECT_FALSE(r.contact) << label << " reported toi " << r.toi << " the reference cannot confirm";
      } else {
        ++hits;
        ASSERT_TRUE(r.contact) << label << ": MISSED a contact at " << expected;
        EXPECT_NEAR(r.toi, expected, 1e-9) << label;
        EXPECT_GE(r.collisions.front().properness, -1e-9) << label << ": the first contact is proper";
      }
      for (std::size_t i = 0; i < r.collisions.size(); ++i) {
        check_certificate(pc.a, pc.b, a_start, a_end, b_in_a, ref, r.collisions[i], reach,
                          label + " collision " + std::to_string(i));
        if (i > 0) {
          EXPECT_GE(r.collisions[i].time, r.collisions[i - 1].time) << label;
        }
      }
    }
    // The samples must be informative: a real mix of hits and misses.
    EXPECT_GE(hits, pc.count / 4) << pc.name;
    EXPECT_GE(misses, pc.count / 10) << pc.name;
    std::printf("[ %s ] %d cases: %d hits, %d misses, %d tunneling hits (separated again at the end), %d refined\n",
                pc.name, pc.count, hits, misses, hits - tunnel, ref_refined);
  }
}

#endif

}  // namespace
}  // namespace proxima::ccd

namespace proxima::ccd {
namespace {

#ifdef PROXIMA_HAVE_CGAL

// Is p (near the plane of face f, at the moved positions `v`) inside one of the face's triangles?
bool inside_by_triangles(const Mesh& m, int f, const std::vector<Vec3>& v, const Vec3& p, double tol) {
  for (const auto& t : m.triangulate_face(f)) {
    const Vec3 a = v[t[0]], b = v[t[1]], c = v[t[2]];
    const Vec3 n = (b - a).cross(c - a);
    const double area2 = n.squaredNorm();
    const double u = (c - b).cross(p - b).dot(n) / area2, w = (a - c).cross(p - c).dot(n) / area2;
    const double slack = tol / std::sqrt(std::sqrt(area2));
    if (u >= -slack && w >= -slack && 1 - u - w >= -slack) return true;
  }
  return false;
}

// Completeness of the vertex-face events: brute force over every (vertex, face) pair samples the
// signed distance of the vertex to the moving face plane at 1000 times, bisects each entering
// sign change and keeps it when the point lies inside the face (checked on the face's
// triangulation, not with the library's polygon test). Every such event must be in the exact
// mode's list (properness threshold -1: all kept).
TEST(ScrewCollisionsRandom, EveryVertexFaceEventIsReported) {
  const std::uint64_t seed = 5006;
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u01(0, 1);
  const Mesh shapes[2] = {mesh::make_box(Vec3(0.5, 0.4, 0.3)), mesh::make_car(0.5)};
  int brute_events = 0, exact_events = 0;
  for (int k = 0; k < 40; ++k) {
    const Mesh& a = shapes[k % 2];
    const Mesh& b = shapes[(k / 2) % 2];
    const double reach = a.bounding_sphere().radius + b.bounding_sphere().radius;
    const Pose a_start = random_rotation_pose(rng, std::numbers::pi, Vec3::Zero());
    const Vec3 dir = random_unit(rng);
    const Pose b_rot = random_rotation_pose(rng, std::numbers::pi, Vec3::Zero());
    const Pose b_start = Pose::from_matrix(b_rot.rotation(), 1.05 * reach * dir + 0.3 * reach * random_unit(rng));
    const Mat3 r_end = random_rotation_pose(rng, 0.7, Vec3::Zero()).rotation() * b_rot.rotation();
    const Pose b_end = Pose::from_matrix(r_end, -(0.3 + u01(rng)) * reach * dir);
    ScrewOptions all;
    all.properness_threshold = -1;
    const ScrewResult r = screw_collisions(a, a_start, a_start, b, b_start, b_end, all);
    const Pose b_in_a = a_start.inverse() * b_start;
    const testing::Reference ref(a, b, b_in_a, r.screw);
    const std::string label = "seed " + std::to_string(seed) + " case " + std::to_string(k);
    auto b_at = [&](double s) {
      std::vector<Vec3> v;
      for (const Vec3& p : b.vertices()) v.push_back(ref.move(b_in_a.apply(p), s));
      return v;
    };
    auto reported = [&](CollisionType type, int vertex, int face, double s) {
      for (const Collision& c : r.collisions) {
        if (c.type == type && c.vertex == vertex && c.face == face && std::abs(c.time - s) < 1e-8) return true;
      }
      return false;
    };
    constexpr int kSamples = 1000;
    std::vector<std::vector<Vec3>> moved;
    for (int i = 0; i <= kSamples; ++i) moved.push_back(b_at(static_cast<double>(i) / kSamples));
    // FV: vertex vb of B against face fa of A (fixed); VF: vertex va of A against face fb of B.
    auto scan = [&](CollisionType type, int vertex, int face) {
      auto dist = [&](const std::vector<Vec3>& bv) {
        if (type == CollisionType::fv) return a.face_normal(face).dot(bv[vertex]) - a.plane(face).offset;
        const auto ids = b.face(face);
        const Vec3 n = (bv[ids[1]] - bv[ids[0]]).cross(bv[ids[2]] - bv[ids[0]]).normalized();
        return n.dot(a.vertex(vertex) - bv[ids[0]]);
      };
      for (int i = 0; i < kSamples; ++i) {
        const double d0 = dist(moved[i]), d1 = dist(moved[i + 1]);
        if (!(d0 > 0 && d1 <= 0)) continue;
        double lo = static_cast<double>(i) / kSamples, hi = static_cast<double>(i + 1) / kSamples;
        for (int it = 0; it < 45; ++it) {
          const double mid = (lo + hi) / 2;
          (dist(b_at(mid)) > 0 ? lo : hi) = mid;
        }
        const std::vector<Vec3> bv = b_at(hi);
        const bool inside = type == CollisionType::fv
                                ? inside_by_triangles(a, face, a.vertices(), bv[vertex], 1e-9)
                                : inside_by_triangles(b, face, bv, a.vertex(vertex), 1e-9);
        if (!inside) continue;
        ++brute_events;
        EXPECT_TRUE(reported(type, vertex, face, hi)) << label << " missing " << to_string(type) << " vertex "
                                                      << vertex << " face " << face << " at " << hi;
      }
    };
    for (int v = 0; v < b.num_vertices(); ++v) {
      for (int f = 0; f < a.num_faces(); ++f) scan(CollisionType::fv, v, f);
    }
    for (int v = 0; v < a.num_vertices(); ++v) {
      for (int f = 0; f < b.num_faces(); ++f) scan(CollisionType::vf, v, f);
    }
    for (const Collision& c : r.collisions) exact_events += c.type != CollisionType::ee;
  }
  EXPECT_GE(brute_events, 100) << "the motions must produce events";
  // Events the 1000 samples stepped over (two crossings within one sample) may be reported only
  // by the exact mode; they must stay rare.
  EXPECT_LE(exact_events, brute_events + brute_events / 50);
  std::printf("[ vertex-face completeness ] %d brute-force events, %d exact VF/FV events\n", brute_events, exact_events);
}

#endif

}  // namespace
}  // namespace proxima::ccd
