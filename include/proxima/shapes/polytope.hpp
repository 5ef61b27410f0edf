// SPDX-License-Identifier: MIT
// Polytope: the convex hull of a vertex list, with the support mapping of seed 002, section 4.1
// ("Polytope"): a linear scan over the vertices for small hulls, hill climbing on the vertex
// adjacency graph from a cached vertex for large ones.
//
// The hull is built once, at construction, with qhull (reentrant libqhull_r, triangulated output
// "Qt"); points inside the hull are dropped. Degenerate but valid inputs are accepted:
//  - collinear sets (dimension 1) keep their two extreme points, joined by one edge;
//  - flat sets (dimension 2) keep their 2-D hull polygon, whose cycle is the adjacency graph (a
//    linear function on a convex polygon is unimodal along its boundary, so hill climbing on the
//    cycle finds the true maximum);
//  - duplicate points are merged.
// "Collinear" and "flat" are judged with kPolytopeFlatnessTolerance relative to the extent of the
// set; for such sets the support is exact to about twice that tolerance times the extent.
//
// Copying a Polytope is cheap (one shared_ptr to the immutable hull data), so AnyConvex and the
// decorators hold it by value. All const member functions may be called from several threads at
// once (the hint is the caller's state, not the polytope's).
#pragma once

#include <proxima/core/aligned_allocator.hpp>
#include <proxima/core/bounds.hpp>
#include <proxima/core/error.hpp>
#include <proxima/core/pose.hpp>
#include <proxima/core/tolerance.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <memory>
#include <span>
#include <vector>

