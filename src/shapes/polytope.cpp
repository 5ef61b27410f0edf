// SPDX-License-Identifier: MIT
// Polytope construction: validation, duplicate merging, dimension detection, the 3-D hull by
// qhull (libqhull_r) or the 1-D / 2-D hull by hand, and the adjacency graph the support climbs.
#include <proxima/shapes/polytope.hpp>

#include <libqhull_r/qhull_ra.h>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define PROXIMA_POLYTOPE_X86 1
#endif

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <numeric>
#include <string>

namespace proxima {

namespace detail {

#ifdef PROXIMA_POLYTOPE_X86
const bool kPolytopeHaveAvx2 = __builtin_cpu_supports("avx2") != 0;

// Multiply and add kept separate (no "fma" target): FMA would round differently from the portable
// loop and could pick another vertex on near-ties.
namespace {

/// d . vertex for vertices i..i+3: (dx * x + dy * y) + dz * z, the portable loop's order.
__attribute__((target("avx2"))) inline __m256d dots4(__m256d vx, __m256d vy, __m256d vz, const double* x,
                                                     const double* y, const double* z, std::size_t i) {
  return _mm256_add_pd(_mm256_add_pd(_mm256_mul_pd(vx, _mm256_loadu_pd(x + i)), _mm256_mul_pd(vy, _mm256_loadu_pd(y + i))),
                       _mm256_mul_pd(vz, _mm256_loadu_pd(z + i)));
}

}  // namespace

// Two independent accumulators (vertices i..i+3 and i+4..i+7 of each 8) halve the loop-carried
// dependency chain, and the running maximum is taken with max_pd, whose result equals the
// "blend where strictly greater" of the sequential rule: MAXPD(v, best) returns `best` when v is
// NaN or when v == best (so -0 versus +0 keeps the earlier value, as strict '>' does). Each lane
// keeps its first maximum; the lanes are merged on (larger value, then smaller index).
__attribute__((target("avx2"), always_inline)) inline int scan_avx2_inline(const double* x, const double* y,
                                                                         const double* z, std::size_t n4, double dx,
                                                                         double dy, double dz) {
  const __m256d vx = _mm256_set1_pd(dx);
  const __m256d vy = _mm256_set1_pd(dy);
  const __m256d vz = _mm256_set1_pd(dz);
  const __m256d eight = _mm256_set1_pd(8.0);
  const __m256d minus_inf = _mm256_set1_pd(-std::numeric_limits<double>::infinity());
  __m256d best0 = minus_inf;
  __m256d best1 = minus_inf;
  __m256d index0 = _mm256_setr_pd(0.0, 1.0, 2.0, 3.0);  // exact as doubles far beyond any hull size
  __m256d index1 = _mm256_setr_pd(4.0, 5.0, 6.0, 7.0);
  __m256d best_index0 = index0;
  __m256d best_index1 = index1;
  std::size_t i = 0;
  for (; i + 8 <= n4; i += 8) {
    const __m256d v0 = dots4(vx, vy, vz, x, y, z, i);
    const __m256d v1 = dots4(vx, vy, vz, x, y, z, i + 4);
    best_index0 = _mm256_blendv_pd(best_index0, index0, _mm256_cmp_pd(v0, best0, _CMP_GT_OQ));  // false on NaN
    best_index1 = _mm256_blendv_pd(best_index1, index1, _mm256_cmp_pd(v1, best1, _CMP_GT_OQ));
    best0 = _mm256_max_pd(v0, best0);
    best1 = _mm256_max_pd(v1, best1);
    index0 = _mm256_add_pd(index0, eight);
    index1 = _mm256_add_pd(index1, eight);
  }
  if (i < n4) {  // a last block of 4 (n4 is a multiple of 4), into accumulator 0
    const __m256d v0 = dots4(vx, vy, vz, x, y, z, i);
    best_index0 = _mm256_blendv_pd(best_index0, index0, _mm256_cmp_pd(v0, best0, _CMP_GT_OQ));
    best0 = _mm256_max_pd(v0, best0);
  }
  // The answer is the smallest index among the lanes holding the largest value (no lane holds
  // NaN; == treats -0 and +0 alike), which is what merging the lanes pairwise on (larger value,
  // then smaller index) gives: the largest value first, then the smallest index of the lanes that
  // hold it (+inf elsewhere), each by two in-register halvings.
  __m256d m = _mm256_max_pd(best0, best1);
  m = _mm256_max_pd(m, _mm256_permute2f128_pd(m, m, 1));
  m = _mm256_max_pd(m, _mm256_permute_pd(m, 0x5));
  const __m256d plus_inf = _mm256_set1_pd(std::numeric_limits<double>::infinity());
  __m256d index = _mm256_min_pd(_mm256_blendv_pd(plus_inf, best_index0, _mm256_cmp_pd(best0, m, _CMP_EQ_OQ)),
                                _mm256_blendv_pd(plus_inf, best_index1, _mm256_cmp_pd(best1, m, _CMP_EQ_OQ)));
  index = _mm256_min_pd(index, _mm256_permute2f128_pd(index, index, 1));
  index = _mm256_min_pd(index, _mm256_permute_pd(index, 0x5));
  // Nothing above -inf (only NaN or -inf products): every lane holds -inf and its start index,
  // so the answer is the smallest, vertex 0, as the sequential scan's.
  return static_cast<int>(_mm256_cvtsd_f64(index));
}

// The scan of the fused pair supports below, where both hulls have fewer than
// kPolytopeHillClimbMinVertices vertices (n4 <= 48). Same products, same vertex (the first of the
// largest product; -0 == +0; NaN never wins; vertex 0 when nothing exceeds -inf), shorter wait.
// Why: GJK and EPA call the support in a dependent chain (the next direction waits for this
// point), and a support call measured about 34 ns of latency at 32 vertices, of which the vertex
// count is about 6 (bench/tools/gjk_latency_probe.cpp, docs/benchmarks.md session 14). After the
// products, scan_avx2_inline's tail is: the largest value, then a blend of the lane indices, two
// halvings of min_pd and a conversion to int, all in one chain. Here the loop keeps no indices
// (the products go to a stack buffer instead), and once the largest value m is known, the first
// index holding it comes from the bit mask of "product == m" over the buffer (compares that do
// not depend on each other, then a bit scan): no branch on where it lies, unlike a search of the
// buffer (docs/benchmarks.md, gjk-speed7, change 2: its data-dependent exit cost more than it
// saved on cold queries).
// m is one of the products (max_pd returns an operand), so the mask is not empty unless m is the
// -inf start value or a -inf product, where the sequential scan's answer is vertex 0.
__attribute__((target("avx2"), always_inline)) inline int scan_small_avx2(const double* x, const double* y,
                                                                        const double* z, std::size_t n4, double dx,
                                                                        double dy, double dz) {
  constexpr std::size_t kMaxPadded = (kPolytopeHillClimbMinVertices + 3) / 4 * 4;
  static_assert(kMaxPadded <= 64, "one bit per product in a 64-bit mask");
  // The fused calls are documented for hulls that scan; a larger one (a direct caller) takes the
  // general scan rather than overrunning the buffer.
  if (n4 > kMaxPadded) return scan_avx2_inline(x, y, z, n4, dx, dy, dz);
  alignas(32) double products[kMaxPadded];
  const __m256d vx = _mm256_set1_pd(dx);
  const __m256d vy = _mm256_set1_pd(dy);
  const __m256d vz = _mm256_set1_pd(dz);
  const __m256d minus_inf = _mm256_set1_pd(-std::numeric_limits<double>::infinity());
  __m256d best0 = minus_inf;
  __m256d best1 = minus_inf;
  std::size_t i = 0;
  for (; i + 8 <= n4; i += 8) {
    const __m256d v0 = dots4(vx, vy, vz, x, y, z, i);
    const __m256d v1 = dots4(vx, vy, vz, x, y, z, i + 4);
    _mm256_store_pd(products + i, v0);
    _mm256_store_pd(products + i + 4, v1);
    best0 = _mm256_max_pd(v0, best0);  // NaN never replaces the running maximum
    best1 = _mm256_max_pd(v1, best1);
  }
  if (i < n4) {  // a last block of 4
    const __m256d v0 = dots4(vx, vy, vz, x, y, z, i);
    _mm256_store_pd(products + i, v0);
    best0 = _mm256_max_pd(v0, best0);
  }
  __m256d m = _mm256_max_pd(best0, best1);
  m = _mm256_max_pd(m, _mm256_permute2f128_pd(m, m, 1));
  m = _mm256_max_pd(m, _mm256_permute_pd(m, 0x5));
  // Bit k set when product k == m (== treats -0 and +0 alike; false on NaN); two accumulators.
  unsigned long long mask0 = 0;
  unsigned long long mask1 = 0;
  std::size_t j = 0;
  for (; j + 8 <= n4; j += 8) {
    const int e0 = _mm256_movemask_pd(_mm256_cmp_pd(_mm256_load_pd(products + j), m, _CMP_EQ_OQ));
    const int e1 = _mm256_movemask_pd(_mm256_cmp_pd(_mm256_load_pd(products + j + 4), m, _CMP_EQ_OQ));
    mask0 |= static_cast<unsigned long long>(e0) << j;
    mask1 |= static_cast<unsigned long long>(e1) << (j + 4);
  }
  if (j < n4) {
    const int e0 = _mm256_movemask_pd(_mm256_cmp_pd(_mm256_load_pd(products + j), m, _CMP_EQ_OQ));
    mask0 |= static_cast<unsigned long long>(e0) << j;
  }
  const unsigned long long mask = mask0 | mask1;
  const bool above_minus_inf = _mm256_cvtsd_f64(m) > -std::numeric_limits<double>::infinity();
  return above_minus_inf ? __builtin_ctzll(mask) : 0;
}

__attribute__((target("avx2"))) int scan_avx2(const double* x, const double* y, const double* z, std::size_t n4,
                                              double dx, double dy, double dz) {
  return scan_avx2_inline(x, y, z, n4, dx, dy, dz);
}

// The two support calls of gjk::MinkowskiDifference::support on small polytopes, fused: the same
// Pose arithmetic (Eigen, no FMA under this target) and the same scans, so the same bits.
__attribute__((target("avx2"))) PolytopePairSupport polytope_pair_support_avx2(const Polytope& a, const Polytope& b,
                                                                               const Pose& b_in_a, const Vec3& d) {
  PolytopePairSupport s;
  const double* ax = a.coords_;
  s.index_a = scan_small_avx2(ax, ax + a.padded_, ax + 2 * a.padded_, a.padded_, d.x(), d.y(), d.z());
  s.a = a.vertex(s.index_a);
  const Vec3 db = b_in_a.rotate_inverse(-d);
  const double* bx = b.coords_;
  s.index_b = scan_small_avx2(bx, bx + b.padded_, bx + 2 * b.padded_, b.padded_, db.x(), db.y(), db.z());
  s.b = b_in_a.apply(b.vertex(s.index_b));
  s.w = s.a - s.b;
  return s;
}

// Pose::apply's arithmetic, four vertices at a time. Eigen's 3x3 product with no FMA gives rows
// x and y as ((R(i,0) x + R(i,1) y) + R(i,2) z) + t(i), and row z as ((R(2,2) z + R(2,1) y) +
// R(2,0) x) + t(2) (its scalar tail runs the sum the other way); the test
// PolytopePairSupport.PlacedBlockIsPoseApplyBitForBit pins both against Pose::apply.
__attribute__((target("avx2"))) void polytope_place_coords_avx2(const Polytope& b, const Pose& b_in_a, double* out) {
  const std::size_t p = b.padded_;
  const double* x = b.coords_;
  const double* y = x + p;
  const double* z = x + 2 * p;
  const Mat3& r = b_in_a.rotation();
  const Vec3& t = b_in_a.translation();
  const __m256d r00 = _mm256_set1_pd(r(0, 0)), r01 = _mm256_set1_pd(r(0, 1)), r02 = _mm256_set1_pd(r(0, 2));
  const __m256d r10 = _mm256_set1_pd(r(1, 0)), r11 = _mm256_set1_pd(r(1, 1)), r12 = _mm256_set1_pd(r(1, 2));
  const __m256d r20 = _mm256_set1_pd(r(2, 0)), r21 = _mm256_set1_pd(r(2, 1)), r22 = _mm256_set1_pd(r(2, 2));
  const __m256d t0 = _mm256_set1_pd(t.x()), t1 = _mm256_set1_pd(t.y()), t2 = _mm256_set1_pd(t.z());
  for (std::size_t i = 0; i < p; i += 4) {
    const __m256d vx = _mm256_loadu_pd(x + i);
    const __m256d vy = _mm256_loadu_pd(y + i);
    const __m256d vz = _mm256_loadu_pd(z + i);
    const __m256d ox = _mm256_add_pd(
        _mm256_add_pd(_mm256_add_pd(_mm256_mul_pd(r00, vx), _mm256_mul_pd(r01, vy)), _mm256_mul_pd(r02, vz)), t0);
    const __m256d oy = _mm256_add_pd(
        _mm256_add_pd(_mm256_add_pd(_mm256_mul_pd(r10, vx), _mm256_mul_pd(r11, vy)), _mm256_mul_pd(r12, vz)), t1);
    const __m256d oz = _mm256_add_pd(
        _mm256_add_pd(_mm256_add_pd(_mm256_mul_pd(r22, vz), _mm256_mul_pd(r21, vy)), _mm256_mul_pd(r20, vx)), t2);
    _mm256_store_pd(out + i, ox);
    _mm256_store_pd(out + p + i, oy);
    _mm256_store_pd(out + 2 * p + i, oz);
  }
}

// The pair support with B's block placed (polytope_place_coords_avx2): A's scan as
// polytope_pair_support_avx2's, B's scan over the placed block with -d.
__attribute__((target("avx2"))) PolytopePairSupport polytope_pair_support_placed_avx2(const Polytope& a,
                                                                                      const Polytope& b,
                                                                                      const double* placed_b,
                                                                                      const Vec3& d) {
  PolytopePairSupport s;
  const double* ax = a.coords_;
  s.index_a = scan_small_avx2(ax, ax + a.padded_, ax + 2 * a.padded_, a.padded_, d.x(), d.y(), d.z());
  s.a = a.vertex(s.index_a);
  const std::size_t p = b.padded_;
  s.index_b = scan_small_avx2(placed_b, placed_b + p, placed_b + 2 * p, p, -d.x(), -d.y(), -d.z());
  const auto k = static_cast<std::size_t>(s.index_b);
  s.b = Vec3(placed_b[k], placed_b[p + k], placed_b[2 * p + k]);
  s.w = s.a - s.b;
  return s;
}

__attribute__((target("avx2"))) PolytopePairSupport polytope_pair_support_avx2(const Polytope& a, const Polytope& b,
                                                                               const Pose& b_in_a, const Vec3& d,
                                                                               const double* placed_b) {
  if (placed_b != nullptr) return polytope_pair_support_placed_avx2(a, b, placed_b, d);
  return polytope_pair_support_avx2(a, b, b_in_a, d);
}

// polytope_pair_support_avx2's w alone (the same expressions, so the same bits), for the loops
// that never read the witnesses: fewer stores, and the two indices go straight to the hints.
__attribute__((target("avx2"))) Vec3 polytope_pair_support_w_avx2(const Polytope& a, const Polytope& b,
                                                                  const Pose& b_in_a, const Vec3& d, int& index_a,
                                                                  int& index_b) {
  const double* ax = a.coords_;
  index_a = scan_small_avx2(ax, ax + a.padded_, ax + 2 * a.padded_, a.padded_, d.x(), d.y(), d.z());
  const Vec3 sa = a.vertex(index_a);
  const Vec3 db = b_in_a.rotate_inverse(-d);
  const double* bx = b.coords_;
  index_b = scan_small_avx2(bx, bx + b.padded_, bx + 2 * b.padded_, b.padded_, db.x(), db.y(), db.z());
  const Vec3 sb = b_in_a.apply(b.vertex(index_b));
  return sa - sb;
}
// inside_planes for blocks of 8 planes (4 at the end), leaving at the first block with a plane
// the point is not `margin` inside of: a point outside the hull usually leaves within the first
// blocks, a point inside reads every plane. n . p - offset as (nx x + ny y) + nz z - offset, the
// portable loop's order (no FMA), so both loops give the same bits.
namespace {

/// Lanes of planes i..i+3 the point is not `margin` inside of (or NaN): n . p - offset >= -margin.
__attribute__((target("avx2"))) inline __m256d not_inside4(__m256d x, __m256d y, __m256d z, __m256d limit,
                                                          const double* planes, std::size_t padded, std::size_t i) {
  const __m256d v =
      _mm256_sub_pd(dots4(x, y, z, planes, planes + padded, planes + 2 * padded, i), _mm256_loadu_pd(planes + 3 * padded + i));
  return _mm256_cmp_pd(v, limit, _CMP_NLT_UQ);
}

/// inside_planes_avx2's test of the point (x, y, z), each coordinate broadcast to the four lanes:
/// 8 planes a block, then a last group of 4.
__attribute__((target("avx2"), always_inline)) inline bool inside_planes_xyz(const double* planes, std::size_t padded,
                                                                             __m256d x, __m256d y, __m256d z,
                                                                             double margin) {
  const __m256d limit = _mm256_set1_pd(-margin);
  std::size_t i = 0;
  for (; i + 8 <= padded; i += 8) {
    const __m256d out = _mm256_or_pd(not_inside4(x, y, z, limit, planes, padded, i),
                                     not_inside4(x, y, z, limit, planes, padded, i + 4));
    if (_mm256_movemask_pd(out) != 0) return false;
  }
  return !(i < padded && _mm256_movemask_pd(not_inside4(x, y, z, limit, planes, padded, i)) != 0);
}

}  // namespace

__attribute__((target("avx2"))) bool inside_planes_avx2(const double* planes, std::size_t padded, const Vec3& p,
                                                        double margin) {
  return inside_planes_xyz(planes, padded, _mm256_set1_pd(p.x()), _mm256_set1_pd(p.y()), _mm256_set1_pd(p.z()),
                           margin);
}

// segment_inside_planes four planes a lane group: each lane clips [lo, hi] by its planes with the
// portable loop's expressions (den = n . e, num = (offset - margin) - n . p, t = num / den; no FMA,
// the same order), so every t has the portable loop's bits; the lanes' bounds are folded into one
// (the largest lo, the smallest hi: a maximum and a minimum do not depend on the order of their
// terms, so the bounds are the portable loop's bits too) after each block of 8 planes (4 at the
// end), where the loop leaves when the part is empty. Why: the edge test of gjk::distance
// (GjkOptions::support_edge_overlap) clips up to ~10 edges against ~12-60 planes per query; one
// division instruction serves four planes here, and the fold, a third of a block's work, runs
// once per 8 planes.
namespace {

/// (offset - margin) - n . p for planes i..i+3: the num of clip4.
__attribute__((target("avx2"), always_inline)) inline __m256d clip_num4(const double* planes, std::size_t padded,
                                                                       std::size_t i, const __m256d (&p)[3],
                                                                       __m256d m) {
  const __m256d nx = _mm256_loadu_pd(planes + i);
  const __m256d ny = _mm256_loadu_pd(planes + padded + i);
  const __m256d nz = _mm256_loadu_pd(planes + 2 * padded + i);
  const __m256d off = _mm256_loadu_pd(planes + 3 * padded + i);
  const __m256d np =
      _mm256_add_pd(_mm256_add_pd(_mm256_mul_pd(nx, p[0]), _mm256_mul_pd(ny, p[1])), _mm256_mul_pd(nz, p[2]));
  return _mm256_sub_pd(_mm256_sub_pd(off, m), np);
}

/// One group of 4 planes (i..i+3) clipping the lanes' bounds with its num given (clip_num4),
/// so that the edge test can share the num of its first planes between a vertex's edges.
__attribute__((target("avx2"), always_inline)) inline bool clip4_num(const double* planes, std::size_t padded,
                                                                     std::size_t i, const __m256d (&e)[3],
                                                                     __m256d num, __m256d& lo, __m256d& hi) {
  const __m256d zero = _mm256_setzero_pd();
  const __m256d nx = _mm256_loadu_pd(planes + i);
  const __m256d ny = _mm256_loadu_pd(planes + padded + i);
  const __m256d nz = _mm256_loadu_pd(planes + 2 * padded + i);
  const __m256d den =
      _mm256_add_pd(_mm256_add_pd(_mm256_mul_pd(nx, e[0]), _mm256_mul_pd(ny, e[1])), _mm256_mul_pd(nz, e[2]));
  // Neither den > 0 nor den < 0 (0 or NaN: EQ_UQ) and !(num > 0): the portable loop's last case.
  const __m256d parallel = _mm256_cmp_pd(den, zero, _CMP_EQ_UQ);
  const __m256d parallel_out = _mm256_and_pd(parallel, _mm256_cmp_pd(num, zero, _CMP_NGT_UQ));
  // A parallel lane's t is blended away below, so it divides by 1 instead of by 0: num / 0 would
  // raise FE_DIVBYZERO (a trap in users' debug builds, docs/reliability.md) for nothing. The other
  // lanes divide by den as before: the same bits. Behind a branch, so that the division does not
  // wait for the compare and the blend when no lane is parallel (a blend on every call cost the
  // distance N=8 row about 3%, docs/benchmarks.md session 37); the branch is taken only for an edge
  // exactly parallel to a face plane (aligned boxes).
  __m256d divisor = den;
  if (_mm256_movemask_pd(parallel) != 0) [[unlikely]] divisor = _mm256_blendv_pd(den, _mm256_set1_pd(1.0), parallel);
  const __m256d t = _mm256_div_pd(num, divisor);
  // min_pd(t, hi) is t < hi ? t : hi and max_pd(t, lo) is t > lo ? t : lo: std::min(hi, t) and
  // std::max(lo, t) of the portable loop, NaN and signed zeros included.
  hi = _mm256_blendv_pd(hi, _mm256_min_pd(t, hi), _mm256_cmp_pd(den, zero, _CMP_GT_OQ));
  lo = _mm256_blendv_pd(lo, _mm256_max_pd(t, lo), _mm256_cmp_pd(den, zero, _CMP_LT_OQ));
  return _mm256_movemask_pd(parallel_out) == 0;
}

/// One group of 4 planes (i..i+3) clipping the lanes' bounds; false when one of them is parallel
/// to the segment's line and the segment is not inside it (den == 0 or NaN, and !(num > 0)).
__attribute__((target("avx2"), always_inline)) inline bool clip4(const double* planes, std::size_t padded,
                                                                 std::size_t i, const __m256d (&p)[3],
                                                                 const __m256d (&e)[3], __m256d m, __m256d& lo,
                                                                 __m256d& hi) {
  return clip4_num(planes, padded, i, e, clip_num4(planes, padded, i, p, m), lo, hi);
}

/// Folds the lanes' bounds (every lane then holds the largest lo, the smallest hi) and tells
/// whether the part between them is not empty (false on NaN).
__attribute__((target("avx2"), always_inline)) inline bool fold_not_empty(__m256d& lo, __m256d& hi) {
  lo = _mm256_max_pd(lo, _mm256_permute2f128_pd(lo, lo, 1));
  lo = _mm256_max_pd(lo, _mm256_permute_pd(lo, 5));
  hi = _mm256_min_pd(hi, _mm256_permute2f128_pd(hi, hi, 1));
  hi = _mm256_min_pd(hi, _mm256_permute_pd(hi, 5));
  return _mm256_cvtsd_f64(lo) < _mm256_cvtsd_f64(hi);
}

}  // namespace

__attribute__((target("avx2"))) bool segment_inside_planes_avx2(const double* planes, std::size_t padded,
                                                                const Vec3& p, const Vec3& e, double margin,
                                                                double& t_lo, double& t_hi) {
  const __m256d pv[3] = {_mm256_set1_pd(p.x()), _mm256_set1_pd(p.y()), _mm256_set1_pd(p.z())};
  const __m256d ev[3] = {_mm256_set1_pd(e.x()), _mm256_set1_pd(e.y()), _mm256_set1_pd(e.z())};
  const __m256d m = _mm256_set1_pd(margin);
  __m256d lo = _mm256_setzero_pd();
  __m256d hi = _mm256_set1_pd(1.0);
  std::size_t i = 0;
  for (; i + 8 <= padded; i += 8) {
    // Both groups always run (no early exit between them: the fold is what costs).
    const bool ok0 = clip4(planes, padded, i, pv, ev, m, lo, hi);
    const bool ok1 = clip4(planes, padded, i + 4, pv, ev, m, lo, hi);
    if (!(ok0 && ok1) || !fold_not_empty(lo, hi)) return false;
  }
  if (i < padded && (!clip4(planes, padded, i, pv, ev, m, lo, hi) || !fold_not_empty(lo, hi))) return false;
  t_lo = _mm256_cvtsd_f64(lo);
  t_hi = _mm256_cvtsd_f64(hi);
  return true;
}

// support_edges_crossing_avx2: gjk::detail::support_edges_common_point's loops over the edges at
// the two support vertices in one call, with the arithmetic of the portable path (the same bits):
// each edge is turned into the other body's frame in one ymm (x, y, z, unused) instead of three
// scalar rows, the edge's start and the margin are broadcast once per vertex instead of once per
// clip, the first 8 planes' (offset - margin) - n . p (the same for every edge from that vertex) are
// made once, and the middle point is tested in line; no call and no reload of the pose per edge.
// Why: at N = 8 a query answered by the edges clipped 3 of them against 12 planes, and a third of
// its ~750 instructions in the edge test were the glue around the clips (docs/benchmarks.md,
// session 31).
namespace {

/// The planes one side of the edge test clips against, with what every edge from one vertex
/// shares: the start p broadcast, the margin, and num of the first block (planes 0..7, or 0..3
/// when there are only 4).
struct EdgeClipPlanes {
  const double* planes;
  std::size_t padded;
  __m256d p[3];
  __m256d m;
  __m256d num0, num1;
};

__attribute__((target("avx2"), always_inline)) inline EdgeClipPlanes edge_clip_planes(const double* planes,
                                                                                     std::size_t padded,
                                                                                     __m256d p, double margin) {
  EdgeClipPlanes c;
  c.planes = planes;
  c.padded = padded;
  c.p[0] = _mm256_permute4x64_pd(p, 0x00);
  c.p[1] = _mm256_permute4x64_pd(p, 0x55);
  c.p[2] = _mm256_permute4x64_pd(p, 0xAA);
  c.m = _mm256_set1_pd(margin);
  c.num0 = clip_num4(planes, padded, 0, c.p, c.m);
  c.num1 = padded >= 8 ? clip_num4(planes, padded, 4, c.p, c.m) : c.num0;
  return c;
}

/// segment_inside_planes_avx2 of p + t e (e as (x, y, z, -) in one ymm), the same blocks and
/// bounds; the part's middle point p + (0.5 (t_lo + t_hi)) e (the expression of
/// Polytope::strictly_crossed_by) into `mid` when the part is not empty.
__attribute__((target("avx2"), always_inline)) inline bool edge_clip(const EdgeClipPlanes& c, __m256d p4, __m256d e4,
                                                                     __m256d& mid) {
  const __m256d e[3] = {_mm256_permute4x64_pd(e4, 0x00), _mm256_permute4x64_pd(e4, 0x55),
                        _mm256_permute4x64_pd(e4, 0xAA)};
  __m256d lo = _mm256_setzero_pd();
  __m256d hi = _mm256_set1_pd(1.0);
  std::size_t i = 0;
  if (c.padded >= 8) {
    const bool ok0 = clip4_num(c.planes, c.padded, 0, e, c.num0, lo, hi);
    const bool ok1 = clip4_num(c.planes, c.padded, 4, e, c.num1, lo, hi);
    if (!(ok0 && ok1) || !fold_not_empty(lo, hi)) return false;
    for (i = 8; i + 8 <= c.padded; i += 8) {
      const bool ok2 = clip4(c.planes, c.padded, i, c.p, e, c.m, lo, hi);
      const bool ok3 = clip4(c.planes, c.padded, i + 4, c.p, e, c.m, lo, hi);
      if (!(ok2 && ok3) || !fold_not_empty(lo, hi)) return false;
    }
    if (i < c.padded && (!clip4(c.planes, c.padded, i, c.p, e, c.m, lo, hi) || !fold_not_empty(lo, hi))) {
      return false;
    }
  } else if (!clip4_num(c.planes, c.padded, 0, e, c.num0, lo, hi) || !fold_not_empty(lo, hi)) {
    return false;
  }
  // Lane 0 of lo, hi holds the folded bounds (segment_inside_planes_avx2's t_lo, t_hi).
  const __m256d s = _mm256_permute4x64_pd(_mm256_mul_pd(_mm256_set1_pd(0.5), _mm256_add_pd(lo, hi)), 0x00);
  mid = _mm256_add_pd(p4, _mm256_mul_pd(s, e4));
  return true;
}

/// inside_planes_avx2 of the point (x, y, z, -) in one ymm (the same blocks and expressions).
__attribute__((target("avx2"), always_inline)) inline bool inside_planes4(const double* planes, std::size_t padded,
                                                                          __m256d x4, double margin) {
  return inside_planes_xyz(planes, padded, _mm256_permute4x64_pd(x4, 0x00), _mm256_permute4x64_pd(x4, 0x55),
                           _mm256_permute4x64_pd(x4, 0xAA), margin);
}

/// Lanes 0..2 of a Vec3 (lane 3 zero), from three scalar loads: the pose and the vertex were
/// often just stored, and one wide load over several recent stores would wait for them to retire.
__attribute__((target("avx2"), always_inline)) inline __m256d load3(const double* v) {
  return _mm256_setr_pd(v[0], v[1], v[2], 0.0);
}

/// (row0 d0 + row1 d1) + row2 d2 over the lanes: with the rows of R, transpose_times(R, d) (the
/// arithmetic of Pose::rotate_inverse).
__attribute__((target("avx2"), always_inline)) inline __m256d rotate_by_rows(__m256d row0, __m256d row1,
                                                                            __m256d row2, __m256d d) {
  return _mm256_add_pd(_mm256_add_pd(_mm256_mul_pd(row0, _mm256_permute4x64_pd(d, 0x00)),
                                     _mm256_mul_pd(row1, _mm256_permute4x64_pd(d, 0x55))),
                       _mm256_mul_pd(row2, _mm256_permute4x64_pd(d, 0xAA)));
}

/// R d with R's columns, in the arithmetic of Eigen's R * d (Pose::rotate): components 0 and 1
/// are (R(i, 0) d0 + R(i, 1) d1) + R(i, 2) d2 (packets of two), component 2 is
/// R(2, 0) d0 + (R(2, 1) d1 + R(2, 2) d2) (Eigen's unrolled sum of three); both made, lane 2 taken
/// from the second.
__attribute__((target("avx2"), always_inline)) inline __m256d rotate_by_columns(__m256d col0, __m256d col1,
                                                                               __m256d col2, __m256d d) {
  const __m256d m0 = _mm256_mul_pd(col0, _mm256_permute4x64_pd(d, 0x00));
  const __m256d m1 = _mm256_mul_pd(col1, _mm256_permute4x64_pd(d, 0x55));
  const __m256d m2 = _mm256_mul_pd(col2, _mm256_permute4x64_pd(d, 0xAA));
  return _mm256_blend_pd(_mm256_add_pd(_mm256_add_pd(m0, m1), m2), _mm256_add_pd(m0, _mm256_add_pd(m1, m2)), 0b0100);
}

/// A neighbour's coordinates from its climb entry (lane 3, the entry's vertex index, set to 0).
__attribute__((target("avx2"), always_inline)) inline __m256d load_climb(const ClimbEdge& c) {
  return _mm256_blend_pd(_mm256_loadu_pd(&c.x), _mm256_setzero_pd(), 0b1000);
}

}  // namespace

__attribute__((target("avx2"))) int support_edges_crossing_avx2(const Polytope& a, const Polytope& b,
                                                                const Pose& b_in_a, int index_a, int index_b,
                                                                Vec3& x) {
  const double* r = b_in_a.rotation().data();  // column-major: r[3 j + i] = R(i, j)
  const __m256d col0 = load3(r);
  const __m256d col1 = load3(r + 3);
  const __m256d col2 = load3(r + 6);
  const __m256d t = load3(b_in_a.translation().data());
  // The first of `owner`'s edges at vertex `index` (its climb entries, minus the vertex `start` in
  // owner's frame, turned into the other body's frame by `turn`) whose clip against `other`'s
  // planes from the vertex `p` (other's frame) has its middle point inside `other`: that point in
  // x and true; else false. Both bodies' loops below are this one, inlined with their own turn.
  auto first_crossing = [&x](const Polytope& owner, int index, __m256d start, __m256d p, const Polytope& other,
                             auto turn) __attribute__((target("avx2"), always_inline)) {
    const EdgeClipPlanes c =
        edge_clip_planes(other.coords_ + 3 * other.padded_, other.planes_padded_, p, other.interior_margin_);
    const detail::PolytopeData& d = *owner.data_;
    const auto k0 = static_cast<std::size_t>(d.offsets[static_cast<std::size_t>(index)]);
    const auto k1 = static_cast<std::size_t>(d.offsets[static_cast<std::size_t>(index) + 1]);
    const ClimbEdge* edges = d.climb.data();
    for (std::size_t k = k0; k < k1; ++k) {
      const __m256d e = turn(_mm256_sub_pd(load_climb(edges[k]), start));
      __m256d mid;
      if (edge_clip(c, p, e, mid) && inside_planes4(c.planes, c.padded, mid, other.interior_margin_)) {
        alignas(32) double out[4];
        _mm256_store_pd(out, mid);
        x = Vec3(out[0], out[1], out[2]);
        return true;
      }
    }
    return false;
  };

  // A's edges at index_a in B's frame (Pose::rotate_inverse: rotate_by_rows).
  {
    // The rows of R: the transpose of (col0, col1, col2, 0).
    const __m256d zero = _mm256_setzero_pd();
    const __m256d lo01 = _mm256_unpacklo_pd(col0, col1);  // R00 R01 | R20 R21
    const __m256d hi01 = _mm256_unpackhi_pd(col0, col1);  // R10 R11 | -   -
    const __m256d lo2z = _mm256_unpacklo_pd(col2, zero);  // R02 0   | R22 0
    const __m256d hi2z = _mm256_unpackhi_pd(col2, zero);  // R12 0   | -   0
    const __m256d row0 = _mm256_permute2f128_pd(lo01, lo2z, 0x20);
    const __m256d row1 = _mm256_permute2f128_pd(hi01, hi2z, 0x20);
    const __m256d row2 = _mm256_permute2f128_pd(lo01, lo2z, 0x31);
    const auto ka = static_cast<std::size_t>(index_a);
    const __m256d pa = _mm256_setr_pd(a.coords_[ka], a.coords_[a.padded_ + ka], a.coords_[2 * a.padded_ + ka], 0.0);
    // Pose::apply_inverse: transpose_times(R, p - t).
    const __m256d p = rotate_by_rows(row0, row1, row2, _mm256_sub_pd(pa, t));
    auto turn = [&](__m256d v) __attribute__((target("avx2"), always_inline)) {
      return rotate_by_rows(row0, row1, row2, v);
    };
    if (first_crossing(a, index_a, pa, p, b, turn)) return 1;
  }

  // B's edges at index_b in A's frame (Pose::rotate: rotate_by_columns).
  {
    const auto kb = static_cast<std::size_t>(index_b);
    const __m256d pb = _mm256_setr_pd(b.coords_[kb], b.coords_[b.padded_ + kb], b.coords_[2 * b.padded_ + kb], 0.0);
    // Pose::apply: R p + t.
    const __m256d p = _mm256_add_pd(rotate_by_columns(col0, col1, col2, pb), t);
    auto turn = [&](__m256d v) __attribute__((target("avx2"), always_inline)) {
      return rotate_by_columns(col0, col1, col2, v);
    };
    if (first_crossing(b, index_b, pb, p, a, turn)) return 2;
  }
  return 0;
}
#else
const bool kPolytopeHaveAvx2 = false;
bool inside_planes_avx2(const double*, std::size_t, const Vec3&, double) { return false; }
bool segment_inside_planes_avx2(const double*, std::size_t, const Vec3&, const Vec3&, double, double&, double&) {
  return false;
}
Vec3 polytope_pair_support_w_avx2(const Polytope&, const Polytope&, const Pose&, const Vec3&, int&, int&) {
  return nan_vec3();
}
int scan_avx2(const double*, const double*, const double*, std::size_t, double, double, double) { return 0; }
PolytopePairSupport polytope_pair_support_avx2(const Polytope&, const Polytope&, const Pose&, const Vec3&) { return {}; }
void polytope_place_coords_avx2(const Polytope&, const Pose&, double*) {}
PolytopePairSupport polytope_pair_support_avx2(const Polytope&, const Polytope&, const Pose&, const Vec3&,
                                               const double*) {
  return {};
}
PolytopePairSupport polytope_pair_support_placed_avx2(const Polytope&, const Polytope&, const double*, const Vec3&) {
  return {};
}
int support_edges_crossing_avx2(const Polytope&, const Polytope&, const Pose&, int, int, Vec3&) { return 0; }
#endif

bool inside_planes(const double* planes, std::size_t padded, const Vec3& p, double margin) {
  if (kPolytopeHaveAvx2) return inside_planes_avx2(planes, padded, p, margin);
  for (std::size_t i = 0; i < padded; ++i) {
    const double v = (planes[i] * p.x() + planes[padded + i] * p.y()) + planes[2 * padded + i] * p.z() -
                     planes[3 * padded + i];
    if (!(v < -margin)) return false;  // also false on NaN
  }
  return true;
}

bool segment_inside_planes(const double* planes, std::size_t padded, const Vec3& p, const Vec3& e, double margin,
                           double& t_lo, double& t_hi) {
  if (kPolytopeHaveAvx2) return segment_inside_planes_avx2(planes, padded, p, e, margin, t_lo, t_hi);
  return segment_inside_planes_portable(planes, padded, p, e, margin, t_lo, t_hi);
}

bool segment_inside_planes_portable(const double* planes, std::size_t padded, const Vec3& p, const Vec3& e,
                                    double margin, double& t_lo, double& t_hi) {
  double lo = 0;
  double hi = 1;
  for (std::size_t i = 0; i < padded; ++i) {
    const double nx = planes[i];
    const double ny = planes[padded + i];
    const double nz = planes[2 * padded + i];
    // n . (p + t e) <= offset - margin  <=>  t (n . e) <= offset - margin - n . p
    const double den = (nx * e.x() + ny * e.y()) + nz * e.z();
    const double num = planes[3 * padded + i] - margin - ((nx * p.x() + ny * p.y()) + nz * p.z());
    if (den > 0) {
      hi = std::min(hi, num / den);
    } else if (den < 0) {
      lo = std::max(lo, num / den);
    } else if (!(num > 0)) {
      return false;  // parallel to the plane and not inside it, or NaN
    }
    if (!(lo < hi)) return false;  // empty, or NaN
  }
  t_lo = lo;
  t_hi = hi;
  return true;
}

}  // namespace detail

namespace {

/// A hull before it is packed: input indices of its vertices, triangles and edges over them.
struct RawHull {
  int dimension = 0;
  std::vector<int> vertices;
  std::vector<std::array<int, 3>> faces;
  std::vector<std::array<int, 2>> edges;
};

void validate(std::span<const Vec3> points) {
  if (points.empty()) throw InvalidInput("vertices", "is empty (a polytope needs at least one point)");
  for (std::size_t i = 0; i < points.size(); ++i) require_finite("vertices[" + std::to_string(i) + "]", points[i]);
}

/// Input indices of the distinct points, first occurrence of each (in input order).
std::vector<int> distinct_points(std::span<const Vec3> points) {
  std::vector<int> order(points.size());
  std::iota(order.begin(), order.end(), 0);
  const auto less = [&](int i, int j) {
    const Vec3& p = points[static_cast<std::size_t>(i)];
    const Vec3& q = points[static_cast<std::size_t>(j)];
    if (p.x() != q.x()) return p.x() < q.x();
    if (p.y() != q.y()) return p.y() < q.y();
    if (p.z() != q.z()) return p.z() < q.z();
    return i < j;
  };
  std::sort(order.begin(), order.end(), less);
  std::vector<int> out;
  for (const int i : order) {
    if (out.empty() || points[static_cast<std::size_t>(out.back())] != points[static_cast<std::size_t>(i)]) {
      out.push_back(i);
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

/// Collinear set: the two extreme points along the line direction u through a.
RawHull line_hull(std::span<const Vec3> points, const std::vector<int>& ids, const Vec3& a, const Vec3& u) {
  int lo = ids.front();
  int hi = ids.front();
  double lo_value = std::numeric_limits<double>::infinity();
  double hi_value = -lo_value;
  for (const int i : ids) {
    const double t = (points[static_cast<std::size_t>(i)] - a).dot(u);
    if (t < lo_value) lo_value = t, lo = i;
    if (t > hi_value) hi_value = t, hi = i;
  }
  RawHull hull;
  hull.dimension = 1;
  hull.vertices = {lo, hi};
  hull.edges = {{lo, hi}};
  return hull;
}

double cross2(const Eigen::Vector2d& o, const Eigen::Vector2d& a, const Eigen::Vector2d& b) {
  return (a.x() - o.x()) * (b.y() - o.y()) - (a.y() - o.y()) * (b.x() - o.x());
}

/// Flat set: the hull polygon in the plane through a spanned by u and n x u (Andrew's monotone
/// chain, collinear boundary points dropped), counter-clockwise about n. Falls back to the line
/// hull when the projected points turn out collinear.
RawHull plane_hull(std::span<const Vec3> points, const std::vector<int>& ids, const Vec3& a, const Vec3& u,
                   const Vec3& n) {
  const Vec3 v = n.cross(u);
  std::vector<std::pair<Eigen::Vector2d, int>> q;
  q.reserve(ids.size());
  for (const int i : ids) {
    const Vec3 r = points[static_cast<std::size_t>(i)] - a;
    q.push_back({Eigen::Vector2d(r.dot(u), r.dot(v)), i});
  }
  std::sort(q.begin(), q.end(), [](const auto& l, const auto& r) {
    return l.first.x() != r.first.x() ? l.first.x() < r.first.x() : l.first.y() < r.first.y();
  });
  std::vector<std::size_t> chain(2 * q.size());
  std::size_t k = 0;
  for (std::size_t i = 0; i < q.size(); ++i) {  // lower hull
    while (k >= 2 && cross2(q[chain[k - 2]].first, q[chain[k - 1]].first, q[i].first) <= 0) --k;
    chain[k++] = i;
  }
  for (std::size_t i = q.size() - 1, lower = k + 1; i-- > 0;) {  // upper hull
    while (k >= lower && cross2(q[chain[k - 2]].first, q[chain[k - 1]].first, q[i].first) <= 0) --k;
    chain[k++] = i;
  }
  const std::size_t m = k - 1;  // the last point repeats the first
  if (m < 3) return line_hull(points, ids, a, u);
  RawHull hull;
  hull.dimension = 2;
  for (std::size_t i = 0; i < m; ++i) hull.vertices.push_back(q[chain[i]].second);
  for (std::size_t i = 0; i < m; ++i) hull.edges.push_back({hull.vertices[i], hull.vertices[(i + 1) % m]});
  for (std::size_t i = 1; i + 1 < m; ++i) hull.faces.push_back({hull.vertices[0], hull.vertices[i], hull.vertices[i + 1]});
  return hull;
}

/// Solid set: qhull's triangulated hull ("Qt"). Returns false when qhull finds the set flat (its
/// own, tighter test than ours); throws InvalidInput with qhull's message on any other error.
bool qhull_hull(std::span<const Vec3> points, const std::vector<int>& ids, const Vec3& origin, RawHull& hull) {
  // Coordinates relative to a central point: qhull's roundoff is relative to their magnitude.
  std::vector<coordT> coords;
  coords.reserve(3 * ids.size());
  for (const int i : ids) {
    const Vec3 r = points[static_cast<std::size_t>(i)] - origin;
    coords.insert(coords.end(), {r.x(), r.y(), r.z()});
  }
  char* message = nullptr;
  std::size_t message_size = 0;
  FILE* errors = open_memstream(&message, &message_size);
  qhT qh_storage;
  qhT* qh = &qh_storage;
  qh_zero(qh, errors);
  char options[] = "qhull Qt";
  const int exit_code = qh_new_qhull(qh, 3, static_cast<int>(ids.size()), coords.data(), False, options, nullptr, errors);
  bool flat = false;
  std::string failure;
  if (exit_code == 0) {
    hull.dimension = 3;
    for (facetT* f = qh->facet_list; f != nullptr && f->next != nullptr; f = f->next) {
      std::array<int, 3> tri{};
      int count = 0;
      for (int j = 0; f->vertices->e[j].p != nullptr; ++j, ++count) {
        if (count < 3) tri[static_cast<std::size_t>(count)] = qh_pointid(qh, static_cast<vertexT*>(f->vertices->e[j].p)->point);
      }
      if (count != 3) {
        failure = "qhull returned a facet with " + std::to_string(count) + " vertices despite option Qt";
        break;
      }
      // Orient counter-clockwise from outside, using qhull's outward facet normal.
      const auto p = [&](int id) {
        const auto s = static_cast<std::size_t>(3 * id);
        return Vec3(coords[s], coords[s + 1], coords[s + 2]);
      };
      const Vec3 normal(f->normal[0], f->normal[1], f->normal[2]);
      if ((p(tri[1]) - p(tri[0])).cross(p(tri[2]) - p(tri[0])).dot(normal) < 0) std::swap(tri[1], tri[2]);
      for (int& t : tri) t = ids[static_cast<std::size_t>(t)];
      hull.faces.push_back(tri);
    }
  } else {
    flat = exit_code == qh_ERRsingular;  // "initial simplex is flat"
    failure = "qhull failed with exit code " + std::to_string(exit_code);
  }
  qh_freeqhull(qh, !qh_ALL);
  int still_long = 0;
  int total_long = 0;
  qh_memfreeshort(qh, &still_long, &total_long);
  std::fclose(errors);
  const std::string text(message != nullptr ? message : "", message_size);
  std::free(message);
  if (flat) return false;
  if (!failure.empty()) throw InvalidInput("vertices", failure + ": " + text);
  for (const auto& f : hull.faces) hull.vertices.insert(hull.vertices.end(), f.begin(), f.end());
  std::sort(hull.vertices.begin(), hull.vertices.end());
  hull.vertices.erase(std::unique(hull.vertices.begin(), hull.vertices.end()), hull.vertices.end());
  // A closed triangulated sphere has V = F / 2 + 2 (Euler); anything else is not a hull we can
  // climb on.
  if (hull.faces.size() % 2 != 0 || hull.vertices.size() != hull.faces.size() / 2 + 2) {
    throw InvalidInput("vertices", "qhull returned a hull that is not a closed surface (" +
                                       std::to_string(hull.vertices.size()) + " vertices, " +
                                       std::to_string(hull.faces.size()) + " triangles)");
  }
  return true;
}

RawHull build_hull(std::span<const Vec3> input) {
  validate(input);
  const std::vector<int> ids = distinct_points(input);
  if (ids.size() == 1) {
    throw InvalidInput("vertices", "all " + std::to_string(input.size()) + " points are identical");
  }
  // Work on a copy scaled by a power of two (exact) so that the largest coordinate is about 1:
  // the norms and cross products below then neither overflow for coordinates near 1e300 nor
  // underflow near 1e-300. Only indices leave this function, so the scaling is invisible.
  double largest = 0;
  for (const Vec3& p : input) largest = std::max(largest, p.cwiseAbs().maxCoeff());
  const double scale = largest > 0 ? std::ldexp(1.0, -std::ilogb(largest)) : 1.0;
  std::vector<Vec3> scaled;
  scaled.reserve(input.size());
  for (const Vec3& p : input) scaled.push_back(p * scale);
  const std::span<const Vec3> points(scaled);
  const auto at = [&](int i) -> const Vec3& { return points[static_cast<std::size_t>(i)]; };
  const auto farthest = [&](auto&& distance) {
    int best = ids.front();
    double best_value = -1;
    for (const int i : ids) {
      const double v = distance(at(i));
      if (v > best_value) best_value = v, best = i;
    }
    return std::pair{best, best_value};
  };
  // A diameter-like pair (a, b): the point farthest from the first, then the farthest from it.
  const Vec3 a = at(farthest([&](const Vec3& p) { return (p - at(ids.front())).norm(); }).first);
  const auto [b_index, extent] = farthest([&](const Vec3& p) { return (p - a).norm(); });
  const Vec3 u = (at(b_index) - a) / extent;
  const auto [c_index, off_line] = farthest([&](const Vec3& p) { return (p - a).cross(u).norm(); });
  if (off_line <= kPolytopeFlatnessTolerance * extent) return line_hull(points, ids, a, u);
  const Vec3 n = u.cross(at(c_index) - a).normalized();
  const double off_plane = farthest([&](const Vec3& p) { return std::abs((p - a).dot(n)); }).second;
  if (off_plane <= kPolytopeFlatnessTolerance * extent) return plane_hull(points, ids, a, u, n);
  RawHull hull;
  if (!qhull_hull(points, ids, (a + at(b_index)) / 2, hull)) return plane_hull(points, ids, a, u, n);
  return hull;
}

}  // namespace

namespace {

/// The interior test's planes (appended to PolytopeData::coords), planes_padded and interior_margin
/// from the hull triangles (solids of at most kPolytopeInteriorTestMaxPlanes triangles; no test
/// otherwise, see PolytopeData). Why the
/// triangles' planes are enough: the hull is the intersection of its facets' halfspaces, and every
/// triangle lies in a facet. Each plane is n / |n| with n = (b - a) x (c - a) for the corners a, b,
/// c, offset n . a. Rounding tilts that unit normal by at most about 4 ulps / sin(angle at a) =
/// 4 ulps |b - a| |c - a| / |n| (radians), so at any point within the extent E (the largest vertex
/// norm) of the origin the rounded plane is within 8 ulps E / sin(angle) of the exact one; the
/// margin takes four times the worst triangle's bound plus 64 ulps of E for the test's own
/// rounding. A triangle so thin that this exceeds kPolytopeInteriorTestMaxMargin E disables the
/// test (as does a degenerate one).
void build_interior_test(detail::PolytopeData& data) {
  if (data.dimension != 3 || data.faces.empty() ||
      data.faces.size() > static_cast<std::size_t>(kPolytopeInteriorTestMaxPlanes)) {
    return;
  }
  double extent = 0;
  for (const Vec3& p : data.vertices) extent = std::max(extent, p.norm());
  const std::size_t count = data.faces.size();
  const std::size_t padded = (count + 3) / 4 * 4;
  std::vector<double> planes(4 * padded, 0.0);
  double worst_tilt = 0;  // max over triangles of 1 / sin(angle at the first corner)
  for (std::size_t k = 0; k < padded; ++k) {
    const std::array<int, 3>& f = data.faces[k < count ? k : 0];
    const Vec3& a = data.vertices[static_cast<std::size_t>(f[0])];
    const Vec3 ab = data.vertices[static_cast<std::size_t>(f[1])] - a;
    const Vec3 ac = data.vertices[static_cast<std::size_t>(f[2])] - a;
    const Vec3 cross = ab.cross(ac);
    const double length = cross.norm();
    if (!(length > 0) || !std::isfinite(length)) return;  // a degenerate triangle: no test
    worst_tilt = std::max(worst_tilt, ab.norm() * ac.norm() / length);
    const Vec3 n = cross / length;
    planes[k] = n.x();
    planes[padded + k] = n.y();
    planes[2 * padded + k] = n.z();
    planes[3 * padded + k] = n.dot(a);
  }
  const double margin = (32 * worst_tilt + 64) * std::numeric_limits<double>::epsilon() * extent;
  if (!(margin <= kPolytopeInteriorTestMaxMargin * extent)) return;
  data.coords.insert(data.coords.end(), planes.begin(), planes.end());  // after the vertices
  data.planes_padded = padded;
  data.interior_margin = margin;
}

}  // namespace

Polytope::Polytope(std::span<const Vec3> points) {
  const RawHull raw = build_hull(points);
  auto data = std::make_shared<detail::PolytopeData>();
  data->dimension = raw.dimension;
  // Compact numbering: hull vertex k is input point raw.vertices[k].
  std::vector<int> compact(points.size(), -1);
  for (std::size_t k = 0; k < raw.vertices.size(); ++k) {
    const int i = raw.vertices[k];
    compact[static_cast<std::size_t>(i)] = static_cast<int>(k);
    data->vertices.push_back(points[static_cast<std::size_t>(i)]);
    data->input_index.push_back(i);
  }
  // The scan block x | y | z, each padded to a multiple of 4 with vertex 0 (ties go to the
  // smaller index, so the padding never wins).
  const std::size_t n = data->vertices.size();
  const std::size_t padded = (n + 3) / 4 * 4;
  data->padded = padded;
  data->coords.assign(3 * padded, 0.0);
  for (std::size_t k = 0; k < padded; ++k) {
    const Vec3& p = data->vertices[k < n ? k : 0];
    data->coords[k] = p.x();
    data->coords[padded + k] = p.y();
    data->coords[2 * padded + k] = p.z();
  }
  const auto id = [&](int i) { return compact[static_cast<std::size_t>(i)]; };
  std::vector<std::vector<int>> neighbors(raw.vertices.size());
  const auto link = [&](int i, int j) {
    neighbors[static_cast<std::size_t>(id(i))].push_back(id(j));
    neighbors[static_cast<std::size_t>(id(j))].push_back(id(i));
  };
  for (const auto& f : raw.faces) {
    data->faces.push_back({id(f[0]), id(f[1]), id(f[2])});
    if (raw.dimension == 3) link(f[0], f[1]), link(f[1], f[2]), link(f[2], f[0]);
  }
  for (const auto& e : raw.edges) link(e[0], e[1]);
  data->offsets.push_back(0);
  for (auto& list : neighbors) {
    std::sort(list.begin(), list.end());
    list.erase(std::unique(list.begin(), list.end()), list.end());
    if (raw.dimension == 3 && list.size() < 3) {
      throw InvalidInput("vertices", "qhull returned a hull vertex with fewer than 3 edges");
    }
    data->adjacency.insert(data->adjacency.end(), list.begin(), list.end());
    data->offsets.push_back(static_cast<int>(data->adjacency.size()));
  }
  data->climb.reserve(data->adjacency.size());
  for (const int k : data->adjacency) {
    const Vec3& p = data->vertices[static_cast<std::size_t>(k)];
    data->climb.push_back({p.x(), p.y(), p.z(), k, 0});
  }
  Vec3 lo = data->vertices.front();
  Vec3 hi = lo;
  for (const Vec3& p : data->vertices) lo = lo.cwiseMin(p), hi = hi.cwiseMax(p);
  data->aabb = {lo, hi};
  const Vec3 centre = (lo + hi) / 2;
  double radius = 0;
  for (const Vec3& p : data->vertices) radius = std::max(radius, (p - centre).norm());
  data->sphere = {centre, radius};
  build_interior_test(*data);
  coords_ = data->coords.data();
  padded_ = padded;
  planes_padded_ = data->planes_padded;
  interior_margin_ = data->interior_margin;
  size_ = static_cast<int>(n);
  sphere_ = data->sphere;
  data_ = data;
  // Climb starts (PolytopeData::start_cells): the support vertex of each cube-map cell's centre
  // direction, found by climbing from the previous cell's answer (neighbouring cells' answers are
  // neighbours or equal, so the table costs O(cells) climbing steps, not O(cells x n) scans). The
  // climb is exact on a hull (a vertex no neighbour beats is a maximum), so every entry is a true
  // support vertex, which the tests check against scan(). 8 x 8 cells a face below 128 vertices,
  // 16 x 16 (6 KiB) below 512, 32 x 32 (24 KiB) from 512 on: a few cells per vertex. Resolution
  // 32 against 16 at 1024 vertices: distance 5% and EPA 10% faster in the bench (session 16).
  if (size_ >= kPolytopeHillClimbMinVertices) {
    data->start_resolution = size_ < 128 ? 8 : (size_ < 512 ? 16 : 32);
    const int cells = 6 * data->start_resolution * data->start_resolution;
    data->start_cells.resize(static_cast<std::size_t>(cells));
    int previous = scan(detail::start_cell_direction(0, data->start_resolution));
    for (int c = 0; c < cells; ++c) {
      previous = climb(detail::start_cell_direction(c, data->start_resolution), previous);
      data->start_cells[static_cast<std::size_t>(c)] = previous;
    }
  }
}

}  // namespace proxima
