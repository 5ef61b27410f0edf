// SPDX-License-Identifier: MIT
// Test oracle for screw collisions: the surfaces of A (fixed, in its own frame) and of B (moved by
// the relative screw) are tested for intersection at sampled times with CGAL's exact
// triangle-triangle predicate; the first sample that intersects is bisected against the previous
// one. The motion is re-evaluated here with Eigen's AngleAxis, not with ccd::Screw::apply.
#pragma once

#include <proxima/ccd/screw.hpp>
#include <proxima/mesh/mesh.hpp>

#include <CGAL/Exact_predicates_inexact_constructions_kernel.h>
#include <CGAL/intersections.h>

#include <array>
#include <cmath>
#include <vector>

namespace proxima::ccd::testing {

using Kernel = CGAL::Exact_predicates_inexact_constructions_kernel;
using Tri = std::array<Vec3, 3>;

struct Box3 {
  Vec3 lo, hi;
  bool overlaps(const Box3& o) const { return (lo.array() <= o.hi.array()).all() && (o.lo.array() <= hi.array()).all(); }
};

inline Box3 box_of(const Tri& t) {
  return {t[0].cwiseMin(t[1]).cwiseMin(t[2]), t[0].cwiseMax(t[1]).cwiseMax(t[2])};
}

inline Kernel::Triangle_3 to_cgal(const Tri& t) {
  auto p = [](const Vec3& v) { return Kernel::Point_3(v.x(), v.y(), v.z()); };
  return {p(t[0]), p(t[1]), p(t[2])};
}

class Reference {
 public:
  // a_to_frame places A's vertices in the frame of the query (identity: A's local frame);
  // b_to_frame places B's at s = 0. The motion (u, v, theta, g) acts on B.
  Reference(const mesh::Mesh& a, const mesh::Mesh& b, const Pose& b_to_a, const Screw& screw) : screw_(screw) {
    for (const auto& t : a.triangulate()) {
      a_.push_back({a.vertex(t[0]), a.vertex(t[1]), a.vertex(t[2])});
      a_box_.push_back(box_of(a_.back()));
      a_cgal_.push_back(to_cgal(a_.back()));
    }
    for (const auto& t : b.triangulate()) {
      b_.push_back({b_to_a.apply(b.vertex(t[0])), b_to_a.apply(b.vertex(t[1])), b_to_a.apply(b.vertex(t[2]))});
    }
    a_all_ = a_box_.front();
    for (const Box3& bx : a_box_) a_all_ = {a_all_.lo.cwiseMin(bx.lo), a_all_.hi.cwiseMax(bx.hi)};
  }

  Vec3 move(const Vec3& x, double s) const {
    const Mat3 r = Eigen::AngleAxisd(s * screw_.angle, screw_.axis).toRotationMatrix();
    return screw_.axis_point + r * (x - screw_.axis_point) + s * screw_.glide * screw_.axis;
  }

  // Do the two surfaces intersect (or touch) at time s?
  bool intersect(double s) const {
    for (const Tri& t : b_) {
      const Tri m = {move(t[0], s), move(t[1], s), move(t[2], s)};
      const Box3 bx = box_of(m);
      if (!bx.overlaps(a_all_)) continue;
      const auto tb = to_cgal(m);
      for (std::size_t i = 0; i < a_.size(); ++i) {
        if (a_box_[i].overlaps(bx) && CGAL::do_intersect(a_cgal_[i], tb)) return true;
      }
    }
    return false;
  }

  // First contact time by `samples` uniform samples then bisection to `tol`; NaN if no sample
  // intersects. Samples start at s0 (which must not intersect).
  double first_contact(int samples, double tol, double s0 = 0, double s1 = 1) const {
    double prev = s0;
    for (int i = 1; i <= samples; ++i) {
      const double s = s0 + (s1 - s0) * i / samples;
      if (!intersect(s)) {
        prev = s;
        continue;
      }
      double lo = prev, hi = s;
      while (hi - lo > tol) {
        const double mid = (lo + hi) / 2;
        (intersect(mid) ? hi : lo) = mid;
      }
      return hi;
    }
    return std::nan("");
  }

 private:
  Screw screw_;
  std::vector<Tri> a_, b_;
  std::vector<Box3> a_box_;
  std::vector<Kernel::Triangle_3> a_cgal_;
  Box3 a_all_;
};

}  // namespace proxima::ccd::testing
