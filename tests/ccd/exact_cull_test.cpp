// SPDX-License-Identifier: MIT
// The exact mode's properness culls on per-query precomputed directions (src/ccd/properness.hpp:
// TurnFrame, improper_all_step_vf / _fv, edge_improper_near_turned; used by
// src/ccd/screw_collisions.cpp before its inside-face and triple-product tests) against the
// functions that compute everything per call (max_turned_dot, improper_all_step,
// edge_improper_near): the same values, bit for bit, and the same decisions. The exact mode's
// answers are then those of testing the bounds inside the solver, as it did before
// (tests/ccd/raster_cull_test.cpp, ExactCull, checks that the bounds themselves lose nothing).
#include <proxima/ccd/screw.hpp>
#include <proxima/ccd/screw_collisions.hpp>
#include <proxima/mesh/generators.hpp>

#include "ccd/exact_runs.hpp"
#include "ccd/polygon_tests.hpp"
#include "ccd/properness.hpp"

#include "support/ccd_motions.hpp"

#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstdio>
#include <limits>
#include <numbers>
#include <random>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace proxima::ccd {
namespace {

using mesh::Mesh;
using test::random_turn;
using test::random_unit;

// Angles 0 (translation), small, and up to nearly pi.
double random_angle(std::mt19937_64& rng, int k) {
  std::uniform_real_distribution<double> u01(0, 1);
  if (k % 10 == 0) return 0;
  if (k % 10 == 1) return 1e-6 * u01(rng);
  return (std::numbers::pi - 1e-3) * u01(rng);
}

TEST(ExactCullPrecomputed, TurnFrameGivesMaxTurnedDotBitForBit) {
  const std::uint64_t seed = 2611;
  std::mt19937_64 rng(seed);
  for (int k = 0; k < 20000; ++k) {
    const Vec3 axis = random_unit(rng), a = random_unit(rng), b = random_unit(rng);
    const double theta = random_angle(rng, k);
    const double c = std::cos(theta), s = std::sin(theta);
    const double direct = detail::max_turned_dot(axis, theta, c, s, a, b);
    const double framed = detail::max_turned_dot(detail::turn_frame(axis, a), theta, c, s, b);
    ASSERT_EQ(framed, direct) << "seed " << seed << " case " << k;
  }
}

// A vertex's unit edge directions as the exact mode makes them per query.
std::vector<Vec3> vertex_dirs(const Mesh& m, const std::vector<Vec3>& v, int vertex) {
  std::vector<Vec3> dirs;
  for (int e : m.vertex_edges(vertex)) {
    const mesh::Edge& ed = m.edge(e);
    dirs.push_back((v[static_cast<std::size_t>(ed.v0 == vertex ? ed.v1 : ed.v0)] - v[static_cast<std::size_t>(vertex)])
                       .normalized());
  }
  return dirs;
}

std::vector<Vec3> placed(const Mesh& m, const Pose& pose) {
  std::vector<Vec3> v;
  for (const Vec3& p : m.vertices()) v.push_back(pose.apply(p));
  return v;
}

TEST(ExactCullPrecomputed, VertexFaceBoundsDecideAsImproperAllStep) {
  const std::uint64_t seed = 2612;
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u01(0, 1);
  const Mesh meshes[] = {mesh::make_torus(1, 0.3), mesh::make_car(), mesh::make_l_prism(),
                         mesh::make_box(Vec3(1, 2, 3))};
  std::array<int, 2> outcomes{};
  for (int k = 0; k < 20000; ++k) {
    const Mesh& m = meshes[k % 4];
    const std::vector<Vec3> v = placed(m, random_turn(rng, std::numbers::pi));
    const int vertex = static_cast<int>(u01(rng) * m.num_vertices()) % m.num_vertices();
    const Vec3 axis = random_unit(rng), n = random_unit(rng);
    const double theta = random_angle(rng, k);
    const double c = std::cos(theta), s = std::sin(theta);
    const double threshold = -1 + 1.6 * u01(rng);
    const std::vector<Vec3> dirs = vertex_dirs(m, v, vertex);
    const std::string label = "seed " + std::to_string(seed) + " case " + std::to_string(k);
    // VF: the face normal turns, the vertex's edges stay.
    const bool vf = detail::improper_all_step(m, v, vertex, n, false, axis, theta, c, s, threshold);
    ASSERT_EQ(detail::improper_all_step_vf(dirs, detail::turn_frame(axis, n), theta, c, s, threshold), vf) << label;
    // FV: the vertex's edges turn, the face normal stays.
    std::vector<detail::TurnFrame> frames;
    for (const Vec3& d : dirs) frames.push_back(detail::turn_frame(axis, d));
    const bool fv = detail::improper_all_step(m, v, vertex, n, true, axis, theta, c, s, threshold);
    ASSERT_EQ(detail::improper_all_step_fv(frames, n, theta, c, s, threshold), fv) << label;
    ++outcomes[vf ? 1 : 0];
    ++outcomes[fv ? 1 : 0];
  }
  EXPECT_GE(outcomes[0], 4000);
  EXPECT_GE(outcomes[1], 4000);
}

TEST(ExactCullPrecomputed, EdgeEdgeBoundDecidesAsEdgeImproperNear) {
  const std::uint64_t seed = 2613;
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u01(0, 1);
  const Mesh meshes[] = {mesh::make_torus(1, 0.3), mesh::make_car(), mesh::make_l_prism()};
  std::array<int, 2> outcomes{};
  int b_terms = 0;
  for (int k = 0; k < 20000; ++k) {
    const Mesh& ma = meshes[k % 3];
    const Mesh& mb = meshes[(k / 3) % 3];
    const Pose pose_b = random_turn(rng, std::numbers::pi);
    const std::vector<Vec3> va = placed(ma, Pose()), vb = placed(mb, pose_b);
    std::vector<Vec3> na, nb;
    for (int f = 0; f < ma.num_faces(); ++f) na.push_back(ma.face_normal(f));
    for (int f = 0; f < mb.num_faces(); ++f) nb.push_back(pose_b.rotate(mb.face_normal(f)));
    const int ea = static_cast<int>(u01(rng) * ma.num_edges()) % ma.num_edges();
    const int eb = static_cast<int>(u01(rng) * mb.num_edges()) % mb.num_edges();
    const mesh::Edge& edge_a = ma.edge(ea);
    const mesh::Edge& edge_b = mb.edge(eb);
    const Vec3 da = va[static_cast<std::size_t>(edge_a.v1)] - va[static_cast<std::size_t>(edge_a.v0)];
    const Vec3 db = vb[static_cast<std::size_t>(edge_b.v1)] - vb[static_cast<std::size_t>(edge_b.v0)];
    // As the solver makes them (da / |da|) and as the per-query frames do (normalized()).
    const Vec3 ua = da / da.norm(), ub0 = db / db.norm();
    const Vec3 axis = random_unit(rng);
    const double theta = random_angle(rng, k);
    const double s = u01(rng), width = (k % 4 == 0 ? 0.5 : 1.0 / 64) * u01(rng) + 1e-9;
    const double threshold = -1 + 1.4 * u01(rng);
    const std::pair<double, double> turned = detail::turn_at(s, theta);
    const bool direct =
        detail::edge_improper_near(edge_a, edge_b, na, nb, ua, ub0, axis, theta, turned, width, threshold);
    const Vec3 ub = detail::turned(detail::turn_frame(axis, db.normalized()), turned);
    int asked = 0;
    auto normal = [&](int side) {
      ++asked;
      const int f = side == 0 ? edge_b.face_left : edge_b.face_right;
      return detail::turned(detail::turn_frame(axis, nb[static_cast<std::size_t>(f)]), turned);
    };
    const bool framed = detail::edge_improper_near_turned(edge_a, edge_b, na, ua, ub, normal, theta, width, threshold);
    ASSERT_EQ(framed, direct) << "seed " << seed << " case " << k;
    ++outcomes[direct ? 1 : 0];
    b_terms += asked > 0 ? 1 : 0;
  }
  EXPECT_GE(outcomes[0], 4000);
  EXPECT_GE(outcomes[1], 2000);
  EXPECT_GE(b_terms, 2000);  // B's turned normals were needed (A's terms alone did not decide)
}

// The edge-edge pre-test: segments within X have B's midpoint within X + |e| / 2 of A's segment, so
// the point test with a small margin (the exact mode's: 1e-9 of the lengths) never drops a pair
// the segment test keeps. Random segments at all scales of separation, and pairs at the edge.
TEST(ExactCullPrecomputed, PointTestKeepsEveryPairTheSegmentTestKeeps) {
  const std::uint64_t seed = 2614;
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u01(0, 1);
  int kept = 0, dropped = 0;
  for (int k = 0; k < 200000; ++k) {
    const Vec3 p_dir = random_unit(rng);
    const Vec3 p = 3 * p_dir * u01(rng);
    const Vec3 d_dir = random_unit(rng);
    const Vec3 d = d_dir * (0.01 + 2 * u01(rng));
    const Vec3 q_dir = random_unit(rng);
    const Vec3 q = p + q_dir * (3 * u01(rng));
    const Vec3 e_dir = random_unit(rng);
    const Vec3 e = e_dir * (0.01 + 2 * u01(rng));
    const double x = detail::segment_distance(p, d, q, e);
    // The segment test's bound, from far below to just above the distance.
    const double bound = k % 2 == 0 ? x * (1 + 1e-15) : 3 * u01(rng);
    const double margin = 1e-9 * (p.norm() + q.norm() + d.norm() + e.norm());
    const double near = bound + e.norm() / 2 + margin;
    const bool point_keeps = detail::point_segment_distance2(q + e / 2, p, d, 1 / d.squaredNorm()) <= near * near;
    if (x <= bound) {
      ASSERT_TRUE(point_keeps) << "seed " << seed << " case " << k;
      ++kept;
    } else {
      dropped += point_keeps ? 0 : 1;
    }
  }
  EXPECT_GE(kept, 100000);
  EXPECT_GE(dropped, 1000);  // the pre-test does drop pairs
}


// The exact mode keeps B's runs of 32 features in B's frame and places them per query, and skips
// a run before its features' growths are made on a bound from the run's sphere: every placed
// feature sphere must lie inside its placed run's sphere and every growth within that bound
// (detail::exact_run_bound_excess <= 0), for turns from none to nearly pi, B near or far from A
// and from the screw's axis. The tightest feature comes within about the margins (1e-9) of both.
TEST(ExactCullPrecomputed, RunSpheresHoldTheirFeaturesAndBoundTheirGrowth) {
  const std::uint64_t seed = 2615;
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u01(0, 1);
  const std::vector<Mesh> meshes = {mesh::make_torus(1, 0.3), mesh::make_torus(1, 0.3, 40, 24),
                                    mesh::make_torus(1e3, 2e2, 24, 12)};
  double tightest = -std::numeric_limits<double>::infinity();
  for (int k = 0; k < 3000; ++k) {
    const Mesh& b = meshes[static_cast<std::size_t>(k) % meshes.size()];
    const double far = std::pow(10.0, 4 * u01(rng) - 1);  // B's offsets from 0.1 to 1000 of its size
    const double size = b.bounding_sphere().radius;
    const Vec3 a_dir = random_unit(rng);
    const Pose a_start = random_turn(rng, std::numbers::pi, a_dir * size * far * u01(rng));
    const Pose a_end = random_turn(rng, 0.1, Vec3::Zero()) * a_start;
    const Pose b_start = random_turn(rng, std::numbers::pi, random_unit(rng) * size * far);
    const double turn_angle = random_angle(rng, k);
    const Vec3 turn_axis = random_unit(rng);
    const Pose turn = Pose::from_matrix(
        Eigen::AngleAxisd(turn_angle * 0.95, turn_axis).toRotationMatrix(), Vec3::Zero());
    const Vec3 b_dir = random_unit(rng);
    const Pose b_end = Pose::from_matrix(turn.rotation() * b_start.rotation(),
                                         b_start.translation() + b_dir * size * far * u01(rng));
    const double excess = detail::exact_run_bound_excess(a_start, a_end, b, b_start, b_end);
    ASSERT_LE(excess, 0.0) << "seed " << seed << " case " << k;
    tightest = std::max(tightest, excess);
  }
  EXPECT_GT(tightest, -1e-6);  // the margins, not a loose bound, keep it below 0
}

// The first-contact slab loop skips B's runs and features that come near no run of A's features
// (src/ccd/screw_collisions.cpp, ARuns): on seeded motions of meshes with a hole, a concave side
// and the small ones (runs of one feature), torus-sized and far from unit size, the answers with
// the cull are those without it, every field of every collision and the pair and iteration
// counts. The same runs with their radii halved (a cull that is not conservative) must change
// some answer, or these motions would not show the cull sound.
using MeshPair = std::pair<const Mesh*, const Mesh*>;

/// The meshes the culling tests draw their pairs from: two tori of different resolutions, the
/// L-prism, the car, a box and a torus at the 1e3 scale.
struct CullMeshes {
  Mesh torus = mesh::make_torus(1, 0.3);
  Mesh fine = mesh::make_torus(1, 0.4, 40, 24);
  Mesh prism = mesh::make_l_prism();
  Mesh car = mesh::make_car();
  Mesh box = mesh::make_box(Vec3(0.4, 0.6, 0.8));
  Mesh big = mesh::make_torus(1e3, 3e2, 24, 12);
};

// The seeded motions of the switch tests below: motion k of `count` is drawn (in order, from rng)
// for the pair k % pairs.size(), every fourth ending 0.97 of the way into B's turn, and handed to
// body(k, a, b, motion).
template <class Body>
void for_each_motion(std::mt19937_64& rng, std::span<const MeshPair> pairs, int count, Body&& body) {
  for (int k = 0; k < count; ++k) {
    const MeshPair& pair = pairs[static_cast<std::size_t>(k) % pairs.size()];
    const test::Motion m =
        test::random_motion(rng, *pair.first, *pair.second, k / static_cast<int>(pairs.size()), k % 4 == 0 ? 0.97 : 0);
    body(k, *pair.first, *pair.second, m);
  }
}

// The query with a test switch set to `value` (set(value)), the switch put back to `restore` after.
template <class Set, class Value>
ScrewResult answer_with(const Set& set, Value value, Value restore, const Mesh& a, const Mesh& b,
                        const test::Motion& m, const ScrewOptions& o) {
  set(value);
  ScrewResult r = screw_collisions(a, m.a0, m.a1, b, m.b0, m.b1, o);
  set(restore);
  return r;
}

// Every field of two answers the same, bit for bit (collisions in order, counts, status).
bool same_answers(const ScrewResult& x, const ScrewResult& y) {
  if (x.collisions.size() != y.collisions.size() || x.status != y.status || x.candidate_pairs != y.candidate_pairs ||
      x.iterations != y.iterations || x.contact != y.contact) {
    return false;
  }
  for (std::size_t i = 0; i < x.collisions.size(); ++i) {
    const Collision& p = x.collisions[i];
    const Collision& q = y.collisions[i];
    if (!(p.type == q.type && p.vertex == q.vertex && p.face == q.face && p.edge_a == q.edge_a &&
          p.edge_b == q.edge_b && p.time == q.time && p.point == q.point && p.normal == q.normal &&
          p.properness == q.properness)) {
      return false;
    }
  }
  return true;
}

TEST(ExactCullARuns, FirstContactIsTheSameWithoutTheRunsAndAShrunkCullIsCaught) {
  const std::uint64_t seed = 2617;
  std::mt19937_64 rng(seed);
  const CullMeshes meshes;
  const auto& [torus, fine, prism, car, box, big] = meshes;
  const std::array<MeshPair, 7> pairs = {
      {{&torus, &torus}, {&prism, &torus}, {&torus, &prism}, {&fine, &car}, {&car, &fine}, {&box, &fine}, {&big, &big}}};
  ScrewOptions first;
  first.first_contact_only = true;
  int contacts = 0, caught = 0;
  auto use_runs = [](detail::ARunsUse use) { detail::set_a_runs_use_for_tests(use); };
  for_each_motion(rng, pairs, 280, [&](int k, const Mesh& a, const Mesh& b, const test::Motion& m) {
    auto answer = [&](detail::ARunsUse use) { return answer_with(use_runs, use, detail::ARunsUse::used, a, b, m, first); };
    const ScrewResult without = answer(detail::ARunsUse::off);
    const ScrewResult with = answer(detail::ARunsUse::used);
    ASSERT_TRUE(same_answers(with, without)) << "seed " << seed << " motion " << k;
    contacts += without.contact ? 1 : 0;
    caught += same_answers(answer(detail::ARunsUse::shrunk), without) ? 0 : 1;
  });
  EXPECT_GT(contacts, 180);  // 226
  EXPECT_GT(caught, 5) << "halving the runs' radii must lose pairs on these motions";  // 11
}

// The first-contact slab loop's window (screw_collisions.cpp, narrow_to_first): once the slab that
// ends the query has collisions, the loops after them cull their pairs on the slab's start up to
// just past the earliest. On the meshes of the runs' test, and also with B's features in few runs,
// the answers are those of culling on the whole slab: every field of every collision, contact,
// time of impact and status (only the counts of pairs searched and of iterations may fall). The
// same with a window that ends halfway to the earliest collision found (too short) must change
// some answer, or these motions would not show the window sound.
bool same_collisions(const ScrewResult& x, const ScrewResult& y) {
  ScrewResult a = x;
  a.candidate_pairs = y.candidate_pairs;
  a.iterations = y.iterations;
  return same_answers(a, y) && (x.toi == y.toi || (std::isnan(x.toi) && std::isnan(y.toi)));
}

TEST(ExactFirstWindow, SameCollisionsAsCullingOnTheWholeSlabAndAnEarlyWindowIsCaught) {
  const std::uint64_t seed = 4421;
  std::mt19937_64 rng(seed);
  const CullMeshes meshes;
  const auto& [torus, fine, prism, car, box, big] = meshes;
  const std::array<MeshPair, 8> pairs = {{{&torus, &torus},
                                                                     {&prism, &torus},
                                                                     {&torus, &prism},
                                                                     {&fine, &car},
                                                                     {&car, &fine},
                                                                     {&box, &fine},
                                                                     {&big, &big},
                                                                     {&car, &car}}};
  ScrewOptions first;
  first.first_contact_only = true;
  int contacts = 0, caught = 0;
  long pairs_narrowed = 0, pairs_slab = 0;
  auto set_window = [](detail::FirstWindow window) { detail::set_first_window_for_tests(window); };
  for_each_motion(rng, pairs, 320, [&](int k, const Mesh& a, const Mesh& b, const test::Motion& m) {
    auto answer = [&](detail::FirstWindow window) {
      return answer_with(set_window, window, detail::FirstWindow::narrowed, a, b, m, first);
    };
    const ScrewResult slab = answer(detail::FirstWindow::slab);
    const ScrewResult narrowed = answer(detail::FirstWindow::narrowed);
    ASSERT_TRUE(same_collisions(narrowed, slab)) << "seed " << seed << " motion " << k;
    ASSERT_LE(narrowed.candidate_pairs, slab.candidate_pairs) << "seed " << seed << " motion " << k;
    pairs_narrowed += narrowed.candidate_pairs;
    pairs_slab += slab.candidate_pairs;
    contacts += slab.contact ? 1 : 0;
    caught += same_collisions(answer(detail::FirstWindow::early), slab) ? 0 : 1;
  });
  EXPECT_GT(contacts, 200);  // 251
  EXPECT_LT(pairs_narrowed, pairs_slab) << "the window must cull some pairs on these motions";  // 9,299 of 11,510
  EXPECT_GT(caught, 5) << "a window ending before the first contact must lose collisions on these motions";  // 52
}

// B's placed edge spheres made only for the runs the slab loop reaches, the slab count taken from
// B's mean edge in its own frame where that decides it (screw_collisions.cpp, slabs_for): every
// answer, all collisions and first contact, bit for bit as with all of B's edges placed up front
// and the count from their mean (a different count changes the pair and iteration counts at least).
TEST(ExactBEdgesLater, SameAnswersAsPlacingEveryEdgeUpFront) {
  const std::uint64_t seed = 5113;
  std::mt19937_64 rng(seed);
  const CullMeshes meshes;
  const auto& [torus, fine, prism, car, box, big] = meshes;
  const Mesh tetra = mesh::make_box(Vec3(1e-3, 2e-3, 3e-3));
  const std::array<MeshPair, 8> pairs = {{{&torus, &torus},
                                                                     {&prism, &torus},
                                                                     {&fine, &car},
                                                                     {&car, &fine},
                                                                     {&box, &fine},
                                                                     {&big, &big},
                                                                     {&car, &car},
                                                                     {&tetra, &box}}};
  int collisions = 0;
  auto edges_later = [](bool later) { detail::set_b_edges_later_for_tests(later); };
  for_each_motion(rng, pairs, 160, [&](int k, const Mesh& a, const Mesh& b, const test::Motion& m) {
    ScrewOptions o;
    o.first_contact_only = k % 2 == 1;
    const ScrewResult up_front = answer_with(edges_later, false, true, a, b, m, o);
    const ScrewResult later = answer_with(edges_later, true, true, a, b, m, o);
    ASSERT_TRUE(same_answers(up_front, later)) << "seed " << seed << " motion " << k;
    collisions += static_cast<int>(up_front.collisions.size());
  });
  EXPECT_GT(collisions, 100);  // the sample holds collisions to compare
}

// B's vertices placed at the slab (or window) middle run by run of kChunk vertices as the slab
// loop's runs of vertices and edges need them (screw_collisions.cpp, place_b): every answer, all
// collisions and first contact (whose window moves the middle within the slab), bit for bit as
// with all of them placed at the first need. B has many runs of vertices here (the tori, 300 and
// 960 vertices), and few (the box, the L-prism). (By hand: with the window's narrowing leaving the
// runs' placement stamps as they were, so that runs keep the slab middle's vertices, it fails.)
TEST(ExactBVerticesByRun, SameAnswersAsPlacingEveryVertexAtOnce) {
  const std::uint64_t seed = 6121;
  std::mt19937_64 rng(seed);
  const CullMeshes meshes;
  const auto& [torus, fine, prism, car, box, big] = meshes;
  const std::array<MeshPair, 7> pairs = {
      {{&torus, &torus}, {&prism, &torus}, {&torus, &prism}, {&car, &fine}, {&box, &fine}, {&fine, &box}, {&big, &big}}};
  int collisions = 0, contacts = 0;
  auto by_run = [](bool on) { detail::set_b_vertices_by_run_for_tests(on); };
  for_each_motion(rng, pairs, 210, [&](int k, const Mesh& a, const Mesh& b, const test::Motion& m) {
    ScrewOptions o;
    o.first_contact_only = k % 3 != 0;
    const ScrewResult at_once = answer_with(by_run, false, true, a, b, m, o);
    const ScrewResult run_by_run = answer_with(by_run, true, true, a, b, m, o);
    ASSERT_TRUE(same_answers(at_once, run_by_run)) << "seed " << seed << " motion " << k;
    ASSERT_TRUE(at_once.toi == run_by_run.toi || (std::isnan(at_once.toi) && std::isnan(run_by_run.toi)))
        << "seed " << seed << " motion " << k;
    collisions += static_cast<int>(at_once.collisions.size());
    contacts += at_once.contact && o.first_contact_only ? 1 : 0;
  });
  EXPECT_GT(collisions, 100);  // the sample holds collisions to compare
  EXPECT_GT(contacts, 50);     // and first contacts
}

// The exact mode swaps the bodies' roles when B has far more features than A (screw_collisions.cpp,
// kExactSwapFeatureRatio: the small body's features walked against the large one's grids) and
// turns the collisions back. Against the same queries without the swap: the same collisions in the
// same order (kind, vertex, face and edge ids, the screw bit for bit), times within 1e-11 of the
// step, points within 1e-11 of the bodies' scale, normals within 1e-11 and properness within
// 1e-11; the same contact, status and time of impact. Pairs both ways round, so both the swapped
// and the kept roles are compared, and the L-prism / torus pairs of the bench (38 against 1,200
// features) swap. 454 collisions (EE 257, VF 73, FV 124); 128 of the 180 answers differ from the
// unswapped ones in some bit or count, so the swap ran. (By hand:
// with the normal not negated, it fails at motion 2.)
TEST(ExactSwap, SmallABigBGivesTheUnswappedCollisions) {
  const std::uint64_t seed = 7411;
  std::mt19937_64 rng(seed);
  const CullMeshes meshes;
  const auto& [torus, fine, prism, car, box, big] = meshes;
  const std::array<MeshPair, 6> pairs = {
      {{&prism, &torus}, {&torus, &prism}, {&box, &fine}, {&car, &fine}, {&prism, &fine}, {&box, &torus}}};
  int collisions = 0, swapped = 0, edge_edge = 0, vertex_face = 0, face_vertex = 0;
  auto allow = [](bool on) { detail::set_exact_swap_for_tests(on); };
  for_each_motion(rng, pairs, 180, [&](int k, const Mesh& a, const Mesh& b, const test::Motion& m) {
    ScrewOptions o;
    o.first_contact_only = k % 3 == 2;
    const ScrewResult kept = answer_with(allow, false, true, a, b, m, o);
    const ScrewResult maybe = answer_with(allow, true, true, a, b, m, o);
    const double scale = a.bounding_sphere().radius + b.bounding_sphere().radius;
    const std::string where = "seed " + std::to_string(seed) + " motion " + std::to_string(k);
    ASSERT_EQ(kept.collisions.size(), maybe.collisions.size()) << where;
    ASSERT_EQ(kept.contact, maybe.contact) << where;
    ASSERT_EQ(kept.status, maybe.status) << where;
    ASSERT_TRUE(kept.screw.axis == maybe.screw.axis && kept.screw.axis_point == maybe.screw.axis_point &&
                kept.screw.angle == maybe.screw.angle && kept.screw.glide == maybe.screw.glide)
        << where;
    if (kept.contact) {
      ASSERT_NEAR(kept.toi, maybe.toi, 1e-11) << where;
      ASSERT_LE((kept.point - maybe.point).norm(), 1e-11 * scale) << where;
      ASSERT_LE((kept.normal - maybe.normal).norm(), 1e-11) << where;
    }
    for (std::size_t i = 0; i < kept.collisions.size(); ++i) {
      const Collision& p = kept.collisions[i];
      const Collision& q = maybe.collisions[i];
      ASSERT_TRUE(p.type == q.type && p.vertex == q.vertex && p.face == q.face && p.edge_a == q.edge_a &&
                  p.edge_b == q.edge_b)
          << where << " collision " << i;
      ASSERT_NEAR(p.time, q.time, 1e-11) << where << " collision " << i;
      ASSERT_LE((p.point - q.point).norm(), 1e-11 * scale) << where << " collision " << i;
      ASSERT_LE((p.normal - q.normal).norm(), 1e-11) << where << " collision " << i;
      ASSERT_NEAR(p.properness, q.properness, 1e-11) << where << " collision " << i;
      edge_edge += p.type == CollisionType::ee ? 1 : 0;
      vertex_face += p.type == CollisionType::vf ? 1 : 0;
      face_vertex += p.type == CollisionType::fv ? 1 : 0;
    }
    collisions += static_cast<int>(kept.collisions.size());
    // The swap ran where the answer differs in some bit or count.
    swapped += same_answers(kept, maybe) ? 0 : 1;
  });
  std::printf("ExactSwap: %d collisions (EE %d, VF %d, FV %d), %d answers differ (the swap ran)\n", collisions, edge_edge,
              vertex_face, face_vertex, swapped);
  // The sample holds collisions of every kind, and most queries with a small A took the swap.
  EXPECT_GT(edge_edge, 50);
  EXPECT_GT(vertex_face, 20);
  EXPECT_GT(face_vertex, 20);
  EXPECT_GT(collisions, 300);
  EXPECT_GT(swapped, 60) << "the swap must run on these pairs";
}

// The feature grids' AVX2 sphere tests (four at a time, where the processor has AVX2) decide as
// their SSE2 loop: every answer, all collisions and first contact, bit for bit.
TEST(ExactGridAvx2, SameAnswersAsTheSse2Loop) {
  if (!detail::grid_avx2_available()) GTEST_SKIP() << "no AVX2 here: only the SSE2 loop runs";
  const std::uint64_t seed = 3203;
  std::mt19937_64 rng(seed);
  const CullMeshes meshes;
  const auto& [torus, fine, prism, car, box, big] = meshes;
  const std::array<MeshPair, 6> pairs = {
      {{&torus, &torus}, {&prism, &torus}, {&fine, &car}, {&car, &fine}, {&box, &fine}, {&car, &car}}};
  int collisions = 0;
  auto use_avx2 = [](bool avx2) { detail::set_grid_avx2_for_tests(avx2); };
  for_each_motion(rng, pairs, 60, [&](int k, const Mesh& a, const Mesh& b, const test::Motion& m) {
    ScrewOptions o;
    o.first_contact_only = k % 2 == 1;
    const ScrewResult sse2 = answer_with(use_avx2, false, true, a, b, m, o);
    const ScrewResult avx2 = answer_with(use_avx2, true, true, a, b, m, o);
    ASSERT_TRUE(same_answers(sse2, avx2)) << "seed " << seed << " motion " << k;
    collisions += static_cast<int>(sse2.collisions.size());
  });
  EXPECT_GT(collisions, 100);  // the sample holds collisions to compare
}

// The set-up's AVX2 growths (src/ccd/screw_collisions.cpp, growths_avx2: four features' growths
// at a time) against their scalar form on seeded motions of every test mesh as B, every growth bit
// for bit. (By hand: with the squares summed in another order, this test fails.)
TEST(ExactGridAvx2, SetUpLoopsMatchTheScalarOnes) {
  if (!detail::grid_avx2_available()) GTEST_SKIP() << "no AVX2 here: only the scalar loops run";
  const std::uint64_t seed = 5309;
  std::mt19937_64 rng(seed);
  const CullMeshes meshes;
  const auto& [torus, fine, prism, car, box, big] = meshes;
  const std::array<MeshPair, 6> pairs = {
      {{&torus, &torus}, {&car, &fine}, {&torus, &prism}, {&prism, &car}, {&fine, &box}, {&big, &big}}};
  int compared = 0;
  for_each_motion(rng, pairs, 60, [&](int k, const Mesh&, const Mesh& b, const test::Motion& m) {
    int n = 0;
    EXPECT_EQ(detail::exact_setup_avx2_mismatches(m.a0, m.a1, b, m.b0, m.b1, n), 0) << "seed " << seed << " motion " << k;
    compared += n;
  });
  EXPECT_GT(compared, 50000);  // growths were compared
}

// The AVX2 grid path also drops, four of A's edges at a time, the edge-edge hits that fail the
// point test or the properness bound (src/ccd/screw_collisions.cpp, EdgeFilterAvx2); the SSE2 path
// leaves both to the scalar tests. At thresholds from -1 (nothing improper) to 0.5, with open
// meshes (edges with one face), all collisions and first contact: every answer bit for bit the
// same. (By hand: with the filter's threshold moved by 0.02, or its second or third term's sign
// wrong, this test fails.)
TEST(ExactGridAvx2, EdgeFilterKeepsTheAnswersAtEveryThreshold) {
  if (!detail::grid_avx2_available()) GTEST_SKIP() << "no AVX2 here: only the SSE2 loop runs";
  const std::uint64_t seed = 4127;
  std::mt19937_64 rng(seed);
  // A torus and a box with a face left out (open: the edges around the hole have one face).
  auto open_copy = [](const Mesh& m, int skip) {
    std::vector<std::vector<int>> faces;
    for (int f = 0; f < m.num_faces(); ++f) {
      if (f % skip == 0) continue;
      const std::span<const int> ids = m.face(f);
      faces.emplace_back(ids.begin(), ids.end());
    }
    mesh::MeshOptions open;
    open.allow_open = true;
    return Mesh::from_faces(m.vertices(), faces, open);
  };
  const Mesh torus = mesh::make_torus(1, 0.3), car = mesh::make_car();
  const Mesh open_torus = open_copy(torus, 7), open_box = open_copy(mesh::make_box(Vec3(0.4, 0.6, 0.8)), 6);
  const std::array<MeshPair, 5> pairs = {
      {{&torus, &torus}, {&open_torus, &torus}, {&torus, &open_torus}, {&open_box, &car}, {&car, &open_box}}};
  const std::array<double, 5> thresholds = {-1, -0.5, -0.1, 0.1, 0.5};
  int collisions = 0, pairs_solved = 0;
  auto use_avx2 = [](bool avx2) { detail::set_grid_avx2_for_tests(avx2); };
  for_each_motion(rng, pairs, 50, [&](int k, const Mesh& a, const Mesh& b, const test::Motion& m) {
    ScrewOptions o;
    o.first_contact_only = k % 3 == 2;
    o.properness_threshold = thresholds[static_cast<std::size_t>(k / 3) % thresholds.size()];
    const ScrewResult sse2 = answer_with(use_avx2, false, true, a, b, m, o);
    const ScrewResult avx2 = answer_with(use_avx2, true, true, a, b, m, o);
    ASSERT_TRUE(same_answers(sse2, avx2)) << "seed " << seed << " motion " << k;
    collisions += static_cast<int>(sse2.collisions.size());
    pairs_solved += sse2.candidate_pairs;
  });
  EXPECT_GT(collisions, 200);    // the sample holds collisions to compare
  EXPECT_GT(pairs_solved, 2000);  // and pairs that reached the solver
}

}  // namespace
}  // namespace proxima::ccd
