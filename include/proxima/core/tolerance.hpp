// SPDX-License-Identifier: MIT
// Every numeric default of proxima, in one place. Each constant says what it bounds, its unit,
// whether it is relative to the scale of the shapes, and what breaks when it is changed. The
// per-algorithm Options structs default-initialise from these; algorithm bodies hold no other
// literals than 0, 1, 2 and 1/2.
//
// "Scale" below means the sum of the two shapes' bounding-sphere radii plus the distance of
// their centres, i.e. the size of the region the query lives in. Relative tolerances are
// multiplied by it (or by its square, for squared quantities), so a query on millimetre parts
// and one on kilometre terrain stop at the same number of significant digits.
#pragma once

namespace proxima {

// ----------------------------------------------------------------------------------------------
// core
// ----------------------------------------------------------------------------------------------

/// Pose from a 3x3 matrix: the largest accepted |R^T R - I| entry and |det R - 1|. Unitless.
/// Larger lets sloppy matrices through (they are re-orthonormalised, which moves points by up to
/// this fraction of their distance to the origin); smaller refuses matrices printed with 6 digits.
inline constexpr double kRotationOrthonormalityTolerance = 1e-6;

/// Quaternion: a norm below this (unitless) is refused as zero; otherwise it is normalised.
inline constexpr double kMinQuaternionNorm = 1e-12;

// ----------------------------------------------------------------------------------------------
// shapes
// ----------------------------------------------------------------------------------------------

/// Polytope: vertex count at or above which the support mapping hill-climbs the vertex adjacency
/// graph from a cached vertex instead of scanning all vertices. Below it the linear scan is faster
/// (measured in bench/, suite gjk_distance).
inline constexpr int kPolytopeHillClimbMinVertices = 48;

/// Superquadric support: relative tolerance of the 1-D root find on the Lagrange condition.
/// Unitless; the support point is exact to about this times the semiaxes.
inline constexpr double kSuperquadricRootTolerance = 1e-13;
/// Superquadric support: iteration cap of the safeguarded root find (Newton + bisection; each
/// bisection halves the bracket, so 200 is far beyond the 53 halvings of a double).
inline constexpr int kSuperquadricMaxIterations = 200;

/// Polytope: a vertex list whose points all lie within this fraction of its extent (largest
/// distance between two input points) of a line is treated as collinear (kept: its two extreme
/// points), and within this fraction of a plane as flat (kept: its 2-D hull polygon). Unitless,
/// relative to the extent. The support of such a set is then exact to about twice this times the
/// extent. Larger flattens genuinely thin solids; smaller hands nearly flat sets to qhull's 3-D
/// hull, which refuses them (we then fall back to the 2-D hull anyway, see polytope_test.cpp
/// "NearlyFlatSetsWork").
inline constexpr double kPolytopeFlatnessTolerance = 1e-10;

/// Affine decorator: the linear part B must have smallest / largest singular value above this.
/// Unitless. Smaller admits maps that squash a shape to (nearly) a plane, where B^T v loses all
/// digits along the squashed axis; larger refuses legitimate strong non-uniform scalings.
inline constexpr double kAffineMinSingularValueRatio = 1e-12;

// ----------------------------------------------------------------------------------------------
// gjk
// ----------------------------------------------------------------------------------------------

/// GJK: relative termination. Stops when the Frank-Wolfe duality gap |v|^2 - v.w falls below
/// kGjkRelativeTolerance * |v|^2 (van den Bergen). Unitless. Smaller costs iterations on smooth
/// shapes (which converge linearly); larger loses digits in the distance.
inline constexpr double kGjkRelativeTolerance = 1e-12;
/// GJK: absolute termination, relative to scale^2: |v|^2 below kGjkAbsoluteTolerance * scale^2 is
/// taken as contact (distance 0). Also the floor for the duality gap at touching contact.
inline constexpr double kGjkAbsoluteTolerance = 1e-24;
/// GJK: iteration cap. Polytopes need at most a few dozen; smooth shapes converge linearly and
/// reach the relative tolerance in well under this.
inline constexpr int kGjkMaxIterations = 128;

// ----------------------------------------------------------------------------------------------
// epa
// ----------------------------------------------------------------------------------------------

/// EPA: relative termination. Stops when the support distance along the closest face's normal
/// exceeds that face's distance by less than this times the face distance (plus the absolute
/// floor kEpaAbsoluteTolerance * scale). Unitless.
inline constexpr double kEpaRelativeTolerance = 1e-10;
/// EPA: absolute floor of the termination test, relative to scale. Unitless.
inline constexpr double kEpaAbsoluteTolerance = 1e-12;
/// EPA: iteration cap (one support call and one hull update per iteration).
inline constexpr int kEpaMaxIterations = 255;
/// EPA: fixed face capacity of the expanding polytope; running out is Status::capacity_exceeded.
inline constexpr int kEpaMaxFaces = 512;
/// EPA: fixed vertex capacity of the expanding polytope.
inline constexpr int kEpaMaxVertices = 260;

}  // namespace proxima
