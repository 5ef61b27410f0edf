// SPDX-License-Identifier: MIT
// libFuzzer target: every query kind on shapes and poses built from fuzzed numbers (finite or
// not; fuzz_numbers.hpp): query::distance / intersect / penetration on AnyConvex (every shape
// kind, rounded / affine / Minkowski / hull compounds), a gjk::Pair moved once (warm start),
// ccd::toi_translate and ccd::toi_screw, ipm::distance on implicit objects, and
// ccd::screw_collisions on box / tetrahedron meshes.
// Accepted outcome: InvalidInput from a constructor or a query's argument check. Findings: a
// crash, a hang, a sanitizer report, any other exception, or a result with status converged
// whose fields are not finite where the contract says they are (results.hpp):
//  - distance: distance >= 0 and finite, finite points, a finite normal when separated;
//  - intersect: a finite separating axis when separated;
//  - penetration: depth >= 0 and finite, finite normal and points;
//  - time of impact: toi in [0, t_max] with finite point and normal when in contact.
#include "fuzz_numbers.hpp"

#include <proxima/ccd/screw_collisions.hpp>
#include <proxima/ccd/toi.hpp>
#include <proxima/core/error.hpp>
#include <proxima/gjk/pair.hpp>
#include <proxima/ipm/distance.hpp>
#include <proxima/mesh/generators.hpp>
#include <proxima/query/query.hpp>
#include <proxima/shapes/any_convex.hpp>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace {

using namespace proxima;
using fuzz::number;
using fuzz::size;

[[noreturn]] void finding(const char* what) {
  std::fprintf(stderr, "fuzz_query finding: %s\n", what);
  std::abort();
}

Vec3 vec(FuzzedDataProvider& in) {
  const double x = number(in), y = number(in), z = number(in);
  return Vec3(x, y, z);
}

Pose pose(FuzzedDataProvider& in) {
  switch (in.ConsumeIntegralInRange<int>(0, 3)) {
    case 0: return Pose();
    case 1: return Pose::from_translation(vec(in));
    case 2: {
      const double ax = number(in), ay = number(in), az = number(in);
      return Pose::from_euler_xyz(ax, ay, az, vec(in));
    }
    default: {
      const double w = number(in), x = number(in), y = number(in), z = number(in);
      return Pose::from_quaternion(w, x, y, z, vec(in));
    }
  }
}

AnyConvex shape(FuzzedDataProvider& in, int depth) {
  const int kinds = depth < 2 ? 15 : 11;  // compounds only two levels deep
  switch (in.ConsumeIntegralInRange<int>(0, kinds - 1)) {
    case 0: return Point(vec(in));
    case 1: {
      const Vec3 a = vec(in);
      return Segment(a, vec(in));
    }
    case 2: {
      const Vec3 a = vec(in), b = vec(in);
      return Triangle(a, b, vec(in));
    }
    case 3: return Sphere(size(in));
    case 4: return Box(Vec3(size(in), size(in), size(in)));
    case 5: {
      const double r = size(in);
      return Capsule(r, size(in));
    }
    case 6: {
      const double r = size(in);
      return Cylinder(r, size(in));
    }
    case 7: {
      const double r = size(in);
      return Cone(r, size(in));
    }
    case 8: return Ellipsoid(Vec3(size(in), size(in), size(in)));
    case 9: {
      std::vector<Vec3> points(static_cast<std::size_t>(in.ConsumeIntegralInRange<int>(1, 12)));
      for (Vec3& p : points) p = vec(in);
      return Polytope(points);
    }
    case 10: {
      const Vec3 semiaxes(size(in), size(in), size(in));
      const Vec3 exponents(1 + std::fabs(number(in)), 1 + std::fabs(number(in)), 1 + std::fabs(number(in)));
      return Superquadric(semiaxes, in.ConsumeBool() ? exponents : vec(in));
    }
    case 11: {
      AnyConvex core = shape(in, depth + 1);
      return AnyConvex::rounded(std::move(core), size(in));
    }
    case 12: {
      AnyConvex s = shape(in, depth + 1);
      Mat3 m;
      for (int i = 0; i < 9; ++i) m(i / 3, i % 3) = number(in);
      return AnyConvex::affine(std::move(s), m, vec(in));
    }
    case 13: {
      AnyConvex a = shape(in, depth + 1);
      return AnyConvex::minkowski(std::move(a), shape(in, depth + 1));
    }
    default: {
      std::vector<AnyConvex> of;
      const int n = in.ConsumeIntegralInRange<int>(1, 3);
      for (int i = 0; i < n; ++i) of.push_back(shape(in, depth + 1));
      return AnyConvex::hull(std::move(of));
    }
  }
}

void check(const DistanceResult& r) {
  if (r.status != Status::converged) return;
  if (!std::isfinite(r.distance) || r.distance < 0) finding("distance: converged, distance not finite or negative");
  if (!r.point_a.allFinite() || !r.point_b.allFinite()) finding("distance: converged, non-finite closest points");
  if (!r.intersect && !r.normal.allFinite()) finding("distance: converged and separated, non-finite normal");
}