namespace proxima {

namespace detail {

/// True when the CPU runs AVX2 (set once at start-up; false before that, which only selects the
/// portable loop, whose answers are identical).
extern const bool kPolytopeHaveAvx2;
/// Index of the first maximum of dx*x[i] + dy*y[i] + dz*z[i] over i < n4 (n4 a multiple of 4; a
/// NaN direction gives 0). AVX2 code: call only when kPolytopeHaveAvx2.
int scan_avx2(const double* x, const double* y, const double* z, std::size_t n4, double dx, double dy, double dz);

/// Support point of A - B for two polytopes that both scan (fewer than kPolytopeHillClimbMinVertices
/// vertices), with B placed in A's frame by a pose: the layout of gjk::SupportPoint (w = a - b), then
/// the two vertex indices.
struct PolytopePairSupport {
  Vec3 w, a, b;
  int index_a, index_b;
};

}  // namespace detail

class Polytope;

namespace detail {

/// The support of A - B in direction d (A's frame) when both polytopes scan and the CPU has AVX2:
/// a = A's scan(d), b = b_in_a.apply(B's scan(b_in_a.rotate_inverse(-d))), in one out-of-line call
/// (both scans inlined). Same arithmetic, same vertices and the same bits as the two separate
/// support calls of gjk::MinkowskiDifference. Call only when kPolytopeHaveAvx2.
PolytopePairSupport polytope_pair_support_avx2(const Polytope& a, const Polytope& b, const Pose& b_in_a,
                                               const Vec3& d);

/// The w of polytope_pair_support_avx2 (same bits), the vertex indices into index_a, index_b. Call
/// only when kPolytopeHaveAvx2.
Vec3 polytope_pair_support_w_avx2(const Polytope& a, const Polytope& b, const Pose& b_in_a, const Vec3& d,
                                  int& index_a, int& index_b);

/// The largest padded vertex count of a polytope that scans (fewer than
/// kPolytopeHillClimbMinVertices vertices, padded to a multiple of 4).
inline constexpr std::size_t kPolytopeScanMaxPadded = (kPolytopeHillClimbMinVertices + 3) / 4 * 4;

/// B's scan block placed in A's frame, for a query that calls the pair support many times (EPA):
/// out[k], out[p + k], out[2p + k] = b_in_a.apply(vertex k) bit for bit, for k < p = B's padded
/// vertex count (the padding, copies of vertex 0, too). `out` holds 3p doubles, 32-byte aligned.
/// Call only when kPolytopeHaveAvx2 and B scans (p <= kPolytopeScanMaxPadded).
void polytope_place_coords_avx2(const Polytope& b, const Pose& b_in_a, double* out);

/// polytope_pair_support_avx2 with B's block already placed in A's frame (placed_b, from
/// polytope_place_coords_avx2): B's scan reads it with -d, so the rotation of d into B's frame
/// and the placing of B's vertex leave the support's dependent chain. b is the placed vertex
/// (bit for bit b_in_a.apply of B's vertex). The vertex index can differ from
/// polytope_pair_support_avx2's only where two of B's products tie to within rounding (the
/// products are rounded in another frame); then both vertices are supports to that rounding.
PolytopePairSupport polytope_pair_support_placed_avx2(const Polytope& a, const Polytope& b, const double* placed_b,
                                                      const Vec3& d);

/// polytope_pair_support_placed_avx2 when placed_b is not null, else polytope_pair_support_avx2
/// (one out-of-line call either way, so the caller's code is the same).
PolytopePairSupport polytope_pair_support_avx2(const Polytope& a, const Polytope& b, const Pose& b_in_a,
                                               const Vec3& d, const double* placed_b);

/// The cell of the climb-start cube map (PolytopeData::start_cells) that the ray of direction d
/// crosses: face 2a + (d_a < 0) for the axis a of d's largest magnitude (the first on ties), then
/// the cell (i, j) of that face's resolution x resolution grid over the other two coordinates
/// divided by |d_a|, in cyclic order (a+1, a+2). Branch-free selects; a zero, infinite or NaN
/// direction gives a valid cell (a clamped one), never an out-of-range index.
inline int start_cell(const Vec3& d, int resolution) {
  const double ax = std::abs(d.x());
  const double ay = std::abs(d.y());
  const double az = std::abs(d.z());
  const bool x_major = ax >= ay && ax >= az;
  const bool y_major = !x_major && ay >= az;
  const double major = x_major ? d.x() : (y_major ? d.y() : d.z());
  const double u = x_major ? d.y() : (y_major ? d.z() : d.x());
  const double v = x_major ? d.z() : (y_major ? d.x() : d.y());
  const int face = (x_major ? 0 : (y_major ? 2 : 4)) + (major < 0 ? 1 : 0);
  const double half = 0.5 * resolution;
  const double scale = half / std::abs(major);
  // (u / |major| + 1) * resolution / 2, clamped to [0, resolution - 1]; the comparisons send NaN
  // to 0, so the conversion to int is always defined.
  const auto clamp_cell = [&](double t) {
    t = t > 0 ? t : 0;
    t = t < resolution - 1 ? t : resolution - 1;
    return static_cast<int>(t);
  };
  const int i = clamp_cell(u * scale + half);
  const int j = clamp_cell(v * scale + half);
  return (face * resolution + i) * resolution + j;
}

/// The direction through the centre of a cell of start_cell() (the inverse map at the centre).
inline Vec3 start_cell_direction(int cell, int resolution) {
  const int j = cell % resolution;
  const int i = (cell / resolution) % resolution;
  const int face = cell / (resolution * resolution);
  const int axis = face / 2;
  Vec3 d;
  d[axis] = face % 2 == 0 ? 1.0 : -1.0;
  d[(axis + 1) % 3] = (i + 0.5) * 2.0 / resolution - 1.0;
  d[(axis + 2) % 3] = (j + 0.5) * 2.0 / resolution - 1.0;
  return d;
}

/// One entry of a vertex's neighbour list, with the neighbour's coordinates beside its index so a
/// climbing step reads one contiguous run of memory per visited vertex (32 bytes an entry).
struct ClimbEdge {
  double x, y, z;  ///< coordinates of the neighbour
  int vertex;      ///< index of the neighbour
  int unused;      ///< padding to 32 bytes
};

/// The immutable hull data a Polytope shares between its copies. The support mapping reads only
/// `coords` (scan), or `offsets`, `climb` and the start table (climb): few, contiguous blocks, so
/// a query on a polytope whose data is not in cache (a narrow phase over many bodies) pays few
/// misses. The rest serves the public accessors.
struct PolytopeData {
  /// Hull vertices as structure of arrays in one block: x[0..padded), y[0..padded), z[0..padded),
  /// each padded to a multiple of 4 with copies of vertex 0 (the vectorised scan reads 4 at a time).
  /// When the interior test is offered (planes_padded > 0), its planes follow in the same block,
  /// from coords[3 * padded] on (layout below).
  /// The block starts on a cache line (CacheLineAllocator), so each 4-wide load lies in one line.
  CacheLineVector<double> coords;
  std::size_t padded = 0;
  std::vector<int> offsets;          ///< CSR: neighbours of i are climb[offsets[i] .. offsets[i+1])
  CacheLineVector<ClimbEdge> climb;  ///< neighbour entries (hull edges, both directions), 32-byte records on 32-byte boundaries
  /// Climb starts, a cube map of directions: the cube [-1, 1]^3 has 6 faces of
  /// start_resolution^2 cells each, and start_cells[cell] is the support vertex of the direction
  /// through the cell's centre. A direction d looks up the cell its ray crosses (start_cell(), one
  /// division, no scan) and the climb starts there, a neighbour or less from the answer (mean
  /// moves 0.21 at 1024 vertices and resolution 32, against 2.33 from the best of the 26
  /// directions {-1,0,1}^3 the table replaced; bench/tools/polytope_climb_moves.cpp). Resolution
  /// 8, 16 or 32 by vertex count (polytope.cpp); empty below kPolytopeHillClimbMinVertices
  /// vertices (those scan).
  int start_resolution = 0;
  std::vector<int> start_cells;
  std::vector<Vec3> vertices;            ///< hull vertices, local frame
  std::vector<int> input_index;          ///< vertices[i] == input[input_index[i]]
  std::vector<int> adjacency;            ///< CSR neighbour lists (hull edges), same order as climb
  std::vector<std::array<int, 3>> faces; ///< hull triangles, counter-clockwise seen from outside
  int dimension = 0;                     ///< 1 (collinear), 2 (flat) or 3
  Aabb aabb;
  BoundingSphere sphere;
  /// The interior test of Polytope::strictly_contains: the planes of the hull triangles (unit
  /// outward normal n, offset n . vertex) as structure of arrays nx | ny | nz | offset, each
  /// padded to a multiple of 4 with copies of plane 0, stored in `coords` right after the
  /// vertices: a cold query reads them through the Polytope's cached coordinate pointer (no load
  /// through data_) from the block its support scan has just read. planes_padded is 0 when the
  /// test is not offered: not a solid, more than kPolytopeInteriorTestMaxPlanes triangles, or a
  /// triangle so thin that the margin it needs exceeds kPolytopeInteriorTestMaxMargin x extent (a
  /// sliver).
  std::size_t planes_padded = 0;
  /// How far inside every plane a point must be (length, local frame): how far rounding can tilt
  /// the thinnest triangle's plane within the extent E (the largest vertex norm), 32 ulps E /
  /// sin(its angle at the first corner), plus 64 ulps of E for the test's own rounding
  /// (src/shapes/polytope.cpp, build_interior_test).
  double interior_margin = 0;
};

/// Is (x, y, z) at least `margin` inside each of the planes (`padded` of them, laid out as in
/// PolytopeData: nx | ny | nz | offset)? False on NaN. AVX2 when the CPU has it (same answer as the
/// portable loop up to the rounding of the dot products, which the margin covers).
bool inside_planes(const double* planes, std::size_t padded, const Vec3& p, double margin);

/// The part [t_lo, t_hi] of the segment p + t e, t in [0, 1], that is `margin` inside each of the
/// planes (laid out as for inside_planes), or false when that part is empty (or on NaN). Leaves
/// soon after the plane that empties it. AVX2 when the CPU has it
/// (segment_inside_planes_avx2), else the portable loop; both give the same answer and bits.
bool segment_inside_planes(const double* planes, std::size_t padded, const Vec3& p, const Vec3& e, double margin,
                           double& t_lo, double& t_hi);
/// segment_inside_planes' portable loop: one plane at a time, leaving at the first that empties
/// the part.
bool segment_inside_planes_portable(const double* planes, std::size_t padded, const Vec3& p, const Vec3& e,
                                    double margin, double& t_lo, double& t_hi);
/// gjk::detail::support_edges_common_point's two loops when the CPU has AVX2 (the same edges in
/// the same order, the same arithmetic and bits; src/shapes/polytope.cpp): the hull edges at A's
/// vertex index_a turned into B's frame (b_in_a: B's pose in A's frame) and tested by
/// b.strictly_crossed_by, then B's edges at index_b turned into A's frame and tested by
/// a.strictly_crossed_by. 1 when one of A's edges has a point strictly inside B (that point, B's
/// frame, in x), 2 when one of B's edges has one inside A (A's frame), 0 when none. Both polytopes
/// must have an interior test and the indices must be vertices. Call only when kPolytopeHaveAvx2.
int support_edges_crossing_avx2(const Polytope& a, const Polytope& b, const Pose& b_in_a, int index_a, int index_b,
                                Vec3& x);
/// segment_inside_planes four planes at a time (the portable loop's expressions, so the same
/// answer and the same bits of t_lo, t_hi), leaving after the block of 8 planes that empties the
/// part. Call only when kPolytopeHaveAvx2.
bool segment_inside_planes_avx2(const double* planes, std::size_t padded, const Vec3& p, const Vec3& e,
                                double margin, double& t_lo, double& t_hi);

}  // namespace detail

/// The convex hull of a finite point set, in its local frame.
class Polytope {
 public:
  /// Builds the hull of `points` (any order, duplicates and interior points allowed).
  /// Throws InvalidInput naming the field:
  ///  - "vertices" if the list is empty or all its points are identical,
  ///  - "vertices[i].x" (.y, .z) if an entry is NaN or infinite,
  ///  - "vertices" if qhull reports an error (the message carries qhull's text).
  /// Cost: O(n log n) (qhull), done once; allocates.
  explicit Polytope(std::span<const Vec3> points);
  /// Convenience for braced lists: Polytope({{0,0,0}, {1,0,0}, ...}).
  Polytope(std::initializer_list<Vec3> points) : Polytope(std::span<const Vec3>(points.begin(), points.size())) {}

