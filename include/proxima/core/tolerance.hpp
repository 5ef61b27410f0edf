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
/// Pose from a 3x3 matrix: a matrix within this |R^T R - I| entry and |det R - 1| is already a
/// rotation to double precision (rotations built from quaternions, angles or an SVD land within a
/// few units of roundoff) and is kept bit for bit; others are re-orthonormalised. Unitless, about
/// 18 eps. Larger keeps matrices whose R^T differs from R^-1 in more than the last digits; smaller
/// makes a pose that round-trips through its matrix (pickling, files) change in the last bits.
inline constexpr double kRotationExactTolerance = 4e-15;

/// Quaternion: a norm below this (unitless) is refused as zero; otherwise it is normalised.
inline constexpr double kMinQuaternionNorm = 1e-12;

/// Quaternion: an entry of magnitude above this (unitless) makes the normalisation divide the
/// four entries by the largest magnitude before squaring them, so that no square overflows
/// (4 * 1e300 is finite; squares overflow above ~1.3e154). Smaller entries are squared as given.
inline constexpr double kHugeQuaternionEntry = 1e150;

// ----------------------------------------------------------------------------------------------
// shapes
// ----------------------------------------------------------------------------------------------

/// Polytope: vertex count at or above which the support mapping hill-climbs the vertex adjacency
/// graph from a cached vertex instead of scanning all vertices. Below it the linear scan is faster
/// (measured in bench/, suite gjk_distance).
inline constexpr int kPolytopeHillClimbMinVertices = 48;

/// Polytope::strictly_contains (the interior test GJK's first support pair uses on cold polytope
/// pairs): offered only for hulls of at most this many triangles. A point inside reads every
/// plane: on the bench's polytope sets the test pays up to 512 vertices (1,020 triangles:
/// distance 383 -> 307 ns, intersect 238 -> 207 ns) and costs more than it saves at 1,024
/// (2,044 triangles: 353 -> 520 ns and 240 -> 386 ns; bench/tools/polytope_overlap_census.cpp,
/// docs/benchmarks.md session 19).
inline constexpr int kPolytopeInteriorTestMaxPlanes = 1024;
/// Polytope::strictly_contains: not offered when the margin its thinnest hull triangle needs (how
/// far rounding can tilt that triangle's plane within the extent, the largest vertex norm) exceeds
/// this times the extent: such a sliver would make the test useless, and is rare (unitless).
inline constexpr double kPolytopeInteriorTestMaxMargin = 1e-9;

/// Superquadric support: tolerance on the surface equation |sum |x_i/a_i|^e_i - 1| of the
/// support point, reached by the 1-D root find on the Lagrange condition and a final radial
/// correction. Unitless; the point is on the surface to about this times the semiaxes.
inline constexpr double kSuperquadricRootTolerance = 1e-13;
/// Superquadric support: iteration cap of the safeguarded root find (Newton + bisection; each
/// bisection halves the bracket, so 200 is far beyond the 53 halvings of a double).
inline constexpr int kSuperquadricMaxIterations = 200;

/// Superquadric support: exponents within this of 1 are treated as exactly 1 (the linear,
/// octahedron-like case, solved in closed form). Unitless. Replacing e by 1 moves the surface by
/// at most about 0.37 times this, relative to the semiaxes. Smaller lets exponents like 1 + 1e-12
/// through, whose support point is so ill-conditioned (a nearly flat face) that the root find
/// loses most digits of the point; larger distorts the shape visibly.
inline constexpr double kSuperquadricUnitExponentTolerance = 1e-9;

/// Polytope: a vertex list whose points all lie within this fraction of its extent (largest
/// distance between two input points) of a line is treated as collinear (kept: its two extreme
/// points), and within this fraction of a plane as flat (kept: its 2-D hull polygon). Unitless,
/// relative to the extent. The support of such a set is then exact to about twice this times the
/// extent. Larger flattens genuinely thin solids; smaller hands nearly flat sets to qhull's 3-D
/// hull, which refuses those flat to its own roundoff (we then fall back to the 2-D hull) and
/// builds slivers from the rest (polytope_test.cpp, FlatSetsUseThePolygonHull).
inline constexpr double kPolytopeFlatnessTolerance = 1e-10;

