// SPDX-License-Identifier: MIT
// Exact mode of the screw collision query: see include/proxima/ccd/screw_collisions.hpp.
#include <proxima/ccd/screw_collisions.hpp>

#include <proxima/core/error.hpp>

#include "core/clamped_int.hpp"
#include "ccd/collision_list.hpp"
#include "ccd/exact_runs.hpp"
#include "ccd/glide_raster.hpp"
#include "ccd/half_turn.hpp"
#include "ccd/plane_distance.hpp"
#include "ccd/polygon_tests.hpp"
#include "ccd/properness.hpp"
#include "ccd/roots.hpp"
#include "ccd/scale_range.hpp"
#include "ccd/triple_product.hpp"
#include "ccd/turn_sincos.hpp"

#if defined(__SSE2__)
#include <emmintrin.h>
#include <immintrin.h>
#define PROXIMA_CCD_SSE2 1
#endif

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <span>
#include <type_traits>
#include <utility>

namespace proxima::ccd {

std::string_view to_string(CollisionType type) noexcept {
  switch (type) {
    case CollisionType::vf: return "VF";
    case CollisionType::fv: return "FV";
    case CollisionType::ee: return "EE";
  }
  return "?";
}

namespace {

using mesh::Mesh;

// Width (fraction of the step) to which a sign change is bracketed before the cheap inside-face /
// segment-distance check decides whether it is worth refining to the time tolerance. An internal
// cost trade-off only: the final answer does not depend on it (the check is conservative).
constexpr double kCoarseBracket = 1.0 / 4096;

// A bounding sphere of a feature (vertex, edge or face) in A's frame at s = 0.
struct FeatureSphere {
  Vec3 center;
  double radius;
};

// Geometry of one body in A's local frame at s = 0 (A: fixed; B: carried by the screw).
struct Body {
  const Mesh* mesh = nullptr;
  std::vector<Vec3> v;          // vertices
  std::vector<Vec3> n;          // face normals
  std::vector<double> d;        // face offsets (n . x = d)
  std::vector<FeatureSphere> vs, es, fs;  // vertex / edge / face spheres
  FeatureSphere whole;
};

#ifdef PROXIMA_CCD_SSE2
// The grid queries' sphere tests four at a time where the processor has AVX2 (runtime check: the
// library is built for baseline x86-64). Cost only: the same operations in the same order on each
// lane as the SSE2 loop of SphereGrid::test_run (no FMA: the target adds AVX2 alone), so the same
// decisions. The grid queries were about a third of the exact mode's time over all collisions of
// the tori (perf, docs/benchmarks.md, session 20).
const bool kCcdHaveAvx2 = __builtin_cpu_supports("avx2") != 0;
// detail::set_grid_avx2_for_tests (exact_runs.hpp): false makes the grids take the SSE2 loop.
thread_local bool t_grid_avx2_allowed = true;

// Stores lanes 0-2 of v at p, a Vec3 of a list whose next entry (if `more`) is written after it:
// then all four lanes (the fourth lands on the next entry's x, overwritten next), else through a
// buffer. Not _mm256_maskstore_pd: on this AMD EPYC it made the placements slower by the clock
// than Eigen's scalar code with half the instructions (a masked store is microcoded on AMD).
__attribute__((target("avx2"), always_inline)) inline void store_xyz(double* p, __m256d v, bool more) {
  if (more) {
    _mm256_storeu_pd(p, v);
    return;
  }
  alignas(32) double lanes[4];
  _mm256_store_pd(lanes, v);
  p[0] = lanes[0];
  p[1] = lanes[1];
  p[2] = lanes[2];
}

// out[i] = rotation in[i] (+ translation), in[i] the three doubles at in + i in_stride, one vector
// per AVX2 register (x, y, z and a spare lane), no FMA (the target adds AVX2 alone). Written out
// column by column (Placement::apply) every coordinate sums ((c0 x0 + c1 x1) + c2 x2) (+ t);
// Eigen's product rotation * x (Pose::apply and rotate, kEigenProduct) sums x and y so and z as
// c0 x0 + (c1 x1 + c2 x2) (its packet path for the first two rows, its unrolled reduction for the
// third). The same operations in the same order, so the same bits (checked by the answers' hashes
// and ExactGridAvx2.SameAnswersAsTheSse2Loop, which runs the scalar code too).
template <bool kTranslate, bool kEigenProduct>
__attribute__((target("avx2"))) void place_avx2(const Mat3& rotation, const Vec3& translation, const double* in,
                                                std::size_t in_stride, Vec3* out, std::size_t n) {
  auto column = [&](int k) __attribute__((target("avx2"), always_inline)) {
    const double* c = rotation.data() + 3 * k;
    return _mm256_set_pd(0.0, c[2], c[1], c[0]);
  };
  const __m256d c0 = column(0), c1 = column(1), c2 = column(2);
  const __m256d t = _mm256_set_pd(0.0, translation.z(), translation.y(), translation.x());
  for (std::size_t i = 0; i < n; ++i) {
    const double* x = in + i * in_stride;
    const __m256d p0 = _mm256_mul_pd(c0, _mm256_broadcast_sd(x));
    const __m256d p1 = _mm256_mul_pd(c1, _mm256_broadcast_sd(x + 1));
    const __m256d p2 = _mm256_mul_pd(c2, _mm256_broadcast_sd(x + 2));
    __m256d v = _mm256_add_pd(_mm256_add_pd(p0, p1), p2);
    if constexpr (kEigenProduct) v = _mm256_blend_pd(v, _mm256_add_pd(p0, _mm256_add_pd(p1, p2)), 4);  // z
    if constexpr (kTranslate) v = _mm256_add_pd(v, t);  // (no + 0 for a rotation: it would turn -0 into +0)
    store_xyz(out[i].data(), v, i + 1 < n);
  }
}
#endif

// Face f's sphere (centroid of its placed vertices, largest distance to them) and plane offset.
void make_face_sphere(const Mesh& m, Body& b, std::size_t f) {
  const std::span<const int> ids = m.face(static_cast<int>(f));
  Vec3 c = Vec3::Zero();
  for (int id : ids) c += b.v[static_cast<std::size_t>(id)];
  c /= static_cast<double>(ids.size());
  double r2 = 0;
  for (int id : ids) r2 = std::max(r2, (b.v[static_cast<std::size_t>(id)] - c).squaredNorm());
  b.fs[f] = {c, std::sqrt(r2)};
  b.d[f] = b.n[f].dot(c);
}

// Edge e's sphere: the midpoint of its placed vertices, half their distance.
void make_edge_sphere(const Mesh& m, Body& b, std::size_t e) {
  const mesh::Edge& ed = m.edges()[e];
  const Vec3& p0 = b.v[static_cast<std::size_t>(ed.v0)];
  const Vec3& p1 = b.v[static_cast<std::size_t>(ed.v1)];
  b.es[e] = {(p0 + p1) / 2, (p1 - p0).norm() / 2};
}

// With `features_later`, the face spheres and offsets are left to make_face_sphere and the edge
// spheres to make_edge_sphere (sized only).
void make_body(const Mesh& m, const Pose& to_a, Body& b, bool features_later = false) {
  // Written into sized lists (no push_back), and a face's radius as the square root of its
  // vertices' largest squared distance: sqrt is correctly rounded and monotone, so that is the
  // largest of their norms (Eigen's norm() is sqrt(squaredNorm())), the same number.
  b.mesh = &m;
  const std::size_t nv = static_cast<std::size_t>(m.num_vertices());
  const std::size_t nf = static_cast<std::size_t>(m.num_faces());
  const std::size_t ne = static_cast<std::size_t>(m.num_edges());
  b.v.resize(nv);
  b.n.resize(nf);
  b.d.resize(nf);
  b.vs.resize(nv);
  b.es.resize(ne);
  b.fs.resize(nf);
  const std::vector<Vec3>& src = m.vertices();
  static_assert(sizeof(Vec3) == 3 * sizeof(double) && sizeof(mesh::Plane) % sizeof(double) == 0);
  // The AVX2 placement (the same bits, place_avx2) where it may run, else the scalar loops, written
  // once for both builds.
  bool placed = false;
#ifdef PROXIMA_CCD_SSE2
  if (kCcdHaveAvx2 && t_grid_avx2_allowed) {
    place_avx2<true, true>(to_a.rotation(), to_a.translation(), src.data()->data(), 3, b.v.data(), nv);
    if (nf > 0) {
      place_avx2<false, true>(to_a.rotation(), to_a.translation(), m.face_normal(0).data(),
                              sizeof(mesh::Plane) / sizeof(double), b.n.data(), nf);
    }
    placed = true;
  }
#endif
  if (!placed) {
    for (std::size_t i = 0; i < nv; ++i) b.v[i] = to_a.apply(src[i]);
    for (std::size_t f = 0; f < nf; ++f) b.n[f] = to_a.rotate(m.face_normal(static_cast<int>(f)));
  }
  for (std::size_t f = 0; f < (features_later ? 0 : nf); ++f) make_face_sphere(m, b, f);
  for (std::size_t i = 0; i < nv; ++i) b.vs[i] = {b.v[i], 0};
  for (std::size_t e = 0; e < (features_later ? 0 : ne); ++e) make_edge_sphere(m, b, e);
  b.whole = {to_a.apply(m.bounding_sphere().center), m.bounding_sphere().radius};
}

// What make_body(m, Pose()) and the query's other motion-independent set-up of A read from a mesh,
// kept from the previous query's A: when the next A holds the same (bit for bit), its body, vertex
// grid and edge lines are those of the previous query and are not made again (cost only).
// A mesh whose content_id() is the snapshot's holds the same contents (Mesh::content_id: ids are
// handed on only with the contents, and a Mesh is immutable), so it matches without reading them;
// another id is compared byte by byte as before (a copy rebuilt with the same numbers, such as the
// rescaled copy a query far from unit scale makes each time, still matches; `id` then takes the
// new mesh's, see note_id).
// detail::set_snapshot_ids_for_tests (exact_runs.hpp): off, matches() compares the bytes alone.
thread_local bool t_snapshot_ids = true;

struct MeshSnapshot {
  bool valid = false;
  std::uint64_t id = 0;  // content_id() of the mesh taken or last matched (0: none, never an id)
  std::vector<Vec3> vertices;
  std::vector<int> face_vertices, face_starts;
  std::vector<mesh::Plane> planes;
  std::vector<mesh::Edge> edges;
  Vec3 sphere_center = Vec3::Zero();
  double sphere_radius = 0;

  static bool same_bytes(const void* x, const void* y, std::size_t n) { return n == 0 || std::memcmp(x, y, n) == 0; }

  bool matches(const Mesh& m) const {
    if (valid && t_snapshot_ids && m.content_id() == id) return true;
    return matches_bytes(m);
  }

  // The snapshot's contents are m's, bit for bit (counts, vertices, faces, planes, edges, sphere).
  bool matches_bytes(const Mesh& m) const {
    if (!valid || m.num_vertices() != static_cast<int>(vertices.size()) ||
        m.num_faces() + 1 != static_cast<int>(face_starts.size()) || m.num_edges() != static_cast<int>(edges.size())) {
      return false;
    }
    const std::size_t nf = static_cast<std::size_t>(m.num_faces());
    const int* fv = nf > 0 ? m.face(0).data() : nullptr;
    for (std::size_t f = 0; f <= nf; ++f) {
      const int start = f < nf ? static_cast<int>(m.face(static_cast<int>(f)).data() - fv)
                               : static_cast<int>(face_vertices.size());
      if (start != face_starts[f]) return false;
    }
    if (nf > 0) {
      const std::span<const int> last = m.face(static_cast<int>(nf) - 1);
      if (last.data() + last.size() - fv != static_cast<std::ptrdiff_t>(face_vertices.size())) return false;
    }
    return same_bytes(m.vertices().data(), vertices.data(), vertices.size() * sizeof(Vec3)) &&
           same_bytes(fv, face_vertices.data(), face_vertices.size() * sizeof(int)) &&
           same_bytes(nf > 0 ? &m.plane(0) : nullptr, planes.data(), planes.size() * sizeof(mesh::Plane)) &&
           same_bytes(m.edges().data(), edges.data(), edges.size() * sizeof(mesh::Edge)) &&
           same_bytes(m.bounding_sphere().center.data(), sphere_center.data(), sizeof(Vec3)) &&
           same_bytes(&m.bounding_sphere().radius, &sphere_radius, sizeof(double));
  }

  // After matches(m): the id to recognise m by next time (m's contents are the snapshot's).
  void note_id(const Mesh& m) { id = m.content_id(); }

  void take(const Mesh& m) {
    id = m.content_id();
    const std::size_t nf = static_cast<std::size_t>(m.num_faces());
    vertices.assign(m.vertices().begin(), m.vertices().end());
    face_vertices.clear();
    face_starts.clear();
    planes.clear();
    for (std::size_t f = 0; f < nf; ++f) {
      const std::span<const int> ids = m.face(static_cast<int>(f));
      face_starts.push_back(static_cast<int>(face_vertices.size()));
      face_vertices.insert(face_vertices.end(), ids.begin(), ids.end());
      planes.push_back(m.plane(static_cast<int>(f)));
    }
    face_starts.push_back(static_cast<int>(face_vertices.size()));
    edges.assign(m.edges().begin(), m.edges().end());
    sphere_center = m.bounding_sphere().center;
    sphere_radius = m.bounding_sphere().radius;
    valid = true;
  }
};

// Is q (on or near the plane of face f) inside the face polygon, or within tol of its boundary?
// The boundary distance is measured in the projection that drops the normal's dominant axis,
// scaled back by the normal's dominant component so it is not larger than the true 3-D distance;
// the coarse test keeps anything within tol in the projection (which shrinks distances), so it
// never rejects a point within tol in 3-D.
bool inside_face(const Body& body, int f, const Vec3& q, double tol, bool coarse = false) {
  return detail::inside_polygon_parity_first(body.v, body.mesh->face(f), body.n[f], q, tol, coarse);
}

using detail::segment_distance;

bool overlap(const FeatureSphere& a, const Vec3& b_center, double b_radius, double pad) {
  const double r = a.radius + b_radius + pad;
  return (a.center - b_center).squaredNorm() <= r * r;
}

// Largest number of grid cells along one axis of a feature grid: bounds the grid's memory and
// build time (about one feature per cell is the aim). A cost trade-off only: any value >= 1 gives
// the same pairs (but sets the order in which a query reports them, see SphereGrid).
constexpr int kMaxGridCells = 32;
// A grid's cells are at least kGridCellRadii times its largest sphere's radius wide, down to
// kMinGridCellsPerAxis cells along its longest extent (only a grid that the count rule above gives
// more cells is made coarser). A query's box reaches past its ball by that largest radius, so with
// cells about the size of the queries' reach a box spans about two cells per axis, instead of four
// to five with the count rule on a large mesh of small features (the 300-quad torus: 9 x 9 x 3
// cells for its 600 edges, 0.29 wide against a largest radius of 0.20). Cost only, as
// kMaxGridCells. Callgrind, `ccd_answer_hash run torus-torus 64 1 first`, queries only: 20.22 M
// instructions with the count rule alone, 19.60 M with 2 radii, 19.30 M with 3 or 4 (4 cells per
// axis), 19.43 M with 3 cells per axis at least; the bench's other meshes keep their grids (at
// most 4 cells per axis already).
constexpr double kGridCellRadii = 4;
constexpr double kMinGridCellsPerAxis = 4;
// A grid query tests every sphere of the grid, in the grid's order, instead of walking its box
// when the grid holds at most this many spheres per (i, j) row of the box (cost only: both report
// the same spheres in the same order; callgrind over the bench's exact rows, queries only, seed 1:
// 2, 3, 4, 8, 12, 16 within 1% of each other but on the car (2: +1.9%) and the tori (16: +3.6%)).
constexpr long kScanAllSpheresPerRow = 4;
// A flat grid: when the rules above give at least kFlatMinCells cells along each of the first two
// axes and at most kFlatThinCells along the third (a large mesh thin along z in its own frame, such
// as the torus), the grid takes one cell along z and kFlatRowRefine times the cells along y. With
// one cell along z, a query's cells of one x index are consecutive in the grid's order, so the walk
// tests them as one run whatever their number (see SphereGrid::for_overlapping), and the finer y
// cells bring the run's ends nearer the query's box: fewer spheres tested for the same hits. Cost
// only, as kMaxGridCells. Callgrind, `ccd_answer_hash run torus-torus 64 1 first`, queries only
// (session 26): 17.87 M instructions before; the one-run walk with the y cells x 2 / 3 / 4 / 6 / 8
// 17.48 / 17.42 / 17.42 / 17.43 / 17.44 M; the x cells refined too (x 2) cost more (more runs).
constexpr int kFlatMinCells = 4;
constexpr int kFlatThinCells = 2;
constexpr int kFlatRowRefine = 4;

#ifdef PROXIMA_CCD_SSE2
// The query ball of overlap_mask_avx2, its centre, radius and pad each in four lanes.
struct BallAvx2 {
  __m256d x, y, z, r, pad;
};

// Bit k (k < n <= 64) set when sphere k of the coordinate lists x, y, z, r overlaps the ball
// (c, rq) enlarged by pad: ((r[k] + rq) + pad)^2 >= ((dx^2 + dy^2) + dz^2), dx = x[k] - c.x. Reads
// up to three entries past n (the lists' padding, see SphereGrid::build).
__attribute__((target("avx2"), always_inline)) inline std::uint64_t overlap_mask_avx2(
    const double* x, const double* y, const double* z, const double* r, int n, const BallAvx2& b) {
  std::uint64_t mask = 0;
  for (int k = 0; k < n; k += 4) {
    const __m256d dx = _mm256_sub_pd(_mm256_loadu_pd(x + k), b.x);
    const __m256d dy = _mm256_sub_pd(_mm256_loadu_pd(y + k), b.y);
    const __m256d dz = _mm256_sub_pd(_mm256_loadu_pd(z + k), b.z);
    const __m256d d2 =
        _mm256_add_pd(_mm256_add_pd(_mm256_mul_pd(dx, dx), _mm256_mul_pd(dy, dy)), _mm256_mul_pd(dz, dz));
    const __m256d rr = _mm256_add_pd(_mm256_add_pd(_mm256_loadu_pd(r + k), b.r), b.pad);
    // _CMP_LE_OS: _mm_cmple_pd's predicate (false on NaN).
    const int hits = _mm256_movemask_pd(_mm256_cmp_pd(d2, _mm256_mul_pd(rr, rr), _CMP_LE_OS));
    mask |= static_cast<std::uint64_t>(static_cast<unsigned>(hits)) << k;
  }
  return n < 64 ? mask & ((std::uint64_t{1} << n) - 1) : mask;
}
#endif

// SphereGrid::for_overlapping without a filter.
struct NoFilter {};

// A's feature spheres bucketed by centre in a uniform grid (A is fixed, so once per query): a
// query sphere only visits the cells within its radius plus the largest feature radius. Each
// feature lives in exactly one cell, so no pair is visited twice. A query reports the spheres in
// the grid's order (by cell, then by id), the order of the solver's searches, so of simultaneous
// collisions and of the use of the interval budget: any change to the grid's cells changes it.
class SphereGrid {
 public:
  // (Re)builds the grid of `spheres`, reusing the storage of the previous build. With `keep`, only
  // the spheres i with keep[i] are listed (queries report only those), but the cells are those of
  // all the spheres: the kept ones come in the same order as in the grid of all of them.
  // With `cells_kept`, the spheres are those of the previous build (bit for bit): its cells
  // (bounds, dims and each sphere's cell) are kept and only the listing is made again.
  void build(const std::vector<FeatureSphere>& spheres, const std::vector<char>* keep = nullptr,
             bool cells_kept = false) {
    if (!cells_kept) make_cells(spheres);
    // The listing: the grid's order of all the spheres (order_) with the ones not kept left out,
    // in one pass; a cell's kept spheres start where the kept ones before it end. So within a
    // cell the kept ones keep their id order, as in a grid of them alone.
    max_radius_ = 0;
    const std::size_t cells = all_start_.size() - 1;
    start_.resize(cells + 1);
    ids_.resize(order_.size());
    for (std::vector<double>* list : {&x_, &y_, &z_, &r_}) list->resize(order_.size() + kListPadding);
    std::size_t listed = 0;
    for (std::size_t c = 0; c < cells; ++c) {
      start_[c] = static_cast<int>(listed);
      for (int q = all_start_[c]; q < all_start_[c + 1]; ++q) {
        const int id = order_[static_cast<std::size_t>(q)];
        if (keep != nullptr && !(*keep)[static_cast<std::size_t>(id)]) continue;
        const FeatureSphere& sp = spheres[static_cast<std::size_t>(id)];
        ids_[listed] = id;
        x_[listed] = sp.center.x();
        y_[listed] = sp.center.y();
        z_[listed] = sp.center.z();
        r_[listed] = sp.radius;
        // The largest radius of a listed sphere (a query's reach: any listed sphere it overlaps has
        // its centre within that of the query's centre).
        max_radius_ = std::max(max_radius_, sp.radius);
        ++listed;
      }
    }
    start_[cells] = static_cast<int>(listed);
    ids_.resize(listed);
    // Zero entries after the listed ones: the tests read spheres two (SSE2) or four (AVX2) at a
    // time (see test_run), so at most kListPadding past the last listed one; the lists keep their
    // length (all the spheres plus the padding) and nothing reads beyond that (zeroing the whole
    // tail, about half the lists when the facing flags leave half the spheres out, was 1.5% of the
    // tori's first contact, session 22).
    for (std::vector<double>* list : {&x_, &y_, &z_, &r_}) {
      std::fill_n(list->begin() + static_cast<std::ptrdiff_t>(listed), kListPadding, 0.0);
    }
  }

