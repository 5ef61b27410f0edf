// SPDX-License-Identifier: MIT
#include "reference.hpp"

#include "../inputs.hpp"
#include "minkowski.hpp"
#include "support.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>

namespace proxima::bench {

/// Exact polytope distance (cgal_distance.cpp); false when CGAL is absent.
bool exact_polytope_distance(const std::vector<Vec3>& a, const std::vector<Vec3>& b, double& distance);

namespace {

std::vector<Vec3> world_vertices(const Body& body, const Placement& pose) {
  std::vector<Vec3> out;
  out.reserve(body.hull.vertices.size());
  for (const Vec3& v : body.hull.vertices) out.push_back(pose.rotation * v + pose.translation);
  return out;
}

bool is_hull(const Body& body) { return body.kind == ShapeKind::polytope || body.kind == ShapeKind::box; }

/// Distance between two segments p0p1 and q0q1: golden-section search on the parameter of the
/// first (the point-to-segment distance along it is convex), closed form for the second.
double segment_distance(const Vec3& p0, const Vec3& p1, const Vec3& q0, const Vec3& q1) {
  const auto point_segment = [&](double s) {
    const Vec3 p = p0 + s * (p1 - p0);
    const Vec3 e = q1 - q0;
    const double t = std::clamp((p - q0).dot(e) / e.squaredNorm(), 0.0, 1.0);
    return (q0 + t * e - p).norm();
  };
  const double inv_phi = (std::sqrt(5.0) - 1) / 2;
  double lo = 0;
  double hi = 1;
  double x1 = hi - inv_phi * (hi - lo);
  double x2 = lo + inv_phi * (hi - lo);
  double f1 = point_segment(x1);
  double f2 = point_segment(x2);
  for (int it = 0; it < 200; ++it) {
    if (f1 <= f2) {
      hi = x2;
      x2 = x1;
      f2 = f1;
      x1 = hi - inv_phi * (hi - lo);
      f1 = point_segment(x1);
    } else {
      lo = x1;
      x1 = x2;
      f1 = f2;
      x2 = lo + inv_phi * (hi - lo);
      f2 = point_segment(x2);
    }
  }
  return std::min({f1, f2, point_segment(0), point_segment(1)});
}

void hull_reference(const CaseSet& set, const PairCase& pc, Reference& ref, bool with_distance) {
  const Body& a = set.bodies[static_cast<std::size_t>(pc.body_a)];
  const Body& b = set.bodies[static_cast<std::size_t>(pc.body_b)];
  const auto facets = minkowski_facets(a, pc.pose_a.rotation, b, pc.pose_b.rotation);
  const double margin = facet_margin(facets, pc.pose_b.translation - pc.pose_a.translation);
  ref.known_intersect = true;
  ref.intersect = margin >= 0;
  ref.near_touching = std::abs(margin) < kTouchingBand * set.scale;
  if (ref.intersect) {
    ref.known_depth = true;
    ref.depth = margin;
    ref.known_distance = true;
    ref.distance = 0;
  } else if (with_distance) {
    double d = 0;
    if (exact_polytope_distance(world_vertices(a, pc.pose_a), world_vertices(b, pc.pose_b), d)) {
      ref.known_distance = true;
      ref.distance = d;
      ref.near_touching = ref.near_touching || d < kTouchingBand * set.scale;
    }
  }
}

void sphere_box_reference(const CaseSet& set, const PairCase& pc, Reference& ref) {
  const Body& sphere = set.bodies[static_cast<std::size_t>(pc.body_a)];
  const Body& box = set.bodies[static_cast<std::size_t>(pc.body_b)];
  const Vec3 p = pc.pose_b.rotation.transpose() * (pc.pose_a.translation - pc.pose_b.translation);
  const Vec3& h = box.size;
  const Vec3 q = p.cwiseMax(-h).cwiseMin(h);
  const double centre_distance = (p - q).norm();
  const double r = sphere.size.x();
  ref.known_intersect = true;
  ref.intersect = centre_distance <= r;
  ref.near_touching = std::abs(centre_distance - r) < kTouchingBand * set.scale;
  ref.known_distance = true;
  ref.distance = std::max(0.0, centre_distance - r);
  if (ref.intersect) {
    ref.known_depth = true;
    ref.depth = centre_distance > 0 ? r - centre_distance : r + (h - p.cwiseAbs()).minCoeff();
  }
}

void capsule_reference(const CaseSet& set, const PairCase& pc, Reference& ref) {
  const Body& a = set.bodies[static_cast<std::size_t>(pc.body_a)];
  const Body& b = set.bodies[static_cast<std::size_t>(pc.body_b)];
  const Vec3 ea = pc.pose_a.rotation * Vec3(0, 0, a.size.y());
  const Vec3 eb = pc.pose_b.rotation * Vec3(0, 0, b.size.y());
  const Vec3& ta = pc.pose_a.translation;
  const Vec3& tb = pc.pose_b.translation;
  const double d = segment_distance(ta - ea, ta + ea, tb - eb, tb + eb);
  const double radii = a.size.x() + b.size.x();
  ref.known_intersect = true;
  ref.intersect = d <= radii;
  ref.near_touching = std::abs(d - radii) < kTouchingBand * set.scale;
  ref.known_distance = true;
  ref.distance = std::max(0.0, d - radii);
  if (ref.intersect) {
    ref.known_depth = true;
    ref.depth = radii - d;
  }
}

}  // namespace

double compute_references(CaseSet& set, bool with_distance) {
  const auto start = std::chrono::steady_clock::now();
  set.refs.assign(set.pairs.size(), Reference{});
  for (std::size_t i = 0; i < set.pairs.size(); ++i) {
    const PairCase& pc = set.pairs[i];
    const ShapeKind ka = set.bodies[static_cast<std::size_t>(pc.body_a)].kind;
    const ShapeKind kb = set.bodies[static_cast<std::size_t>(pc.body_b)].kind;
    if (is_hull(set.bodies[static_cast<std::size_t>(pc.body_a)]) && is_hull(set.bodies[static_cast<std::size_t>(pc.body_b)])) {
      hull_reference(set, pc, set.refs[i], with_distance);
    } else if (ka == ShapeKind::sphere && kb == ShapeKind::box) {
      sphere_box_reference(set, pc, set.refs[i]);
    } else if (ka == ShapeKind::capsule && kb == ShapeKind::capsule) {
      capsule_reference(set, pc, set.refs[i]);
    }
  }
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

SelfCheck self_check_facets(const CaseSet& set, std::size_t max_vertices, int max_pairs) {
  SelfCheck out;
  for (const PairCase& pc : set.pairs) {
    if (out.pairs >= max_pairs) break;
    const Body& a = set.bodies[static_cast<std::size_t>(pc.body_a)];
    const Body& b = set.bodies[static_cast<std::size_t>(pc.body_b)];
    if (!is_hull(a) || !is_hull(b) || a.hull.vertices.size() > max_vertices || b.hull.vertices.size() > max_vertices) {
      continue;
    }
    std::vector<Vec3> differences;
    for (const Vec3& va : a.hull.vertices) {
      for (const Vec3& vb : b.hull.vertices) differences.push_back(pc.pose_a.rotation * va - pc.pose_b.rotation * vb);
    }
    const Hull k = convex_hull(differences);
    const Vec3 c = pc.pose_b.translation - pc.pose_a.translation;
    double hull_margin = std::numeric_limits<double>::infinity();
    for (std::size_t f = 0; f < k.faces.size(); ++f) {
      const Vec3& n = k.face_normals[f];
      hull_margin = std::min(hull_margin, n.dot(k.vertices[static_cast<std::size_t>(k.faces[f][0])] - c));
    }
    const double margin = facet_margin(minkowski_facets(a, pc.pose_a.rotation, b, pc.pose_b.rotation), c);
    ++out.pairs;
    if ((margin >= 0) != (hull_margin >= 0)) ++out.class_mismatches;
    out.max_deviation = std::max(out.max_deviation, std::abs(margin - hull_margin));
  }
  return out;
}

Verdict judge_intersect(const Reference& ref, bool answer) {
  if (!ref.known_intersect) return Verdict::unknown;
  if (ref.near_touching) return Verdict::right;
  return answer == ref.intersect ? Verdict::right : Verdict::wrong;
}

Verdict judge_distance(const Reference& ref, const DistanceAnswer& answer, double scale) {
  if (!ref.known_distance) return Verdict::unknown;
  const double tol = kDistanceTolerance * std::max(scale, ref.distance);
  const double got = answer.intersect ? 0.0 : answer.distance;
  if (!std::isfinite(got)) return Verdict::wrong;
  if (ref.near_touching && got <= tol) return Verdict::right;
  return std::abs(got - ref.distance) <= tol ? Verdict::right : Verdict::wrong;
}

Verdict judge_depth(const Reference& ref, const DepthAnswer& answer, double scale) {
  if (!ref.known_depth || !ref.known_intersect || !ref.intersect) return Verdict::unknown;
  const double tol = kDepthTolerance * scale;
  if (!answer.intersect) return ref.near_touching ? Verdict::right : Verdict::wrong;
  if (!std::isfinite(answer.depth)) return Verdict::wrong;
  return std::abs(answer.depth - ref.depth) <= tol ? Verdict::right : Verdict::wrong;
}

int certify_smooth_distance(CaseSet& set, const std::vector<std::vector<DistanceAnswer>>& answers) {
  int certified = 0;
  const double band = kTouchingBand * set.scale;
  for (std::size_t i = 0; i < set.pairs.size(); ++i) {
    Reference& ref = set.refs[i];
    if (ref.known_distance) continue;
    const PairCase& pc = set.pairs[i];
    const Body& a = set.bodies[static_cast<std::size_t>(pc.body_a)];
    const Body& b = set.bodies[static_cast<std::size_t>(pc.body_b)];
    const auto in_a = [&](const Vec3& x) {
      return body_outside(a, pc.pose_a.rotation.transpose() * (x - pc.pose_a.translation)) <= band;
    };
    const auto in_b = [&](const Vec3& x) {
      return body_outside(b, pc.pose_b.rotation.transpose() * (x - pc.pose_b.translation)) <= band;
    };
    const auto separation = [&](const Vec3& u) {  // u unit, from A towards B
      return -(body_support_value(a, pc.pose_a.rotation.transpose() * u) + u.dot(pc.pose_a.translation)) -
             (body_support_value(b, -(pc.pose_b.rotation.transpose() * u)) - u.dot(pc.pose_b.translation));
    };
    double upper = std::numeric_limits<double>::infinity();
    double lower = -std::numeric_limits<double>::infinity();
    bool common_point = false;
    for (const auto& per_impl : answers) {
      if (i >= per_impl.size()) continue;
      const DistanceAnswer& ans = per_impl[i];
      if (!ans.point_a.allFinite() || !ans.point_b.allFinite()) continue;
      if (in_a(ans.point_a) && in_b(ans.point_b)) {
        upper = std::min(upper, (ans.point_b - ans.point_a).norm());
        if (in_b(ans.point_a) || in_a(ans.point_b)) common_point = true;
      }
      const Vec3 diff = ans.point_b - ans.point_a;
      if (diff.norm() > 0) lower = std::max(lower, separation(diff.normalized()));
    }
    if (common_point) {
      ref.known_intersect = true;
      ref.intersect = true;
      ref.known_distance = true;
      ref.distance = 0;
      ref.near_touching = lower > -band;
      ++certified;
    } else if (lower > 0 && upper - lower <= kDistanceTolerance * std::max(set.scale, lower) / 2) {
      ref.known_intersect = true;
      ref.intersect = false;
      ref.known_distance = true;
      ref.distance = (lower + upper) / 2;
      ref.near_touching = lower < band;
      ++certified;
    }
  }
  return certified;
}

bool have_exact_distance() {
#ifdef PROXIMA_BENCH_HAVE_CGAL
  return true;
#else
  return false;
#endif
}

#ifndef PROXIMA_BENCH_HAVE_CGAL
bool exact_polytope_distance(const std::vector<Vec3>&, const std::vector<Vec3>&, double&) { return false; }
#endif

}  // namespace proxima::bench