/// Affine decorator: the linear part B must have smallest / largest singular value above this.
/// Unitless. Smaller admits maps that squash a shape to (nearly) a plane, where B^T v loses all
/// digits along the squashed axis; larger refuses legitimate strong non-uniform scalings.
inline constexpr double kAffineMinSingularValueRatio = 1e-12;

// ----------------------------------------------------------------------------------------------
// lp (simplex method on vertex-form polytopes, seed 000)
// ----------------------------------------------------------------------------------------------
// The geometric LP queries first translate both point sets by the centre of their common bounding
// box and divide by its half-extent, so every coordinate lies in [-1, 1]; the constants below are
// then unitless fractions of that extent. The solver itself multiplies the primal tolerances by
// max(1, |b|_inf) and the dual ones by max(1, |c|_inf).

/// Simplex: primal feasibility. A basic variable down to -this still counts as feasible, and the
/// Harris ratio test may relax a bound by this much to pick a larger (better conditioned) pivot.
/// Smaller makes the Harris pass choose tiny pivots (error growth); larger lets the final weights
/// be negative by this much before they are clamped (the common point then moves by about this
/// times the extent).
inline constexpr double kLpFeasibilityTolerance = 1e-11;
/// Simplex: dual feasibility. A column enters only if its reduced cost is below -this. Smaller
/// lets rounding noise in the reduced costs trigger useless pivots; larger stops with an
/// objective up to about this times (|x|_1) above the optimum (the distance queries' error).
inline constexpr double kLpOptimalityTolerance = 1e-11;
/// Simplex: smallest pivot accepted by the ratio test, relative to the largest entry of the
/// entering column (with 1 as its floor on unit-scale data). Smaller admits pivots that amplify
/// rounding in the basis inverse by 1/this; larger can make the ratio test find no pivot and
/// report a bounded problem as unbounded.
inline constexpr double kLpPivotTolerance = 1e-9;
/// Simplex phase one: the problem is declared infeasible when the sum of the artificial
/// variables stays above this (relative to max(1, |b|_inf)) at the phase-one optimum. For the
/// intersection test it is the width of the touching band: sets closer than about this fraction of
/// their common extent may be reported as intersecting. Smaller than the rounding floor (about
/// 1e-14 here) turns touching pairs into "infeasible" answers whose Farkas hyperplane does not
/// separate; larger reports separated pairs as intersecting.
inline constexpr double kLpInfeasibilityTolerance = 1e-10;
/// Simplex: pivots between two refactorisations of the basis inverse (Gauss-Jordan from the
/// basis columns). The product-form updates lose about one digit per few dozen pivots on
/// ill-conditioned bases; larger saves O(m^3) work, smaller costs it without much gain.
inline constexpr int kLpRefactorInterval = 64;
/// Simplex: default iteration (pivot) cap for one solve, both phases together. Reaching it is
/// Status::iteration_limit, never a silent answer. The polytope LPs take far fewer pivots than
/// rows + columns (`proxima_bench --suite=lp`, rows lp_pivots: 6-9 per 3-D intersection with the default pricing,
/// 10-53 with Bland's rule, at 8..4096 points per set); this is far above that for every size the
/// tests and benchmarks use. Smaller risks iteration_limit on large sets; larger only delays it.
inline constexpr int kLpMaxIterations = 50000;
/// LP: a simplex run whose objective (the phase-one artificial sum, or the phase-two cost) has
/// not improved on its best value over this many consecutive pivots is cycling through rounding:
/// Bland's rule ends degenerate cycles only in exact arithmetic, and at extreme dynamic ranges
/// (coordinates near 1e150 next to ones of order 1) two columns can trade places forever on
/// reduced costs that are rounding noise (fuzz_lp, docs/reliability.md finding 10). The run then
/// ends as degenerate_input / no_progress (the general solver first retries once, as after any
/// breakdown) instead of pivoting on to max_iterations. Converged runs of the tests, benchmarks
/// and fuzz corpora take at most a few hundred pivots in all.
inline constexpr int kLpStallPivots = 1000;
/// LP: the improvement that resets the stall count: the objective must fall below its best value
/// by more than this times (1 + |best|). Unitless.
inline constexpr double kLpStallImprovement = 1e-14;
/// Simplex, Dantzig pricing with Bland fallback: after this many consecutive degenerate pivots
/// the solver prices by Bland's rule until the objective strictly decreases again (which makes
/// cycling impossible in exact arithmetic). Smaller falls back to the slow rule sooner.
inline constexpr int kLpDegenerateRunBeforeBland = 16;
/// LP intersection: the common point is accepted when |S w_a - T w_b|_inf (the two convex
/// combinations after clamping and renormalising the weights) is below this, relative to the
/// half-extent of the two sets. Unitless. It must exceed the solver's accumulated rounding (about
/// 1e-13 for the sizes tested) and is the published touching band of lp::intersect.
inline constexpr double kLpContactTolerance = 1e-9;
/// LP certificate checks: a weight vector passes when its sum differs from 1 by at most this per
/// point and a hyperplane normal when its length differs from 1 by at most this. Unitless, a few
/// hundred ulps. Smaller rejects correct certificates for rounding; larger accepts sloppy ones.
inline constexpr double kLpCertificateWeightSlack = 1e-12;
/// LP workspace bound: the largest LP matrix (rows x columns, in entries of 8 bytes) one query may
/// build in its workspace; a query that would need more answers Status::capacity_exceeded without
/// allocating it (issue 8: bounded workspaces). 2^27 entries = 1 GiB: an intersection of two sets
/// of 3-D points fits up to about 27 million points in all. Infinity removes the bound.
inline constexpr double kLpMaxMatrixEntries = 134217728;

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
/// GJK, EPA and the closed forms: the range of query scales (length units) they answer. The
/// sub-distance routine and EPA form products of up to four or six coordinates, which overflow or
/// underflow far from 1: the same random pairs scaled by 10^k answered right for k in [-50, 75]
/// and gave wrong answers reported as converged from k = -55 and k = 80 on (a separated pair
/// "intersecting", an overlapping pair "touching"; tests/limits/scale_range_test.cpp). Outside
/// this range (two Points at one place, scale 0, are answered) a query returns status
/// degenerate_input, detail scale_out_of_range, and no answer;
/// express such shapes in other units. Larger bounds would let those wrong answers through;
/// smaller ones refuse shapes that are answered right. This is the lower end, in length units.
inline constexpr double kGjkMinScale = 1e-30;
/// GJK, EPA and the closed forms: the upper end of the query scales they answer (kGjkMinScale
/// says why), in length units.
inline constexpr double kGjkMaxScale = 1e30;
/// Capsule-capsule closed form (gjk/closed_form.hpp, closest_on_unit_segments): below this
/// 1 - b^2, b the cosine of the angle between the axes (unitless; about 0.01 rad), the determinant
/// and the numerator of the segment parameter are formed by Lagrange's identity from the axes'
/// cross product instead of as 1 - b^2 and b f - c. Above it 1 - b^2 loses at most about
/// eps / 1e-4 = 2e-12 of its value. Much smaller lets the cancellation through (below 1e-16, i.e.
/// 1e-8 rad, the determinant is rounding noise and the distance of nearly parallel capsules came
/// out up to 1e-8 of their size too large; the test is
/// ClosedFormDistance.CapsuleSegmentsMeetTheOptimalityConditions); larger sends more pairs through
/// the dearer cross products (on every pair the query measured about 30% slower;
/// docs/benchmarks.md, session 16).
inline constexpr double kCapsuleNearlyParallel = 1e-4;
/// Ellipsoid Newton distance (gjk/ellipsoid_newton.hpp): step cap of its two stages together.
/// It converges quadratically: 3-6 steps on the benchmark's separated pairs, 1-3 on its
/// intersecting ones; a pair that needs more (touching, extreme shapes) is handed to GJK, so a
/// larger cap only delays that.
inline constexpr int kEllipsoidNewtonMaxIterations = 24;
/// Ellipsoid Newton distance: step halvings per Newton step before the step counts as stalled
/// (at the rounding floor) and the pair is handed to GJK.
inline constexpr int kEllipsoidNewtonMaxHalvings = 30;
/// Ellipsoid Newton distance: the absolute duality-gap test (kGjkAbsoluteTolerance) is accepted
/// only after a Newton step shorter than this (radians): near touching the gap allows the
/// direction between the two support points to be off by 1e-3 rad, and once a step is this short
/// the next direction is right to rounding. Unitless.
inline constexpr double kEllipsoidNewtonSettledStep = 1e-10;
/// Ellipsoid Newton distance: largest ratio of an ellipsoid's largest to smallest semiaxis it
/// takes; beyond it GJK answers. Its 2x2 Hessians have condition numbers up to this squared,
/// which must stay well inside double precision (1e12 of 1e16). Unitless.
inline constexpr double kEllipsoidNewtonMaxAspect = 1e6;
/// Box-box distance pre-pass (gjk/box_box.hpp): it runs only when GjkOptions::max_iterations is
/// at least this; a smaller cap (a warm-started caller running GJK a few iterations at a time)
/// runs GJK as with the pre-pass off.
inline constexpr int kBoxBoxMinIterations = 16;
/// Box-box distance pre-pass: edge cross products shorter than this (unit edge directions, so
/// the sine of their angle) are skipped by its separating-axis test; dividing the separation by a
/// shorter one would amplify its rounding beyond GJK's tolerance. Unitless.
inline constexpr double kBoxBoxMinCrossNorm = 1e-6;
/// Box-box distance pre-pass: alternating projections (point of B nearest the point of A, then
/// the point of A nearest that) tried when the separating axis's features are not the closest.
inline constexpr int kBoxBoxProjections = 2;
/// Cylinder / cone Newton polish (gjk/revolution_polish.hpp): GJK iterations before the polish is
/// first considered, and between later checks. Pairs GJK settles in fewer keep its answer: a
/// polish costs about as much as six GJK iterations on these shapes, so polishing the pairs GJK
/// would finish in 7-9 slowed them. Measured on the benchmark's cylinder-cone row
/// (docs/benchmarks.md, session 14): 6 gives separated pairs 1.55x faster but the row's median
/// 3-7% slower, 9 separated 1.3x faster and the median unchanged.
inline constexpr int kRevolutionPolishAfter = 9;
/// Cylinder / cone Newton polish: it is tried (once) when GJK's bracket [lower bound, |v|] is
/// within this fraction of |v|: a direction that far off names the right features and starts
/// Newton in its basin (from GJK's first iterates, a gap of 100% and more, it can wander off).
/// Unitless.
inline constexpr double kRevolutionPolishStartGap = 0.05;
/// Cylinder / cone Newton polish: Newton steps per round (2-5 from GJK's iterate where it starts).
inline constexpr int kRevolutionPolishMaxSteps = 8;
/// Cylinder / cone Newton polish: rounds of naming the features and running Newton; the second
/// names them again from the first round's direction, which can cross a kink of the support
/// function that GJK's direction had not.
inline constexpr int kRevolutionPolishRounds = 2;
/// Cylinder / cone Newton polish: how close to a kink of a support function (relative to the
/// direction's norm) the direction may be for the wider feature to be taken (a side rather than
/// its rim, a disc rather than its rim). The wider feature contains the narrower, so generous
/// costs only a parameter. Unitless.
inline constexpr double kRevolutionKink = 0.05;

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
/// EPA: when rounding makes the expanding polytope lose its convexity (long thin faces on curved
/// shapes, e.g. the side of a cylinder), the answer counts as converged at the rounding floor if
/// its depth bounds agree to this times the query scale, else degenerate_input. Unitless. The
/// losses seen on spheres deep in cylinders leave gaps of about 1e-10 to 1e-9 of the scale.
inline constexpr double kEpaRoundingFloor = 1e-8;
/// EPA: fixed vertex capacity of the expanding polytope.
inline constexpr int kEpaMaxVertices = 260;

