// SPDX-License-Identifier: MIT
// Thread safety and determinism of every query kind on shared const shapes. Each test runs one
// family of queries from 4 std::threads at once on the same shape objects:
//  - gjk::distance / intersect / penetration on Polytope, Box, Sphere, Capsule, Superquadric and
//    AnyConvex (every ordered pair), and query:: on the same shapes as AnyConvex;
//  - gjk::Pair: one pair object per thread per case (a Pair is not shareable), moved once so the
//    warm start is exercised;
//  - lp::intersect, lp::contains and lp::distance (1-norm, inf-norm) on shared point sets;
//  - ipm::distance_report on the shared preset objects of seed 001;
//  - ccd::screw_collisions on shared meshes, ccd::toi_translate and ccd::toi_screw on the shared
//    convex shapes;
//  - the batch API (proxima/batch/batch.hpp), itself multi-threaded, called from 4 threads at once.
// Oracle: a single-threaded reference computed first; every thread's answers must equal it bit for
// bit (all doubles compared as bit patterns, plus the integer and enum fields). Each family checks
// that its sample holds both answers (hit and miss). Run under ThreadSanitizer by
// tools/sanitize.sh --thread, which also reports any data race the comparison itself could miss.
#include "support/draws.hpp"

#include <proxima/batch/batch.hpp>
#include <proxima/ccd/screw_collisions.hpp>
#include <proxima/ccd/toi.hpp>
#include <proxima/gjk/epa.hpp>
#include <proxima/gjk/intersect.hpp>
#include <proxima/gjk/pair.hpp>
#include <proxima/ipm/distance.hpp>
#include <proxima/ipm/presets.hpp>
#include <proxima/lp/contains.hpp>
#include <proxima/lp/distance.hpp>
#include <proxima/lp/intersect.hpp>
#include <proxima/mesh/generators.hpp>
#include <proxima/query/query.hpp>
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
  for (int i = 0; i < 40; ++i) points.push_back(Vec3{0.6 * g(rng), 0.4 * g(rng), 0.5 * g(rng)});
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
        const Vec3 ta{u(rng), u(rng), u(rng)};
        // Offsets up to about two shape radii give a mix of overlapping and separated pairs.
        const Vec3 offset = Vec3{u(rng), u(rng), u(rng)} * 1.6;
        cases.push_back({a, b, proxima::test::draw_euler_pose(angle, rng, ta),
                         proxima::test::draw_euler_pose(angle, rng, ta + offset)});
      }
    }
  }
  return cases;
}

void put(Record& r, const DistanceResult& d) {
  put(r, d.distance);
  put_int(r, d.intersect);
  put(r, d.point_a);
  put(r, d.point_b);
  put(r, d.normal);
  put(r, d.gap);
  put_int(r, d.iterations);
  put_int(r, static_cast<int>(d.status));
  put_int(r, static_cast<int>(d.detail));
}
void put(Record& r, const IntersectResult& i) {
  put_int(r, i.intersect);
  put(r, i.separating_axis);
  put_int(r, i.iterations);
  put_int(r, static_cast<int>(i.status));
  put_int(r, static_cast<int>(i.detail));
}
void put(Record& r, const PenetrationResult& p) {
  put_int(r, p.intersect);
  put(r, p.depth);
  put(r, p.normal);
  put(r, p.point_a);
  put(r, p.point_b);
  put_int(r, p.iterations);
  put_int(r, static_cast<int>(p.status));
  put_int(r, static_cast<int>(p.detail));
}
void put(Record& r, const ToiResult& t) {
  put_int(r, t.contact);
  put(r, t.toi);
  put(r, t.point);
  put(r, t.normal);
  put_int(r, t.iterations);
  put_int(r, static_cast<int>(t.status));
  put_int(r, static_cast<int>(t.detail));
}

Record run_gjk_case(const GjkCase& c) {
  Record r;
  with_shape(c.a, [&](const auto& a) {
    with_shape(c.b, [&](const auto& b) {
      put(r, gjk::distance(a, c.pose_a, b, c.pose_b));
      put(r, gjk::intersect(a, c.pose_a, b, c.pose_b));
      put(r, gjk::penetration(a, c.pose_a, b, c.pose_b));
    });
  });
  return r;
}

