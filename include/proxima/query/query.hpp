// SPDX-License-Identifier: MIT
// The runtime entry point for pairs of convex shapes whose types are known only at run time
// (AnyConvex, e.g. read from a scene file).
//
// Each function resolves the two runtime types ONCE per query (one dispatch on the pair of
// variant indices) and then runs the templated GJK / EPA kernel on the concrete shapes, so the
// support calls inside the loop are inlined, exactly as if the caller had written
// `gjk::distance(Sphere(...), pose_a, Box(...), pose_b)` (STYLE.md point 2, Coal's per-pair
// dispatch). The instantiations of the kernels for every pair of shape kinds live in
// src/query/*.cpp, so including this header costs user code nothing; docs/architecture.md
// ("Runtime dispatch") records what that costs at build time.
//
// Compound runtime shapes (AnyRounded, AnyAffine, AnyMinkowskiSum, AnyConvexHull) are resolved
// only at their outer level here; their children are visited per support call (see
// shapes/any_convex.hpp).
//
// Rounded shapes (sphere, capsule, rounded compounds) keep their margin handling: the kernel
// sees the concrete rounded type, runs GJK on its core and adds the radius back exactly.
#pragma once

#include <proxima/core/pose.hpp>
#include <proxima/core/results.hpp>
#include <proxima/gjk/options.hpp>
#include <proxima/shapes/any_convex.hpp>

namespace proxima::query {

/// Distance, closest points (world) and unit normal from A to B: gjk::distance on the concrete
/// shapes, with its tolerances (options) and certificate (DistanceResult::gap). Cost: one
/// dispatch plus the GJK run. No heap allocation beyond what the shapes' supports do.
DistanceResult distance(const AnyConvex& a, const Pose& pose_a, const AnyConvex& b, const Pose& pose_b,
                        const gjk::GjkOptions& options = {});

/// The same, warm-started from and updating `warm` (see gjk::WarmStart; keep one per pair).
DistanceResult distance(const AnyConvex& a, const Pose& pose_a, const AnyConvex& b, const Pose& pose_b,
                        const gjk::GjkOptions& options, gjk::WarmStart& warm);

/// Do A and B overlap or touch? gjk::intersect on the concrete shapes: early exit, and a
/// separating axis (world) as certificate when they do not. Cost: one dispatch plus the GJK run.
IntersectResult intersect(const AnyConvex& a, const Pose& pose_a, const AnyConvex& b, const Pose& pose_b,
                          const gjk::GjkOptions& options = {});

/// Penetration depth, direction (translating B by depth * normal separates them to touching)
/// and witness points: gjk::penetration (GJK + EPA) on the concrete shapes; separated pairs get
/// depth 0 and the distance query's normal and points. Cost: one dispatch, the GJK run and the
/// EPA run; the EPA workspace (about 60 KB) is on the stack.
PenetrationResult penetration(const AnyConvex& a, const Pose& pose_a, const AnyConvex& b, const Pose& pose_b,
                              const gjk::EpaOptions& options = {});

}  // namespace proxima::query