// ----------------------------------------------------------------------------------------------
// gjk layer internals (gjk helper): sub-distance routine and EPA start-up
// ----------------------------------------------------------------------------------------------

/// GJK sub-distance routine (gjk/simplex.hpp): a triangle whose doubled area is below this times
/// L^2, or a tetrahedron whose sextupled volume is below this times L^3 (L = its longest edge), is
/// treated as flat and solved on its lower-dimensional faces instead of by barycentric signs.
/// Unitless. About 50 ulps: the rounding noise of those determinants is a few ulps times L^2 or
/// L^3. Smaller lets rounding noise decide "origin inside" on a flat tetrahedron (false contact);
/// larger makes thin but genuine simplices take the slower face path (still exact).
/// Regression: simplex_test.cpp FlatTetrahedronFarFromOrigin.
inline constexpr double kGjkDegenerateSimplexTolerance = 1e-14;

/// EPA start-up (gjk/epa.hpp): when GJK hands over fewer than four points, EPA grows them to a
/// tetrahedron (seed 003, footnote 4). A candidate point whose distance to the line / plane of the
/// points so far is below this times scale is rejected as not adding a dimension. Relative to
/// scale (unitless). If no direction adds a dimension the Minkowski difference is flat (two
/// coplanar flat shapes) and the depth is 0. Smaller builds needle tetrahedra whose face normals
/// are noise; larger declares thin-but-solid shapes flat.
inline constexpr double kEpaFlatTolerance = 1e-12;