// The shared shapes behind the runtime interface, for query:: and the batch API.
const std::vector<AnyConvex>& shared_any() {
  static const std::vector<AnyConvex> any = [] {
    std::vector<AnyConvex> v;
    for (int k = 0; k < kShapeKinds; ++k) with_shape(k, [&](const auto& s) { v.emplace_back(s); });
    return v;
  }();
  return any;
}

Record run_query_case(const GjkCase& c) {
  const std::vector<AnyConvex>& any = shared_any();
  const AnyConvex& a = any[static_cast<std::size_t>(c.a)];
  const AnyConvex& b = any[static_cast<std::size_t>(c.b)];
  Record r;
  put(r, query::distance(a, c.pose_a, b, c.pose_b));
  put(r, query::intersect(a, c.pose_a, b, c.pose_b));
  put(r, query::penetration(a, c.pose_a, b, c.pose_b));
  return r;
}

// A Pair is not shareable: each call builds its own (copying the shared shapes) and moves it once,
// so the second round of queries runs warm-started from the first.
Record run_pair_case(const GjkCase& c) {
  Record r;
  with_shape(c.a, [&](const auto& a) {
    with_shape(c.b, [&](const auto& b) {
      gjk::Pair pair(a, b, c.pose_a, c.pose_b);
      put(r, pair.collide());
      put(r, pair.distance());
      put(r, pair.penetration());
      pair.set_pose_b(Pose::from_translation(Vec3(0.05, -0.03, 0.02)) * c.pose_b);
      put(r, pair.penetration());
      put(r, pair.distance());
      put(r, pair.collide());
    });
  });
  return r;
}

