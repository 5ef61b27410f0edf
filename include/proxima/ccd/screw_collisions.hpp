// SPDX-License-Identifier: MIT
// Continuous collision of two rigid polyhedra (convex or not) whose relative motion over a step is
// a screw motion (seed 004, "glide rotations"): every vertex-face, face-vertex and edge-edge
// collision of the step, each with its time, world position, normal and properness (seed 004
// section 5), sorted by time.
//
// Method (ScrewMethod::exact, the one implemented): in A's local frame A is fixed and B moves by
// the screw Omega(s). Each candidate feature pair gives a scalar function of s whose sign change
// is the contact: the signed distance of a moving vertex to a face plane (VF, FV), or the triple
// product (q_b - p_a) . (e_a x e_b(s)) that vanishes when two edge lines are coplanar (EE). Roots
// are isolated by a branch and bound on [0, 1] that uses rigorous bounds on |f'| and |f''| along
// the helix (exclusion when |f(mid)| exceeds what the slope allows, bisection once f is proven
// monotone), then each root is checked to lie inside the face / on both segments. Candidates are
// culled by swept bounding spheres over time slabs (the bounding-sphere early out of seed 004
// section 9, per body and per feature). No root with a sign change is missed; a tangential touch
// without crossing is not reported.
//
// Method ScrewMethod::raster (seed 004 sections 7-9, src/ccd/glide_raster.cpp): the backward-facing
// parts of A and the forward-facing parts of B (faces clipped by omega(x) . n = 0) are projected to
// the collision screen (r, h, t) of collision_screen.hpp, A's with doppeling, and drawn into rows of
// pixels; scans of the rows give the vertex-in-face and edge-crossing candidates, whose times are
// then found analytically (Newton / safe bracketing on the same contact functions as the exact
// mode). The screen only chooses which pairs to examine, so a reported time is exact; a contact
// whose features the screen does not bring together within its candidate pad (a quarter pixel:
// the boundaries are drawn to an eighth of one) is not found.
#pragma once

#include <proxima/ccd/screw.hpp>
#include <proxima/core/status.hpp>
#include <proxima/core/tolerance.hpp>
#include <proxima/mesh/mesh.hpp>

#include <cstdint>
#include <string_view>
#include <vector>