// ----------------------------------------------------------------------------------------------
// mesh
// ----------------------------------------------------------------------------------------------

/// Mesh validation: largest distance of a face vertex from the face's Newell plane, relative to
/// the mesh extent (largest AABB side). Unitless. Larger accepts warped quads, whose plane then
/// misplaces contacts by up to this fraction of the extent; smaller refuses faces written to
/// file with 9-10 significant digits.
inline constexpr double kMeshPlanarityTolerance = 1e-9;
/// Mesh validation: an edge shorter than this times the extent, or a face with area below this
/// times extent^2, is degenerate (its normal or direction would be noise). Unitless.
inline constexpr double kMeshDegenerateTolerance = 1e-12;
/// STL reading: vertices closer than this times the extent are welded into one (STL stores each
/// triangle's corners separately). Unitless. Larger merges genuinely distinct close vertices;
/// smaller leaves cracks when the file was written in single precision (use about 1e-6 then).
inline constexpr double kMeshWeldTolerance = 1e-9;

// ----------------------------------------------------------------------------------------------
// ccd (screw motion, seed 004)
// ----------------------------------------------------------------------------------------------

/// Screw decomposition: a relative rotation angle at or below this (radians) is treated as a pure
/// translation. The end pose is then missed by at most this times the distance to the origin of
/// A's frame, far below the 1e-12 round-trip check; larger values start to show in it.
inline constexpr double kScrewMinAngle = 1e-15;
/// Screw decomposition: a relative rotation within this (radians) of pi is refused: there the
/// rotation axis flips sign under rounding and the step's direction of turn is undetermined
/// (seed 004 section 8 requires theta < pi). Smaller admits steps whose sense of rotation is noise.
inline constexpr double kScrewPiMargin = 1e-6;
/// Exact ccd: contact times are bisected until the bracket is below this (unitless, a fraction
/// of the step). Tests compare with a reference to 1e-9; larger loses that, smaller only costs.
inline constexpr double kCcdTimeTolerance = 1e-13;
/// Exact ccd: cap on bisection steps per root (53 halvings exhaust a double; this is a guard).
inline constexpr int kCcdMaxRootIterations = 200;
/// Exact ccd: cap on the time intervals examined per feature pair by the root-isolating
/// branch and bound; reaching it sets Status::iteration_limit on the result.
inline constexpr int kCcdMaxIntervals = 4096;
/// Exact ccd: slack of the inside-face and on-segment tests, relative to the scale (sum of the
/// bounding radii). Unitless. Contacts exactly on a face boundary or edge end are kept (they
/// also show up as a neighbour's collision); smaller risks dropping a grazing contact that falls
/// between two faces by rounding, larger reports contacts slightly outside a face.
inline constexpr double kCcdFeatureTolerance = 1e-10;
/// Exact ccd: two edges with |e_a x e_b| below this times |e_a| |e_b| are parallel and give no
/// edge-edge collision (seed 004 section 5: they show up as vertex-face ones). Unitless.
inline constexpr double kCcdParallelTolerance = 1e-9;
/// ccd: collisions with properness below this are discarded (seed 004 section 9 uses -0.1 for
/// driving games). Unitless, in [-1, 1]: -1 keeps everything, 0 keeps only proper collisions.
inline constexpr double kCcdPropernessThreshold = -0.1;
/// Exact ccd culling: the step is cut into time slabs short enough that B's bounding sphere
/// sweeps at most this fraction of its radius in one (unitless). Smaller gives tighter swept
/// spheres but more slabs to test; larger lets more feature pairs through to root finding.
inline constexpr double kCcdSlabSweepFraction = 0.5;
/// Exact ccd culling: cap on the number of time slabs (the cost of the sphere tests grows with it).
inline constexpr int kCcdMaxTimeSlabs = 32;
/// Raster ccd (seed 004 sections 7-9): side of a collision-screen pixel, relative to the scale
/// (sum of the two bounding radii; unitless). The screen's rows are this wide in r, and projected
/// edges are drawn to an eighth of it (kDrawErrorPerPixel, src/ccd/raster_screen.hpp). Cost grows about as 1 / pixel (records per edge); the
/// candidate pairs only get looser when it grows: contact times are refined analytically, so it
/// bounds nothing in the answer except which near-boundary pairs are examined. Seed 9.1 quotes
/// "a short edge is about 6 / 12 / 24 pixels" for low / medium / high; these presets are 1/16,
/// 1/32 and 1/64 of the scale (a unit cube against a unit cube: an edge is about 18 pixels at medium).
inline constexpr double kCcdRasterPixelSizeLow = 1.0 / 16;
inline constexpr double kCcdRasterPixelSizeMedium = 1.0 / 32;
inline constexpr double kCcdRasterPixelSizeHigh = 1.0 / 64;
inline constexpr double kCcdRasterPixelSize = kCcdRasterPixelSizeMedium;
/// Raster ccd: time resolution of the projected edges (fraction of the step, unitless): an edge's
/// projection is subdivided until linear interpolation of the screen time is within this (seed
/// section 9, third step). It bounds the error of the edge-edge time estimates that seed the
/// analytic refinement; smaller costs more subdivision.
inline constexpr double kCcdRasterTimeResolutionLow = 1.0 / 32;
inline constexpr double kCcdRasterTimeResolutionMedium = 1.0 / 64;
inline constexpr double kCcdRasterTimeResolutionHigh = 1.0 / 128;
inline constexpr double kCcdRasterTimeResolution = kCcdRasterTimeResolutionMedium;
/// Raster ccd: cap on pixel records (one per projected edge piece and screen row) per body and
/// query; running out gives Status::capacity_exceeded with the collisions found on the records
/// that fit. About 24 bytes each.
inline constexpr int kCcdRasterMaxPixelRecords = 1 << 20;
/// Raster ccd: cap on the halvings of one projected edge piece by the divide and conquer of seed
/// section 9 (2^depth pieces at most); hitting it gives Status::iteration_limit (the piece is then
/// drawn straight). Only edges that pass within about pixel * 2^-depth of the screw axis need it.
inline constexpr int kCcdRasterMaxSubdivision = 20;
/// screw_collisions: the range of query scales (sum of the two meshes' bounding radii, length
/// units) it answers. Its contact functions multiply up to three lengths (the edge-edge triple
/// product; four in its closest-point terms), which over- and underflow far from 1: run as given,
/// seeded motions scaled by 10^k were answered right for k in [-78, 76] and wrongly, still
/// reported converged, from k = -79 and k = 77 on (phantom, lost and misplaced collisions). So a
/// query outside [2^-64, 2^64] runs on a copy with every length times a power of two (exact) that
/// brings it near 1 (src/ccd/scale_range.hpp), and is answered right from 1e-290 to 1e289
/// (tests/limits/ccd_scale_range_test.cpp). That leaves the inputs themselves: below this bound
/// the coordinates of a body, some of which lie 1e-17 of its size from 0 (a torus's cos(pi/2)),
/// become subnormal and lose digits, and the smallest double (4.9e-324) is reached soon after.
/// Outside the range a query returns status degenerate_input, detail scale_out_of_range, and no
/// collisions; express such meshes in other units. The lower end, in length units.
inline constexpr double kCcdMinScale = 1e-290;
/// screw_collisions: the upper end of the query scales it answers (kCcdMinScale says why), in
/// length units: the largest double is 1.8e308, and above this bound the poses' translations of a
/// step of a few body sizes, and their sums in the relative motion, approach it.
inline constexpr double kCcdMaxScale = 1e290;
/// Convex time of impact (conservative advancement): contact is declared when the GJK distance
/// falls below this times the scale (unitless). The reported time is then early by at most this
/// times scale / closing speed. Smaller costs iterations near grazing contact.
inline constexpr double kCcdToiDistanceTolerance = 1e-9;
/// Convex time of impact: cap on advancement steps (one GJK distance each); reaching it gives
/// Status::iteration_limit with the last safe time.
inline constexpr int kCcdToiMaxIterations = 256;


