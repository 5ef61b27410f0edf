// SPDX-License-Identifier: MIT
// The small-polytope intersect kernel across pairs: 4 elements of a batch run the GJK loop side by
// side in the 4 double lanes of AVX2 registers (structure of arrays), one GJK iteration of every
// lane per step; a lane whose element is decided takes the next element at once, so the lanes stay
// busy until the batch runs out.
//
// Bit for bit: each lane performs exactly the floating-point operations of the scalar lean kernel
// (small_polytope.cpp), hence of gjk::intersect: the same products and sums in the same
// association (Eigen's, checked: dot products, squared norms and R^T v left to right; R v + t
// left to right in rows 0 and 1 and as R20 v0 + (R21 v1 + R22 v2), then + t, in row 2), the same
// divisions and square roots, and the same decisions in the same order, including the signed
// volumes sub-distance routine of gjk/simplex.hpp (every Voronoi test, the flat-simplex fallback,
// the candidate faces and edges in order, keep_closer's NaN rule). Where the scalar code branches,
// the lanes compute every branch some lane needs and blend. No fused multiply-add (target "avx2"
// only). tests/batch/small_polytope_test.cpp compares every field with the scalar query.
#include "batch/small_polytope.hpp"

#include <proxima/core/tolerance.hpp>
#include <proxima/gjk/distance.hpp>

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define PROXIMA_BATCH_LANES 1
#endif