  // Whether the queries test four spheres at a time with AVX2 (cost only: the same decisions).
  void use_avx2([[maybe_unused]] bool on) {
#ifdef PROXIMA_CCD_SSE2
    avx2_ = on && kCcdHaveAvx2;
#endif
  }

  // Calls fn(id) for every sphere overlapping the ball (c, r) enlarged by pad (the spheres of the
  // last build, in the grid's order). A `filter` (EdgeFilterAvx2) may drop, on the AVX2 path, hits
  // that fn would drop itself with no other effect: fn is then called for fewer of them (cost only).
  template <class Fn, class Filter = NoFilter>
  void for_overlapping(const Vec3& c, double r, double pad, const Fn& fn,
                       [[maybe_unused]] const Filter& filter = {}) const {
#ifdef PROXIMA_CCD_SSE2
    if (avx2_) {
      for_overlapping_avx2(c, r, pad, fn, filter);
      return;
    }
#endif
    std::array<int, 3> first{}, last{};
    switch (box(c, r, pad, first, last)) {
      case Box::none: return;
      case Box::all: test_run(0, static_cast<int>(ids_.size()), c, r, pad, fn); return;
      case Box::rows: break;
    }
    // Per (i, j), the cells l = first[2] .. last[2] are consecutive in the flat order, so their
    // spheres are one stretch of ids_: the same spheres in the same order as cell by cell, without
    // reading the bounds of every (mostly empty) cell. A stretch that starts where the previous
    // one ends (the cells between them hold no sphere) joins it: one test_run over both tests
    // the same spheres in the same order (on the tori 500,803 stretches were 192,162 joined runs).
    int run0 = 0, run1 = 0;  // the joined run so far, [run0, run1)
    auto join = [&](int q0, int q1) {
      if (q0 == run1) {
        run1 = q1;
      } else if (q0 != q1) {
        test_run(run0, run1, c, r, pad, fn);
        run0 = q0;
        run1 = q1;
      }
    };
    if (dims_[2] == 1) {
      // One cell along z: the cells (i, first[1] .. last[1], 0) are consecutive, one stretch
      // (the same spheres in the same order as row by row).
      for (int i = first[0]; i <= last[0]; ++i) {
        join(start_[static_cast<std::size_t>(flat(i, first[1], 0))],
             start_[static_cast<std::size_t>(flat(i, last[1], 0) + 1)]);
      }
    } else {
      for (int i = first[0]; i <= last[0]; ++i) {
        for (int j = first[1]; j <= last[1]; ++j) {
          const int row = flat(i, j, 0);
          join(start_[static_cast<std::size_t>(row + first[2])], start_[static_cast<std::size_t>(row + last[2] + 1)]);
        }
      }
    }
    test_run(run0, run1, c, r, pad, fn);
  }

 private:
  // The cells of `spheres` (bounds, dims, each sphere's cell) and all of them in the grid's order
  // (by cell, then by id): order_, with all_start_[c] where cell c's begin.
  void make_cells(const std::vector<FeatureSphere>& spheres) {
    dims_ = {1, 1, 1};
    last_cell_ = {0, 0, 0};
    inv_cell_ = Vec3::Zero();
    lo_ = Vec3::Constant(std::numeric_limits<double>::infinity());
    hi_ = -lo_;
    double max_radius = 0;
    for (const FeatureSphere& sp : spheres) {
      lo_ = lo_.cwiseMin(sp.center);
      hi_ = hi_.cwiseMax(sp.center);
      max_radius = std::max(max_radius, sp.radius);
    }
    cell_of_.resize(spheres.size());
    if (!spheres.empty()) {
      const Vec3 extent = hi_ - lo_;
      double per_axis = std::max(1.0, std::ceil(std::cbrt(static_cast<double>(spheres.size()))));
      if (max_radius > 0) {
        per_axis = std::min(per_axis, std::max(kMinGridCellsPerAxis,
                                               std::floor(extent.maxCoeff() / (kGridCellRadii * max_radius))));
      }
      const double cell = extent.maxCoeff() / per_axis;
      for (int k = 0; k < 3; ++k) {
        const double wanted = cell > 0 ? std::ceil(extent[k] / cell) : 1;
        dims_[k] = proxima::detail::clamped_int(wanted, 1, kMaxGridCells);
      }
      if (dims_[0] >= kFlatMinCells && dims_[1] >= kFlatMinCells && dims_[2] <= kFlatThinCells) {
        dims_[2] = 1;
        dims_[1] = std::min(kMaxGridCells, kFlatRowRefine * dims_[1]);
      }
      for (int k = 0; k < 3; ++k) inv_cell_[k] = extent[k] > 0 ? dims_[k] / extent[k] : 0;
      for (int k = 0; k < 3; ++k) last_cell_[k] = dims_[k] - 1;
      for (std::size_t i = 0; i < spheres.size(); ++i) {
        cell_of_[i] = flat(index(spheres[i].center, 0), index(spheres[i].center, 1), index(spheres[i].center, 2));
      }
    }
    all_start_.assign(static_cast<std::size_t>(dims_[0] * dims_[1] * dims_[2]) + 1, 0);
    for (std::size_t i = 0; i < spheres.size(); ++i) ++all_start_[static_cast<std::size_t>(cell_of_[i]) + 1];
    for (std::size_t c = 1; c < all_start_.size(); ++c) all_start_[c] += all_start_[c - 1];
    order_.resize(spheres.size());
    std::vector<int>& fill = fill_;
    fill.assign(all_start_.begin(), all_start_.end() - 1);
    for (std::size_t i = 0; i < spheres.size(); ++i) {
      order_[static_cast<std::size_t>(fill[static_cast<std::size_t>(cell_of_[i])]++)] = static_cast<int>(i);
    }
  }

  // The query box of the ball (c, r) enlarged by pad: the cells first .. last (per axis) that can
  // hold the centre of a listed sphere it overlaps. none: no listed sphere; all: small grids (or
  // boxes over most of one), where testing every sphere in order is cheaper than the walk.
  enum class Box { none, all, rows };
  [[gnu::always_inline]] Box box(const Vec3& c, double r, double pad, std::array<int, 3>& first,
                                 std::array<int, 3>& last) const {
    if (ids_.empty()) return Box::none;
    const double reach = r + max_radius_ + pad;
    for (int k = 0; k < 3; ++k) {
      if (c[k] + reach < lo_[k] || c[k] - reach > hi_[k]) return Box::none;
      first[k] = index_of(c[k] - reach, k);
      last[k] = index_of(c[k] + reach, k);
    }
    const long rows = static_cast<long>(last[0] - first[0] + 1) * (last[1] - first[1] + 1);
    return static_cast<long>(ids_.size()) <= kScanAllSpheresPerRow * rows ? Box::all : Box::rows;
  }

#ifdef PROXIMA_CCD_SSE2
  // for_overlapping with AVX2: the same walk (written out again: GCC inlines the AVX2 intrinsics
  // only into a function compiled for AVX2), each joined run tested four spheres at a time in line
  // (a call per run, with the ball broadcast again each time, cost about 2% of the tori's exact
  // mode once the runs were joined). fn itself is compiled for the baseline (not inlined here), and
  // so is the filter's caller side; the filter's keep() is compiled for AVX2 and inlined.
  template <class Fn, class Filter>
  __attribute__((target("avx2"))) void for_overlapping_avx2(const Vec3& c, double r, double pad, const Fn& fn,
                                                            const Filter& filter) const {
    std::array<int, 3> first{}, last{};
    const Box kind = box(c, r, pad, first, last);
    if (kind == Box::none) return;
    const BallAvx2 ball{_mm256_set1_pd(c.x()), _mm256_set1_pd(c.y()), _mm256_set1_pd(c.z()), _mm256_set1_pd(r),
                        _mm256_set1_pd(pad)};
    auto run = [&](int q0, int q1) __attribute__((target("avx2"), always_inline)) {
      for (int q = q0; q < q1; q += 64) {
        const std::size_t i = static_cast<std::size_t>(q);
        std::uint64_t hits = overlap_mask_avx2(x_.data() + i, y_.data() + i, z_.data() + i, r_.data() + i,
                                               std::min(64, q1 - q), ball);
        if constexpr (!std::is_same_v<Filter, NoFilter>) hits = filter.keep(i, hits);
        for (; hits != 0; hits &= hits - 1) fn(ids_[i + static_cast<std::size_t>(std::countr_zero(hits))]);
      }
    };
    if (kind == Box::all) {
      run(0, static_cast<int>(ids_.size()));
      return;
    }
    int run0 = 0, run1 = 0;
    auto join = [&](int q0, int q1) __attribute__((target("avx2"), always_inline)) {
      if (q0 == run1) {
        run1 = q1;
      } else if (q0 != q1) {
        run(run0, run1);
        run0 = q0;
        run1 = q1;
      }
    };
    if (dims_[2] == 1) {  // one stretch per x index (see for_overlapping)
      for (int i = first[0]; i <= last[0]; ++i) {
        join(start_[static_cast<std::size_t>(flat(i, first[1], 0))],
             start_[static_cast<std::size_t>(flat(i, last[1], 0) + 1)]);
      }
    } else {
      for (int i = first[0]; i <= last[0]; ++i) {
        for (int j = first[1]; j <= last[1]; ++j) {
          const int row = flat(i, j, 0);
          join(start_[static_cast<std::size_t>(row + first[2])], start_[static_cast<std::size_t>(row + last[2] + 1)]);
        }
      }
    }
    run(run0, run1);
  }
#endif

  // fn(id) for the spheres q0 <= q < q1 of the list that overlap the ball (c, r) enlarged by pad,
  // in order: overlap() written out on the grid's coordinate lists, two spheres at a time with
  // SSE2 (the same operations in the same order on each lane, so the same decisions:
  // (a.radius + r) + pad squared against ((dx^2 + dy^2) + dz^2), dx = a.x - c.x).
  template <class Fn>
  [[gnu::always_inline]] void test_run(int q0, int q1, const Vec3& c, double r, double pad, const Fn& fn) const {
#ifdef PROXIMA_CCD_SSE2
    const __m128d cx = _mm_set1_pd(c.x()), cy = _mm_set1_pd(c.y()), cz = _mm_set1_pd(c.z());
    const __m128d rb = _mm_set1_pd(r), pb = _mm_set1_pd(pad);
    for (int q = q0; q < q1; q += 2) {
      const std::size_t i = static_cast<std::size_t>(q);
      const __m128d dx = _mm_sub_pd(_mm_loadu_pd(x_.data() + i), cx);
      const __m128d dy = _mm_sub_pd(_mm_loadu_pd(y_.data() + i), cy);
      const __m128d dz = _mm_sub_pd(_mm_loadu_pd(z_.data() + i), cz);
      const __m128d d2 = _mm_add_pd(_mm_add_pd(_mm_mul_pd(dx, dx), _mm_mul_pd(dy, dy)), _mm_mul_pd(dz, dz));
      const __m128d rr = _mm_add_pd(_mm_add_pd(_mm_loadu_pd(r_.data() + i), rb), pb);
      int hits = _mm_movemask_pd(_mm_cmple_pd(d2, _mm_mul_pd(rr, rr)));
      if (q + 1 == q1) hits &= 1;  // the second lane is past the run (the list's extra entry at the end)
      if (hits & 1) fn(ids_[i]);
      if (hits & 2) fn(ids_[i + 1]);
    }
#else
    for (int q = q0; q < q1; ++q) {
      const std::size_t i = static_cast<std::size_t>(q);
      if (overlap({Vec3(x_[i], y_[i], z_[i]), r_[i]}, c, r, pad)) fn(ids_[i]);
    }
#endif
  }

  // clamp(floor(t), 0, dims - 1) for the cell coordinate t, without the call to floor: below 0 and
  // from dims - 1 on the clamp decides, and in between truncation is the floor. Clamped as a double
  // (min and max, no branches: query boxes fall on either side of the grid's ends unpredictably)
  // and then truncated: the same cell.
  [[gnu::always_inline]] int index_of(double x, int k) const {
    const double t = (x - lo_[k]) * inv_cell_[k];
    // max(0, t) first: it gives 0 for a NaN t (max returns its first operand when the comparison
    // fails), so the conversion never sees a NaN.
    return static_cast<int>(std::min(std::max(0.0, t), last_cell_[k]));
  }
  int index(const Vec3& p, int k) const { return index_of(p[k], k); }

 public:
  // The listed spheres' ids in the grid's order (a query's hit at list position q is listed()[q]).
  const std::vector<int>& listed() const { return ids_; }

 private:
  int flat(int i, int j, int l) const { return (i * dims_[1] + j) * dims_[2] + l; }