  /// Support point: a hull vertex maximising d . x. The first maximising vertex of a plain scan
  /// when there are fewer than kPolytopeHillClimbMinVertices vertices (so d == 0 gives vertex 0);
  /// otherwise hill climbing from the precomputed support vertex of d's cube-map cell. No
  /// allocation.
  Vec3 support(const Vec3& d) const { return vertex(support_index(d)); }

  /// Support point with a hill-climbing hint (HintedSupportMap, seed 002, 4.1): `hint` is a vertex
  /// index returned before (negative or out of range: no hint); on return it holds the answer's
  /// index. Same value of d . x as support(d); the vertex may differ on ties. Cost: the scan for
  /// small hulls, else a walk from the better of the hint and d's cube-map start: O(1) steps.
  Vec3 support(const Vec3& d, int& hint) const {
    hint = support_index(d, hint);
    return vertex(hint);
  }

  /// Index into vertices() of support(d).
  int support_index(const Vec3& d) const {
    return size() < kPolytopeHillClimbMinVertices ? scan(d) : climb(d, best_start(d));
  }
  /// Index into vertices() of support(d, hint), without updating the hint. The climb starts from
  /// the hint or d's cube-map start, whichever is higher along d (GJK's directions swing by large
  /// angles between iterations, so the previous answer alone can be far away).
  int support_index(const Vec3& d, int hint) const {
    if (size() < kPolytopeHillClimbMinVertices) return scan(d);
    int start = best_start(d);
    if (hint >= 0 && hint < size() && dot(d, hint) > dot(d, start)) start = hint;
    return climb(d, start);
  }