namespace proxima::batch::detail {

#ifdef PROXIMA_BATCH_LANES
namespace {

constexpr int kLanes = 4;
constexpr int kSlots = 4;

#define PROXIMA_AVX2_INLINE __attribute__((target("avx2"), always_inline)) inline

using D = __m256d;

PROXIMA_AVX2_INLINE D set1(double x) { return _mm256_set1_pd(x); }
PROXIMA_AVX2_INLINE D add(D a, D b) { return _mm256_add_pd(a, b); }
PROXIMA_AVX2_INLINE D sub(D a, D b) { return _mm256_sub_pd(a, b); }
PROXIMA_AVX2_INLINE D mul(D a, D b) { return _mm256_mul_pd(a, b); }
PROXIMA_AVX2_INLINE D div(D a, D b) { return _mm256_div_pd(a, b); }
PROXIMA_AVX2_INLINE D neg(D a) { return _mm256_xor_pd(a, set1(-0.0)); }
PROXIMA_AVX2_INLINE D abs(D a) { return _mm256_andnot_pd(set1(-0.0), a); }
PROXIMA_AVX2_INLINE D gt(D a, D b) { return _mm256_cmp_pd(a, b, _CMP_GT_OQ); }
PROXIMA_AVX2_INLINE D ge(D a, D b) { return _mm256_cmp_pd(a, b, _CMP_GE_OQ); }
PROXIMA_AVX2_INLINE D lt(D a, D b) { return _mm256_cmp_pd(a, b, _CMP_LT_OQ); }
PROXIMA_AVX2_INLINE D le(D a, D b) { return _mm256_cmp_pd(a, b, _CMP_LE_OQ); }
PROXIMA_AVX2_INLINE D eq(D a, D b) { return _mm256_cmp_pd(a, b, _CMP_EQ_OQ); }
PROXIMA_AVX2_INLINE D neq(D a, D b) { return _mm256_cmp_pd(a, b, _CMP_NEQ_UQ); }  // true on NaN, as !(a == b)
PROXIMA_AVX2_INLINE D land(D a, D b) { return _mm256_and_pd(a, b); }
PROXIMA_AVX2_INLINE D lor(D a, D b) { return _mm256_or_pd(a, b); }
PROXIMA_AVX2_INLINE D lnot(D a) { return _mm256_xor_pd(a, _mm256_castsi256_pd(_mm256_set1_epi64x(-1))); }
PROXIMA_AVX2_INLINE D select(D mask, D yes, D no) { return _mm256_blendv_pd(no, yes, mask); }
PROXIMA_AVX2_INLINE bool any(D mask) { return _mm256_movemask_pd(mask) != 0; }
// std::isfinite: |x| <= max (false for NaN and infinities).
PROXIMA_AVX2_INLINE D finite(D a) { return le(abs(a), set1(std::numeric_limits<double>::max())); }

struct V3 {
  D x, y, z;
};
PROXIMA_AVX2_INLINE V3 sub3(const V3& a, const V3& b) { return {sub(a.x, b.x), sub(a.y, b.y), sub(a.z, b.z)}; }
// Eigen's dot product and squared norm: (x0 y0 + x1 y1) + x2 y2.
PROXIMA_AVX2_INLINE D dot3(const V3& a, const V3& b) { return add(add(mul(a.x, b.x), mul(a.y, b.y)), mul(a.z, b.z)); }
PROXIMA_AVX2_INLINE D sq3(const V3& a) { return dot3(a, a); }
// Eigen's cross product (each component one difference of two products).
PROXIMA_AVX2_INLINE V3 cross3(const V3& a, const V3& b) {
  return {sub(mul(a.y, b.z), mul(a.z, b.y)), sub(mul(a.z, b.x), mul(a.x, b.z)), sub(mul(a.x, b.y), mul(a.y, b.x))};
}
PROXIMA_AVX2_INLINE V3 select3(D mask, const V3& yes, const V3& no) {
  return {select(mask, yes.x, no.x), select(mask, yes.y, no.y), select(mask, yes.z, no.z)};
}
// std::max({...}) (max_element): the running maximum is replaced when it is less than the next.
PROXIMA_AVX2_INLINE D running_max(D largest, D next) { return select(lt(largest, next), next, largest); }

// The answer of the sub-distance routine, per lane: the closest point, its squared norm (what
// keep_closer compares), and the support set as the sum of 2^slot (exact in a double).
struct Candidate {
  V3 p;
  D d2;
  D bits;
};

PROXIMA_AVX2_INLINE Candidate select_candidate(D mask, const Candidate& yes, const Candidate& no) {
  return {select3(mask, yes.p, no.p), select(mask, yes.d2, no.d2), select(mask, yes.bits, no.bits)};
}
// keep_closer(best, c) where `consider` is set: c wins when !(best.d2 <= c.d2) and c.d2 is not NaN.
PROXIMA_AVX2_INLINE Candidate keep_closer(D consider, const Candidate& best, const Candidate& c) {
  const D wins = land(consider, land(lnot(le(best.d2, c.d2)), eq(c.d2, c.d2)));
  return select_candidate(wins, c, best);
}
PROXIMA_AVX2_INLINE Candidate vertex_answer(const V3& w, int i) { return {w, sq3(w), set1(double(1 << i))}; }
// The "best" a candidate loop starts from: point NaN, no support set, distance +inf.
PROXIMA_AVX2_INLINE Candidate no_candidate() {
  const D nan = set1(kNaN);
  return {{nan, nan, nan}, set1(std::numeric_limits<double>::infinity()), _mm256_setzero_pd()};
}

// detail::closest_on_segment(w, i, j).
PROXIMA_AVX2_INLINE Candidate segment(const V3* w, int i, int j) {
  const V3& a = w[i];
  const V3 t = sub3(w[j], a);
  const D tt = sq3(t);
  const Candidate vi = vertex_answer(w[i], i);
  const Candidate vj = vertex_answer(w[j], j);
  const D degenerate = lnot(gt(tt, _mm256_setzero_pd()));  // coincident points (or NaN)
  // The scalar code divides only when tt > 0: elsewhere divide by 1 (the quotient is discarded),
  // so that no lane raises FE_DIVBYZERO or FE_INVALID that the scalar query would not.
  const D s = div(neg(dot3(a, t)), select(degenerate, set1(1.0), tt));
  const V3 p = {add(a.x, mul(s, t.x)), add(a.y, mul(s, t.y)), add(a.z, mul(s, t.z))};
  Candidate r = {p, sq3(p), set1(double((1 << i) | (1 << j)))};
  r = select_candidate(ge(s, set1(1.0)), vj, r);
  r = select_candidate(le(s, _mm256_setzero_pd()), vi, r);
  return select_candidate(degenerate, keep_closer(degenerate, vi, vj), r);
}

// Component c (0, 1, 2) of v chosen per lane by the masks is1 (c == 1) and is2 (c == 2).
PROXIMA_AVX2_INLINE D component(const V3& v, D is1, D is2) { return select(is2, v.z, select(is1, v.y, v.x)); }

// detail::closest_on_triangle(w, i, j, k), for the lanes in `need` (others: any value).
PROXIMA_AVX2_INLINE Candidate triangle(const V3* w, int i, int j, int k, D need) {
  const V3& a = w[i];
  const V3 ab = sub3(w[j], a);
  const V3 ac = sub3(w[k], a);
  const V3 n = cross3(ab, ac);
  const D nn = sq3(n);
  D longest = sq3(ab);
  longest = running_max(longest, sq3(ac));
  longest = running_max(longest, sq3(sub3(w[k], w[j])));
  const D tol = set1(kGjkDegenerateSimplexTolerance);
  const D proper = gt(nn, mul(mul(mul(tol, tol), longest), longest));
  // The scalar code divides (by nn, and by total, the largest |n| component, nonzero where nn > 0)
  // only for a proper triangle: elsewhere divide by 1 (the quotients are discarded).
  const D one = set1(1.0);
  // p0: the origin projected on the plane; q: the same relative to a.
  const D scale = div(dot3(a, n), select(proper, nn, one));
  const V3 p0 = {mul(n.x, scale), mul(n.y, scale), mul(n.z, scale)};
  const V3 q = sub3(p0, a);
  // m: the largest |n| component (first on ties); coordinates x = m + 1, y = m + 2 (mod 3).
  const D m_is1 = gt(abs(n.y), abs(n.x));
  const D n_m_abs = select(m_is1, abs(n.y), abs(n.x));
  const D m_is2 = gt(abs(n.z), n_m_abs);
  const D m1 = land(m_is1, lnot(m_is2));  // m == 1
  const D m0 = lnot(lor(m_is1, m_is2));   // m == 0
  // x = (m + 1) % 3: m0 -> 1, m1 -> 2, m2 -> 0; y = (m + 2) % 3: m0 -> 2, m1 -> 0, m2 -> 1.
  const D x_is1 = m0;
  const D x_is2 = m1;
  const D y_is1 = m_is2;
  const D y_is2 = m0;
  const D total = component(n, m1, m_is2);
  const D total_or_one = select(proper, total, one);
  const D qx = component(q, x_is1, x_is2);
  const D qy = component(q, y_is1, y_is2);
  const D acx = component(ac, x_is1, x_is2);
  const D acy = component(ac, y_is1, y_is2);
  const D abx = component(ab, x_is1, x_is2);
  const D aby = component(ab, y_is1, y_is2);
  const D cj = sub(mul(qx, acy), mul(qy, acx));  // weight of w[j]
  const D ck = sub(mul(abx, qy), mul(aby, qx));  // weight of w[k]
  const D ci = sub(sub(total, cj), ck);          // weight of w[i]
  const D zero = _mm256_setzero_pd();
  const D si = mul(ci, total);
  const D sj = mul(cj, total);
  const D sk = mul(ck, total);
  const D inside = land(proper, land(ge(si, zero), land(ge(sj, zero), ge(sk, zero))));
  const D bits = add(add(select(gt(div(ci, total_or_one), zero), set1(double(1 << i)), zero),
                         select(gt(div(cj, total_or_one), zero), set1(double(1 << j)), zero)),
                     select(gt(div(ck, total_or_one), zero), set1(double(1 << k)), zero));
  const D interior = land(inside, neq(bits, zero));  // returns the projection
  const Candidate projected = {p0, sq3(p0), bits};
  // Edges: where the projection test ran and failed, those whose weight sign says the origin lies
  // beyond them; otherwise (flat triangle, or weights without support) all three.
  const D tested = land(proper, lnot(inside));
  const D all = lnot(tested);
  const D edges = land(need, lnot(interior));
  const D vis_i = land(edges, lor(all, lt(si, zero)));
  const D vis_j = land(edges, lor(all, lt(sj, zero)));
  const D vis_k = land(edges, lor(all, lt(sk, zero)));
  Candidate best = no_candidate();
  if (any(vis_i)) best = keep_closer(vis_i, best, segment(w, j, k));
  if (any(vis_j)) best = keep_closer(vis_j, best, segment(w, i, k));
  if (any(vis_k)) best = keep_closer(vis_k, best, segment(w, i, j));
  return select_candidate(interior, projected, best);
}

// detail::closest_on_tetrahedron(w), for the lanes in `need`.
PROXIMA_AVX2_INLINE Candidate tetrahedron(const V3* w, D need) {
  const V3& a = w[0];
  const V3 ab = sub3(w[1], a);
  const V3 ac = sub3(w[2], a);
  const V3 ad = sub3(w[3], a);
  const V3 acxad = cross3(ac, ad);
  const D volume = dot3(ab, acxad);
  D longest = sq3(ab);
  longest = running_max(longest, sq3(ac));
  longest = running_max(longest, sq3(ad));
  longest = running_max(longest, sq3(sub3(w[2], w[1])));
  longest = running_max(longest, sq3(sub3(w[3], w[1])));
  longest = running_max(longest, sq3(sub3(w[3], w[2])));
  longest = _mm256_sqrt_pd(longest);
  const D zero = _mm256_setzero_pd();
  const D proper =
      gt(abs(volume), mul(mul(mul(set1(kGjkDegenerateSimplexTolerance), longest), longest), longest));
  const V3 o = {neg(a.x), neg(a.y), neg(a.z)};
  const D c1 = dot3(o, acxad);
  const D c2 = dot3(ab, cross3(o, ad));
  const D c3 = dot3(ab, cross3(ac, o));
  const D c0 = sub(sub(sub(volume, c1), c2), c3);
  const D s0 = lt(mul(c0, volume), zero);
  const D s1 = lt(mul(c1, volume), zero);
  const D s2 = lt(mul(c2, volume), zero);
  const D s3 = lt(mul(c3, volume), zero);
  const D inside = land(proper, lnot(lor(lor(s0, s1), lor(s2, s3))));
  // The scalar code divides only for a proper tetrahedron (volume != 0): elsewhere by 1.
  const D volume_or_one = select(proper, volume, set1(1.0));
  const D bits = add(add(select(gt(div(c0, volume_or_one), zero), set1(1.0), zero),
                         select(gt(div(c1, volume_or_one), zero), set1(2.0), zero)),
                     add(select(gt(div(c2, volume_or_one), zero), set1(4.0), zero),
                         select(gt(div(c3, volume_or_one), zero), set1(8.0), zero)));
  const Candidate enclosed = {{zero, zero, zero}, zero, bits};
  const D all = lnot(proper);
  const D faces = land(need, lnot(inside));
  const D vis0 = land(faces, lor(all, s0));
  const D vis1 = land(faces, lor(all, s1));
  const D vis2 = land(faces, lor(all, s2));
  const D vis3 = land(faces, lor(all, s3));
  Candidate best = no_candidate();
  if (any(vis0)) best = keep_closer(vis0, best, triangle(w, 1, 2, 3, vis0));
  if (any(vis1)) best = keep_closer(vis1, best, triangle(w, 0, 2, 3, vis1));
  if (any(vis2)) best = keep_closer(vis2, best, triangle(w, 0, 1, 3, vis2));
  if (any(vis3)) best = keep_closer(vis3, best, triangle(w, 0, 1, 2, vis3));
  return select_candidate(inside, enclosed, best);
}

// The lanes' state between steps, structure of arrays ([slot][lane] for the simplex).
struct Lanes {
  alignas(32) double wx[kSlots][kLanes];
  alignas(32) double wy[kSlots][kLanes];
  alignas(32) double wz[kSlots][kLanes];
  alignas(32) double vx[kLanes], vy[kLanes], vz[kLanes], vv[kLanes];
  alignas(32) double lb[kLanes], ldx[kLanes], ldy[kLanes], ldz[kLanes], ldn[kLanes];
  alignas(32) double contact_sq[kLanes], band[kLanes];
  alignas(32) double r[9][kLanes];  // b_in_a rotation, r[3 i + j] = R(i, j)
  alignas(32) double t[3][kLanes];  // b_in_a translation
  alignas(32) double size[kLanes];  // simplex size (1..3 between steps)
  alignas(32) double k[kLanes];     // loop counter of run_gjk
  alignas(32) double iterations[kLanes];
  alignas(32) double active[kLanes];  // all bits set: the lane holds an element
  // Written by step(): the outcome (Outcome values).
  alignas(32) double outcome[kLanes];
};

// What ended a lane's element in a step (0: go on), in run_gjk's order of tests.
enum Outcome : int {
  kGoOn = 0,
  kCap,           // iteration_limit
  kNonFinite,     // degenerate_input, non_finite
  kContact,       // converged, origin_enclosed
  kSeparated,     // converged, separating_axis (intersect false)
  kGap,           // converged, duality_gap
  kRepeated,      // converged, repeated_support
  kNoProgress,    // converged, no_progress
};

PROXIMA_AVX2_INLINE D load(const double* p) { return _mm256_load_pd(p); }

// The lanes in `open` that meet `condition` end with `what` (run_gjk's tests, in its order).
PROXIMA_AVX2_INLINE void decide(D& open, D& outcome, D condition, Outcome what) {
  const D now = land(open, condition);
  outcome = select(now, set1(double(what)), outcome);
  open = land(open, lnot(now));
}
PROXIMA_AVX2_INLINE void store(double* p, D v) { _mm256_store_pd(p, v); }

/// In each lane, the first vertex of p with the largest (dx x + dy y) + dz z.
PROXIMA_AVX2_INLINE V3 lane_support(const SmallPolytope& p, D dx, D dy, D dz) {
  D best = set1(-std::numeric_limits<double>::infinity());
  V3 out = {set1(p.x[0]), set1(p.y[0]), set1(p.z[0])};
  for (int i = 0; i < p.size; ++i) {
    const auto u = static_cast<std::size_t>(i);
    const D x = set1(p.x[u]);
    const D y = set1(p.y[u]);
    const D z = set1(p.z[u]);
    const D value = add(add(mul(dx, x), mul(dy, y)), mul(dz, z));
    // GCC vector comparison and select (the same ordered '>' as _CMP_GT_OQ, strict: the first
    // maximum, never a NaN): GCC then sees a compare mask and emits one blend per select.
    const auto greater = value > best;
    best = greater ? value : best;
    out = {greater ? x : out.x, greater ? y : out.y, greater ? z : out.z};
  }
  return out;
}

// The support of A - B in direction -v per lane: the first maximum of the scan of each polytope,
// then w = a - b_in_a.apply(b) (MinkowskiDifference::support with both scans).
// support_parts gives the two points, a (A's vertex) and b (B's vertex placed in A's frame).
struct SupportParts {
  V3 a;
  V3 b;
};
PROXIMA_AVX2_INLINE SupportParts support_parts(const SmallPolytope& pa, const SmallPolytope& pb, const Lanes& s,
                                               const V3& v) {
  // A along -v.
  const V3 va = lane_support(pa, neg(v.x), neg(v.y), neg(v.z));
  // B along R^T (-(-v)) = R^T v.
  const D r00 = load(s.r[0]), r01 = load(s.r[1]), r02 = load(s.r[2]);
  const D r10 = load(s.r[3]), r11 = load(s.r[4]), r12 = load(s.r[5]);
  const D r20 = load(s.r[6]), r21 = load(s.r[7]), r22 = load(s.r[8]);
  const D ex = add(add(mul(r00, v.x), mul(r10, v.y)), mul(r20, v.z));
  const D ey = add(add(mul(r01, v.x), mul(r11, v.y)), mul(r21, v.z));
  const D ez = add(add(mul(r02, v.x), mul(r12, v.y)), mul(r22, v.z));
  const V3 vb = lane_support(pb, ex, ey, ez);
  // b_in_a.apply(vb): Eigen's R v + t.
  const D sx = add(add(add(mul(r00, vb.x), mul(r01, vb.y)), mul(r02, vb.z)), load(s.t[0]));
  const D sy = add(add(add(mul(r10, vb.x), mul(r11, vb.y)), mul(r12, vb.z)), load(s.t[1]));
  const D sz = add(add(mul(r20, vb.x), add(mul(r21, vb.y), mul(r22, vb.z))), load(s.t[2]));
  return {va, {sx, sy, sz}};
}
PROXIMA_AVX2_INLINE V3 support(const SmallPolytope& pa, const SmallPolytope& pb, const Lanes& s, const V3& v) {
  const SupportParts p = support_parts(pa, pb, s, v);
  return {sub(p.a.x, p.b.x), sub(p.a.y, p.b.y), sub(p.a.z, p.b.z)};
}

// One iteration of run_gjk's loop (intersect mode, no momentum, margins 0) in every active lane.
__attribute__((target("avx2"))) void step(Lanes& s, const SmallPolytope& pa, const SmallPolytope& pb,
                                          const gjk::GjkOptions& options) {
  const D zero = _mm256_setzero_pd();
  const V3 v = {load(s.vx), load(s.vy), load(s.vz)};
  const D vv = load(s.vv);
  const D contact_sq = load(s.contact_sq);
  const D k = load(s.k);
  D open = load(s.active);  // lanes whose element is not decided yet
  D outcome = zero;
  decide(open, outcome, ge(k, set1(double(options.max_iterations))), kCap);
  decide(open, outcome, lnot(finite(vv)), kNonFinite);
  decide(open, outcome, lor(le(vv, contact_sq), le(vv, zero)), kContact);  // vv <= margin * margin, margin 0
  store(s.iterations, select(open, add(k, set1(1.0)), load(s.iterations)));
  if (any(open)) {
    const V3 w = support(pa, pb, s, v);
    const D dn = _mm256_sqrt_pd(vv);  // d.norm() with d = v: sqrt of the same squared norm
    // dn > 0 in the open lanes; the others (decided, or holding no element: vv may be 0) divide
    // and multiply by 1, so that they raise no FE_DIVBYZERO or FE_INVALID (0 * -inf) the scalar
    // query would not. Their plane and gap are discarded.
    const D dn_or_one = select(open, dn, set1(1.0));
    const D plane = div(dot3(v, w), dn_or_one);
    decide(open, outcome, lnot(finite(plane)), kNonFinite);
    const D improve = land(open, gt(plane, load(s.lb)));
    const D lb = select(improve, plane, load(s.lb));
    store(s.lb, lb);
    store(s.ldx, select(improve, v.x, load(s.ldx)));
    store(s.ldy, select(improve, v.y, load(s.ldy)));
    store(s.ldz, select(improve, v.z, load(s.ldz)));
    store(s.ldn, select(improve, dn, load(s.ldn)));
    decide(open, outcome, gt(lb, load(s.band)), kSeparated);
    const D gap = sub(vv, mul(dn_or_one, lb));
    decide(open, outcome, lor(le(gap, mul(set1(options.relative_tolerance), vv)), le(gap, contact_sq)), kGap);
    // Slots 0..size-1 hold the simplex; the new point goes to slot `size`.
    const D size = load(s.size);
    V3 slots[kSlots];
    D repeated = zero;
    for (int i = 0; i < kSlots; ++i) {
      const auto u = static_cast<std::size_t>(i);
      const V3 p = {load(s.wx[u]), load(s.wy[u]), load(s.wz[u])};
      const D used = gt(size, set1(double(i)));
      repeated = lor(repeated, land(used, land(eq(p.x, w.x), land(eq(p.y, w.y), eq(p.z, w.z)))));
      slots[u] = select3(eq(size, set1(double(i))), w, p);
    }
    decide(open, outcome, repeated, kRepeated);
    if (any(open)) {
      // closest_point_to_origin(slots, size + 1): a segment, a triangle or a tetrahedron.
      const D two = land(open, eq(size, set1(1.0)));
      const D three = land(open, eq(size, set1(2.0)));
      const D four = land(open, eq(size, set1(3.0)));
      Candidate c = no_candidate();
      if (any(two)) c = select_candidate(two, segment(slots, 0, 1), c);
      if (any(three)) c = select_candidate(three, triangle(slots, 0, 1, 2, three), c);
      if (any(four)) c = select_candidate(four, tetrahedron(slots, four), c);
      const D has_support = neq(c.bits, zero);
      const D nan = set1(kNaN);
      const V3 next = select3(has_support, c.p, {nan, nan, nan});
      const D vv_next = sq3(next);
      const D stalled = lnot(lt(vv_next, vv));
      decide(open, outcome, land(stalled, eq(vv_next, vv_next)), kNoProgress);
      decide(open, outcome, stalled, kNonFinite);
      // The tests at the top of the next iteration (k + 1) depend only on values known now: run
      // them here, in the same order, so that a decided lane takes its next element one step
      // sooner (the top of the step repeats them for lanes that have just started).
      decide(open, outcome, ge(add(k, set1(1.0)), set1(double(options.max_iterations))), kCap);
      decide(open, outcome, lnot(finite(vv_next)), kNonFinite);
      decide(open, outcome, lor(le(vv_next, contact_sq), le(vv_next, zero)), kContact);
      // keep_support_set: the slots whose bit is set move down in order (slot s goes to the
      // number of kept slots before it); lanes that stop keep any values.
      const D bits = c.bits;
      D kept[kSlots];
      D rank[kSlots];
      D remaining = bits;
      D before = zero;
      for (int i = kSlots - 1; i >= 0; --i) {  // bit i: remaining >= 2^i, peeled from the top
        const auto u = static_cast<std::size_t>(i);
        kept[u] = ge(remaining, set1(double(1 << i)));
        remaining = select(kept[u], sub(remaining, set1(double(1 << i))), remaining);
      }
      for (int i = 0; i < kSlots; ++i) {
        const auto u = static_cast<std::size_t>(i);
        rank[u] = before;
        before = add(before, select(kept[u], set1(1.0), zero));
      }
      for (int r = 0; r < kSlots; ++r) {
        V3 moved = slots[static_cast<std::size_t>(r)];
        for (int i = r + 1; i < kSlots; ++i) {  // slot i >= r lands on r when kept with rank r
          const auto u = static_cast<std::size_t>(i);
          moved = select3(land(kept[u], eq(rank[u], set1(double(r)))), slots[u], moved);
        }
        const auto ur = static_cast<std::size_t>(r);
        store(s.wx[ur], moved.x);
        store(s.wy[ur], moved.y);
        store(s.wz[ur], moved.z);
      }
      store(s.size, select(open, before, size));
      store(s.vx, select(open, next.x, v.x));
      store(s.vy, select(open, next.y, v.y));
      store(s.vz, select(open, next.z, v.z));
      store(s.vv, select(open, vv_next, vv));
    }
  }
  store(s.outcome, outcome);
  store(s.k, add(k, set1(1.0)));
}

// What run_gjk does before its loop, for one element: the query scale's contact band, and the
// first support point (along the first direction; the simplex is that point and v = w).
struct Start {
  Vec3 w;
  double contact_sq;
  double band;
  bool in_range;  // gjk::detail::scale_in_range(scale): otherwise no run, out_of_range_result
  bool overlap;   // in range and answered by the first support pair (first_support_overlap)
};

// Entries [first, first + 4) of one row of a PoseGroup, the last valid entry repeated past count.
PROXIMA_AVX2_INLINE D load_entries(const double* row, std::size_t first, std::size_t count) {
  if (first + kLanes <= count) return load(row + first);
  const std::size_t last = count - 1;
  return _mm256_setr_pd(row[std::min(first, last)], row[std::min(first + 1, last)], row[std::min(first + 2, last)],
                        row[std::min(first + 3, last)]);
}

// Pose::apply (Eigen's R v + t: rows 0 and 1 left to right, row 2 as R20 v0 + (R21 v1 + R22 v2)).
PROXIMA_AVX2_INLINE V3 apply(const D* r, const D* t, const V3& v) {
  return {add(add(add(mul(r[0], v.x), mul(r[1], v.y)), mul(r[2], v.z)), t[0]),
          add(add(add(mul(r[3], v.x), mul(r[4], v.y)), mul(r[5], v.z)), t[1]),
          add(add(mul(r[6], v.x), add(mul(r[7], v.y), mul(r[8], v.z))), t[2])};
}

// Element e of a PoseGroup as the frame of gjk::detail::first_support_common_point: Pose's
// apply_inverse expression on its entries, read only when that test needs them (not when B's
// support point is already inside A).
struct GroupElementPose {
  const PoseGroup& g;
  std::size_t e;
  Vec3 apply_inverse(const Vec3& p) const {
    Mat3 r;
    for (int i = 0; i < 9; ++i) r(i / 3, i % 3) = g.r[i][e];
    const Vec3 t(g.t[0][e], g.t[1][e], g.t[2][e]);
    return transpose_times(r, p - t);
  }
};

// The starts of elements [0, count) (count <= PoseGroup::kSize), 4 at a time in the lanes: the
// query scale and first direction of gjk::intersect, and the first support along it.
constexpr std::size_t kGroup = PoseGroup::kSize;
__attribute__((target("avx2"))) void starts(const SmallPolytope& a, const SmallPolytope& b, const PoseGroup& g,
                                            std::size_t count, const gjk::GjkOptions& options, Start* out) {
  Lanes tmp;
  const V3 ca = {set1(a.sphere.center.x()), set1(a.sphere.center.y()), set1(a.sphere.center.z())};
  const V3 cb = {set1(b.sphere.center.x()), set1(b.sphere.center.y()), set1(b.sphere.center.z())};
  const D radii = set1(a.sphere.radius + b.sphere.radius);
  const D zero = _mm256_setzero_pd();
  for (std::size_t first = 0; first < count; first += kLanes) {
    D r[9];
    D t[3];
    for (int i = 0; i < 9; ++i) {
      r[i] = load_entries(g.r[i], first, count);
      store(tmp.r[i], r[i]);
    }
    for (int i = 0; i < 3; ++i) {
      t[i] = load_entries(g.t[i], first, count);
      store(tmp.t[i], t[i]);
    }
    // gjk::detail::query_scale: radii + |centre of A - b_in_a.apply(centre of B)|.
    const V3 placed = apply(r, t, cb);
    const D scale = add(radii, _mm256_sqrt_pd(sq3(sub3(ca, placed))));
    // gjk::detail::first_direction (cold): placed - centre of A, or +x when that is not > 0.
    const V3 direction = sub3(placed, ca);
    const D usable = gt(sq3(direction), zero);
    const V3 d = select3(usable, direction, {set1(1.0), zero, zero});
    const D contact_sq = mul(mul(set1(options.absolute_tolerance), scale), scale);
    const D band = add(set1(0.0), _mm256_sqrt_pd(contact_sq));  // margin + sqrt(contact_sq)
    // support() scans A along -v and B along R^T v: v = -direction (negation is exact).
    const SupportParts parts = support_parts(a, b, tmp, {neg(d.x), neg(d.y), neg(d.z)});
    const V3 w = {sub(parts.a.x, parts.b.x), sub(parts.a.y, parts.b.y), sub(parts.a.z, parts.b.z)};
    alignas(32) double wx[kLanes], wy[kLanes], wz[kLanes], cs[kLanes], bd[kLanes], sc[kLanes];
    store(wx, w.x);
    store(wy, w.y);
    store(wz, w.z);
    store(cs, contact_sq);
    store(bd, band);
    store(sc, scale);
    // The first support pair's test (gjk::intersect, cold start), element by element.
    alignas(32) double lane[9][kLanes];
    const D parts_and_d[9] = {parts.a.x, parts.a.y, parts.a.z, parts.b.x, parts.b.y, parts.b.z, d.x, d.y, d.z};
    if (options.first_support_overlap) {
      for (int i = 0; i < 9; ++i) store(lane[i], parts_and_d[i]);
    }
    for (std::size_t l = 0; l < kLanes && first + l < count; ++l) {
      const bool in_range = gjk::detail::scale_in_range(sc[l]);
      bool overlap = false;
      if (in_range && options.first_support_overlap) {
        const GroupElementPose b_in_a{g, first + l};
        const gjk::SupportPoint s{Vec3(wx[l], wy[l], wz[l]), Vec3(lane[0][l], lane[1][l], lane[2][l]),
                                  Vec3(lane[3][l], lane[4][l], lane[5][l])};
        overlap = first_support_overlap(a, b, b_in_a, Vec3(lane[6][l], lane[7][l], lane[8][l]), s);
      }
      out[first + l] = {Vec3(wx[l], wy[l], wz[l]), cs[l], bd[l], in_range, overlap};
    }
  }
}

// Starts element e of the group in lane l.
void start_lane(Lanes& s, int l, const PoseGroup& g, std::size_t e, const Start& start) {
  const auto u = static_cast<std::size_t>(l);
  const Vec3& w = start.w;
  s.wx[0][u] = w.x();
  s.wy[0][u] = w.y();
  s.wz[0][u] = w.z();
  s.vx[u] = w.x();
  s.vy[u] = w.y();
  s.vz[u] = w.z();
  s.vv[u] = w.squaredNorm();
  s.lb[u] = -std::numeric_limits<double>::infinity();
  s.ldx[u] = s.ldy[u] = s.ldz[u] = s.ldn[u] = kNaN;
  s.contact_sq[u] = start.contact_sq;
  s.band[u] = start.band;
  for (int i = 0; i < 9; ++i) s.r[i][u] = g.r[i][e];
  for (int i = 0; i < 3; ++i) s.t[i][u] = g.t[i][e];
  s.size[u] = 1;
  s.k[u] = 0;
  s.iterations[u] = 0;
  s.active[u] = std::bit_cast<double>(~std::uint64_t{0});
}

IntersectResult finish_lane(const Lanes& s, int l, Outcome outcome) {
  const auto u = static_cast<std::size_t>(l);
  IntersectResult r;
  r.iterations = static_cast<int>(s.iterations[u]);
  r.intersect = outcome != kSeparated;
  switch (outcome) {
    case kCap: r.status = Status::iteration_limit; r.detail = Detail::none; break;
    case kNonFinite: r.status = Status::degenerate_input; r.detail = Detail::non_finite; break;
    case kContact: r.status = Status::converged; r.detail = Detail::origin_enclosed; break;
    case kSeparated: r.status = Status::converged; r.detail = Detail::separating_axis; break;
    case kGap: r.status = Status::converged; r.detail = Detail::duality_gap; break;
    case kRepeated: r.status = Status::converged; r.detail = Detail::repeated_support; break;
    default: r.status = Status::converged; r.detail = Detail::no_progress; break;
  }
  if (outcome == kSeparated) {
    // run.lower_bound_direction = d / dn; the caller rotates -direction into the world.
    const Vec3 direction = Vec3(s.ldx[u], s.ldy[u], s.ldz[u]) / s.ldn[u];
    r.separating_axis = -direction;
  }
  return r;
}

}  // namespace

bool lanes_available() { return __builtin_cpu_supports("avx2") != 0; }

void intersect_small_polytopes_lanes(const SmallPolytope& a, const SmallPolytope& b, const PoseGroup& poses,
                                     std::size_t count, const gjk::GjkOptions& options, IntersectResult* out) {
  const std::size_t m = std::min(count, kGroup);
  std::array<Start, kGroup> start;
  starts(a, b, poses, m, options, start.data());
  Lanes s{};
  std::size_t element[kLanes] = {};
  std::size_t next = 0;
  // Elements whose scale gjk::intersect refuses, and those its first support pair answers, get
  // their answer here and never take a lane.
  const auto skip_out_of_range = [&] {
    while (next < m && (!start[next].in_range || start[next].overlap)) {
      out[next] = start[next].in_range ? gjk::detail::common_point_intersect_answer()
                                       : gjk::detail::out_of_range_result<IntersectResult>();
      ++next;
    }
  };
  int busy = 0;
  skip_out_of_range();
  for (int l = 0; l < kLanes && next < m; ++l) {
    element[l] = next;
    start_lane(s, l, poses, next, start[next]);
    ++next;
    ++busy;
    skip_out_of_range();
  }
  while (busy > 0) {
    step(s, a, b, options);
    for (int l = 0; l < kLanes; ++l) {
      const auto u = static_cast<std::size_t>(l);
      if (s.active[u] == 0.0) continue;  // all-ones bits compare as NaN, never equal to 0
      const auto outcome = static_cast<Outcome>(static_cast<int>(s.outcome[u]));
      if (outcome == kGoOn) continue;
      out[element[l]] = finish_lane(s, l, outcome);
      skip_out_of_range();
      if (next < m) {
        element[l] = next;
        start_lane(s, l, poses, next, start[next]);
        ++next;
      } else {
        s.active[u] = 0.0;
        --busy;
      }
    }
  }
}

// Stores the first `lanes` entries of value at dst[first ...].
PROXIMA_AVX2_INLINE void put(double* dst, std::size_t first, std::size_t lanes, D value) {
  if (lanes == kLanes) {
    store(dst + first, value);
    return;
  }
  alignas(32) double tmp[kLanes];
  store(tmp, value);
  for (std::size_t l = 0; l < lanes; ++l) dst[first + l] = tmp[l];
}

// Pose::from_quaternion (normalise, then Eigen's toRotationMatrix) followed by inverse_a * pose
// (Pose's operator*: R = Ra Rq and t = Ra tq + ta, Eigen's association: rows 0 and 1 left to right,
// row 2 as a0 + (a1 + a2)), 4 rows at a time.
__attribute__((target("avx2"))) void relative_poses_from_quaternions(const Pose& inverse_a, const double* rows,
                                                                     std::size_t count, PoseGroup& out,
                                                                     bool* valid) {
  constexpr std::size_t kRow = 7;
  const Mat3& ra = inverse_a.rotation();
  const Vec3& ta = inverse_a.translation();
  D a[9];
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) a[3 * i + j] = set1(ra(i, j));
  }
  const D one = set1(1.0);
  const D two = set1(2.0);
  count = std::min(count, kGroup);
  for (std::size_t first = 0; first < count; first += kLanes) {
    const double* row[kLanes];
    for (std::size_t l = 0; l < kLanes; ++l) row[l] = rows + kRow * std::min(first + l, count - 1);
    D c[kRow];
    D finite_all = _mm256_castsi256_pd(_mm256_set1_epi64x(-1));
    for (std::size_t k = 0; k < kRow; ++k) {
      c[k] = _mm256_setr_pd(row[0][k], row[1][k], row[2][k], row[3][k]);
      finite_all = land(finite_all, finite(c[k]));
    }
    // A non-finite row (rejected below) takes the identity quaternion first: its NaN would raise
    // FE_INVALID in the max below, and a huge finite entry beside an inf would overflow.
    for (std::size_t k = 3; k < kRow; ++k) c[k] = select(finite_all, c[k], k == 3 ? one : _mm256_setzero_pd());
    // As Pose::from_quaternion: rows with an entry above kHugeQuaternionEntry are divided by
    // their largest magnitude before squaring (no square overflows, no FE_OVERFLOW). Rare, so
    // behind a branch; the other lanes divide by 1, which keeps their bits.
    const D largest = _mm256_max_pd(_mm256_max_pd(abs(c[3]), abs(c[4])), _mm256_max_pd(abs(c[5]), abs(c[6])));
    const D huge = _mm256_cmp_pd(largest, set1(kHugeQuaternionEntry), _CMP_GT_OQ);
    if (_mm256_movemask_pd(huge) != 0) [[unlikely]] {
      const D divisor = select(huge, largest, one);
      for (std::size_t k = 3; k < kRow; ++k) c[k] = div(c[k], divisor);
    }
    D norm = _mm256_sqrt_pd(add(add(add(mul(c[3], c[3]), mul(c[4], c[4])), mul(c[5], c[5])), mul(c[6], c[6])));
    const D ok = land(finite_all, ge(norm, set1(kMinQuaternionNorm)));
    // A rejected row (valid false, its pose never used) becomes the identity, so that its lane
    // raises no FE_DIVBYZERO or FE_INVALID (0 / 0, inf / inf, 0 * inf); accepted rows are untouched.
    for (std::size_t k = 0; k < kRow; ++k) c[k] = select(ok, c[k], k == 3 ? one : _mm256_setzero_pd());
    norm = select(ok, norm, one);
    const D w = div(c[3], norm);
    const D x = div(c[4], norm);
    const D y = div(c[5], norm);
    const D z = div(c[6], norm);
    const D tx = mul(two, x);
    const D ty = mul(two, y);
    const D tz = mul(two, z);
    const D twx = mul(tx, w), twy = mul(ty, w), twz = mul(tz, w);
    const D txx = mul(tx, x), txy = mul(ty, x), txz = mul(tz, x);
    const D tyy = mul(ty, y), tyz = mul(tz, y), tzz = mul(tz, z);
    const D q[9] = {sub(one, add(tyy, tzz)), sub(txy, twz), add(txz, twy),
                    add(txy, twz), sub(one, add(txx, tzz)), sub(tyz, twx),
                    sub(txz, twy), add(tyz, twx), sub(one, add(txx, tyy))};
    const std::size_t lanes_here = std::min<std::size_t>(kLanes, count - first);
    for (int i = 0; i < 3; ++i) {
      for (int j = 0; j < 3; ++j) {
        const D p0 = mul(a[3 * i], q[j]);
        const D p1 = mul(a[3 * i + 1], q[3 + j]);
        const D p2 = mul(a[3 * i + 2], q[6 + j]);
        put(out.r[3 * i + j], first, lanes_here, i < 2 ? add(add(p0, p1), p2) : add(p0, add(p1, p2)));
      }
      const D p0 = mul(a[3 * i], c[0]);
      const D p1 = mul(a[3 * i + 1], c[1]);
      const D p2 = mul(a[3 * i + 2], c[2]);
      put(out.t[i], first, lanes_here, add(i < 2 ? add(add(p0, p1), p2) : add(p0, add(p1, p2)), set1(ta[i])));
    }
    const int mask = _mm256_movemask_pd(ok);
    for (std::size_t l = 0; l < lanes_here; ++l) valid[first + l] = (mask >> l) & 1;
  }
}

#else

bool lanes_available() { return false; }

// Never called (the batch asks lanes_available() first); defined so that the batch links.
void intersect_small_polytopes_lanes(const SmallPolytope&, const SmallPolytope&, const PoseGroup&, std::size_t,
                                     const gjk::GjkOptions&, IntersectResult*) {}
void relative_poses_from_quaternions(const Pose&, const double*, std::size_t, PoseGroup&, bool*) {}

#endif

}  // namespace proxima::batch::detail
