// SPDX-License-Identifier: MIT
// One hash over every field of every GJK/EPA answer on the benchmark's seeded inputs, to prove a
// change bit-identical: polytope sets N = 4..1024 and the primitive rows, seeds 1-3; distance
// (plain, Nesterov, closed forms off), intersect and penetration (EPA) on every pair, cold
// WarmStart per query. Build and run with bench/tools/gjk_answer_hash.sh (docs/benchmarks.md).
//   gjk_answer_hash     prints "values=<count> hash=<fnv-1a 64>" and one line per case
#include "fnv_hasher.hpp"
#include "inputs.hpp"
#include <proxima/gjk/distance.hpp>
#include <proxima/gjk/epa.hpp>
#include <proxima/gjk/intersect.hpp>
#include <proxima/shapes/box.hpp>
#include <proxima/shapes/capsule.hpp>
#include <proxima/shapes/cone.hpp>
#include <proxima/shapes/cylinder.hpp>
#include <proxima/shapes/ellipsoid.hpp>
#include <proxima/shapes/polytope.hpp>
#include <proxima/shapes/sphere.hpp>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <variant>
#include <vector>
using namespace proxima;
using namespace proxima::bench;

namespace {

struct Hasher : FnvHasher {
  using FnvHasher::add;
  void add(const DistanceResult& r) {
    add(r.distance); add(r.intersect); add(r.point_a); add(r.point_b); add(r.normal); add(r.gap);
    add(r.iterations); add(static_cast<int>(r.status)); add(static_cast<int>(r.detail));
  }
  void add(const IntersectResult& r) {
    add(r.intersect); add(r.separating_axis); add(r.iterations); add(static_cast<int>(r.status));
    add(static_cast<int>(r.detail));
  }
  void add(const PenetrationResult& r) {
    add(r.intersect); add(r.depth); add(r.normal); add(r.point_a); add(r.point_b); add(r.iterations);
    add(static_cast<int>(r.status)); add(static_cast<int>(r.detail));
  }
};

Pose to_pose(const Placement& p) {
  const auto& q = p.quaternion;
  return Pose::from_quaternion(q.w(), q.x(), q.y(), q.z(), p.translation);
}

template <class A, class B>
void hash_pair(Hasher& h, gjk::EpaHull& hull, const A& a, const Pose& pa, const B& b, const Pose& pb) {
  h.add(gjk::distance(a, pa, b, pb));
  h.add(gjk::distance(a, pa, b, pb, gjk::GjkOptions{.nesterov = true}));
  h.add(gjk::distance(a, pa, b, pb, gjk::GjkOptions{.closed_forms = false}));
  h.add(gjk::intersect(a, pa, b, pb));
  gjk::WarmStart warm;
  h.add(gjk::penetration(a, pa, b, pb, gjk::EpaOptions{}, warm, hull));
}

using Shape = std::variant<Box, Sphere, Capsule, Cylinder, Cone, Ellipsoid>;

Shape make_shape(const Body& body) {
  const Vec3& s = body.size;
  switch (body.kind) {
    case ShapeKind::box: return Box(s);
    case ShapeKind::sphere: return Sphere(s.x());
    case ShapeKind::capsule: return Capsule(s.x(), s.y());
    case ShapeKind::cylinder: return Cylinder(s.x(), s.y());
    case ShapeKind::cone: return Cone(s.x(), s.y());
    default: return Ellipsoid(s);
  }
}

}  // namespace

int main() {
  Hasher total;
  auto hull = std::make_unique<gjk::EpaHull>();
  for (std::uint64_t seed = 1; seed <= 3; ++seed) {
    for (int n : {4, 8, 16, 32, 64, 128, 256, 1024}) {
      Hasher h;
      const CaseSet set = make_polytope_set(n, n == 1024 ? 64 : 256, seed);
      for (const auto& pc : set.pairs) {
        const auto& va = set.bodies[static_cast<std::size_t>(pc.body_a)].hull.vertices;
        const auto& vb = set.bodies[static_cast<std::size_t>(pc.body_b)].hull.vertices;
        const Polytope a{std::span<const Vec3>(va.data(), va.size())};
        const Polytope b{std::span<const Vec3>(vb.data(), vb.size())};
        hash_pair(h, *hull, a, to_pose(pc.pose_a), b, to_pose(pc.pose_b));
        for (int i = 0; i < 20; ++i) {  // supports on a fixed spread of directions
          const Vec3 d(std::cos(0.7 * i) * std::sin(1.3 * i + 0.1), std::sin(0.7 * i) * std::sin(1.3 * i + 0.1),
                       std::cos(1.3 * i + 0.1));
          h.add(a.scan(d));
          h.add(a.support_index(d));
        }
      }
      std::printf("seed=%llu polytopes N=%d values=%ld hash=%016llx\n", static_cast<unsigned long long>(seed), n,
                  h.values, static_cast<unsigned long long>(h.h));
      total.add(static_cast<double>(h.h)); total.bytes(&h.h, sizeof h.h); total.values += h.values - 1;
    }
    for (const char* row : {"box-box", "sphere-box", "capsule-capsule", "cylinder-cone", "ellipsoid-ellipsoid"}) {
      Hasher h;
      const CaseSet set = make_primitive_set(row, 256, seed);
      for (const auto& pc : set.pairs) {
        const Shape a = make_shape(set.bodies[static_cast<std::size_t>(pc.body_a)]);
        const Shape b = make_shape(set.bodies[static_cast<std::size_t>(pc.body_b)]);
        std::visit([&](const auto& sa, const auto& sb) { hash_pair(h, *hull, sa, to_pose(pc.pose_a), sb, to_pose(pc.pose_b)); },
                   a, b);
      }
      std::printf("seed=%llu %s values=%ld hash=%016llx\n", static_cast<unsigned long long>(seed), row, h.values,
                  static_cast<unsigned long long>(h.h));
      total.add(static_cast<double>(h.h)); total.bytes(&h.h, sizeof h.h); total.values += h.values - 1;
    }
  }
  std::printf("values=%ld hash=%016llx\n", total.values, static_cast<unsigned long long>(total.h));
}
