// SPDX-License-Identifier: MIT
// One side of bench/tools/header_ab.sh: the cold GJK/EPA queries on two polytopes, compiled once
// against the base commit's headers (with -Dgjk=gjk_base, so its inline code does not collide with
// the other side's) and once against the working tree's (-DAB_SIDE=next). Both sides link the
// same libraries, so only header changes are compared (src/ changes are not).
#include <proxima/gjk/distance.hpp>
#include <proxima/gjk/epa.hpp>
#include <proxima/gjk/intersect.hpp>
#include <proxima/shapes/polytope.hpp>

#include <memory>
#include <string>

#define AB_CAT2(a, b) a##b
#define AB_CAT(a, b) AB_CAT2(a, b)

using namespace proxima;

namespace {
std::unique_ptr<gjk::EpaHull> g_workspace;
}

/// mode 0: penetration depth (the bench's epa row), 1: distance, 2: intersect; cold start.
double AB_CAT(ab_query_, AB_SIDE)(int mode, const Polytope& a, const Pose& pa, const Polytope& b, const Pose& pb) {
  if (mode == 1) return gjk::distance(a, pa, b, pb).distance;
  if (mode == 2) return gjk::intersect(a, pa, b, pb).intersect ? 1.0 : 0.0;
  if (!g_workspace) g_workspace = std::make_unique<gjk::EpaHull>();
  gjk::WarmStart warm;
  return gjk::penetration(a, pa, b, pb, gjk::EpaOptions{}, warm, *g_workspace).depth;
}