  Vec3 lo_, hi_;
  std::array<int, 3> dims_{1, 1, 1};
  std::array<double, 3> last_cell_{0, 0, 0};  // dims_ - 1, as index_of compares it
  Vec3 inv_cell_ = Vec3::Zero();
  std::vector<int> start_;
  std::vector<int> ids_;
  bool avx2_ = false;  // test_run's AVX2 loop (set per query by use_avx2)
  // Zero entries after the listed ones in x_, y_, z_, r_: test_run reads up to three past a run.
  static constexpr std::size_t kListPadding = 3;
  std::vector<double> x_, y_, z_, r_;  // per entry of ids_, its sphere's centre and radius (and 0s after)
  double max_radius_ = 0;
  std::vector<int> cell_of_;  // each sphere's cell
  std::vector<int> order_, all_start_;  // all the spheres in the grid's order, and where each cell's begin
  std::vector<int> fill_;     // scratch of make_cells()
};

// A fixed edge of A as the edge-edge culls read it: start, direction (end - start) and length, in
// one place per edge instead of through the mesh's edge and vertex lists for every pair.
struct EdgeLine {
  Vec3 start, dir;
  double length;
  Vec3 unit;  // dir / length, as the properness bounds take it
  double inv_length2;  // 1 / |dir|^2
};

#ifdef PROXIMA_CCD_SSE2
// A's listed edges in the edge grid's order (position q holds the edge listed()[q]), as the
// edge-edge loop's first two tests read them, one list per coordinate so that EdgeFilterAvx2 loads
// four consecutive edges at once: start, direction and 1 / |direction|^2 (the point test), unit
// direction and its left and right faces' normals (the properness bound's terms of A; an edge with
// no right face gets minus its left normal there, which makes its second term equal to its first,
// bit for bit, so the smallest and largest terms are those of the first alone). Three zero entries
// after the listed ones (read in fours). Made per query (the listing follows the facing flags).
struct EdgeLanes {
  enum List { px, py, pz, dx, dy, dz, inv_d2, ux, uy, uz, lx, ly, lz, rx, ry, rz, kLists };
  std::vector<double> data;
  std::size_t stride = 0;
  // Each edge's kLists values by edge id: they depend on A's mesh only (A in its own frame), so
  // they are made once per mesh of A (rows_valid: made from the mesh A's body is kept for) and a
  // query only copies its listed edges' rows into the lists (the listing follows the facing flags).
  // Gathering each edge's line and face normals per query was about 2.6% of the tori's first contact.
  std::vector<std::array<double, kLists>> rows;
  bool rows_valid = false;
  void make_rows(const std::vector<EdgeLine>& lines, const Mesh& m, const std::vector<Vec3>& normals) {
    rows.resize(static_cast<std::size_t>(m.num_edges()));
    for (std::size_t e = 0; e < rows.size(); ++e) {
      const mesh::Edge& ed = m.edge(static_cast<int>(e));
      const EdgeLine& line = lines[e];
      const Vec3& left = normals[static_cast<std::size_t>(ed.face_left)];
      const Vec3 right = ed.face_right >= 0 ? normals[static_cast<std::size_t>(ed.face_right)] : Vec3(-left);
      rows[e] = {line.start.x(), line.start.y(), line.start.z(), line.dir.x(),  line.dir.y(),  line.dir.z(),
                 line.inv_length2, line.unit.x(), line.unit.y(),  line.unit.z(), left.x(),      left.y(),
                 left.z(),       right.x(),      right.y(),      right.z()};
    }
    rows_valid = true;
  }
  void build(const std::vector<int>& listed) {
    stride = listed.size() + 3;
    // Every entry is written below, the padding here (no fill of the whole list first: on the
    // cubes' first contact it was 0.6% of the instructions).
    data.resize(kLists * stride);
    for (std::size_t k = 0; k < kLists; ++k) {
      std::fill_n(data.begin() + static_cast<std::ptrdiff_t>(k * stride + listed.size()), 3, 0.0);
    }
    std::size_t q = 0;
    if (kCcdHaveAvx2) q = copy_fours_avx2(listed);
    for (; q < listed.size(); ++q) {
      const std::array<double, kLists>& v = rows[static_cast<std::size_t>(listed[q])];
      for (std::size_t k = 0; k < kLists; ++k) data[k * stride + q] = v[k];
    }
  }
  // The rows of listed edges q .. q + 3 into the lists four at a time (a 4 x 4 transposition per
  // four lists: copies, the same bits), for q + 3 < listed.size(); returns the first q left. The
  // scalar copy was about 2% of the tori's first contact (16 stores an edge).
  __attribute__((target("avx2"))) std::size_t copy_fours_avx2(const std::vector<int>& listed) {
    static_assert(kLists % 4 == 0);
    std::size_t q = 0;
    for (; q + 4 <= listed.size(); q += 4) {
      const double* r[4];
      for (std::size_t i = 0; i < 4; ++i) r[i] = rows[static_cast<std::size_t>(listed[q + i])].data();
      for (std::size_t k = 0; k < kLists; k += 4) {
        const __m256d a = _mm256_loadu_pd(r[0] + k), b = _mm256_loadu_pd(r[1] + k);
        const __m256d c = _mm256_loadu_pd(r[2] + k), d = _mm256_loadu_pd(r[3] + k);
        const __m256d ab_lo = _mm256_unpacklo_pd(a, b), ab_hi = _mm256_unpackhi_pd(a, b);  // (a0 b0 a2 b2), (a1 b1 a3 b3)
        const __m256d cd_lo = _mm256_unpacklo_pd(c, d), cd_hi = _mm256_unpackhi_pd(c, d);
        _mm256_storeu_pd(&data[k * stride + q], _mm256_permute2f128_pd(ab_lo, cd_lo, 0x20));
        _mm256_storeu_pd(&data[(k + 1) * stride + q], _mm256_permute2f128_pd(ab_hi, cd_hi, 0x20));
        _mm256_storeu_pd(&data[(k + 2) * stride + q], _mm256_permute2f128_pd(ab_lo, cd_lo, 0x31));
        _mm256_storeu_pd(&data[(k + 3) * stride + q], _mm256_permute2f128_pd(ab_hi, cd_hi, 0x31));
      }
    }
    return q;
  }
};

// The edge-edge loop's point test and its properness bound (both in the loop's pair lambda, which
// drops a pair failing either before anything else, with no other effect) for four of A's edges
// at a time, against one edge of B at one slab: a grid hit they drop is not passed to the lambda.
// The same operations in the same order on each lane as detail::point_segment_distance2 and
// detail::edge_improper_near_turned (Eigen's cross products and dot products as written out there,
// sums left to right; std::clamp, min and max as maxpd / minpd with their operands in the order
// that gives the same result, NaN included; no FMA: the target adds AVX2 alone), so the same
// decisions; a pair they keep goes through every test of the lambda as before. The bound's early
// return on A's terms alone is not taken: adding B's terms only lowers max(low, -high), so the
// answer with all four is the function's either way. On the tori 99% of the edge grid's hits end
// here. `normal_b(side)` gives B's face normals at the slab middle (made on first use, as the
// lambda's): asked only when some hit passes the point test; so is `ub_b()`, B's unit edge
// direction there (most of B's edges that reach A's edge grid have no hit passing the point test:
// the direction, a normalisation and a turn frame on first use, is then not made).
template <class Normals, class Ub>
struct EdgeFilterAvx2 {
  const EdgeLanes* lanes;
  Vec3 mid_b;          // the middle of B's edge at the slab middle
  double near_b2;      // the point test's bound, squared
  const Ub* ub_b;      // B's unit edge direction at the slab middle (made on first use)
  double theta_width;  // screw angle * (half slab + time tolerance)
  double threshold;
  const Normals* normal_b;
  bool b_right;  // B's edge has a right face

  // hits with the bits of the edges at list positions i + k that the lambda would drop cleared.
  __attribute__((target("avx2"), always_inline)) std::uint64_t keep(std::size_t i, std::uint64_t hits) const {
    for (std::uint64_t todo = hits; todo != 0;) {
      const int g = std::countr_zero(todo) & ~3;
      todo &= ~(std::uint64_t{15} << g);
      const int lanes_hit = static_cast<int>((hits >> g) & 15);
      hits &= ~(static_cast<std::uint64_t>(dropped(i + static_cast<std::size_t>(g), lanes_hit)) << g);
    }
    return hits;
  }

 private:
  // Bit k set when the pair of B's edge with A's edge at list position q + k fails the point test
  // or the properness bound drops it (decided for the lanes in `hit` at least).
  __attribute__((target("avx2"), always_inline)) int dropped(std::size_t q, int hit) const {
    const double* at = lanes->data.data() + q;
    const std::size_t s = lanes->stride;
    auto load = [&](EdgeLanes::List k) __attribute__((target("avx2"), always_inline)) {
      return _mm256_loadu_pd(at + static_cast<std::size_t>(k) * s);
    };
    const __m256d zero = _mm256_setzero_pd(), one = _mm256_set1_pd(1.0), sign = _mm256_set1_pd(-0.0);
    // point_segment_distance2(mid_b, start, dir, inv_d2) > near_b2
    const __m256d dx = load(EdgeLanes::dx), dy = load(EdgeLanes::dy), dz = load(EdgeLanes::dz);
    const __m256d ux = _mm256_sub_pd(_mm256_set1_pd(mid_b.x()), load(EdgeLanes::px));
    const __m256d uy = _mm256_sub_pd(_mm256_set1_pd(mid_b.y()), load(EdgeLanes::py));
    const __m256d uz = _mm256_sub_pd(_mm256_set1_pd(mid_b.z()), load(EdgeLanes::pz));
    const __m256d dot =
        _mm256_add_pd(_mm256_add_pd(_mm256_mul_pd(ux, dx), _mm256_mul_pd(uy, dy)), _mm256_mul_pd(uz, dz));
    // std::clamp(v, 0, 1): (v < 0) ? 0 : ((1 < v) ? 1 : v); maxpd(a, b) is (a > b) ? a : b, minpd(a, b)
    // (a < b) ? a : b.
    const __m256d t = _mm256_min_pd(one, _mm256_max_pd(zero, _mm256_mul_pd(dot, load(EdgeLanes::inv_d2))));
    const __m256d ex = _mm256_sub_pd(ux, _mm256_mul_pd(t, dx));
    const __m256d ey = _mm256_sub_pd(uy, _mm256_mul_pd(t, dy));
    const __m256d ez = _mm256_sub_pd(uz, _mm256_mul_pd(t, dz));
    const __m256d d2 =
        _mm256_add_pd(_mm256_add_pd(_mm256_mul_pd(ex, ex), _mm256_mul_pd(ey, ey)), _mm256_mul_pd(ez, ez));
    const __m256d far = _mm256_cmp_pd(d2, _mm256_set1_pd(near_b2), _CMP_GT_OQ);
    if ((hit & ~_mm256_movemask_pd(far)) == 0) return 15;  // no lane hit is near: the bound is not needed
    const Vec3& ub = (*ub_b)();
    // edge_improper_near_turned: cr = ua x ub, n = cr / |cr|, na = n x ua, A's terms na . left and
    // -(na . right).
    const __m256d ax = load(EdgeLanes::ux), ay = load(EdgeLanes::uy), az = load(EdgeLanes::uz);
    const __m256d bx = _mm256_set1_pd(ub.x()), by = _mm256_set1_pd(ub.y()), bz = _mm256_set1_pd(ub.z());
    const __m256d cx = _mm256_sub_pd(_mm256_mul_pd(ay, bz), _mm256_mul_pd(az, by));
    const __m256d cy = _mm256_sub_pd(_mm256_mul_pd(az, bx), _mm256_mul_pd(ax, bz));
    const __m256d cz = _mm256_sub_pd(_mm256_mul_pd(ax, by), _mm256_mul_pd(ay, bx));
    const __m256d length = _mm256_sqrt_pd(
        _mm256_add_pd(_mm256_add_pd(_mm256_mul_pd(cx, cx), _mm256_mul_pd(cy, cy)), _mm256_mul_pd(cz, cz)));
    const __m256d tw = _mm256_set1_pd(theta_width);
    const __m256d sine = _mm256_sub_pd(length, tw);
    // A lane whose sine is not positive (parallel edges, the zero padding) answers false whatever
    // its terms, so it divides by 1 instead of by its length and sine: 0 / 0 and 1 / 0 would raise
    // FE_INVALID / FE_DIVBYZERO (a trap in users' debug builds, docs/reliability.md) for nothing.
    // The lanes that decide divide by the same values as before: the same bits.
    const __m256d proper = _mm256_cmp_pd(sine, zero, _CMP_GT_OQ);
    const __m256d divisor = _mm256_blendv_pd(one, length, proper);
    const __m256d nx = _mm256_div_pd(cx, divisor), ny = _mm256_div_pd(cy, divisor), nz = _mm256_div_pd(cz, divisor);
    const __m256d drift =
        _mm256_add_pd(_mm256_mul_pd(tw, _mm256_add_pd(_mm256_div_pd(one, _mm256_blendv_pd(one, sine, proper)), one)),
                      _mm256_set1_pd(detail::kPropernessMargin));
    const __m256d nax = _mm256_sub_pd(_mm256_mul_pd(ny, az), _mm256_mul_pd(nz, ay));
    const __m256d nay = _mm256_sub_pd(_mm256_mul_pd(nz, ax), _mm256_mul_pd(nx, az));
    const __m256d naz = _mm256_sub_pd(_mm256_mul_pd(nx, ay), _mm256_mul_pd(ny, ax));
    const __m256d t1 = _mm256_add_pd(
        _mm256_add_pd(_mm256_mul_pd(nax, load(EdgeLanes::lx)), _mm256_mul_pd(nay, load(EdgeLanes::ly))),
        _mm256_mul_pd(naz, load(EdgeLanes::lz)));
    const __m256d t2 = _mm256_xor_pd(
        sign, _mm256_add_pd(
                  _mm256_add_pd(_mm256_mul_pd(nax, load(EdgeLanes::rx)), _mm256_mul_pd(nay, load(EdgeLanes::ry))),
                  _mm256_mul_pd(naz, load(EdgeLanes::rz))));
    // low = std::min(low, t): (t < low) ? t : low, from +inf; high = std::max(high, t): (high < t) ? t
    // : high, from -inf; std::max(low, -high): (low < -high) ? -high : low.
    const __m256d inf = _mm256_set1_pd(std::numeric_limits<double>::infinity());
    __m256d low = _mm256_min_pd(t2, _mm256_min_pd(t1, inf));
    __m256d high = _mm256_max_pd(t2, _mm256_max_pd(t1, _mm256_xor_pd(sign, inf)));
    // B's terms: nb = n x ub, -(nb . left_b) and, with a right face, nb . right_b.
    const __m256d nbx = _mm256_sub_pd(_mm256_mul_pd(ny, bz), _mm256_mul_pd(nz, by));
    const __m256d nby = _mm256_sub_pd(_mm256_mul_pd(nz, bx), _mm256_mul_pd(nx, bz));
    const __m256d nbz = _mm256_sub_pd(_mm256_mul_pd(nx, by), _mm256_mul_pd(ny, bx));
    auto dot_b = [&](const Vec3& v) __attribute__((target("avx2"), always_inline)) {
      return _mm256_add_pd(
          _mm256_add_pd(_mm256_mul_pd(nbx, _mm256_set1_pd(v.x())), _mm256_mul_pd(nby, _mm256_set1_pd(v.y()))),
          _mm256_mul_pd(nbz, _mm256_set1_pd(v.z())));
    };
    const __m256d t3 = _mm256_xor_pd(sign, dot_b((*normal_b)(0)));
    low = _mm256_min_pd(t3, low);
    high = _mm256_max_pd(t3, high);
    if (b_right) {
      const __m256d t4 = dot_b((*normal_b)(1));
      low = _mm256_min_pd(t4, low);
      high = _mm256_max_pd(t4, high);
    }
    const __m256d worst = _mm256_max_pd(_mm256_xor_pd(sign, high), low);
    const __m256d improper =
        _mm256_and_pd(proper, _mm256_cmp_pd(_mm256_add_pd(worst, drift), _mm256_set1_pd(threshold), _CMP_LT_OQ));
    return _mm256_movemask_pd(_mm256_or_pd(far, improper));
  }
};
#endif

// Runs of kChunk consecutive features of B (ids first .. first + kChunk - 1): a sphere holding
// their feature spheres, and the largest growth (speed bound) among them. Cost only: a slab
// skips a run whose sphere, grown by that growth over half the slab, misses A's bounding sphere,
// as each of its features' own tests would (see the slab loop).
struct FeatureChunk {
  Vec3 center;
  double radius, growth;
};

// A sphere holding the feature spheres first .. last - 1 (last > first): centred on their
// centres' bounding box, its radius the largest distance to a centre plus that sphere's radius.
FeatureSphere run_sphere(const std::vector<FeatureSphere>& spheres, std::size_t first, std::size_t last) {
  Vec3 lo = spheres[first].center, hi = lo;
  for (std::size_t i = first; i < last; ++i) {
    lo = lo.cwiseMin(spheres[i].center);
    hi = hi.cwiseMax(spheres[i].center);
  }
  const Vec3 center = (lo + hi) / 2;
  double radius = 0;
  for (std::size_t i = first; i < last; ++i) {
    radius = std::max(radius, (spheres[i].center - center).norm() + spheres[i].radius);
  }
  return {center, radius};
}
constexpr std::size_t kChunk = 32;

// The runs' spheres of B's feature spheres in B's own frame (growth 0), or one run of growth -1
// (always near: the whole body's test already covers it) for at most kChunk features. Made once
// per mesh of B (see MeshSnapshot); a query places them in A's frame (place_chunks).
void make_chunks(const std::vector<FeatureSphere>& spheres, std::vector<FeatureChunk>& chunks) {
  chunks.clear();
  if (spheres.size() <= kChunk) {
    chunks.push_back({Vec3::Zero(), 0, -1});
    return;
  }
  for (std::size_t first = 0; first < spheres.size(); first += kChunk) {
    const FeatureSphere run = run_sphere(spheres, first, std::min(first + kChunk, spheres.size()));
    chunks.push_back({run.center, run.radius, 0});
  }
}

// A run of make_chunks placed in A's frame by to_b (the pose make_body placed B's features with;
// reach: the largest |coordinate| of its translation), with a bound of its features' growths
// under the screw (see the query's comment on the runs).
FeatureChunk place_chunk(const FeatureChunk& local, const Pose& to_b, double reach, const Screw& screw) {
  if (local.growth < 0) return local;
  const Vec3 center = to_b.apply(local.center);
  const double radius = local.radius + 1e-9 * (local.radius + local.center.cwiseAbs().maxCoeff() + reach);
  const double far = (center - screw.axis_point).cwiseAbs().maxCoeff();
  const double growth = screw.speed(screw.axis_distance(center) + radius + 1e-9 * (2 * far + radius)) * (1 + 1e-12);
  return {center, radius, growth};
}

// Runs of A's features, one list per kind: spheres holding runs of consecutive feature spheres
// (A's frame is its own, so unplaced, and A does not move: no growth). The first-contact slab loop
// tests B's runs against them before the grid queries of their features (see there): A's whole
// bounding sphere is a poor bound of a body with a hole or a concave side (a torus's holds its
// hole), runs of features hug the surface. About kARuns runs per kind (runs of one feature on a
// small A); a run's sphere holds its features' spheres up to the rounding of their distances to
// its centre, which the slab loop's margin covers. Made once per mesh of A (MeshSnapshot). Cost only.
// 20, not 32: each of B's runs near A's sphere is tested against every run of its kind, so fewer,
// longer runs cost fewer tests and skip nearly as much (the tori's first contact, callgrind:
// 8 / 12 / 16 / 18 / 20 / 22 / 24 / 32 / 64 runs 18.71 / 18.33 / 18.31 / 18.21 / 17.98 / 18.20 /
// 18.29 / 18.53 / 19.14 M instructions; docs/benchmarks.md, session 25, s25-first2).
constexpr std::size_t kARuns = 20;
struct ARuns {
  struct Kind {
    std::vector<FeatureSphere> runs;
    double reach = 0;  // the largest |coordinate| of a run's centre plus its radius (for the margin)
    // The runs four at a time for any_run_near_avx2: x0..x3, y0..y3, z0..z3, r0..r3 (the last run
    // repeated to fill the last four: testing it twice gives the same answer).
    std::vector<double> lanes;
    void make_lanes() {
      lanes.clear();
      for (std::size_t i = 0; i < runs.size(); i += 4) {
        for (int k = 0; k < 4; ++k) {
          for (std::size_t j = i; j < i + 4; ++j) {
            const FeatureSphere& run = runs[std::min(j, runs.size() - 1)];
            lanes.push_back(k < 3 ? run.center[k] : run.radius);
          }
        }
      }
    }
  };
  Kind vertices, edges, faces;