// ----------------------------------------------------------------------------------------------
// ipm (interior point on implicit objects, seed 001)
// ----------------------------------------------------------------------------------------------
// The ipm solver works in normalised coordinates: points are divided by the query scale (see the
// top of this file), so "normalised" below means unitless, relative to that scale (or its square
// for squared distances and duality gaps).

/// IPM: iteration cap of a query (one Newton step and its line search per iteration), a total
/// budget shared by a distance query's direct solve (at most kIpmFastPathIterations, 200) and its
/// epigraph fallback, so the fallback keeps at least 400. Separated pairs of the paper's objects
/// take about 10-25; touching ones converge linearly and take more. 400 in all (200 for the
/// fallback) left a diamond against a deformed hexagonal nut uncertified: its epigraph solve
/// from the interior points needs about 220 (test IpmDistance.DiamondTipAgainstDeformedNutIsCertified).
inline constexpr int kIpmMaxIterations = 600;
/// IPM: relative stop on the primal-dual gap s^T lambda, which bounds objective - optimum: stop
/// when gap <= this * |objective| + kIpmGapAbsoluteTolerance. Unitless. Larger loses digits of the
/// distance (about half of this, relatively); smaller than ~1e-15 cannot be met in double.
inline constexpr double kIpmGapRelativeTolerance = 1e-12;
/// IPM: absolute floor of the gap stop, normalised (scale^2 for distance queries, so a touching
/// pair is resolved to about sqrt(this) = 1e-10 times the scale). Smaller costs iterations at
/// touching contact, where the method converges only linearly.
inline constexpr double kIpmGapAbsoluteTolerance = 1e-20;
/// IPM: stop also requires the Lagrangian gradient |grad f0 + J^T lambda|_inf below this times
/// |grad f0|_inf plus kIpmStationarityAbsoluteTolerance. Unitless. It bounds the error of the
/// closest points; larger loosens the certificate on them.
inline constexpr double kIpmStationarityRelativeTolerance = 1e-9;
/// IPM: absolute floor of the stationarity stop, normalised (scale units for distance queries).
inline constexpr double kIpmStationarityAbsoluteTolerance = 1e-12;
/// IPM: fraction-to-boundary factor: a step keeps at least (1 - this) of every slack and
/// multiplier. Unitless in (0, 1). Closer to 1 is faster near the solution but lets iterates hug
/// the boundary early, where Newton's model of |u|^n degrades.
inline constexpr double kIpmFractionToBoundary = 0.995;
/// IPM: Armijo constant of the backtracking line search on the barrier merit. Unitless.
inline constexpr double kIpmArmijo = 1e-4;
/// IPM: relative rounding allowance of the Armijo test: a trial whose merit exceeds the required
/// decrease by less than this times |merit| is accepted. Unitless, a few double epsilons. Without
/// it the end game halves every step because the predicted decrease is below the merit's last
/// digit; much larger lets the merit drift up.
inline constexpr double kIpmMeritNoise = 1e-14;
/// IPM: the gap stop also accepts gap <= this * sum(lambda): the slacks are known only to about
/// this (normalised constraint values are O(1) and computed in double), so a smaller gap is
/// noise. Unitless, a few double epsilons.
inline constexpr double kIpmGapRoundingFloor = 1e-15;
/// IPM: cap on backtracking halvings per iteration (2^-60 is below double resolution of a step).
inline constexpr int kIpmMaxBacktracks = 60;
/// IPM: barrier parameter of a cold start, normalised (scale^2 for distance queries). The paper
/// (seed 001, section VIII) starts KNITRO at 0.1 too. Larger wastes iterations, much smaller
/// makes the first steps hug the start point's nearest boundary.
inline constexpr double kIpmInitialBarrier = 0.1;
/// IPM: diagonal regularisation of the Schur complement G, normalised (G is unitless). G is only
/// semidefinite when a free direction exists (e.g. translating both points together along a
/// tangent of two halfspaces); this keeps the Cholesky factorisation defined and hardly changes
/// the step. Larger slows convergence, smaller risks a failed factorisation.
inline constexpr double kIpmRegularization = 1e-12;
/// IPM: multipliers are kept within [mu / (this * s), this * mu / s] after each step (the Ipopt
/// safeguard), so no multiplier runs off while its slack is large. Unitless.
inline constexpr double kIpmDualSafeguard = 1e10;
/// IPM: curvature floor for |w|^n with 1 < n < 2. The second derivative n(n-1)|w|^(n-2) is
/// unbounded at w = 0 (seed 001 section VIII names this as the cause of KNITRO's failures); the
/// Newton matrix uses it with |w| raised to at least this value (w is unitless: the coordinate
/// over its semiaxis, or the hyperquadric term). Values and gradients stay exact, so the KKT
/// point is unchanged and only the Newton model near w = 0 is flattened. Larger slows the final
/// convergence near such points; smaller gives Newton matrices with entries up to
/// this^(n-2). Measured on the paper's diamond (exponents 4/3, 7/5, 15/13) against random
/// objects: 1e-6 left 8% of queries uncertified, 1e-12 about 1% (ipm distance_test
/// "PresetSweep"); larger floors are worse, since optimal points sit at |w| ~ 1e-7 and below.
inline constexpr double kIpmPowerCurvatureFloor = 1e-12;
/// IPM: centring sigma of the conservative path-following mode (IpmOptions::predictor_corrector
/// = false): mu shrinks by about this factor per full step. Unitless in (0, 1).
inline constexpr double kIpmFixedCentering = 0.2;
/// IPM warm start: the previous solution (on the boundary) is moved this fraction of the way
/// towards the object's interior point to be strictly feasible; the fraction is multiplied by
/// 10 until it is. Unitless. Larger throws away more of the warm start.
inline constexpr double kIpmWarmStartPullback = 1e-3;
/// IPM warm start: the barrier parameter restarts at this times the initial one unless the
/// previous solution's complementarity is larger. Unitless.
inline constexpr double kIpmWarmStartBarrierFraction = 1e-3;
/// IPM warm start, Newton polish (DistanceSolver): at most this many Newton steps on the KKT
/// equations of the previous active set before the interior-point warm start takes over. From
/// a coherent start the residual falls quadratically and 2-4 steps reach kIpmPolishTolerance.
inline constexpr int kIpmPolishIterations = 8;
/// Iteration cap of the interior-point warm start (distance_warm, when the polish did not
/// certify): it takes 5-12 iterations from a good previous answer; one that has not converged
/// by this cap has jammed (the active set changed a lot) and the rest of the query's budget goes
/// to the cold start.
inline constexpr int kIpmWarmStartIterations = 50;
/// IPM warm start, Newton polish: a part is in the previous active set when its multiplier is
/// above this share of the largest one of its object (inactive parts carry ~mu / s, many orders
/// of magnitude below). Unitless.
inline constexpr double kIpmPolishActiveShare = 1e-6;
/// IPM warm start, Newton polish: stop when the KKT residual (stationarity relative to the
/// objective's gradient, active values) is below this. Unitless; the separating-plane
/// certificate then decides whether the answer stands.
inline constexpr double kIpmPolishTolerance = 1e-13;
/// IPM warm start, Newton polish: the converged points (on the boundary, to rounding) are moved
/// this fraction of the way towards the interior points, times 10 until strictly inside.
inline constexpr double kIpmPolishPullback = 1e-15;
/// Implicit object: an intersection whose largest inscribed margin (phase one: min over points of
/// the largest normalised constraint value) is above -this is refused as empty or without
/// interior. Unitless (constraint values are normalised: halfspaces by the object scale).
inline constexpr double kIpmEmptyInteriorTolerance = 1e-9;
/// Implicit object: a bounding-box solve that runs beyond this many times the parts' scale proves
/// the intersection unbounded (refused: distances need compact objects). Unitless.
inline constexpr double kIpmUnboundedRatio = 1e8;
/// Quadric part: Q must be symmetric and positive semidefinite to within this times its largest
/// absolute entry. Unitless. Larger admits slightly non-convex quadrics (the solver may then
/// fail); smaller refuses matrices printed with 15 digits.
inline constexpr double kIpmQuadricTolerance = 1e-12;
/// Overlap: the solver stops on a common point once the gap can no longer tell whether the
/// distance is zero, i.e. while objective <= this * gap; the point is then tested against both
/// objects. Unitless. Larger tests the point more often (one extra evaluation per iteration).
inline constexpr double kIpmOverlapCheckRatio = 1e3;

}  // namespace proxima