namespace proxima::ccd {

/// The kind of a collision (seed 004 section 5). VF: a vertex of A meets a face of B; FV: a face
/// of A meets a vertex of B; EE: an edge of A crosses an edge of B.
enum class CollisionType : std::uint8_t { vf, fv, ee };

/// "VF", "FV" or "EE", as the scene output prints it.
std::string_view to_string(CollisionType type) noexcept;

/// One collision of the step. All vectors in the WORLD frame at the collision time (A placed by
/// its own screw interpolation from a_start to a_end, see interpolate()).
struct Collision {
  CollisionType type = CollisionType::vf;
  int vertex = -1;  ///< VF: vertex id of A; FV: vertex id of B; EE: -1
  int face = -1;    ///< VF: face id of B; FV: face id of A; EE: -1
  int edge_a = -1;  ///< EE: edge id of A (Mesh::edge); otherwise -1
  int edge_b = -1;  ///< EE: edge id of B; otherwise -1
  double time = kNaN;       ///< in [0, 1], fraction of the step
  Vec3 point = nan_vec3();  ///< contact point
  Vec3 normal = nan_vec3(); ///< unit collision normal, from A towards B
  /// Seed 004 section 5: VF/FV: min over the vertex's unit edge directions e_i of e_i . n_face
  /// (n_face the outward normal of the face, of B for VF, of A for FV); EE: formula (7) with n
  /// oriented along the approach (B's point moving against n), which equals the seed's "sign
  /// that maximises (7)" for proper collisions. >= 0 proper, < 0 improper; in [-1, 1].
  double properness = kNaN;
};

/// Which algorithm answers.
enum class ScrewMethod : std::uint8_t {
  exact,   ///< every feature pair near enough (swept spheres), contact times by safe root finding
  raster,  ///< seed 004 collision screen: candidate pairs from a rasterised screen, then Newton
};

/// Options of screw_collisions. Defaults from core/tolerance.hpp.
struct ScrewOptions {
  ScrewMethod method = ScrewMethod::exact;
  /// Stop after the earliest time slab that holds a collision and return only the first
  /// collision(s) (all collisions within time_tolerance of the earliest).
  bool first_contact_only = false;
  /// Collisions with properness below this are dropped. -1 keeps all.
  double properness_threshold = kCcdPropernessThreshold;
  /// Width of the final bracket of each contact time (fraction of the step).
  double time_tolerance = kCcdTimeTolerance;
  /// Bisection cap per root.
  int max_root_iterations = kCcdMaxRootIterations;
  /// Cap on intervals per feature pair in the root isolation; hitting it sets iteration_limit.
  /// The whole query also has a budget of 65,536 intervals plus 64 per feature-pair search (about
  /// 10x what the test motions use, torus pairs included), so its time is bounded by its number of
  /// candidate pairs; spending it also sets iteration_limit.
  int max_intervals = kCcdMaxIntervals;
  /// Inside-face / on-segment slack, relative to the scale (sum of the bounding radii).
  double feature_tolerance = kCcdFeatureTolerance;
  /// Relative |e_a x e_b| below which two edges count as parallel (no EE collision).
  double parallel_tolerance = kCcdParallelTolerance;
  /// Largest number of time slabs for the swept-sphere culling.
  int max_time_slabs = kCcdMaxTimeSlabs;
  /// A slab is made short enough that B's bounding sphere sweeps at most this fraction of its
  /// radius within it, and at most the larger of the bodies' mean edge lengths (then capped by
  /// max_time_slabs). Affects cost only, not the collisions found.
  double slab_sweep_fraction = kCcdSlabSweepFraction;
  /// Raster only: side of a screen pixel relative to the scale (sum of the bounding radii). See
  /// kCcdRasterPixelSize (Low / Medium / High presets there). Cost ~ 1 / pixel_size.
  double pixel_size = kCcdRasterPixelSize;
  /// Raster only: time resolution of the projected edges (fraction of the step), kCcdRasterTimeResolution.
  double time_resolution = kCcdRasterTimeResolution;
  /// Raster only: pixel records allowed per body; beyond it the result has Status::capacity_exceeded.
  int max_pixel_records = kCcdRasterMaxPixelRecords;
  /// Raster only: halvings allowed per projected edge piece; beyond it Status::iteration_limit.
  int max_subdivision = kCcdRasterMaxSubdivision;
};

/// Everything screw_collisions found.
struct ScrewResult {
  /// True when at least one collision passed the properness threshold.
  bool contact = false;
  /// Time of the earliest collision, NaN if none.
  double toi = kNaN;
  /// Point and normal (world, from A towards B) of the earliest collision.
  Vec3 point = nan_vec3();
  Vec3 normal = nan_vec3();
  /// Every collision of the step (or only the first ones), sorted by time.
  std::vector<Collision> collisions;
  /// The relative motion, in A's local frame at the start (seed 004 section 4.1).
  Screw screw;
  /// Exact mode: feature pairs (per time slab) that survived the sphere culling and the cheap
  /// exclusion tests, the properness bounds among them, and were passed to the root isolation.
  /// (Until 2026-11-26 the properness bounds came after this count: it was about 20 times larger
  /// on bodies that pass through each other.) Raster: the candidates its screen yields.
  int candidate_pairs = 0;
  /// Intervals examined plus bisection steps, over all pairs.
  int iterations = 0;
  /// converged, or iteration_limit when some pair hit max_intervals / max_root_iterations or the
  /// query's interval budget was spent (roots of that pair, or of the pairs after it, may be
  /// missing).
  Status status = Status::converged;
  Detail detail = Detail::none;
};

/// All collisions of mesh A moving from a_start to a_end against mesh B moving from b_start to
/// b_end, with the relative motion taken as the screw Omega = M_f^-1 N_f N_i^-1 M_i (seed 004
/// eq. (1)). Bodies are assumed not to overlap at the start (an overlap at s = 0 is not itself a
/// collision; only features crossing during the step are). Open meshes (MeshOptions::allow_open)
/// work; properness then uses the faces present.
/// Throws InvalidInput: "rotation" when the relative (or A's own) rotation is at or beyond pi
/// (see decompose), an options field name for a bad option.
/// Cost: O(K (V_a F_b + F_a V_b + E_a E_b)) sphere tests for K time slabs in the worst case (a
/// sorted sweep over A's features prunes most), then per surviving pair a few flops of exclusion
/// tests on B placed once per slab (plane / triple-product slope bounds, inside-face, segment
/// distance), and a few dozen function evaluations per pair that passes them. Raster: O(P log P)
/// to draw and sort P pixel records (P ~ edges * edge length / pixel_size of the facing parts),
/// scans O(records per row) per projected vertex and per row, then the same per-pair root work on
/// the candidates the screen yields (usually fewer than the exact mode's). Measured by
/// `proxima_bench --suite=ccd` (rows proxima_exact, proxima_exact_first, proxima_raster;
/// docs/benchmarks.md, "CCD"). The exact mode walks B's features against grids of A's, so when B
/// has more than 3 times A's features it runs the query with the roles swapped and turns the
/// collisions back (the same collisions in the same order, times, points and normals equal up to
/// rounding; candidate_pairs and iterations then count the swapped search): argument order does
/// not decide its cost.
/// Raster specifics: every collision it reports is a root of the same contact functions as the
/// exact mode (times to time_tolerance), so it reports a subset of the exact mode's collisions:
/// those whose features the screen brings within its pad (in tests/ccd/raster_test.cpp: every
/// first contact of over 600 seeded motions, at pixel sizes 1/4 to 1/256); it leaves out contacts
/// of features on no backward- (A) / forward-facing (B) face (seed 4.2), e.g. a reflex vertex
/// whose faces all face away from the motion, which cannot be a first contact.
/// Raster first_contact_only: the screen is drawn and scanned in full, then the edge-edge
/// candidates are resolved in order of their screen time windows until none can precede the
/// earliest contact found; the collisions returned are exactly the full run's first ones.
/// Status capacity_exceeded when a body needs more than max_pixel_records records.
/// Memory: each mode keeps its working vectors per thread between calls, grown to the largest
/// query the thread has answered (a warm query then allocates little but its result). Measured
/// on the bench motions (mallinfo2): 0.3 MB exact and 0.8 MB raster for two 300-face tori, 1.4 MB
/// raster for the L-prism against a torus, under 0.2 MB for the cube, car and car hull pairs.
/// release_thread_storage() gives the calling thread's back. The exact mode's storage also keeps
/// what it derived from the last query's meshes (A's body and grids, B's runs of features), and
/// reuses it when the next query on the thread has the same meshes, compared bit for bit: repeated
/// queries on one pair (a planner sweeping motions, a simulation stepping a pair) skip that set-up
/// (two 300-face tori, first contact: 1.8x faster), while alternating meshes rebuild it every
/// time (3.5-7.5% more instructions for a first contact, 2.1% for all collisions, than without
/// the reuse; docs/benchmarks.md, session 13).
ScrewResult screw_collisions(const mesh::Mesh& a, const Pose& a_start, const Pose& a_end, const mesh::Mesh& b,
                             const Pose& b_start, const Pose& b_end, const ScrewOptions& options = {});

/// Frees the working storage screw_collisions keeps for the calling thread (both modes), e.g.
/// after one very large query on a long-lived thread. The next query on this thread grows it
/// again. Answers never depend on it (tests/ccd/workspace_test.cpp).
void release_thread_storage();

namespace detail {
/// The option checks of screw_collisions (InvalidInput naming the field), for callers that run
/// many queries with one options struct and want to refuse it once (the batch layer).
void validate_screw_options(const ScrewOptions& options);
}  // namespace detail

}  // namespace proxima::ccd