void check(const IntersectResult& r) {
  if (r.status != Status::converged) return;
  if (!r.intersect && !r.separating_axis.allFinite()) finding("intersect: converged and separated, non-finite axis");
}

void check(const PenetrationResult& r) {
  if (r.status != Status::converged) return;
  if (!std::isfinite(r.depth) || r.depth < 0) finding("penetration: converged, depth not finite or negative");
  if (!r.normal.allFinite()) finding("penetration: converged, non-finite normal");
  if (!r.point_a.allFinite() || !r.point_b.allFinite()) finding("penetration: converged, non-finite points");
}

void check(const ToiResult& r, double t_max) {
  if (r.status != Status::converged || !r.contact) return;
  if (!(r.toi >= 0 && r.toi <= t_max)) finding("toi: converged contact, toi outside [0, t_max]");
  if (!r.point.allFinite()) finding("toi: converged contact, non-finite point");
  // The normal is the last separated step's; shapes that already overlap at time 0 have none
  // (NaN, documented in ccd/toi.hpp).
  const bool overlap_at_start = r.toi == 0 && r.iterations == 1;
  if (!overlap_at_start && !r.normal.allFinite()) finding("toi: converged contact after a separated step, non-finite normal");
}

void gjk_queries(FuzzedDataProvider& in) {
  const AnyConvex a = shape(in, 0);
  const AnyConvex b = shape(in, 0);
  const Pose pa = pose(in), pb = pose(in);
  check(query::distance(a, pa, b, pb));
  check(query::intersect(a, pa, b, pb));
  check(query::penetration(a, pa, b, pb));
  gjk::Pair<AnyConvex, AnyConvex> pair(a, b, pa, pb);
  check(pair.collide());
  check(pair.distance());
  check(pair.penetration());
  pair.set_pose_b(pose(in));  // a second configuration: warm-started GJK
  check(pair.distance());
  check(pair.penetration());
  const Vec3 va = vec(in), vb = vec(in);
  const double t_max = std::fabs(number(in));
  check(ccd::toi_translate(a, pa, va, b, pb, vb, t_max), t_max);
  const Pose pa_end = pose(in), pb_end = pose(in);
  check(ccd::toi_screw(a, pa, pa_end, b, pb, pb_end), 1.0);
}

ipm::Object implicit(FuzzedDataProvider& in) {
  std::vector<ipm::Part> parts;
  const int n = in.ConsumeIntegralInRange<int>(1, 3);
  for (int i = 0; i < n; ++i) {
    switch (in.ConsumeIntegralInRange<int>(0, 2)) {
      case 0: parts.emplace_back(ipm::Quadric::ellipsoid(Vec3(size(in), size(in), size(in))), pose(in)); break;
      case 1: {
        const Vec3 semiaxes(size(in), size(in), size(in));
        const Vec3 exponents(1 + std::fabs(number(in)), 1 + std::fabs(number(in)), 1 + std::fabs(number(in)));
        parts.emplace_back(ipm::Superquadric(semiaxes, exponents), pose(in));
        break;
      }
      default: {
        const Vec3 normal = vec(in);
        parts.emplace_back(ipm::Halfspace(normal, number(in)));
        break;
      }
    }
  }
  return ipm::Object(std::move(parts));
}

void ipm_query(FuzzedDataProvider& in) {
  const ipm::Object a = implicit(in);
  const ipm::Object b = implicit(in);
  const Pose pa = pose(in), pb = pose(in);
  check(ipm::distance(a, pa, b, pb));
}

mesh::Mesh small_mesh(FuzzedDataProvider& in) {
  if (in.ConsumeBool()) return mesh::make_box(Vec3(size(in), size(in), size(in)));
  return mesh::make_tetrahedron(size(in));
}

void screw_query(FuzzedDataProvider& in) {
  const mesh::Mesh a = small_mesh(in);
  const mesh::Mesh b = small_mesh(in);
  const Pose a0 = pose(in), a1 = pose(in), b0 = pose(in), b1 = pose(in);
  const ccd::ScrewResult r = ccd::screw_collisions(a, a0, a1, b, b0, b1);
  if (r.status == Status::converged && r.contact) {
    if (!(r.toi >= 0 && r.toi <= 1)) finding("screw: converged contact, toi outside [0, 1]");
    if (!r.point.allFinite() || !r.normal.allFinite()) finding("screw: converged contact, non-finite point or normal");
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  FuzzedDataProvider in(data, size);
  try {
    switch (in.ConsumeIntegralInRange<int>(0, 3)) {
      case 0:
      case 1: gjk_queries(in); break;
      case 2: ipm_query(in); break;
      default: screw_query(in); break;
    }
  } catch (const InvalidInput&) {
    // refused with a message naming the field: the documented outcome
  }
  return 0;
}