  static void make_kind(const std::vector<FeatureSphere>& spheres, Kind& kind) {
    kind.runs.clear();
    kind.reach = 0;
    const std::size_t length = std::max<std::size_t>(1, (spheres.size() + kARuns - 1) / kARuns);
    for (std::size_t first = 0; first < spheres.size(); first += length) {
      const FeatureSphere run = run_sphere(spheres, first, std::min(first + length, spheres.size()));
      kind.runs.push_back(run);
      kind.reach = std::max(kind.reach, run.center.cwiseAbs().maxCoeff() + run.radius);
    }
    kind.make_lanes();
  }
  void make(const Body& a) {
    make_kind(a.vs, vertices);
    make_kind(a.es, edges);
    make_kind(a.fs, faces);
  }
};

#ifdef PROXIMA_CCD_SSE2
// Does the sphere (c, grown) come within pad of one of a kind's runs (ARuns::Kind::lanes)? The
// slab loop's test of a run of B against A's runs (runs_near), four runs per AVX2 register (tori
// first contact 17.98 -> 17.79 M instructions, docs/benchmarks.md session 25, s25-first2). The same test as
// overlap(): (r_run + grown + pad)^2 against the squared distance, the sum taken x, y, z in order
// (Eigen's order may differ in the last bit; the test's 1e-9 margin covers either, and a run it
// skips has no pair that passes its grid test either way: cost only).
__attribute__((target("avx2"))) bool any_run_near_avx2(const std::vector<double>& lanes, const Vec3& c, double grown,
                                                       double pad) {
  const __m256d cx = _mm256_set1_pd(c.x()), cy = _mm256_set1_pd(c.y()), cz = _mm256_set1_pd(c.z());
  const __m256d g = _mm256_set1_pd(grown), p = _mm256_set1_pd(pad);
  for (std::size_t i = 0; i < lanes.size(); i += 16) {
    const double* l = lanes.data() + i;
    const __m256d dx = _mm256_sub_pd(_mm256_loadu_pd(l), cx), dy = _mm256_sub_pd(_mm256_loadu_pd(l + 4), cy),
                  dz = _mm256_sub_pd(_mm256_loadu_pd(l + 8), cz);
    const __m256d d2 =
        _mm256_add_pd(_mm256_add_pd(_mm256_mul_pd(dx, dx), _mm256_mul_pd(dy, dy)), _mm256_mul_pd(dz, dz));
    const __m256d r = _mm256_add_pd(_mm256_add_pd(_mm256_loadu_pd(l + 12), g), p);
    if (_mm256_movemask_pd(_mm256_cmp_pd(d2, _mm256_mul_pd(r, r), _CMP_LE_OQ)) != 0) return true;
  }
  return false;
}
#endif

// The exact mode's working storage, kept per thread across queries (cost only: a warm query
// allocates little beyond its result). A query moves each piece into a local of its own and back
// at the end (locals keep the code the compiler makes for plain local vectors).
struct ExactWorkspace {
  Body a, b;
  std::vector<Collision> found, found_buffer;  // the Solver's collisions; finish_collisions's sort
  SphereGrid a_vertices, a_edges, a_faces;
  ARuns a_runs;
  std::vector<char> a_face_back, b_face_fwd, a_edge_ok, b_edge_ok;
  std::vector<double> face_growth, vertex_growth, edge_growth, edge_speed, edge_start_speed, edge_perp;
  std::vector<double> a_vertex_speed;
  std::vector<EdgeLine> a_edge_lines;
  // Per edge of A its left face and its right face (the left again for an edge with none): the
  // faces whose facing flags make its edge flag (kept with a_edge_lines).
  std::vector<std::array<int, 2>> a_edge_faces;
#ifdef PROXIMA_CCD_SSE2
  EdgeLanes a_edge_lanes;
#endif
  std::vector<Vec3> b_mid;
  // Per run of B's edges (kChunk edges, as edge_chunks), the lowest and highest id of their
  // vertices (kept while B's mesh is the same, with its runs), and per run of B's vertices the
  // placement (slab or window middle) b_mid holds it at: see place_b in the slab loop.
  std::vector<std::pair<std::size_t, std::size_t>> b_edge_run_vertices;
  std::vector<int> b_vertex_run_placed;
  std::vector<FeatureChunk> face_chunks, vertex_chunks, edge_chunks;
  std::vector<Vec3> a_vertex_dirs;
  std::vector<detail::TurnFrame> b_vertex_dirs, b_face_frames, b_edge_frames;
  std::vector<char> a_vertex_ready, b_vertex_ready, b_face_ready, b_edge_ready;
  std::vector<Vec3> velocity;  // scratch of the facing flags
  double a_mean_edge = 0;  // A's mean edge length, for the slab count
  // The mesh that a, a_vertices, a_runs, a_mean_edge, a_edge_lines and a_edge_faces were made from (valid only
  // between queries).
  MeshSnapshot a_snapshot;
  // The mesh of B that the runs' spheres in B's frame were made from, and those runs.
  MeshSnapshot b_snapshot;
  Body b_local;
  double b_mean_edge_local = 0, b_reach_local = 0;  // b_local's mean edge and largest |coordinate|
  std::vector<FeatureChunk> face_chunks_local, vertex_chunks_local, edge_chunks_local;
  std::vector<char> face_chunk_ready, vertex_chunk_ready, edge_chunk_ready;
};

// The calling thread's workspace (release_thread_storage frees it).
thread_local ExactWorkspace t_exact_workspace;

// detail::set_a_runs_use_for_tests (exact_runs.hpp).
thread_local detail::ARunsUse t_a_runs_use = detail::ARunsUse::used;
// detail::set_first_window_for_tests (exact_runs.hpp).
thread_local detail::FirstWindow t_first_window = detail::FirstWindow::narrowed;
// detail::set_b_edges_later_for_tests (exact_runs.hpp).
thread_local bool t_b_edges_later = true;
// detail::set_b_vertices_by_run_for_tests (exact_runs.hpp).
thread_local bool t_b_vertices_by_run = true;
// detail::set_exact_swap_for_tests (exact_runs.hpp).
thread_local bool t_exact_swap_allowed = true;
// The exact mode swaps the bodies' roles when B has more than this many times A's features
// (vertices + edges + faces; screw_collisions). Measured (docs/benchmarks.md, session 31): at 2.1x
// (cube against car) the swap is slower, 20.2 -> 26.4 us for all collisions; at 3.75x (a 320- against
// a 1,200-feature torus) and above it is faster, 863 -> 432 us. Well apart from 1, so that bodies
// of about the same size keep their roles (and their answers' bits) whichever way round they come.
constexpr std::size_t kExactSwapFeatureRatio = 3;

// Omega(s) as a plain rotation and translation, built from the screw's own formulas without the
// orthonormality validation of Pose (which costs more than the placement itself, once per slab).
// Its four vectors, and the slab loop's turn (detail::turn_at), share one sincos of s theta / 2:
// Screw::apply and Screw::rotate each made their own of the same angle (five libm calls per slab
// instead of one; the same operations on the same numbers, so the same bits).
struct Placement {
  Mat3 rotation;
  Vec3 translation;
  std::pair<double, double> turn;  // detail::turn_at(s, screw.angle)
  Placement(const Screw& screw, double s) {
    const detail::HalfTurn h = detail::half_turn(s * screw.angle);
    turn = detail::turn_of(h);
    // Screw::apply(Vec3::Zero(), s) and Screw::rotate(Vec3::Unit(k), s), with h.
    if (screw.angle == 0) {
      translation = screw.apply(Vec3::Zero(), s);
      rotation = Mat3::Identity();
      return;
    }
    translation = detail::turned_apply(screw, h, Vec3::Zero(), s);
    for (int k = 0; k < 3; ++k) rotation.col(k) = detail::turned_rotate(screw, h, Vec3::Unit(k));
  }
  // Column by column, in the order Eigen's product sums them ((c0 x0 + c1 x1) + c2 x2: the same
  // numbers), written out and inlined (the compiler kept Eigen's product, and then this, out of
  // line at the hot call sites: about 500 k calls on the bench's tori).
  [[gnu::always_inline]] Vec3 apply(const Vec3& x) const {
    return rotation.col(0) * x[0] + rotation.col(1) * x[1] + rotation.col(2) * x[2] + translation;
  }
  Vec3 rotate(const Vec3& d) const { return rotation * d; }
  Vec3 apply_inverse(const Vec3& y) const { return transpose_times(rotation, y - translation); }
};

#ifdef PROXIMA_CCD_SSE2
// out[i] = p.apply(in[i]) for i < n (place_avx2). Placing all of B's vertices at a slab's middle
// was about 6% of the tori's first contact (about 30 instructions a vertex in the compiled Eigen
// expression, the scalar z apart from the x, y pair; about 15 here).
void place_all_avx2(const Placement& p, const Vec3* in, Vec3* out, std::size_t n) {
  place_avx2<true, false>(p.rotation, p.translation, in->data(), 3, out, n);
}

// out[i] = the velocity at s = 0 of in[i], theta v x (x - u) + g v, as the query's scalar loop
// writes it (velocities in screw_collisions), one vertex per AVX2 register: coordinate k is
// theta (v[k+1] w[k+2] - v[k+2] w[k+1]) + g v[k] (indices mod 3, w = x - u), the same products,
// differences and sums in the same order, no FMA, so the same bits. The scalar loop was about 3%
// of the tori's first contact (both bodies' vertices, every query).
__attribute__((target("avx2"))) void velocities_avx2(const Screw& screw, const Vec3* in, Vec3* out, std::size_t n) {
  const Vec3& v = screw.axis;
  const __m256d v120 = _mm256_set_pd(0.0, v[0], v[2], v[1]), v201 = _mm256_set_pd(0.0, v[1], v[0], v[2]);
  const __m256d u = _mm256_set_pd(0.0, screw.axis_point.z(), screw.axis_point.y(), screw.axis_point.x());
  const __m256d theta = _mm256_set1_pd(screw.angle);
  const __m256d gv = _mm256_mul_pd(_mm256_set1_pd(screw.glide), _mm256_set_pd(0.0, v[2], v[1], v[0]));
  for (std::size_t i = 0; i < n; ++i) {
    // (lane 3 is never stored: the next vertex's x where there is one, else 0)
    const double* x = in[i].data();
    const __m256d xyz = i + 1 < n ? _mm256_loadu_pd(x) : _mm256_set_pd(0.0, x[2], x[1], x[0]);
    const __m256d w = _mm256_sub_pd(xyz, u);
    const __m256d w201 = _mm256_permute4x64_pd(w, _MM_SHUFFLE(3, 1, 0, 2));  // (w2, w0, w1)
    const __m256d w120 = _mm256_permute4x64_pd(w, _MM_SHUFFLE(3, 0, 2, 1));  // (w1, w2, w0)
    const __m256d c = _mm256_sub_pd(_mm256_mul_pd(v120, w201), _mm256_mul_pd(v201, w120));
    store_xyz(out[i].data(), _mm256_add_pd(_mm256_mul_pd(theta, c), gv), i + 1 < n);
  }
}
#endif

#ifdef PROXIMA_CCD_SSE2
// out[i] = screw.speed(screw.axis_distance(sp[i].center) + sp[i].radius) (a feature's growth, the
// query's sphere_growth) for the first 4 floor(n / 4) spheres, four at a time: returns how many it
// made (none for a screw of angle 0, whose axis distance is 0: the caller's scalar loop). The same
// operations in the same order on each lane as the scalar ones (Eigen's cross product a_i w_j -
// a_j w_i, the sum of squares (c0^2 + c1^2) + c2^2, sqrt correctly rounded in both, no fused
// multiply-add under this target); a lane whose sum of squares is outside speed()'s range takes
// std::hypot as speed() does. So the same bits. (The scalar growths were about 2.7% of the tori's
// first contact.)
__attribute__((target("avx2"))) std::size_t growths_avx2(const Screw& screw, const FeatureSphere* sp, double* out,
                                                         std::size_t n) {
  static_assert(sizeof(FeatureSphere) == 4 * sizeof(double));
  if (screw.angle == 0) return 0;
  const __m256d a0 = _mm256_set1_pd(screw.axis[0]), a1 = _mm256_set1_pd(screw.axis[1]),
                a2 = _mm256_set1_pd(screw.axis[2]);
  const __m256d u0 = _mm256_set1_pd(screw.axis_point[0]), u1 = _mm256_set1_pd(screw.axis_point[1]),
                u2 = _mm256_set1_pd(screw.axis_point[2]);
  const __m256d theta = _mm256_set1_pd(screw.angle), gg = _mm256_set1_pd(screw.glide * screw.glide);
  const __m256d low = _mm256_set1_pd(0x1p-900), high = _mm256_set1_pd(0x1p900);
  std::size_t i = 0;
  for (; i + 4 <= n; i += 4) {
    // Four spheres (x, y, z, r) transposed to lanes.
    const double* p = sp[i].center.data();
    const __m256d s0 = _mm256_loadu_pd(p), s1 = _mm256_loadu_pd(p + 4), s2 = _mm256_loadu_pd(p + 8),
                  s3 = _mm256_loadu_pd(p + 12);
    const __m256d t0 = _mm256_unpacklo_pd(s0, s1), t1 = _mm256_unpackhi_pd(s0, s1), t2 = _mm256_unpacklo_pd(s2, s3),
                  t3 = _mm256_unpackhi_pd(s2, s3);
    const __m256d w0 = _mm256_sub_pd(_mm256_permute2f128_pd(t0, t2, 0x20), u0);
    const __m256d w1 = _mm256_sub_pd(_mm256_permute2f128_pd(t1, t3, 0x20), u1);
    const __m256d w2 = _mm256_sub_pd(_mm256_permute2f128_pd(t0, t2, 0x31), u2);
    const __m256d r = _mm256_permute2f128_pd(t1, t3, 0x31);
    const __m256d c0 = _mm256_sub_pd(_mm256_mul_pd(a1, w2), _mm256_mul_pd(a2, w1));
    const __m256d c1 = _mm256_sub_pd(_mm256_mul_pd(a2, w0), _mm256_mul_pd(a0, w2));
    const __m256d c2 = _mm256_sub_pd(_mm256_mul_pd(a0, w1), _mm256_mul_pd(a1, w0));
    const __m256d dist = _mm256_sqrt_pd(
        _mm256_add_pd(_mm256_add_pd(_mm256_mul_pd(c0, c0), _mm256_mul_pd(c1, c1)), _mm256_mul_pd(c2, c2)));
    const __m256d a = _mm256_mul_pd(theta, _mm256_add_pd(dist, r));
    const __m256d sq = _mm256_add_pd(_mm256_mul_pd(a, a), gg);
    _mm256_storeu_pd(out + i, _mm256_sqrt_pd(sq));
    const int in_range = _mm256_movemask_pd(
        _mm256_and_pd(_mm256_cmp_pd(sq, low, _CMP_GE_OQ), _mm256_cmp_pd(sq, high, _CMP_LE_OQ)));
    if (in_range != 15) {
      alignas(32) double lanes[4];
      _mm256_store_pd(lanes, a);
      for (int j = 0; j < 4; ++j) {
        if (!((in_range >> j) & 1)) out[i + static_cast<std::size_t>(j)] = std::hypot(lanes[j], screw.glide);
      }
    }
  }
  return i;
}
#endif

class Solver {
 public:
  // `storage`: the workspace's collision vector, cleared here and given back by collisions() (cost
  // only: a warm query does not grow a new one).
  Solver(const Body& a, const Body& b, const Screw& screw, const ScrewOptions& opt, double scale,
         std::vector<Collision> storage)
      : a_(a), b_(b), screw_(screw), inverse_(screw.inverse()), opt_(opt), scale_(scale), found_(std::move(storage)) {
    limits_ = {opt.time_tolerance, kCoarseBracket, opt.max_root_iterations, opt.max_intervals, 0};
    found_.clear();
  }

