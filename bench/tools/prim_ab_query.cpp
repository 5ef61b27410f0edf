// SPDX-License-Identifier: MIT
// One side of bench/tools/prim_ab.sh: gjk::distance (default options, so the closed forms) on the
// capsule-capsule and sphere-box rows, returning the bench's DistanceAnswer as bench/proxima_impl.cpp's
// lambda does. Compiled once against the base commit's headers (-Dgjk=gjk_base -DAB_SIDE=base) and
// once against the working tree's (-DAB_SIDE=next).
#include "common.hpp"
#include <proxima/gjk/distance.hpp>
#include <proxima/shapes/box.hpp>
#include <proxima/shapes/capsule.hpp>
#include <proxima/shapes/sphere.hpp>

#define AB_CAT2(a, b) a##b
#define AB_CAT(a, b) AB_CAT2(a, b)

using namespace proxima;

namespace {
template <class A, class B>
bench::DistanceAnswer answer(const A& a, const Pose& pa, const B& b, const Pose& pb) {
  const DistanceResult r = gjk::distance(a, pa, b, pb);
  bench::DistanceAnswer out;
  out.intersect = r.intersect;
  out.distance = r.distance;
  out.point_a = r.point_a;
  out.point_b = r.point_b;
  return out;
}
}  // namespace

bench::DistanceAnswer AB_CAT(ab_capsules_, AB_SIDE)(const Capsule& a, const Pose& pa, const Capsule& b,
                                                     const Pose& pb) {
  return answer(a, pa, b, pb);
}

bench::DistanceAnswer AB_CAT(ab_sphere_box_, AB_SIDE)(const Sphere& a, const Pose& pa, const Box& b, const Pose& pb) {
  return answer(a, pa, b, pb);
}