  /// Index of the maximising vertex by a full scan (the reference the hill climb is tested
  /// against). First index among ties. O(n), no allocation.
  int scan(const Vec3& d) const;
  /// Index of a maximising vertex by hill climbing on the adjacency graph from `start` (a valid
  /// vertex index): moves to the best strictly better neighbour until none is better. Each move
  /// strictly increases d . x, so it stops after at most size() - 1 moves; that bound is the cap.
  int climb(const Vec3& d, int start) const;

  /// Number of hull vertices.
  int size() const noexcept { return size_; }
  /// Hull vertices (input points that are not vertices of the hull are dropped).
  const std::vector<Vec3>& vertices() const noexcept { return data_->vertices; }
  /// For each hull vertex, its index in the input list.
  const std::vector<int>& input_indices() const noexcept { return data_->input_index; }
  /// Hull triangles as index triples into vertices(), counter-clockwise seen from outside
  /// (dimension 3). For a flat set: a fan over the hull polygon, counter-clockwise about the
  /// plane normal (one-sided). For a collinear set: empty.
  const std::vector<std::array<int, 3>>& faces() const noexcept { return data_->faces; }
  /// Hull vertices adjacent to vertex i (along a hull edge).
  std::span<const int> neighbors(int i) const {
    const auto& off = data_->offsets;
    const auto begin = static_cast<std::size_t>(off[static_cast<std::size_t>(i)]);
    const auto end = static_cast<std::size_t>(off[static_cast<std::size_t>(i) + 1]);
    return {data_->adjacency.data() + begin, end - begin};
  }
  /// CSR arrays of the adjacency graph (see detail::PolytopeData).
  const std::vector<int>& adjacency_offsets() const noexcept { return data_->offsets; }
  const std::vector<int>& adjacency() const noexcept { return data_->adjacency; }
  /// 1 for a collinear set, 2 for a flat set, 3 for a solid.
  int dimension() const noexcept { return data_->dimension; }