// Time of impact on the shared shapes: B moves towards A's start by its offset (translation) and
// along a short screw (rotation well below pi).
Record run_toi_case(const GjkCase& c) {
  Record r;
  with_shape(c.a, [&](const auto& a) {
    with_shape(c.b, [&](const auto& b) {
      const Vec3 offset = c.pose_b.translation() - c.pose_a.translation();
      // Half the cases close in on A, the others slide sideways: both answers occur.
      const Vec3 velocity_b = offset.z() > 0 ? Vec3(-1.5 * offset) : Vec3(offset.cross(Vec3::UnitZ()));
      put(r, ccd::toi_translate(a, c.pose_a, Vec3(0.1, 0, 0), b, c.pose_b, velocity_b, 1.0));
      const Pose b_end = Pose::from_euler_xyz(0.4, -0.3, 0.2, -offset) * c.pose_b;
      put(r, ccd::toi_screw(a, c.pose_a, c.pose_a, b, c.pose_b, b_end));
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
  // Containment of a shrunken copy of B in B (true) and of A in B (mostly false).
  const Eigen::VectorXd centre = c.b.rowwise().mean();
  const Eigen::MatrixXd inner = (0.5 * (c.b.colwise() - centre)).colwise() + centre;
  for (const Eigen::MatrixXd* a : {&inner, &c.a}) {
    const lp::LpContainsResult k = lp::contains(*a, c.b);
    put_int(r, k.contains);
    put_int(r, k.outside_vertex);
    put(r, k.separating_normal);
    put(r, k.separating_offset);
    put(r, k.margin);
    put_int(r, k.points_checked);
    put_int(r, k.iterations);
    put_int(r, static_cast<int>(k.status));
  }
  for (const lp::DistanceNorm norm : {lp::DistanceNorm::l1, lp::DistanceNorm::linf}) {
    const lp::LpDistanceResult d = lp::distance(c.a, c.b, norm);
    put(r, d.distance);
    put(r, d.lower_bound);
    put(r, d.point_a);
    put(r, d.point_b);
    put(r, d.dual_direction);
    put_int(r, d.iterations);
    put_int(r, static_cast<int>(d.status));
  }
  return r;
}

// ipm: the six preset objects of seed 001, shared, at seeded poses.
const std::vector<ipm::Object>& shared_objects() {
  static const std::vector<ipm::Object> objects = [] {
    std::vector<ipm::Object> v;
    for (std::string_view name : ipm::kPresetNames) v.push_back(ipm::preset(name));
    return v;
  }();
  return objects;
}

struct IpmCase {
  int a = 0;
  int b = 0;
  Pose pose_a;
  Pose pose_b;
};

std::vector<IpmCase> ipm_cases() {
  std::mt19937_64 rng(kSeed + 3);
  std::uniform_real_distribution<double> angle(-3.14, 3.14);
  std::uniform_real_distribution<double> u(-1, 1);
  std::vector<IpmCase> cases;
  const int n = static_cast<int>(ipm::kPresetNames.size());
  for (int a = 0; a < n; ++a) {
    for (int b = 0; b < n; ++b) {
      for (int k = 0; k < 3; ++k) {
        const Vec3 offset = Vec3{u(rng), u(rng), u(rng)} * 3.0;
        cases.push_back({a, b, proxima::test::draw_euler_pose(angle, rng),
                         proxima::test::draw_euler_pose(angle, rng, offset)});
      }
    }
  }
  return cases;
}

Record run_ipm_case(const IpmCase& c) {
  const std::vector<ipm::Object>& objects = shared_objects();
  const ipm::DistanceReport d = ipm::distance_report(objects[static_cast<std::size_t>(c.a)], c.pose_a,
                                                     objects[static_cast<std::size_t>(c.b)], c.pose_b);
  Record r;
  put(r, d.result);
  put(r, d.complementarity);
  put(r, d.kkt_residual);
  return r;
}

// ccd::screw_collisions: shared meshes (box, tetrahedron, the non-convex car), B sliding and
// turning past or into A.
const std::vector<mesh::Mesh>& shared_meshes() {
  static const std::vector<mesh::Mesh> meshes = {mesh::make_box(Vec3(0.5, 0.4, 0.3)), mesh::make_tetrahedron(0.7),
                                                 mesh::make_car(0.3)};
  return meshes;
}

struct ScrewCase {
  int a = 0;
  int b = 0;
  Pose b_start;
  Pose b_end;
};

std::vector<ScrewCase> screw_cases() {
  std::mt19937_64 rng(kSeed + 4);
  std::uniform_real_distribution<double> u(-1, 1);
  std::vector<ScrewCase> cases;
  for (int a = 0; a < 3; ++a) {
    for (int b = 0; b < 3; ++b) {
      for (int k = 0; k < 4; ++k) {
        const Vec3 start{2.5, u(rng), u(rng)};
        const Vec3 end{-2.5, u(rng), u(rng)};
        // Rotations of at most 1.5 rad each keep the relative turn below pi (decompose's limit).
        const Vec3 turn_start = 0.5 * proxima::test::draw_vec3(u, rng);
        const Vec3 turn_end = 0.5 * proxima::test::draw_vec3(u, rng);
        cases.push_back({a, b, Pose::from_euler_xyz(turn_start.x(), turn_start.y(), turn_start.z(), start),
                         Pose::from_euler_xyz(turn_end.x(), turn_end.y(), turn_end.z(), end)});
      }
    }
  }
  return cases;
}

Record run_screw_case(const ScrewCase& c) {
  const std::vector<mesh::Mesh>& meshes = shared_meshes();
  const ccd::ScrewResult s = ccd::screw_collisions(meshes[static_cast<std::size_t>(c.a)], Pose(), Pose(),
                                                   meshes[static_cast<std::size_t>(c.b)], c.b_start, c.b_end);
  Record r;
  put_int(r, s.contact);
  put(r, s.toi);
  put(r, s.point);
  put(r, s.normal);
  put_int(r, static_cast<long long>(s.collisions.size()));
  for (const ccd::Collision& k : s.collisions) {
    put_int(r, static_cast<int>(k.type));
    put_int(r, k.vertex);
    put_int(r, k.face);
    put_int(r, k.edge_a);
    put_int(r, k.edge_b);
    put(r, k.time);
    put(r, k.point);
    put(r, k.normal);
    put(r, k.properness);
  }
  put_int(r, s.candidate_pairs);
  put_int(r, s.iterations);
  put_int(r, static_cast<int>(s.status));
  return r;
}

// The batch API on slices of the gjk cases: shape and pose arrays shared by every caller.
struct BatchInputs {
  std::vector<AnyConvex> a, b;
  std::vector<Pose> pose_a, pose_b;
};

const BatchInputs& shared_batch_inputs() {
  static const BatchInputs inputs = [] {
    BatchInputs in;
    for (const GjkCase& c : gjk_cases()) {
      in.a.push_back(shared_any()[static_cast<std::size_t>(c.a)]);
      in.b.push_back(shared_any()[static_cast<std::size_t>(c.b)]);
      in.pose_a.push_back(c.pose_a);
      in.pose_b.push_back(c.pose_b);
    }
    return in;
  }();
  return inputs;
}

struct Slice {
  std::size_t begin = 0;
  std::size_t count = 0;
};

std::vector<Slice> batch_slices() {
  const std::size_t n = shared_batch_inputs().a.size();
  std::vector<Slice> slices;
  for (std::size_t k = 0; k < 8; ++k) slices.push_back({k * n / 8, (k + 1) * n / 8 - k * n / 8});
  return slices;
}

// Each batch call runs on its own pool of 2 threads, inside the 4 caller threads.
Record run_batch_slice(const Slice& s) {
  const BatchInputs& in = shared_batch_inputs();
  const std::span<const AnyConvex> a(in.a.data() + s.begin, s.count), b(in.b.data() + s.begin, s.count);
  const std::span<const Pose> pa(in.pose_a.data() + s.begin, s.count), pb(in.pose_b.data() + s.begin, s.count);
  batch::BatchOptions options;
  options.threads = 2;
  const batch::DistanceBatch d = batch::distance(a, pa, b, pb, options);
  const batch::IntersectBatch x = batch::intersect(a, pa, b, pb, options);
  const batch::PenetrationBatch p = batch::penetration(a, pa, b, pb, options);
  auto v3 = [](const std::vector<double>& v, std::size_t i) { return Vec3(v[3 * i], v[3 * i + 1], v[3 * i + 2]); };
  Record r;
  for (std::size_t i = 0; i < s.count; ++i) {
    DistanceResult dr;
    dr.distance = d.distance[i];
    dr.intersect = d.intersect[i] != 0;
    dr.point_a = v3(d.point_a, i);
    dr.point_b = v3(d.point_b, i);
    dr.normal = v3(d.normal, i);
    dr.gap = d.gap[i];
    dr.iterations = d.iterations[i];
    dr.status = static_cast<Status>(d.status[i]);
    dr.detail = static_cast<Detail>(d.detail[i]);
    put(r, dr);
    IntersectResult xr;
    xr.intersect = x.intersect[i] != 0;
    xr.separating_axis = v3(x.separating_axis, i);
    xr.iterations = x.iterations[i];
    xr.status = static_cast<Status>(x.status[i]);
    xr.detail = static_cast<Detail>(x.detail[i]);
    put(r, xr);
    PenetrationResult pr;
    pr.intersect = p.intersect[i] != 0;
    pr.depth = p.depth[i];
    pr.normal = v3(p.normal, i);
    pr.point_a = v3(p.point_a, i);
    pr.point_b = v3(p.point_b, i);
    pr.iterations = p.iterations[i];
    pr.status = static_cast<Status>(p.status[i]);
    pr.detail = static_cast<Detail>(p.detail[i]);
    put(r, pr);
  }
  return r;
}

// The batch's documented reference: the scalar functions, element by element, on one thread.
Record scalar_slice(const Slice& s) {
  const BatchInputs& in = shared_batch_inputs();
  Record r;
  for (std::size_t i = s.begin; i < s.begin + s.count; ++i) {
    put(r, batch::scalar_distance(in.a[i], in.pose_a[i], in.b[i], in.pose_b[i]));
    put(r, batch::scalar_intersect(in.a[i], in.pose_a[i], in.b[i], in.pose_b[i]));
    put(r, batch::scalar_penetration(in.a[i], in.pose_a[i], in.b[i], in.pose_b[i]));
  }
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

// Every thread's records must equal reference(cases[i]) computed first on this thread.
template <class Case, class Reference, class Run>
void expect_identical_to(const std::vector<Case>& cases, Reference reference_run, Run run, const char* what) {
  std::vector<Record> reference;
  for (const Case& c : cases) reference.push_back(reference_run(c));
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

template <class Case, class Run>
void expect_identical(const std::vector<Case>& cases, Run run, const char* what) {
  expect_identical_to(cases, run, run, what);
}

// The sample must hold both answers to be informative: between 10 % and 90 % hits.
template <class Case, class Hit>
void expect_mixed(const std::vector<Case>& cases, Hit hit, const char* what) {
  int hits = 0;
  for (const Case& c : cases) hits += hit(c) ? 1 : 0;
  EXPECT_GT(hits, static_cast<int>(cases.size()) / 10) << what << ", seed " << kSeed;
  EXPECT_LT(hits, static_cast<int>(cases.size()) * 9 / 10) << what << ", seed " << kSeed;
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

TEST(Concurrency, LpQueriesOnSharedPointSetsAreDeterministic) {
  const std::vector<LpCase> cases = lp_cases();
  int hits = 0;
  for (const LpCase& c : cases) hits += run_lp_case(c)[0] != 0 ? 1 : 0;
  EXPECT_GT(hits, static_cast<int>(cases.size()) / 5) << "seed " << kSeed;
  EXPECT_LT(hits, static_cast<int>(cases.size()) * 4 / 5) << "seed " << kSeed;
  expect_identical(cases, run_lp_case, "lp");
}

TEST(Concurrency, QueryOnSharedAnyConvexIsDeterministic) {
  const std::vector<GjkCase> cases = gjk_cases();
  expect_mixed(cases, [](const GjkCase& c) { return run_query_case(c)[1] != 0; }, "query");
  expect_identical(cases, run_query_case, "query");
}

TEST(Concurrency, OnePairPerThreadIsDeterministic) {
  const std::vector<GjkCase> cases = gjk_cases();
  expect_mixed(cases, [](const GjkCase& c) { return run_pair_case(c)[0] != 0; }, "pair");
  expect_identical(cases, run_pair_case, "pair");
}

TEST(Concurrency, TimeOfImpactOnSharedShapesIsDeterministic) {
  const std::vector<GjkCase> cases = gjk_cases();
  expect_mixed(cases, [](const GjkCase& c) { return run_toi_case(c)[0] != 0; }, "toi");
  expect_identical(cases, run_toi_case, "toi");
}

TEST(Concurrency, IpmDistanceOnSharedObjectsIsDeterministic) {
  const std::vector<IpmCase> cases = ipm_cases();
  expect_mixed(cases, [](const IpmCase& c) { return run_ipm_case(c)[1] != 0; }, "ipm");
  expect_identical(cases, run_ipm_case, "ipm");
}

TEST(Concurrency, ScrewCollisionsOnSharedMeshesAreDeterministic) {
  const std::vector<ScrewCase> cases = screw_cases();
  expect_mixed(cases, [](const ScrewCase& c) { return run_screw_case(c)[0] != 0; }, "screw");
  expect_identical(cases, run_screw_case, "screw");
}

// Batches called from 4 threads at once, each on its own pool of 2: every element equals the
// scalar reference computed on one thread.
TEST(Concurrency, BatchFromSeveralThreadsMatchesScalar) {
  const std::vector<Slice> slices = batch_slices();
  ASSERT_EQ(slices.back().begin + slices.back().count, shared_batch_inputs().a.size());
  expect_identical_to(slices, scalar_slice, run_batch_slice, "batch");
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