  // VF: vertex va of A against face fb of B, over (s0, s1]. The caller has checked that the pair
  // does not stay improper all step (properness.hpp, improper_all_step_vf).
  void vertex_face(int va, int fb, double s0, double s1) {
    const Vec3& p = a_.v[va];
    const Vec3& nf = b_.n[fb];
    const double df = b_.d[fb];
    const double l1 = inverse_.speed(inverse_.axis_distance(p));  // how fast the point moves
    const detail::PlaneDistance plane(inverse_, p, nf, df);
    const double d1 = plane.slope_bound(), d2 = plane.curvature_bound();
    auto f = [&](double s) { return plane.value(s); };
    auto dfun = [&](double s) { return plane.slope(s); };
    auto bounds = [&](double, double, double& b1, double& b2) { b1 = d1; b2 = d2; };
    detail::RootLimits lim = limits_;
    lim.slack = slack_factor() * (p.norm() + std::abs(df) + scale_);
    const double tol = opt_.feature_tolerance * scale_;
    detail::find_sign_changes(f, dfun, bounds, s0, s1, lim, stats_, [&](double lo, double hi, int dir) {
      if (dir > 0) return;  // leaving B
      // Cheap check on the coarse bracket: the point moves at most l1 * (hi - lo) within it.
      if (!inside_face(b_, fb, inverse_.apply(p, (lo + hi) / 2), tol + l1 * (hi - lo), true)) return;
      const double s = detail::refine_root(f, lo, hi, dir, lim, stats_);
      if (!inside_face(b_, fb, inverse_.apply(p, s), tol)) return;
      Collision c;
      c.type = CollisionType::vf;
      c.vertex = va;
      c.face = fb;
      c.time = s;
      c.point = p;
      const Vec3 nb = screw_.rotate(nf, s);
      c.normal = -nb;
      c.properness = vertex_properness(a_, va, [](const Vec3& e) { return e; }, nb);
      push(c);
    });
  }

  // FV: face fa of A against vertex vb of B (the caller has checked improper_all_step_fv).
  void face_vertex(int fa, int vb, double s0, double s1) {
    const Vec3& x = b_.v[vb];
    const Vec3& nf = a_.n[fa];
    const double df = a_.d[fa];
    const double l1 = screw_.speed(screw_.axis_distance(x));  // how fast the point moves
    const detail::PlaneDistance plane(screw_, x, nf, df);
    const double d1 = plane.slope_bound(), d2 = plane.curvature_bound();
    auto f = [&](double s) { return plane.value(s); };
    auto dfun = [&](double s) { return plane.slope(s); };
    auto bounds = [&](double, double, double& b1, double& b2) { b1 = d1; b2 = d2; };
    detail::RootLimits lim = limits_;
    lim.slack = slack_factor() * (x.norm() + std::abs(df) + scale_);
    const double tol = opt_.feature_tolerance * scale_;
    detail::find_sign_changes(f, dfun, bounds, s0, s1, lim, stats_, [&](double lo, double hi, int dir) {
      if (dir > 0) return;  // leaving A
      if (!inside_face(a_, fa, screw_.apply(x, (lo + hi) / 2), tol + l1 * (hi - lo), true)) return;
      const double s = detail::refine_root(f, lo, hi, dir, lim, stats_);
      const Vec3 q = screw_.apply(x, s);
      if (!inside_face(a_, fa, q, tol)) return;
      Collision c;
      c.type = CollisionType::fv;
      c.vertex = vb;
      c.face = fa;
      c.time = s;
      c.point = q;
      c.normal = nf;
      c.properness = vertex_properness(b_, vb, [&](const Vec3& e) { return screw_.rotate(e, s); }, nf);
      push(c);
    });
  }

  // EE: edge ea of A against edge eb of B over [s0, s1]. The caller has checked the properness
  // bound on the whole slab (edge_improper_near_turned at its middle).
  void edge_edge(int ea, int eb, double s0, double s1) {
    const mesh::Edge& edge_a = a_.mesh->edge(ea);
    const mesh::Edge& edge_b = b_.mesh->edge(eb);
    const Vec3& pa = a_.v[edge_a.v0];
    const Vec3 da = a_.v[edge_a.v1] - pa;
    const Vec3& qb = b_.v[edge_b.v0];
    const Vec3 db = b_.v[edge_b.v1] - qb;
    // A crossing that cannot be proper anywhere in a span gives only collisions push() drops
    // (properness.hpp, edge_improper_near): checked on the whole slab by the caller (most pairs of
    // bodies that pass through each other stop there), then here on each root bracket.
    const double theta = screw_.angle;
    const double la = da.norm(), lb = db.norm();  // as EdgeTripleProduct computes them
    const Vec3 ua = da / la, ub0 = db / lb;
    // `when`: the time s, or {sin(s theta), 1 - cos(s theta)} from the triple product's turn(s).
    auto improper = [&](auto when, double width) {
      return detail::edge_improper_near(edge_a, edge_b, a_.n, b_.n, ua, ub0, screw_.axis, theta, when,
                                        width + opt_.time_tolerance, opt_.properness_threshold);
    };
    const detail::EdgeTripleProduct triple(screw_, pa, da, qb, db);
    if (triple.stays_parallel(opt_.parallel_tolerance)) return;
    const double r0 = triple.r0;
    auto motion = [&](double s, Vec3& q, Vec3& e) { triple.motion(s, q, e); };
    auto f = [&](double s) { return triple.value(s); };
    auto dfun = [&](double s) { return triple.slope(s); };
    auto bounds = [&](double lo, double hi, double& b1, double& b2) { triple.bounds(lo, hi, b1, b2); };
    detail::RootLimits lim = limits_;
    lim.slack = slack_factor() * la * lb * ((pa - qb).norm() + scale_);
    const double vmax = screw_.speed(r0 + lb);
    const double tol = opt_.feature_tolerance * scale_;
    detail::find_sign_changes(f, dfun, bounds, s0, s1, lim, stats_, [&](double lo, double hi, int dir) {
      // Cheap check: at the true root the segments meet, and B's edge moves at most vmax * width.
      const double c_mid = (lo + hi) / 2;
      Vec3 q_mid, e_mid;
      motion(c_mid, q_mid, e_mid);
      if (segment_distance(pa, da, q_mid, e_mid) > tol + vmax * (hi - lo)) return;
      if (improper(triple.turn(c_mid), (hi - lo) / 2)) return;
      const double s = detail::refine_root(f, lo, hi, dir, lim, stats_);
      const Vec3 q = screw_.apply(qb, s);
      const Vec3 e = screw_.rotate(db, s);
      const Vec3 cr = da.cross(e);
      const double cr_norm = cr.norm();
      if (!(cr_norm > opt_.parallel_tolerance * la * lb)) return;
      // Closest points of the two lines pa + alpha da and q + beta e.
      const Vec3 w = q - pa;
      const double alpha = w.cross(e).dot(cr) / (cr_norm * cr_norm);
      const double beta = w.cross(da).dot(cr) / (cr_norm * cr_norm);
      if (alpha * la < -tol || (alpha - 1) * la > tol || beta * lb < -tol || (beta - 1) * lb > tol) return;
      const Vec3 point = pa + std::clamp(alpha, 0.0, 1.0) * da;
      Vec3 n = cr / cr_norm;
      // Orient n from A to B: B's point was on the +n side and moves against n.
      if (screw_.velocity(qb, s).dot(n) + beta * (theta * screw_.axis.cross(e)).dot(n) > 0) n = -n;
      Collision c;
      c.type = CollisionType::ee;
      c.edge_a = ea;
      c.edge_b = eb;
      c.time = s;
      c.point = point;
      c.normal = n;
      c.properness = edge_properness(edge_a, edge_b, da / la, e / lb, n, s);
      push(c);
    });
  }

  std::vector<Collision>& collisions() { return found_; }
  const detail::RootStats& stats() const { return stats_; }

 private:
  // Relative evaluation error allowed in f before a root may be excluded: a few hundred ulps of the
  // terms' magnitude.
  static double slack_factor() { return 256 * std::numeric_limits<double>::epsilon(); }

  template <class Rotate>
  double vertex_properness(const Body& body, int v, const Rotate& rotate, const Vec3& face_normal) const {
    return detail::vertex_properness(*body.mesh, body.v, v, rotate, face_normal);
  }

  double edge_properness(const mesh::Edge& ea, const mesh::Edge& eb, const Vec3& ua, const Vec3& ub, const Vec3& n,
                         double s) const {
    return detail::edge_properness(ea, eb, a_.n, b_.n, ua, ub, n, [&](const Vec3& d) { return screw_.rotate(d, s); });
  }

  void push(const Collision& c) {
    if (c.properness >= opt_.properness_threshold) found_.push_back(c);
  }