  /// Is the local point x in the interior of the hull, at least interior_margin() inside the plane
  /// of every hull triangle? A true answer is safe against rounding: x is then in the hull (the
  /// margin covers the planes' rounding, so x is inside the exact plane of every triangle, and the
  /// triangles close the hull). False for points on or near the surface, outside, or NaN, and
  /// always false when has_interior_test() is false. Cost: one pass over the triangles' planes
  /// (vectorised, leaving at the first block of planes the point is outside of); no allocation.
  /// gjk::distance and gjk::intersect use it on cold polytope pairs to find a common point in
  /// GJK's first support pair (GjkOptions::first_support_overlap).
  bool strictly_contains(const Vec3& x) const {
    return planes_padded_ > 0 && detail::inside_planes(coords_ + 3 * padded_, planes_padded_, x, interior_margin_);
  }
  /// Does the segment from p to p + e (both in the local frame) have a point strictly inside the
  /// hull, i.e. at least interior_margin() inside the plane of every hull triangle? When it does:
  /// true, and `inside` is the middle of the segment's part inside every plane, a point that
  /// strictly_contains accepts (it is checked). False when there is none, when
  /// has_interior_test() is false, or on NaN. Cost: one pass over the triangles' planes (four at
  /// a time with AVX2), leaving once no part of the segment is left inside; no allocation.
  /// gjk::distance uses it on cold polytope pairs to find a common point on the edges at GJK's
  /// first support pair (GjkOptions::support_edge_overlap).
  bool strictly_crossed_by(const Vec3& p, const Vec3& e, Vec3& inside) const {
    double lo = 0;
    double hi = 0;
    if (planes_padded_ == 0 ||
        !detail::segment_inside_planes(coords_ + 3 * padded_, planes_padded_, p, e, interior_margin_, lo, hi)) {
      return false;
    }
    inside = p + (0.5 * (lo + hi)) * e;
    return strictly_contains(inside);
  }
  /// True when strictly_contains can answer true: a solid hull of at most
  /// kPolytopeInteriorTestMaxPlanes triangles, none of them a sliver (PolytopeData::planes_padded).
  bool has_interior_test() const noexcept { return planes_padded_ > 0; }
  /// The margin of strictly_contains (length, local frame; see PolytopeData::interior_margin).
  double interior_margin() const noexcept { return interior_margin_; }

  /// Centred at the centre of the box, radius the largest vertex distance from it.
  BoundingSphere bounding_sphere() const { return sphere_; }
  /// Exact box of the vertices.
  Aabb local_aabb() const { return data_->aabb; }

 private:
  friend detail::PolytopePairSupport detail::polytope_pair_support_avx2(const Polytope&, const Polytope&, const Pose&,
                                                                         const Vec3&);
  friend detail::PolytopePairSupport detail::polytope_pair_support_avx2(const Polytope&, const Polytope&, const Pose&,
                                                                         const Vec3&, const double*);
  friend void detail::polytope_place_coords_avx2(const Polytope&, const Pose&, double*);
  friend detail::PolytopePairSupport detail::polytope_pair_support_placed_avx2(const Polytope&, const Polytope&,
                                                                                const double*, const Vec3&);
  friend int detail::support_edges_crossing_avx2(const Polytope&, const Polytope&, const Pose&, int, int, Vec3&);
  friend Vec3 detail::polytope_pair_support_w_avx2(const Polytope&, const Polytope&, const Pose&, const Vec3&, int&,
                                                   int&);
  double dot(const Vec3& d, int i) const {
    const auto k = static_cast<std::size_t>(i);
    return d.x() * coords_[k] + d.y() * coords_[padded_ + k] + d.z() * coords_[2 * padded_ + k];
  }
  /// Vertex i read from the scan block (equal to vertices()[i]; one block fewer to touch).
  Vec3 vertex(int i) const {
    const auto k = static_cast<std::size_t>(i);
    return {coords_[k], coords_[padded_ + k], coords_[2 * padded_ + k]};
  }
  int best_start(const Vec3& d) const {
    const detail::PolytopeData& p = *data_;
    return p.start_cells[static_cast<std::size_t>(detail::start_cell(d, p.start_resolution))];
  }

  std::shared_ptr<const detail::PolytopeData> data_;
  // Copies of data_->coords.data(), data_->padded, the vertex count and the bounding sphere (read
  // by every GJK query) and of the interior test's size and margin, kept in the object itself so a
  // query on a small polytope touches the caller's Polytope and the coordinate block (with the
  // planes) only.
  const double* coords_ = nullptr;
  BoundingSphere sphere_;
  std::size_t padded_ = 0;
  std::size_t planes_padded_ = 0;  // data_->planes_padded: 0 when there is no interior test
  double interior_margin_ = 0;     // data_->interior_margin
  int size_ = 0;
};

inline int Polytope::scan(const Vec3& d) const {
  const auto n = static_cast<std::size_t>(size_);
  const double* x = coords_;
  const double* y = coords_ + padded_;
  const double* z = coords_ + 2 * padded_;
  if (detail::kPolytopeHaveAvx2) return detail::scan_avx2(x, y, z, padded_, d.x(), d.y(), d.z());
  // Blocks of kScanBlock: the dot products go to a stack buffer in a branch-free loop (which the
  // compiler vectorises), then a scalar pass picks the first maximum. Strict '>' keeps the first
  // index among ties, and a NaN direction yields vertex 0.
  constexpr std::size_t kScanBlock = 64;
  double dots[kScanBlock];
  std::size_t best = 0;
  double best_value = -std::numeric_limits<double>::infinity();
  for (std::size_t begin = 0; begin < n; begin += kScanBlock) {
    const std::size_t count = std::min(kScanBlock, n - begin);
    for (std::size_t i = 0; i < count; ++i) {
      dots[i] = d.x() * x[begin + i] + d.y() * y[begin + i] + d.z() * z[begin + i];
    }
    for (std::size_t i = 0; i < count; ++i) {
      if (dots[i] > best_value) {
        best_value = dots[i];
        best = begin + i;
      }
    }
  }
  return static_cast<int>(best);
}

inline int Polytope::climb(const Vec3& d, int start) const {
  const int* offsets = data_->offsets.data();
  const detail::ClimbEdge* edges = data_->climb.data();
  const double dx = d.x();
  const double dy = d.y();
  const double dz = d.z();
  int current = start;
  double value = dot(d, current);
  const int max_moves = size() - 1;
  for (int move = 0; move < max_moves; ++move) {
    int best = current;
    double best_value = value;
    const int end = offsets[current + 1];
    for (int e = offsets[current]; e < end; ++e) {
      // Same operation order as dot(): the values equal those of scan().
      const detail::ClimbEdge& edge = edges[e];
      const double v = dx * edge.x + dy * edge.y + dz * edge.z;
      if (v > best_value) {
        best = edge.vertex;
        best_value = v;
      }
    }
    if (best == current) break;  // no strictly better neighbour: a maximum of a convex polytope
    current = best;
    value = best_value;
  }
  return current;
}

}  // namespace proxima