  const Body& a_;
  const Body& b_;
  const Screw screw_;
  const Screw inverse_;
  const ScrewOptions& opt_;
  const double scale_;
  detail::RootLimits limits_{};
  detail::RootStats stats_;
  std::vector<Collision> found_;
};

}  // namespace

void detail::validate_screw_options(const ScrewOptions& o) {
  // Every query passes here: the field names (std::string, some longer than the small-string
  // buffer) are built only when some check fails, by the checks below in their order.
  auto finite = [](double x) { return std::isfinite(x); };
  if ((o.method == ScrewMethod::exact || o.method == ScrewMethod::raster) && finite(o.properness_threshold) &&
      finite(o.time_tolerance) && o.time_tolerance > 0 && finite(o.feature_tolerance) && o.feature_tolerance >= 0 &&
      finite(o.parallel_tolerance) && o.parallel_tolerance >= 0 && finite(o.slab_sweep_fraction) &&
      o.slab_sweep_fraction > 0 && o.max_root_iterations >= 1 && o.max_intervals >= 1 && o.max_time_slabs >= 1 &&
      finite(o.pixel_size) && o.pixel_size > 0 && finite(o.time_resolution) && o.time_resolution > 0 &&
      o.max_pixel_records >= 1 && o.max_subdivision >= 0) {
    return;
  }
  if (o.method != ScrewMethod::exact && o.method != ScrewMethod::raster) {
    throw InvalidInput("method", "unknown screw method " + std::to_string(static_cast<int>(o.method)));
  }
  require_finite("properness_threshold", o.properness_threshold);
  require_positive("time_tolerance", o.time_tolerance);
  require_non_negative("feature_tolerance", o.feature_tolerance);
  require_non_negative("parallel_tolerance", o.parallel_tolerance);
  require_positive("slab_sweep_fraction", o.slab_sweep_fraction);
  if (o.max_root_iterations < 1) throw InvalidInput("max_root_iterations", "must be >= 1");
  if (o.max_intervals < 1) throw InvalidInput("max_intervals", "must be >= 1");
  if (o.max_time_slabs < 1) throw InvalidInput("max_time_slabs", "must be >= 1");
  require_positive("pixel_size", o.pixel_size);
  require_positive("time_resolution", o.time_resolution);
  if (o.max_pixel_records < 1) throw InvalidInput("max_pixel_records", "must be >= 1");
  if (o.max_subdivision < 0) throw InvalidInput("max_subdivision", "must be >= 0");
}

// Cold: its code (the workspace's assignment) kept apart, so that it does not change how the
// compiler inlines the query code of this file (it did: 1.2% more instructions on the tori).
[[gnu::cold]] void release_thread_storage() {
  t_exact_workspace = ExactWorkspace{};
  detail::release_raster_storage();
}

void detail::set_a_runs_use_for_tests(ARunsUse use) { t_a_runs_use = use; }

void detail::set_first_window_for_tests(FirstWindow window) { t_first_window = window; }

void detail::set_b_edges_later_for_tests(bool later) { t_b_edges_later = later; }
void detail::set_b_vertices_by_run_for_tests(bool by_run) { t_b_vertices_by_run = by_run; }

void detail::set_snapshot_ids_for_tests(bool use) { t_snapshot_ids = use; }

void detail::set_exact_swap_for_tests(bool allowed) { t_exact_swap_allowed = allowed; }

void detail::set_grid_avx2_for_tests([[maybe_unused]] bool allowed) {
#ifdef PROXIMA_CCD_SSE2
  t_grid_avx2_allowed = allowed;
#endif
}

bool detail::grid_avx2_available() {
#ifdef PROXIMA_CCD_SSE2
  return kCcdHaveAvx2;
#else
  return false;
#endif
}

double detail::exact_run_bound_excess(const Pose& a_start, const Pose& a_end, const Mesh& b, const Pose& b_start,
                                      const Pose& b_end) {
  const Screw screw = decompose(relative_motion(a_start, a_end, b_start, b_end));
  const Pose to_b = relative_pose(a_start, b_start);
  const double reach = to_b.translation().cwiseAbs().maxCoeff();
  Body placed, local;
  make_body(b, to_b, placed);
  make_body(b, Pose(), local);
  double worst = -std::numeric_limits<double>::infinity();
  auto check = [&](const std::vector<FeatureSphere>& local_spheres, const std::vector<FeatureSphere>& spheres) {
    std::vector<FeatureChunk> runs;
    make_chunks(local_spheres, runs);
    for (std::size_t c = 0; c < runs.size(); ++c) {
      if (runs[c].growth < 0) continue;
      const FeatureChunk run = place_chunk(runs[c], to_b, reach, screw);
      for (std::size_t i = c * kChunk; i < std::min((c + 1) * kChunk, spheres.size()); ++i) {
        const FeatureSphere& sp = spheres[i];
        const double growth = screw.speed(screw.axis_distance(sp.center) + sp.radius);
        const double outside = (sp.center - run.center).norm() + sp.radius - run.radius;
        worst = std::max({worst, outside / std::max(run.radius, 1e-300), growth / run.growth - 1});
      }
    }
  };
  check(local.fs, placed.fs);
  check(local.vs, placed.vs);
  check(local.es, placed.es);
  return worst;
}

int detail::exact_setup_avx2_mismatches(const Pose& a_start, const Pose& a_end, const Mesh& m, const Pose& b_start,
                                        const Pose& b_end, int& compared) {
  compared = 0;
#ifdef PROXIMA_CCD_SSE2
  if (!kCcdHaveAvx2) return 0;
  const Screw screw = decompose(relative_motion(a_start, a_end, b_start, b_end));
  Body body;
  make_body(m, relative_pose(a_start, b_start), body);
  int wrong = 0;
  // Growths of every face, vertex and edge sphere, bit for bit.
  for (const std::vector<FeatureSphere>* spheres : {&body.fs, &body.vs, &body.es}) {
    std::vector<double> out(spheres->size());
    const std::size_t made = growths_avx2(screw, spheres->data(), out.data(), spheres->size());
    for (std::size_t i = 0; i < made; ++i) {
      const double want = screw.speed(screw.axis_distance((*spheres)[i].center) + (*spheres)[i].radius);
      wrong += std::memcmp(&want, &out[i], sizeof(double)) != 0;
      ++compared;
    }
  }
  return wrong;
#else
  (void)a_start, (void)a_end, (void)m, (void)b_start, (void)b_end;
  return 0;
#endif
}

namespace {

/// What the exact mode reports its collisions in: the caller's bodies, whichever roles the query
/// ran with (exact_collisions).
struct CallerFrame {
  Screw screw;          ///< the caller's relative motion (B in A's frame): the result's screw
  Screw a_motion;       ///< the caller's A's own motion in the world (finish_collisions)
  Pose a_start;         ///< the caller's A's start pose
  bool swapped = false; ///< the query ran with A and B exchanged
  Pose b_in_a_start;    ///< (swapped) the caller's B in the caller's A's frame at the start
};

/// The features a body offers the exact mode's slab loop: its vertices, edges and faces.
std::size_t feature_count(const Mesh& m) {
  return static_cast<std::size_t>(m.num_vertices()) + static_cast<std::size_t>(m.num_edges()) +
         static_cast<std::size_t>(m.num_faces());
}

/// The exact mode, A's features in grids and B's walked per slab, B moving relative to A by
/// `screw`. With caller.swapped, A and B are the caller's B and A (screw_collisions exchanged
/// them): the collisions found are turned back into the caller's terms (kinds, feature ids, the
/// caller's A frame and normal direction) before they are ordered and moved to the world. The
/// result carries the caller's screw.
ScrewResult exact_collisions(const Mesh& a, const Pose& a_start, const Mesh& b, const Pose& b_start, const Screw& screw,
                             const ScrewOptions& options, const CallerFrame& caller);

}  // namespace

ScrewResult screw_collisions(const Mesh& a, const Pose& a_start, const Pose& a_end, const Mesh& b, const Pose& b_start,
                             const Pose& b_end, const ScrewOptions& options) {
  detail::validate_screw_options(options);
  // Far from unit scale, products of lengths over- or underflow: such a query runs on a copy
  // brought to unit scale, or is refused (scale_range.hpp).
  const double scale_of_bodies = a.bounding_sphere().radius + b.bounding_sphere().radius;
  if (!detail::near_unit_scale(scale_of_bodies)) {
    return detail::rescaled_screw_collisions(a, a_start, a_end, b, b_start, b_end, options, scale_of_bodies);
  }
  if (options.method == ScrewMethod::raster) return detail::raster_screw_collisions(a, a_start, a_end, b, b_start, b_end, options);
  // The exact mode's slab loop walks B's features, each against A's grids: its cost grows with
  // B's feature count times the slabs, while A's grids cost little per query (kept with A's mesh).
  // So when B has far more features than A (a small body against a finely tessellated one), the
  // roles are swapped: the same relative motion seen from B, the same feature pairs, the same
  // contact functions up to rounding, and the collisions turned back (L-prism against the
  // 300-face torus: 241 -> 139 us a query, docs/benchmarks.md session 31). Bodies of similar size
  // keep their roles, and so their bits.
  // Both motions are decomposed first, in this order, whichever roles run: a relative or own
  // rotation at or beyond pi throws "rotation" for either order of the bodies.
  const Screw screw = decompose(relative_motion(a_start, a_end, b_start, b_end));
  CallerFrame caller{screw, decompose(a_end * a_start.inverse()), a_start, false, Pose()};
  if (t_exact_swap_allowed && feature_count(b) > kExactSwapFeatureRatio * feature_count(a)) {
    caller.swapped = true;
    caller.b_in_a_start = relative_pose(a_start, b_start);
    return exact_collisions(b, b_start, a, a_start, decompose(relative_motion(b_start, b_end, a_start, a_end)), options,
                            caller);
  }
  return exact_collisions(a, a_start, b, b_start, screw, options, caller);
}

namespace {

ScrewResult exact_collisions(const Mesh& a, const Pose& a_start, const Mesh& b, const Pose& b_start, const Screw& screw,
                             const ScrewOptions& options, const CallerFrame& caller) {
  ScrewResult result;
  result.screw = caller.screw;
  if (screw.angle == 0 && screw.glide == 0) return result;  // no relative motion: nothing crosses

  ExactWorkspace& work = t_exact_workspace;
  // A's body in its own frame, its vertex grid and edge lines depend on its mesh only: kept from
  // the previous query when A's mesh is that one's, bit for bit (MeshSnapshot). The snapshot is
  // marked invalid while the workspace's pieces are out (a query that throws leaves it so).
  const bool a_kept = work.a_snapshot.matches(a);
  work.a_snapshot.valid = false;
  Body body_a = std::move(work.a), body_b = std::move(work.b);
  if (a_kept) {
    body_a.mesh = &a;
  } else {
    make_body(a, Pose(), body_a);
  }
  // B's face spheres and offsets, and its edge spheres, are made with their run's growths
  // (ready_faces and ready_edges below): only the slab loop's features of runs near A read them.
  make_body(b, relative_pose(a_start, b_start), body_b, true);
  const double scale = body_a.whole.radius + body_b.whole.radius;
  const double pad = options.feature_tolerance * scale;

  // Time slabs: B's sphere sweeps at most slab_sweep_fraction of its radius within one.
  const double max_speed = screw.speed(screw.axis_distance(body_b.whole.center) + body_b.whole.radius);
  // Also short enough that B sweeps at most the larger of the two bodies' mean edge lengths within
  // one, so that on two finely tessellated meshes the grown feature spheres stay about as small
  // as the features and the culling stays informative (a cost choice only: any slab count gives
  // the same collisions).
  auto mean_edge_of = [](const Body& body) {
    double sum = 0;
    for (const FeatureSphere& e : body.es) sum += 2 * e.radius;
    return sum / static_cast<double>(std::max<std::size_t>(body.es.size(), 1));
  };
  // A's is kept with its body (the same edges, so the same sum).
  if (!a_kept) work.a_mean_edge = mean_edge_of(body_a);
  auto slabs_for = [&](double mean_b) {
    const double mean_edge = std::max(work.a_mean_edge, mean_b);
    const double slab_sweep = mean_edge > 0 ? std::min(options.slab_sweep_fraction * body_b.whole.radius, mean_edge)
                                            : options.slab_sweep_fraction * body_b.whole.radius;
    const double wanted = std::ceil(max_speed / slab_sweep);
    return proxima::detail::clamped_int(wanted, 1, options.max_time_slabs, options.max_time_slabs);
  };
  // The runs: B's mesh's runs in its own frame (kept while B's mesh is the same, bit for bit),
  // placed in A's frame. A run's features come from B's vertices placed by to_b (A's frame at
  // s = 0), its sphere from the same vertices unplaced: the placed sphere holds the placed feature
  // spheres but for rounding, which the radius's 1e-9 relative allowance (of the run's and the
  // placement's lengths) covers. Until the run's growths are made, its growth is a bound of
  // theirs: a feature's point lies within R of the run's centre C, so its axis distance is at most
  // that of C plus R (the allowance 1e-9 of the lengths involved), and the speed grows with it
  // (1e-12 relative for the rounding of hypot).
  const bool b_kept = work.b_snapshot.matches(b);
  work.b_snapshot.valid = false;
  Body b_local = std::move(work.b_local);
  std::vector<FeatureChunk> face_chunks_local = std::move(work.face_chunks_local),
                            vertex_chunks_local = std::move(work.vertex_chunks_local),
                            edge_chunks_local = std::move(work.edge_chunks_local);
  if (!b_kept) {
    make_body(b, Pose(), b_local);
    make_chunks(b_local.fs, face_chunks_local);
    make_chunks(b_local.vs, vertex_chunks_local);
    make_chunks(b_local.es, edge_chunks_local);
    work.b_edge_run_vertices.assign(edge_chunks_local.size(), {std::numeric_limits<std::size_t>::max(), 0});
    for (int e = 0; e < b.num_edges(); ++e) {
      auto& [low, high] = work.b_edge_run_vertices[static_cast<std::size_t>(e) / kChunk];
      for (const int v : {b.edge(e).v0, b.edge(e).v1}) {
        low = std::min(low, static_cast<std::size_t>(v));
        high = std::max(high, static_cast<std::size_t>(v));
      }
    }
    work.b_mean_edge_local = mean_edge_of(b_local);
    work.b_reach_local = 0;
    for (const Vec3& x : b_local.v) work.b_reach_local = std::max(work.b_reach_local, x.cwiseAbs().maxCoeff());
  }
  // B's mean edge is that of its placed edges, whose spheres are made later (ready_edges). The mean
  // of its edges in its own frame (kept with its runs) differs from it by the rounding of the
  // placement and of the sums only, far below the allowance 1e-9 of the lengths involved (B's mean
  // edge, its largest coordinate, the placement's): where the slab counts of both ends of the
  // allowance agree, that is the count of the placed mean (with both ends > 0, the max, min,
  // division (correctly rounded), ceil and clamp are all monotone). Else (a count within about
  // 1e-9 of a whole number) the placed edges are made and summed, as before. The same count.
  const Pose to_b = relative_pose(a_start, b_start);
  const double to_b_reach = to_b.translation().cwiseAbs().maxCoeff();
  // Only for a B of more than one run of edges (with one, the slab loop reaches them all).
  bool b_edges_made = false;
  int slabs = 0;
  if (t_b_edges_later && body_b.es.size() > kChunk) {
    const double allowance = 1e-9 * (work.b_mean_edge_local + work.b_reach_local + to_b_reach);
    const double low = work.b_mean_edge_local - allowance, high = work.b_mean_edge_local + allowance;
    const int slabs_low = slabs_for(low);
    if (low > 0 && slabs_low == slabs_for(high)) slabs = slabs_low;
  }
  if (slabs == 0) {  // (slabs_for gives at least 1)
    for (std::size_t e = 0; e < body_b.es.size(); ++e) make_edge_sphere(b, body_b, e);
    b_edges_made = true;
    slabs = slabs_for(mean_edge_of(body_b));
  }

  // Seed 004 section 4.2: n . omega(x) is constant along the motion and affine in x, so a face's
  // sign range is that of its vertices at s = 0. A vertex of B can only enter a face of A with a
  // backward-facing part (omega . n <= 0 somewhere), a vertex of A only a face of B with a
  // forward-facing part; an edge can only take part in an entering crossing through a face of
  // the right kind. Pairs without such faces are skipped.
  const double speed_a = screw.speed(screw.axis_distance(body_a.whole.center) + body_a.whole.radius);
  const double facing_tol = options.feature_tolerance * (speed_a + max_speed);
  // The velocity at s = 0 of each vertex (theta v x (x - u) + g v, without the trigonometry of
  // velocity()), once per vertex instead of once per face and vertex: the same vector, so the same
  // dot products. Written out coordinate by coordinate (Eigen's cross3 and the same products and
  // sums, so the same bits): Eigen's expression stored the cross product's first two coordinates
  // to the stack one by one and multiplied them as one loaded pair, a failed store forwarding per
  // vertex of both bodies.
  std::vector<Vec3> velocity = std::move(work.velocity);
  auto velocities = [&](const Body& body) {
    velocity.resize(body.v.size());
#ifdef PROXIMA_CCD_SSE2
    if (kCcdHaveAvx2 && t_grid_avx2_allowed) {  // the same bits (velocities_avx2)
      velocities_avx2(screw, body.v.data(), velocity.data(), body.v.size());
      return;
    }
#endif
    const Vec3& v = screw.axis;
    for (std::size_t i = 0; i < body.v.size(); ++i) {
      const Vec3 w = body.v[i] - screw.axis_point;
      const double c0 = v[1] * w[2] - v[2] * w[1], c1 = v[2] * w[0] - v[0] * w[2], c2 = v[0] * w[1] - v[1] * w[0];
      velocity[i] = Vec3(screw.angle * c0 + screw.glide * v[0], screw.angle * c1 + screw.glide * v[1],
                         screw.angle * c2 + screw.glide * v[2]);
    }
  };
  auto facing_range = [&](const Body& body, int f, double& lo, double& hi) {
    lo = std::numeric_limits<double>::infinity();
    hi = -lo;
    for (int id : body.mesh->face(f)) {
      const double w = velocity[static_cast<std::size_t>(id)].dot(body.n[f]);
      lo = std::min(lo, w);
      hi = std::max(hi, w);
    }
  };
  std::vector<char> a_face_back = std::move(work.a_face_back), b_face_fwd = std::move(work.b_face_fwd);
  a_face_back.assign(static_cast<std::size_t>(a.num_faces()), 0);
  b_face_fwd.assign(static_cast<std::size_t>(b.num_faces()), 0);
  velocities(body_a);
  for (int f = 0; f < a.num_faces(); ++f) {
    double lo, hi;
    facing_range(body_a, f, lo, hi);
    a_face_back[f] = lo <= facing_tol;
  }
  velocities(body_b);
  for (int f = 0; f < b.num_faces(); ++f) {
    double lo, hi;
    facing_range(body_b, f, lo, hi);
    b_face_fwd[f] = hi >= -facing_tol;
  }
  work.velocity = std::move(velocity);
  auto edge_usable = [](const mesh::Edge& e, const std::vector<char>& ok) {
    return ok[e.face_left] || (e.face_right >= 0 && ok[e.face_right]);
  };
  std::vector<char> a_edge_ok = std::move(work.a_edge_ok), b_edge_ok = std::move(work.b_edge_ok);
  a_edge_ok.resize(static_cast<std::size_t>(a.num_edges()));  // every entry written below
  b_edge_ok.assign(static_cast<std::size_t>(b.num_edges()), 0);
  // edge_usable for each of A's edges, from its two faces' flags kept with A's body (a 0 / 1 char
  // either way; an edge with no right face reads its left one twice): no branch per edge, and no
  // read of the mesh's edge records (about 14 instructions an edge on the tori, 1.4% of their
  // first contact).
  std::vector<std::array<int, 2>>& a_edge_faces = work.a_edge_faces;
  if (!a_kept) {
    a_edge_faces.resize(static_cast<std::size_t>(a.num_edges()));
    for (int e = 0; e < a.num_edges(); ++e) {
      const mesh::Edge& ed = a.edge(e);
      a_edge_faces[static_cast<std::size_t>(e)] = {ed.face_left, ed.face_right >= 0 ? ed.face_right : ed.face_left};
    }
  }
  for (std::size_t e = 0; e < a_edge_faces.size(); ++e) {
    a_edge_ok[e] = static_cast<char>(a_face_back[static_cast<std::size_t>(a_edge_faces[e][0])] |
                                     a_face_back[static_cast<std::size_t>(a_edge_faces[e][1])]);
  }
  // B's are made per run of edges with the run's growths (ready_edges below): only the edge loop's
  // runs that it finds near A read them.

  SphereGrid a_vertices = std::move(work.a_vertices), a_edges = std::move(work.a_edges),
             a_faces = std::move(work.a_faces);
  ARuns a_runs = std::move(work.a_runs);
  if (!a_kept) {
    a_vertices.build(body_a.vs);
    a_runs.make(body_a);
  }
  // Only A's edges and faces that can take part in an entering crossing (above) are listed: the
  // others were skipped first thing for every pair.
  a_edges.build(body_a.es, &a_edge_ok, a_kept);
  a_faces.build(body_a.fs, &a_face_back, a_kept);
#ifdef PROXIMA_CCD_SSE2
  for (SphereGrid* grid : {&a_vertices, &a_edges, &a_faces}) grid->use_avx2(t_grid_avx2_allowed);
#endif
  Solver solver(body_a, body_b, screw, options, scale, std::move(work.found));
  // Per sphere of B, the speed bound of its points (constant along the motion), and per edge of B
  // the speed bound of its points, the speed of its start and |v x d|: made per run of kChunk
  // features when the slab loop first finds the run near A (most runs of a large B never are in a
  // first-contact query), and only for the faces and edges the facing flags keep (the slab loops
  // skip the others before reading them; 0 for them). A vertex's growth is made with its run or when
  // an edge first reads its start vertex's (-1 until then: a speed is >= 0 or NaN).
  std::vector<double> face_growth = std::move(work.face_growth), vertex_growth = std::move(work.vertex_growth),
                      edge_growth = std::move(work.edge_growth);
  std::vector<double> edge_speed = std::move(work.edge_speed), edge_start_speed = std::move(work.edge_start_speed),
                      edge_perp = std::move(work.edge_perp);
  face_growth.resize(body_b.fs.size());
  vertex_growth.assign(body_b.vs.size(), -1.0);
  edge_growth.resize(body_b.es.size());
  edge_speed.resize(static_cast<std::size_t>(b.num_edges()));
  edge_start_speed.resize(static_cast<std::size_t>(b.num_edges()));
  edge_perp.resize(static_cast<std::size_t>(b.num_edges()));
  auto sphere_growth = [&](const FeatureSphere& sp) {
    return screw.speed(screw.axis_distance(sp.center) + sp.radius);
  };
  std::vector<FeatureChunk> face_chunks = std::move(work.face_chunks), vertex_chunks = std::move(work.vertex_chunks),
                            edge_chunks = std::move(work.edge_chunks);
  std::vector<char> face_chunk_ready = std::move(work.face_chunk_ready),
                    vertex_chunk_ready = std::move(work.vertex_chunk_ready),
                    edge_chunk_ready = std::move(work.edge_chunk_ready);
  auto place_chunks = [&](const std::vector<FeatureChunk>& local, std::vector<FeatureChunk>& placed,
                          std::vector<char>& ready) {
    placed.resize(local.size());
    ready.assign(local.size(), 0);
    for (std::size_t c = 0; c < local.size(); ++c) placed[c] = place_chunk(local[c], to_b, to_b_reach, screw);
  };
  place_chunks(face_chunks_local, face_chunks, face_chunk_ready);
  place_chunks(vertex_chunks_local, vertex_chunks, vertex_chunk_ready);
  place_chunks(edge_chunks_local, edge_chunks, edge_chunk_ready);
  auto chunk_range = [](std::size_t c, std::size_t n) {
    return std::pair(c * kChunk, std::min((c + 1) * kChunk, n));
  };
  // The run's growths, and then its growth the largest of them (as the runs had before).
  // out[i] = sphere_growth(sp[i]) for first <= i < last (four at a time with AVX2, the same bits:
  // growths_avx2).
  auto growths = [&](const std::vector<FeatureSphere>& sp, std::size_t first, std::size_t last, double* out) {
    std::size_t i = first;
#ifdef PROXIMA_CCD_SSE2
    if (kCcdHaveAvx2 && t_grid_avx2_allowed) i += growths_avx2(screw, sp.data() + first, out + first, last - first);
#endif
    for (; i < last; ++i) out[i] = sphere_growth(sp[i]);
  };
  auto ready_faces = [&](std::size_t c) {
    const auto [first, last] = chunk_range(c, body_b.fs.size());
    for (std::size_t i = first; i < last; ++i) {
      if (b_face_fwd[i]) make_face_sphere(b, body_b, i);
    }
    // (of every face of the run: those not made read last query's spheres or zeros, then 0 below)
    growths(body_b.fs, first, last, face_growth.data());
    double g = 0;
    for (std::size_t i = first; i < last; ++i) {
      if (!b_face_fwd[i]) face_growth[i] = 0.0;
      g = std::max(g, face_growth[i]);
    }
    if (face_chunks[c].growth >= 0) face_chunks[c].growth = g;
    face_chunk_ready[c] = 1;
  };
  auto ready_vertices = [&](std::size_t c) {
    const auto [first, last] = chunk_range(c, body_b.vs.size());
    // (a vertex whose growth was made already gets the same number again)
    growths(body_b.vs, first, last, vertex_growth.data());
    double g = 0;
    for (std::size_t i = first; i < last; ++i) g = std::max(g, vertex_growth[i]);
    if (vertex_chunks[c].growth >= 0) vertex_chunks[c].growth = g;
    vertex_chunk_ready[c] = 1;
  };
  auto ready_edges = [&](std::size_t c) {
    const auto [first, last] = chunk_range(c, body_b.es.size());
    for (std::size_t e = first; e < last; ++e) {
      b_edge_ok[e] = edge_usable(b.edge(static_cast<int>(e)), b_face_fwd);
      if (b_edge_ok[e] && !b_edges_made) make_edge_sphere(b, body_b, e);
    }
    // (of every edge of the run: those not usable read last query's spheres or zeros, then 0 below)
    growths(body_b.es, first, last, edge_growth.data());
    double g = 0;
    for (std::size_t e = first; e < last; ++e) {
      if (!b_edge_ok[e]) {  // never read
        edge_growth[e] = 0;
        continue;
      }
      g = std::max(g, edge_growth[e]);
      const mesh::Edge& ed = b.edge(static_cast<int>(e));
      const double r0 = screw.axis_distance(body_b.v[ed.v0]);
      const Vec3 d = body_b.v[ed.v1] - body_b.v[ed.v0];
      edge_speed[e] = screw.speed(r0 + d.norm());
      // The speed of the start vertex, which its growth is: speed(r0 + 0) == speed(r0) (the vertex
      // sphere's centre is the vertex, its radius 0; r0 is >= 0 or NaN).
      const std::size_t v0 = static_cast<std::size_t>(ed.v0);
      if (vertex_growth[v0] < 0) vertex_growth[v0] = screw.speed(r0);
      edge_start_speed[e] = vertex_growth[v0];
      edge_perp[e] = screw.angle == 0 ? 0 : screw.axis.cross(d).norm();
    }
    if (edge_chunks[c].growth >= 0) edge_chunks[c].growth = g;
    edge_chunk_ready[c] = 1;
  };
  std::vector<EdgeLine> a_edge_lines = std::move(work.a_edge_lines);
  a_edge_lines.resize(static_cast<std::size_t>(a.num_edges()));
  for (int e = 0; e < (a_kept ? 0 : a.num_edges()); ++e) {
    const mesh::Edge& ed = a.edge(e);
    const Vec3& start = body_a.v[static_cast<std::size_t>(ed.v0)];
    const Vec3 dir = body_a.v[static_cast<std::size_t>(ed.v1)] - start;
    const double length = 2 * body_a.es[e].radius;
    a_edge_lines[static_cast<std::size_t>(e)] = {start, dir, length, dir / length, 1 / dir.squaredNorm()};
  }
#ifdef PROXIMA_CCD_SSE2
  // The AVX2 path's edge lanes (EdgeFilterAvx2), in the listing of A's edge grid.
  EdgeLanes a_edge_lanes = std::move(work.a_edge_lanes);
  const bool edge_filter = kCcdHaveAvx2 && t_grid_avx2_allowed;
  if (!a_kept) a_edge_lanes.rows_valid = false;
  if (edge_filter) {
    if (!a_edge_lanes.rows_valid) a_edge_lanes.make_rows(a_edge_lines, a, body_a.n);
    a_edge_lanes.build(a_edges.listed());
  }
#endif
  std::vector<double> a_vertex_speed = std::move(work.a_vertex_speed);
  // The speed of each of A's vertices, made on first use (-1 until then: a speed is >= 0 or NaN):
  // most vertices never reach the vertex-face loop's plane test in a query.
  a_vertex_speed.assign(static_cast<std::size_t>(a.num_vertices()), -1.0);
  std::vector<Vec3> b_mid = std::move(work.b_mid);
  b_mid.resize(body_b.v.size());
  std::vector<int>& b_vertex_run_placed = work.b_vertex_run_placed;
  b_vertex_run_placed.assign((body_b.v.size() + kChunk - 1) / kChunk, -1);
  int placement = 0;  // counts the slab loop's placements (slab and window middles)
  const bool b_vertices_by_run = t_b_vertices_by_run;  // tests only: false places them all at once
  // The slab loop's tests against A's runs: with first_contact_only only, and when B has more than
  // one run of some kind (a B of one run per kind is tested as a whole already). With a first
  // contact they skip part of the slabs before the contact, where B's features come near A's
  // bounding sphere before they come near its surface (a torus's hole); over all collisions most
  // slabs that pass the whole bodies' test have the bodies through each other, and the tests cost
  // about what they skip (callgrind, docs/benchmarks.md, session 17). Cost only.
  const bool use_a_runs = options.first_contact_only && t_a_runs_use != detail::ARunsUse::off &&
                          (face_chunks.size() > 1 || vertex_chunks.size() > 1 || edge_chunks.size() > 1);
  ARuns shrunk_runs;  // tests only (set_a_runs_use_for_tests): a broken cull
  if (t_a_runs_use == detail::ARunsUse::shrunk) {
    shrunk_runs = a_runs;
    for (ARuns::Kind* kind : {&shrunk_runs.vertices, &shrunk_runs.edges, &shrunk_runs.faces}) {
      for (FeatureSphere& run : kind->runs) run.radius /= 2;
      kind->make_lanes();
    }
  }
  const ARuns& runs_of_a = t_a_runs_use == detail::ARunsUse::shrunk ? shrunk_runs : a_runs;
  const detail::FirstWindow first_window = t_first_window;  // tests only: see narrow_to_first in the slab loop
  // The properness bounds' directions (properness.hpp), each made on its first use in the query
  // (most features never reach a bound): per vertex of A its unit edge directions, per vertex of B
  // the same as turn frames (normalised as improper_all_step normalises them), B's face normals
  // and unit edge directions as turn frames (improper_all_step_vf, edge_improper_near_turned).
  const detail::SinCos turn = detail::turn_sincos(screw.angle);
  const double cos_theta = turn.cos, sin_theta = turn.sin;
  std::vector<Vec3> a_vertex_dirs = std::move(work.a_vertex_dirs);
  std::vector<detail::TurnFrame> b_vertex_dirs = std::move(work.b_vertex_dirs),
                                 b_face_frames = std::move(work.b_face_frames),
                                 b_edge_frames = std::move(work.b_edge_frames);
  std::vector<char> a_vertex_ready = std::move(work.a_vertex_ready), b_vertex_ready = std::move(work.b_vertex_ready),
                    b_face_ready = std::move(work.b_face_ready), b_edge_ready = std::move(work.b_edge_ready);
  // A vertex's edges are one stretch of the mesh's incidence list, so its directions one stretch
  // of ours.
  auto incidences = [](const Mesh& m) {
    const std::span<const int> last = m.vertex_edges(m.num_vertices() - 1);
    return static_cast<std::size_t>(last.data() + last.size() - m.vertex_edges(0).data());
  };
  a_vertex_dirs.resize(incidences(a));
  b_vertex_dirs.resize(incidences(b));
  b_face_frames.resize(static_cast<std::size_t>(b.num_faces()));
  b_edge_frames.resize(static_cast<std::size_t>(b.num_edges()));
  a_vertex_ready.assign(static_cast<std::size_t>(a.num_vertices()), 0);
  b_vertex_ready.assign(static_cast<std::size_t>(b.num_vertices()), 0);
  b_face_ready.assign(static_cast<std::size_t>(b.num_faces()), 0);
  b_edge_ready.assign(static_cast<std::size_t>(b.num_edges()), 0);
  // Calls put(k, unit direction) for the edges of vertex v (k: index in our list), in
  // vertex_edges order.
  auto vertex_dirs = [](const Mesh& m, const Body& body, int v, auto&& put) {
    const std::span<const int> edges = m.vertex_edges(v);
    const std::size_t first = static_cast<std::size_t>(edges.data() - m.vertex_edges(0).data());
    for (std::size_t k = 0; k < edges.size(); ++k) {
      const mesh::Edge& ed = m.edge(edges[k]);
      const std::size_t other = static_cast<std::size_t>(ed.v0 == v ? ed.v1 : ed.v0);
      put(first + k, (body.v[other] - body.v[static_cast<std::size_t>(v)]).normalized());
    }
    return std::pair(first, edges.size());
  };
  auto a_dirs = [&](int va) {
    std::pair<std::size_t, std::size_t> at;
    if (!a_vertex_ready[static_cast<std::size_t>(va)]) {
      at = vertex_dirs(a, body_a, va, [&](std::size_t k, const Vec3& d) { a_vertex_dirs[k] = d; });
      a_vertex_ready[static_cast<std::size_t>(va)] = 1;
    } else {
      const std::span<const int> edges = a.vertex_edges(va);
      at = {static_cast<std::size_t>(edges.data() - a.vertex_edges(0).data()), edges.size()};
    }
    return std::span<const Vec3>(a_vertex_dirs.data() + at.first, at.second);
  };
  auto b_dirs = [&](int vb) {
    std::pair<std::size_t, std::size_t> at;
    if (!b_vertex_ready[static_cast<std::size_t>(vb)]) {
      at = vertex_dirs(b, body_b, vb,
                       [&](std::size_t k, const Vec3& d) { b_vertex_dirs[k] = detail::turn_frame(screw.axis, d); });
      b_vertex_ready[static_cast<std::size_t>(vb)] = 1;
    } else {
      const std::span<const int> edges = b.vertex_edges(vb);
      at = {static_cast<std::size_t>(edges.data() - b.vertex_edges(0).data()), edges.size()};
    }
    return std::span<const detail::TurnFrame>(b_vertex_dirs.data() + at.first, at.second);
  };
  auto b_face_frame = [&](int fb) -> const detail::TurnFrame& {
    const std::size_t i = static_cast<std::size_t>(fb);
    if (!b_face_ready[i]) {
      b_face_frames[i] = detail::turn_frame(screw.axis, body_b.n[i]);
      b_face_ready[i] = 1;
    }
    return b_face_frames[i];
  };
  auto b_edge_frame = [&](int eb) -> const detail::TurnFrame& {
    const std::size_t i = static_cast<std::size_t>(eb);
    if (!b_edge_ready[i]) {
      const mesh::Edge& ed = b.edge(eb);
      b_edge_frames[i] = detail::turn_frame(screw.axis, (body_b.v[ed.v1] - body_b.v[ed.v0]).normalized());
      b_edge_ready[i] = 1;
    }
    return b_edge_frames[i];
  };
  const double threshold = options.properness_threshold;
  // Rounding allowance of the edge-edge point test (see the slab loop): 1e-9 of the lengths that
  // bound every coordinate and distance met there (B's features that pass their sphere tests lie
  // within A's bounding sphere grown by B's diameter and sweep).
  const double point_margin =
      1e-9 * (body_a.whole.center.norm() + body_a.whole.radius + 2 * body_b.whole.radius + max_speed + scale);
  // Each of B's feature spheres is moved to the middle of slab [s0, s1] (one pose for the slab) and
  // grown by the distance any of its points can travel in half a slab, where its loop reaches it
  // (not for faces and edges that the facing flags skip).
  // Cheap exclusions before root isolation, all on B's geometry placed once per slab at its middle
  // (no trigonometry per pair). Each drops a pair only when its contact function cannot vanish in
  // the slab: |f(mid)| exceeds the slope bound times the half width plus a margin (pad, or
  // la lb pad for the edge triple product) that dwarfs the rounding of either evaluation.
  const double a_center_max = body_a.whole.center.cwiseAbs().maxCoeff();  // (chunk_near's margin)
  for (int k = 0; k < slabs; ++k) {
    const double s0 = static_cast<double>(k) / slabs, s1 = static_cast<double>(k + 1) / slabs;
    // The window [mid - half, mid + half] on which the culls below bound the pairs' contact
    // functions: the slab, or with first_contact_only a start of it once a collision is found in it
    // (narrow_to_first below). The solver always searches the whole slab.
    double half = (s1 - s0) / 2;
    Placement mid_pose(screw, (s0 + s1) / 2);
    ++placement;
    std::pair<double, double> mid_turn = mid_pose.turn;
    // Bounding-sphere early out for the whole bodies.
    {
      const Vec3 c = mid_pose.apply(body_b.whole.center);
      const double r = body_b.whole.radius + max_speed * half;
      if (!overlap(body_a.whole, c, r, pad)) continue;
    }
    // B's vertices first .. last (ids) at the slab middle (or the window's, see narrow_to_first),
    // placed run by run of kChunk vertices when a run of B's vertices or edges first needs them: a
    // run of vertices needs its own, a run of edges those between its lowest and highest vertex id
    // (b_edge_run_vertices). In a first-contact query most slabs before the contact have no run
    // near A's runs, and the runs near A need only part of B's vertices (all of them were placed
    // at once before: about 6% of the tori's first contact, at 30 instructions a vertex). The same
    // placement of the same vertices, so the same bits; each read vertex is placed at the current
    // middle (its run's stamp is the current placement's).
    auto place_b = [&](std::size_t first, std::size_t last) {
      if (!b_vertices_by_run) {
        first = 0;
        last = body_b.v.size() - 1;
      }
      for (std::size_t c = first / kChunk; c <= last / kChunk; ++c) {
        if (b_vertex_run_placed[c] == placement) continue;
        b_vertex_run_placed[c] = placement;
        const auto [v0, v1] = chunk_range(c, body_b.v.size());
#ifdef PROXIMA_CCD_SSE2
        if (kCcdHaveAvx2 && t_grid_avx2_allowed) {  // the same bits (place_all_avx2)
          place_all_avx2(mid_pose, body_b.v.data() + v0, b_mid.data() + v0, v1 - v0);
          continue;
        }
#endif
        for (std::size_t i = v0; i < v1; ++i) b_mid[i] = mid_pose.apply(body_b.v[i]);
      }
    };
    // First contact: a slab that holds a collision is the query's last, and of its collisions only
    // those within time_tolerance of the earliest are kept (finish_collisions). So once the slab's
    // loops have found collisions, earliest at `first`, their next runs of B's features (and the
    // loops after them) cull on the window [s0, first + 3 time_tolerance] (B's features placed at
    // its middle, grown over its half width) instead of the whole slab. A pair that the window's
    // culls drop has a contact function that cannot vanish there, |f| > pad > the solver's slack:
    // a time the solver reports for it is a point where |f| <= slack or the middle of a bracket of
    // a sign change no wider than time_tolerance, so it is later than first + 2 time_tolerance and
    // dropped by finish_collisions (`first` only falls as collisions come in). The pairs the window
    // keeps are searched on the whole slab as before, in the same order: the same collisions are
    // kept, in the same order. Fewer pairs are searched (candidate_pairs and iterations fall); the
    // query's interval budget is then spent differently, which could only matter to a query that
    // nearly spends it. Cost only, on the slab that ends the query: its contact is found about
    // halfway through it on the tori, and the pairs the culls keep grow with the window.
    double window_end = s1, first = s1;
    std::size_t seen = 0;  // the collisions `first` has taken in
    auto narrow_to_first = [&] {
      const std::vector<Collision>& found = solver.collisions();
      if (!options.first_contact_only || first_window == detail::FirstWindow::slab || found.size() == seen) return;
      for (; seen < found.size(); ++seen) first = std::min(first, found[seen].time);
      const double end =
          first_window == detail::FirstWindow::early ? s0 + (first - s0) / 2 : first + 3 * options.time_tolerance;
      if (!(end < window_end)) return;
      window_end = end;
      half = (end - s0) / 2;
      mid_pose = Placement(screw, s0 + half);
      mid_turn = mid_pose.turn;
      ++placement;  // B's vertices at the window's middle
    };
    // Is a run of features possibly near A? When not, none of its features passes its own test
    // below: a feature sphere (c, r) of the run, grown by g half <= G half, is within
    // |c - C| + r <= R of the run's centre C and the placement keeps distances, so
    // |P(c) - a| >= |P(C) - a| - (R - r) > r_a + r + g half + pad when |P(C) - a| exceeds
    // r_a + R + G half + pad; the margin (1e-9 of the lengths involved) covers the rounding.
    // (c: the run's centre placed at the middle, mid_pose.apply(ch.center), made once for both tests)
    auto chunk_near = [&](const FeatureChunk& ch, const Vec3& c) {
      const double margin = 1e-9 * (scale + ch.radius + c.cwiseAbs().maxCoeff() + a_center_max);
      return overlap(body_a.whole, c, ch.radius + ch.growth * half + margin, pad);
    };
    // Is a run of B's features possibly near one of A's runs of the kind its features pair with
    // (use_a_runs only)? Sound as chunk_near: a pair's grid test needs |c - c_a| <= r_a + r + g half
    // + pad for B's feature sphere (c, r), grown by g half, and A's (c_a, r_a); with B's in its
    // placed run (C, R), growth G >= g (|C - c| <= R - r), and A's in its run (C_a, R_a)
    // (|C_a - c_a| <= R_a - r_a), |C - C_a| <= R + G half + R_a + pad. A run of B farther than that
    // from every A run, by more than the margin (1e-9 of the lengths involved, over the rounding of
    // both tests and of the runs' radii), has no pair that passes its grid test: no other test of
    // the slab would see one. (Testing each feature of a run near A against the
    // A runs near the run, before its grid query, saved 0.4-1.1% more on the first contacts of the
    // tori and the L-prism/torus and cost 0.3% over all collisions on the cubes: not kept.)
    auto runs_near = [&](const FeatureChunk& ch, const Vec3& c, const ARuns::Kind& kind) {
      if (kind.runs.size() < 2) return true;  // one run: the whole spheres' test
      const double r = ch.radius + ch.growth * half;
      const double grown = r + 1e-9 * (scale + kind.reach + r + c.cwiseAbs().maxCoeff());
#ifdef PROXIMA_CCD_SSE2
      // (four runs at a time; on fewer than 16 runs, a small A, the scalar loop costs less)
      if (kind.runs.size() >= 16 && kCcdHaveAvx2 && t_grid_avx2_allowed) return any_run_near_avx2(kind.lanes, c, grown, pad);
#endif
      for (const FeatureSphere& run : kind.runs) {
        if (overlap(run, c, grown, pad)) return true;
      }
      return false;
    };
    // Both tests of a run of B: near A's whole sphere and, with use_a_runs, near A's runs of the
    // kind its features pair with.
    auto run_near = [&](const FeatureChunk& ch, const ARuns::Kind& paired) {
      if (ch.growth < 0) return true;
      const Vec3 c = mid_pose.apply(ch.center);
      return chunk_near(ch, c) && (!use_a_runs || runs_near(ch, c, paired));
    };
    auto chunk_end = [](std::size_t c, int n) {
      return static_cast<int>(std::min((c + 1) * kChunk, static_cast<std::size_t>(n)));
    };
    for (std::size_t ch = 0; ch < face_chunks.size(); ++ch) {
      narrow_to_first();
      if (!run_near(face_chunks[ch], runs_of_a.vertices)) continue;
      if (!face_chunk_ready[ch]) {
        ready_faces(ch);
        if (!run_near(face_chunks[ch], runs_of_a.vertices)) continue;
      }
      // (the run's end once: the solver's calls and the flags' char stores would have the loop read it again)
      const int fb_end = chunk_end(ch, b.num_faces());
      for (int fb = static_cast<int>(ch * kChunk); fb < fb_end; ++fb) {
        if (!b_face_fwd[fb]) continue;
        const Vec3 center = mid_pose.apply(body_b.fs[fb].center);
        const double radius = body_b.fs[fb].radius + face_growth[fb] * half;
        if (!overlap(body_a.whole, center, radius, pad)) continue;
        // B's face plane at the slab middle.
        const Vec3 normal_mid = mid_pose.rotate(body_b.n[fb]);
        const double offset_mid = body_b.d[fb] + normal_mid.dot(mid_pose.translation);
        a_vertices.for_overlapping(center, radius, pad, [&](int va) {
          const double f_mid = normal_mid.dot(body_a.v[va]) - offset_mid;
          double speed_a_vertex = a_vertex_speed[static_cast<std::size_t>(va)];
          if (speed_a_vertex < 0) {
            speed_a_vertex = screw.speed(screw.axis_distance(body_a.v[static_cast<std::size_t>(va)]));
            a_vertex_speed[static_cast<std::size_t>(va)] = speed_a_vertex;
          }
          const double reach = speed_a_vertex * half;
          if (std::abs(f_mid) > reach + pad) return;
          // A pair that stays improper all step only ever gives collisions the solver's push()
          // drops (properness.hpp, improper_all_step): most pairs of bodies that pass through each
          // other stop here (slab-independent, but cheaper than the inside-face test below).
          if (detail::improper_all_step_vf(a_dirs(va), b_face_frame(fb),
                                           screw.angle, cos_theta, sin_theta, threshold)) {
            return;
          }
          // The solver's own coarse inside-face test, on the whole slab: at a reported root the
          // vertex is within pad of the face, and it is within reach of its slab-middle place.
          if (!inside_face(body_b, fb, mid_pose.apply_inverse(body_a.v[va]), pad + reach, true)) return;
          ++result.candidate_pairs;
          solver.vertex_face(va, fb, s0, s1);
        });
      }
    }
    for (std::size_t ch = 0; ch < vertex_chunks.size(); ++ch) {
      narrow_to_first();
      if (!run_near(vertex_chunks[ch], runs_of_a.faces)) continue;
      if (!vertex_chunk_ready[ch]) {
        ready_vertices(ch);
        if (!run_near(vertex_chunks[ch], runs_of_a.faces)) continue;
      }
      place_b(ch * kChunk, static_cast<std::size_t>(chunk_end(ch, b.num_vertices())) - 1);
      // (the run's end once: the solver's calls and the flags' char stores would have the loop read it again)
      const int vb_end = chunk_end(ch, b.num_vertices());
      for (int vb = static_cast<int>(ch * kChunk); vb < vb_end; ++vb) {
        const Vec3& center = b_mid[static_cast<std::size_t>(vb)];  // the vertex sphere's centre is the vertex
        const double radius = body_b.vs[vb].radius + vertex_growth[vb] * half;
        if (!overlap(body_a.whole, center, radius, pad)) continue;
        a_faces.for_overlapping(center, radius, pad, [&](int fa) {
          const double f_mid = body_a.n[fa].dot(b_mid[vb]) - body_a.d[fa];
          const double reach = vertex_growth[vb] * half;
          if (std::abs(f_mid) > reach + pad) return;
          // B's vertex edges turn with the step (see the vertex-face loop).
          if (detail::improper_all_step_fv(b_dirs(vb), body_a.n[fa], screw.angle,
                                           cos_theta, sin_theta, threshold)) {
            return;
          }
          if (!inside_face(body_a, fa, b_mid[vb], pad + reach, true)) return;
          ++result.candidate_pairs;
          solver.face_vertex(fa, vb, s0, s1);
        });
      }
    }
    for (std::size_t ch = 0; ch < edge_chunks.size(); ++ch) {
      narrow_to_first();
      if (!run_near(edge_chunks[ch], runs_of_a.edges)) continue;
      if (!edge_chunk_ready[ch]) {
        ready_edges(ch);
        if (!run_near(edge_chunks[ch], runs_of_a.edges)) continue;
      }
      place_b(work.b_edge_run_vertices[ch].first, work.b_edge_run_vertices[ch].second);
      // (the run's end once: the solver's calls and the flags' char stores would have the loop read it again)
      const int eb_end = chunk_end(ch, b.num_edges());
      for (int eb = static_cast<int>(ch * kChunk); eb < eb_end; ++eb) {
        if (!b_edge_ok[eb]) continue;
        const Vec3 center = mid_pose.apply(body_b.es[eb].center);
        const double radius = body_b.es[eb].radius + edge_growth[eb] * half;
        if (!overlap(body_a.whole, center, radius, pad)) continue;
        const mesh::Edge& edge_b = b.edge(eb);
        const Vec3& qb = b_mid[edge_b.v0];
        const Vec3 db = b_mid[edge_b.v1] - qb;
        // The segment-distance test below keeps a pair only when the segments come within
        // edge_speed * half + 4 pad; then the middle of B's edge is within that plus half its length
        // of A's segment. So pairs whose A segment is farther from that point (the distance to a
        // point, cheaper than between segments, and far sharper than the spheres for long edges of
        // A) are skipped first: the same pairs reach the solver. The margin (1e-9 of the lengths
        // involved) covers the rounding of both distances.
        const Vec3 mid_b = qb + db / 2;
        const double length_b = 2 * body_b.es[eb].radius;  // B's edge length (invariant under the screw)
        const double near_b = edge_speed[eb] * half + 4 * pad + length_b / 2 + point_margin;
        const double near_b2 = near_b * near_b;
        // B's unit edge direction at the slab middle, and its face normals there when a pair first
        // needs them, for the properness bound of the whole slab.
        // Made when a pair first needs it (as the normals): most edges that reach the grid walk
        // have no hit passing the point test. The same value (mid_turn holds for the whole edge:
        // narrow_to_first runs only between runs of B's edges).
        Vec3 ub_mid_value;
        bool ub_ready = false;
        auto ub_mid = [&]() -> const Vec3& {
          if (!ub_ready) {
            ub_mid_value = detail::turned(b_edge_frame(eb), mid_turn);
            ub_ready = true;
          }
          return ub_mid_value;
        };
        std::array<Vec3, 2> normals_mid;
        bool normals_ready = false;
        auto normal_mid = [&](int side) -> const Vec3& {
          if (!normals_ready) {
            normals_mid[0] = detail::turned(b_face_frame(edge_b.face_left), mid_turn);
            if (edge_b.face_right >= 0) normals_mid[1] = detail::turned(b_face_frame(edge_b.face_right), mid_turn);
            normals_ready = true;
          }
          return normals_mid[static_cast<std::size_t>(side)];
        };
        auto edge_pair = [&](int ea) {
          // A reported EE contact has its segments within ~2 feature tolerances at the root, and
          // B's edge moves at most edge_speed * half from the slab middle.
          const EdgeLine& line_a = a_edge_lines[static_cast<std::size_t>(ea)];
          const Vec3& pa = line_a.start;
          const Vec3& da = line_a.dir;
          if (detail::point_segment_distance2(mid_b, pa, da, line_a.inv_length2) > near_b2) return;
          // A crossing that cannot be proper anywhere in the slab gives only collisions the
          // solver's push() drops (properness.hpp, edge_improper_near, at the slab middle with the
          // half width plus the time tolerance, as the solver tested it before). First: it stops
          // most pairs of bodies that pass through each other (95-98% of those reaching it on the
          // tori), so it costs less in front of the triple product than behind it.
          if (detail::edge_improper_near_turned(a.edge(ea), edge_b, body_a.n, line_a.unit, ub_mid(), normal_mid,
                                                screw.angle, half + options.time_tolerance, threshold)) {
            return;
          }
          // The triple product (q - pa) . (da x e) of the solver, with its slope bound on the slab
          // (edge lengths are invariant, so the precomputed ones serve).
          const double la = line_a.length, lb = length_b;
          const Vec3 w = qb - pa;
          const double reach = w.norm() + edge_start_speed[eb] * half;
          const double slope = la * (edge_start_speed[eb] * lb + reach * std::abs(screw.angle) * edge_perp[eb]);
          if (std::abs(w.dot(da.cross(db))) > slope * half + 4 * la * lb * pad) return;
          if (segment_distance(pa, da, qb, db) > edge_speed[eb] * half + 4 * pad) return;
          ++result.candidate_pairs;
          solver.edge_edge(ea, eb, s0, s1);
        };
#ifdef PROXIMA_CCD_SSE2
        if (edge_filter) {
          const EdgeFilterAvx2<decltype(normal_mid), decltype(ub_mid)> filter{
              &a_edge_lanes, mid_b, near_b2, &ub_mid, screw.angle * (half + options.time_tolerance), threshold,
              &normal_mid, edge_b.face_right >= 0};
          a_edges.for_overlapping(center, radius, pad, edge_pair, filter);
          continue;
        }
#endif
        a_edges.for_overlapping(center, radius, pad, edge_pair);
      }
    }
    if (options.first_contact_only && !solver.collisions().empty()) break;
  }

  if (caller.swapped) {
    // Found with the roles swapped: in B's frame, B's vertex in A's face (VF) or the reverse, the
    // normal from B towards A. In the caller's terms: the other kind (the vertex and face ids
    // already name the caller's vertex and face), the edges exchanged, the point and normal in the
    // caller's A frame at the collision's time (B's pose there is the screw's pose at that time
    // applied to B's start pose, both in A's frame), the normal from A towards B.
    for (Collision& c : solver.collisions()) {
      if (c.type == CollisionType::vf) {
        c.type = CollisionType::fv;
      } else if (c.type == CollisionType::fv) {
        c.type = CollisionType::vf;
      }
      std::swap(c.edge_a, c.edge_b);
      const Pose b_in_a = caller.screw.pose(c.time) * caller.b_in_a_start;
      c.point = b_in_a.apply(c.point);
      c.normal = -b_in_a.rotate(c.normal);
    }
  }
  detail::finish_collisions(solver.collisions(), work.found_buffer, options, caller.a_motion, caller.a_start, result);
  result.iterations = solver.stats().intervals + solver.stats().evaluations;
  // The storage back to the workspace for the next query.
  work.found = std::move(solver.collisions());
  work.a = std::move(body_a);
  work.b = std::move(body_b);
  work.a_vertices = std::move(a_vertices);
  work.a_runs = std::move(a_runs);
  work.a_edges = std::move(a_edges);
  work.a_faces = std::move(a_faces);
  work.a_face_back = std::move(a_face_back);
  work.b_face_fwd = std::move(b_face_fwd);
  work.a_edge_ok = std::move(a_edge_ok);
  work.b_edge_ok = std::move(b_edge_ok);
  work.face_growth = std::move(face_growth);
  work.vertex_growth = std::move(vertex_growth);
  work.edge_growth = std::move(edge_growth);
  work.edge_speed = std::move(edge_speed);
  work.edge_start_speed = std::move(edge_start_speed);
  work.edge_perp = std::move(edge_perp);
  work.a_edge_lines = std::move(a_edge_lines);
#ifdef PROXIMA_CCD_SSE2
  work.a_edge_lanes = std::move(a_edge_lanes);
#endif
  work.face_chunks = std::move(face_chunks);
  work.vertex_chunks = std::move(vertex_chunks);
  work.edge_chunks = std::move(edge_chunks);
  work.face_chunk_ready = std::move(face_chunk_ready);
  work.vertex_chunk_ready = std::move(vertex_chunk_ready);
  work.edge_chunk_ready = std::move(edge_chunk_ready);
  work.b_local = std::move(b_local);
  work.face_chunks_local = std::move(face_chunks_local);
  work.vertex_chunks_local = std::move(vertex_chunks_local);
  work.edge_chunks_local = std::move(edge_chunks_local);
  work.a_vertex_speed = std::move(a_vertex_speed);
  work.b_mid = std::move(b_mid);
  work.a_vertex_dirs = std::move(a_vertex_dirs);
  work.b_vertex_dirs = std::move(b_vertex_dirs);
  work.b_face_frames = std::move(b_face_frames);
  work.b_edge_frames = std::move(b_edge_frames);
  work.a_vertex_ready = std::move(a_vertex_ready);
  work.b_vertex_ready = std::move(b_vertex_ready);
  work.b_face_ready = std::move(b_face_ready);
  work.b_edge_ready = std::move(b_edge_ready);
  if (a_kept) {
    work.a_snapshot.note_id(a);
  } else {
    work.a_snapshot.take(a);
  }
  work.a_snapshot.valid = true;
  if (b_kept) {
    work.b_snapshot.note_id(b);
  } else {
    work.b_snapshot.take(b);
  }
  work.b_snapshot.valid = true;
  if (solver.stats().capped) {
    result.status = Status::iteration_limit;
    result.detail = Detail::no_progress;
  }
  return result;
}

}  // namespace

}  // namespace proxima::ccd
