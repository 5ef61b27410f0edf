// SPDX-License-Identifier: MIT
#include "batch/small_polytope.hpp"

#include <proxima/gjk/distance.hpp>
#include <proxima/shapes/polytope.hpp>

#include <limits>
#include <variant>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define PROXIMA_BATCH_X86 1
#endif

namespace proxima::batch::detail {

namespace {

// Polytope::scan's portable loop: the first maximum of d . v over the vertices (strict '>', so
// a NaN direction yields vertex 0), with the dot product in the same operation order.
inline int scan_portable(const SmallPolytope& p, const Vec3& d) {
  int best = 0;
  double best_value = -std::numeric_limits<double>::infinity();
  for (int i = 0; i < p.size; ++i) {
    const auto k = static_cast<std::size_t>(i);
    const double v = d.x() * p.x[k] + d.y() * p.y[k] + d.z() * p.z[k];
    if (v > best_value) {
      best_value = v;
      best = i;
    }
  }
  return best;
}

inline Vec3 vertex(const SmallPolytope& p, int i) {
  const auto k = static_cast<std::size_t>(i);
  return {p.x[k], p.y[k], p.z[k]};
}

// MinkowskiDifference<Polytope, Polytope>::support with the scans above: same directions, same
// vertices, same arithmetic on them.
inline gjk::SupportPoint support_portable(const SmallPolytope& a, const SmallPolytope& b, const Pose& b_in_a,
                                          const Vec3& d) {
  const Vec3 sa = vertex(a, scan_portable(a, d));
  const Vec3 sb = b_in_a.apply(vertex(b, scan_portable(b, b_in_a.rotate_inverse(-d))));
  return {sa - sb, sa, sb};
}

#ifdef PROXIMA_BATCH_X86
const bool kHaveAvx2 = __builtin_cpu_supports("avx2") != 0;

// detail::scan_avx2 of the polytope layer, inlined, with the lanes merged in registers: 4
// vertices per step, each lane keeps its first maximum (never NaN: strict '>' from -inf), then
// the lanes are merged on (larger value, then smaller index), which gives the sequential scan's
// index. "avx2" without "fma": a fused multiply-add would round differently from the portable
// loop and could pick another vertex.
__attribute__((target("avx2"))) inline int scan_avx2(const SmallPolytope& p, const Vec3& d) {
  const __m256d vx = _mm256_set1_pd(d.x());
  const __m256d vy = _mm256_set1_pd(d.y());
  const __m256d vz = _mm256_set1_pd(d.z());
  const __m256d four = _mm256_set1_pd(4.0);
  __m256d best = _mm256_set1_pd(-std::numeric_limits<double>::infinity());
  __m256d index = _mm256_setr_pd(0.0, 1.0, 2.0, 3.0);
  __m256d best_index = index;
  for (std::size_t i = 0; i < p.padded; i += 4) {
    const __m256d v = _mm256_add_pd(_mm256_add_pd(_mm256_mul_pd(vx, _mm256_load_pd(p.x.data() + i)),
                                                  _mm256_mul_pd(vy, _mm256_load_pd(p.y.data() + i))),
                                    _mm256_mul_pd(vz, _mm256_load_pd(p.z.data() + i)));
    const __m256d greater = _mm256_cmp_pd(v, best, _CMP_GT_OQ);  // strict, false on NaN
    best = _mm256_blendv_pd(best, v, greater);
    best_index = _mm256_blendv_pd(best_index, index, greater);
    index = _mm256_add_pd(index, four);
  }
  // Lanes (0, 2) and (1, 3), then (0, 1): the other lane wins when larger, or equal with a
  // smaller index.
  __m256d other = _mm256_permute2f128_pd(best, best, 1);
  __m256d other_index = _mm256_permute2f128_pd(best_index, best_index, 1);
  __m256d take = _mm256_or_pd(_mm256_cmp_pd(other, best, _CMP_GT_OQ),
                              _mm256_and_pd(_mm256_cmp_pd(other, best, _CMP_EQ_OQ),
                                            _mm256_cmp_pd(other_index, best_index, _CMP_LT_OQ)));
  best = _mm256_blendv_pd(best, other, take);
  best_index = _mm256_blendv_pd(best_index, other_index, take);
  other = _mm256_permute_pd(best, 0x5);
  other_index = _mm256_permute_pd(best_index, 0x5);
  take = _mm256_or_pd(_mm256_cmp_pd(other, best, _CMP_GT_OQ),
                      _mm256_and_pd(_mm256_cmp_pd(other, best, _CMP_EQ_OQ),
                                    _mm256_cmp_pd(other_index, best_index, _CMP_LT_OQ)));
  best_index = _mm256_blendv_pd(best_index, other_index, take);
  return static_cast<int>(_mm256_cvtsd_f64(best_index));
}

// One out-of-line call per GJK iteration: both scans and the pose arithmetic of support_portable.
__attribute__((target("avx2"), noinline)) gjk::SupportPoint support_avx2(const SmallPolytope& a,
                                                                         const SmallPolytope& b, const Pose& b_in_a,
                                                                         const Vec3& d) {
  const Vec3 sa = vertex(a, scan_avx2(a, d));
  const Vec3 sb = b_in_a.apply(vertex(b, scan_avx2(b, b_in_a.rotate_inverse(-d))));
  return {sa - sb, sa, sb};
}
#else
const bool kHaveAvx2 = false;
gjk::SupportPoint support_avx2(const SmallPolytope& a, const SmallPolytope& b, const Pose& b_in_a, const Vec3& d) {
  return support_portable(a, b, b_in_a, d);
}
#endif

// The Minkowski difference gjk::detail::run_gjk runs on (the Md interface: support, margin).
template <KernelPath Path>
class SmallDifference {
 public:
  SmallDifference(const SmallPolytope& a, const SmallPolytope& b, const Pose& b_in_a) : a_(a), b_(b), b_in_a_(b_in_a) {}
  gjk::SupportPoint support(const Vec3& d) const {
    if constexpr (Path == KernelPath::avx2) {
      return support_avx2(a_, b_, b_in_a_, d);
    } else {
      return support_portable(a_, b_, b_in_a_, d);
    }
  }
  // Polytopes are not rounded: MinkowskiDifference::margin() is 0 + 0.
  double margin() const { return 0.0; }

 private:
  const SmallPolytope& a_;
  const SmallPolytope& b_;
  const Pose& b_in_a_;
};

// gjk::intersect's body (with run_warm_gjk on a cold WarmStart), expression for expression.
template <KernelPath Path>
IntersectResult intersect_impl(const SmallPolytope& a, const Pose& pose_a, const SmallPolytope& b, const Pose& b_in_a,
                               const gjk::GjkOptions& options) {
  // gjk::detail::query_scale
  const double scale = a.sphere.radius + b.sphere.radius + (a.sphere.center - b_in_a.apply(b.sphere.center)).norm();
  if (!gjk::detail::scale_in_range(scale)) return gjk::detail::out_of_range_result<IntersectResult>();
  // gjk::detail::first_direction without a warm direction
  Vec3 direction = b_in_a.apply(b.sphere.center) - a.sphere.center;
  if (!(direction.squaredNorm() > 0)) direction = Vec3::UnitX();
  // The first support pair is not handed to the run here (measured: instructions -3.6% at N = 8,
  // +1.9% at N = 32 with the start simplex's zero-fill and copy; docs/benchmarks.md, session 20):
  // the run remakes the same point.
  if (options.first_support_overlap) {  // gjk::intersect's first support pair (cold start)
    const gjk::SupportPoint first = support_portable(a, b, b_in_a, direction);
    if (first_support_overlap(a, b, b_in_a, direction, first)) return gjk::detail::common_point_intersect_answer();
  }
  SmallDifference<Path> md(a, b, b_in_a);
  const gjk::detail::GjkRun run =
      gjk::detail::run_gjk(md, gjk::Simplex{}, direction, scale, options, gjk::detail::GjkMode::intersect);
  IntersectResult r;
  r.iterations = run.iterations;
  r.status = run.status;
  r.detail = run.detail;
  if (run.separated) {
    r.intersect = false;
    r.separating_axis = pose_a.rotate(-run.lower_bound_direction);
  } else {
    r.intersect = true;
  }
  return r;
}


// ---------------------------------------------------------------------------------------------
// The lean kernel: run_gjk in intersect mode without momentum (options.nesterov false), keeping
// only what the intersect answer reads. gjk::intersect never looks at the witness points, so the
// simplex holds w = a - b alone (a third of run_gjk's copying); the sub-distance routine is the
// same function (gjk::closest_point_to_origin) on the same points, and every test, comparison and
// stopping rule of run_gjk is kept in its order. The support is a template argument (inline
// 2-wide scans).

typedef double Double2 __attribute__((vector_size(16)));
typedef long long Mask2 __attribute__((vector_size(16)));

// Polytope::scan's answer, 2 vertices at a time (SSE2, which every x86-64 has; plain scalar code
// elsewhere). That answer is the first index of the largest d . v among the values above -inf
// (NaN never wins), or 0 when there is none. Each lane keeps its first maximum (strict '>',
// starting from -inf, so a lane never holds NaN), then the lanes are merged on (larger value,
// then smaller index): the same index as the sequential scan and the polytope layer's AVX2 scan.
inline int scan2(const SmallPolytope& p, const Vec3& d) {
  const Double2 dx = {d.x(), d.x()};
  const Double2 dy = {d.y(), d.y()};
  const Double2 dz = {d.z(), d.z()};
  const double inf = std::numeric_limits<double>::infinity();
  Double2 best = {-inf, -inf};
  Double2 index = {0.0, 1.0};  // exact as doubles for any hull size
  Double2 best_index = index;
  const Double2 two = {2.0, 2.0};
  for (std::size_t i = 0; i < p.padded; i += 2) {
    Double2 x;
    Double2 y;
    Double2 z;
    __builtin_memcpy(&x, p.x.data() + i, sizeof x);
    __builtin_memcpy(&y, p.y.data() + i, sizeof y);
    __builtin_memcpy(&z, p.z.data() + i, sizeof z);
    const Double2 v = dx * x + dy * y + dz * z;  // (dx x + dy y) + dz z, as the scalar dot
    const Mask2 greater = v > best;               // strict, false on NaN
    best = greater ? v : best;
    best_index = greater ? index : best_index;
    index += two;
  }
  const bool second = best[1] > best[0] || (best[1] == best[0] && best_index[1] < best_index[0]);
  return static_cast<int>(second ? best_index[1] : best_index[0]);
}

// The support of the lean kernel (w = a - b only), portable: inlined into the loop.
struct PortableSupport {
  static Vec3 w(const SmallPolytope& a, const SmallPolytope& b, const Pose& b_in_a, const Vec3& d) {
    const Vec3 sa = vertex(a, scan2(a, d));
    const Vec3 sb = b_in_a.apply(vertex(b, scan2(b, b_in_a.rotate_inverse(-d))));
    return sa - sb;
  }
};


template <class Support>
IntersectResult lean_intersect(const SmallPolytope& a, const Pose& pose_a, const SmallPolytope& b, const Pose& b_in_a,
                               const gjk::GjkOptions& options) {
  // gjk::detail::query_scale and first_direction (cold), as in intersect_impl.
  const double scale = a.sphere.radius + b.sphere.radius + (a.sphere.center - b_in_a.apply(b.sphere.center)).norm();
  if (!gjk::detail::scale_in_range(scale)) return gjk::detail::out_of_range_result<IntersectResult>();
  Vec3 direction = b_in_a.apply(b.sphere.center) - a.sphere.center;
  if (!(direction.squaredNorm() > 0)) direction = Vec3::UnitX();
  // MinkowskiDifference::support, w only.
  const auto support = [&](const Vec3& d) { return Support::w(a, b, b_in_a, d); };
  Vec3 first_w;  // the run's first support point
  if (options.first_support_overlap) {  // gjk::intersect's first support pair (cold start)
    const gjk::SupportPoint first = support_portable(a, b, b_in_a, direction);
    if (first_support_overlap(a, b, b_in_a, direction, first)) return gjk::detail::common_point_intersect_answer();
    first_w = first.w;  // the same w as support(direction): the same scans' vertices
  } else {
    first_w = support(direction);
  }
  const double margin = 0.0;  // MinkowskiDifference::margin() of two polytopes
  const double contact_sq = options.absolute_tolerance * scale * scale;
  // The start: one support point; reduce_simplex keeps it and v = w (a NaN restart would
  // recompute the same point, so it is left out).
  std::array<Vec3, 4> simplex;
  simplex[0] = first_w;
  int size = 1;
  Vec3 v = simplex[0];
  double vv = v.squaredNorm();
  double lower_bound = -std::numeric_limits<double>::infinity();
  Vec3 lower_bound_direction = nan_vec3();
  bool separated = false;
  int iterations = 0;
  Status status = Status::iteration_limit;
  Detail detail = Detail::none;
  for (int k = 0; k < options.max_iterations; ++k) {
    if (!std::isfinite(vv)) {
      status = Status::degenerate_input;
      detail = Detail::non_finite;
      break;
    }
    if (vv <= contact_sq || vv <= margin * margin) {  // contact
      status = Status::converged;
      detail = Detail::origin_enclosed;
      break;
    }
    const Vec3 d = v;
    const Vec3 w = support(-d);
    iterations = k + 1;
    const double dn = d.norm();
    const double plane = d.dot(w) / dn;
    if (!std::isfinite(plane)) {
      status = Status::degenerate_input;
      detail = Detail::non_finite;
      break;
    }
    if (plane > lower_bound) {
      lower_bound = plane;
      lower_bound_direction = d / dn;
    }
    if (lower_bound > margin + std::sqrt(contact_sq)) {
      separated = true;
      status = Status::converged;
      detail = Detail::separating_axis;
      break;
    }
    const double gap = vv - std::sqrt(vv) * lower_bound;
    if (gap <= options.relative_tolerance * vv || gap <= contact_sq) {
      status = Status::converged;
      detail = Detail::duality_gap;
      break;
    }
    bool repeated = false;
    for (int i = 0; i < size; ++i) repeated = repeated || simplex[static_cast<std::size_t>(i)] == w;
    if (repeated) {
      status = Status::converged;
      detail = Detail::repeated_support;
      break;
    }
    // The candidate point goes in slot `size`; on no progress the loop ends and the simplex is
    // not read again.
    simplex[static_cast<std::size_t>(size)] = w;
    const gjk::SubDistance sub = gjk::closest_point_to_origin(simplex.data(), size + 1);
    const Vec3 v_next = sub.mask != 0 ? sub.point : nan_vec3();
    const double vv_next = v_next.squaredNorm();
    if (!(vv_next < vv)) {
      status = vv_next == vv_next ? Status::converged : Status::degenerate_input;
      detail = vv_next == vv_next ? Detail::no_progress : Detail::non_finite;
      break;
    }
    // keep_support_set, on w alone.
    int kept = 0;
    for (int i = 0; i <= size; ++i) {
      if (sub.mask & (1U << i)) simplex[static_cast<std::size_t>(kept++)] = simplex[static_cast<std::size_t>(i)];
    }
    size = kept;
    v = v_next;
    vv = vv_next;
  }
  IntersectResult r;
  r.iterations = iterations;
  r.status = status;
  r.detail = detail;
  if (separated) {
    r.intersect = false;
    r.separating_axis = pose_a.rotate(-lower_bound_direction);
  } else {
    r.intersect = true;  // contact, or converged without separation, or the cap (conservative)
  }
  return r;
}

}  // namespace

void PoseGroup::set(std::size_t e, const Pose& b_in_a) {
  const Mat3& rotation = b_in_a.rotation();
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) r[3 * i + j][e] = rotation(i, j);
    t[i][e] = b_in_a.translation()[i];
  }
}

void PoseGroup::move(std::size_t from, std::size_t to) {
  for (auto& row : r) row[to] = row[from];
  for (auto& row : t) row[to] = row[from];
}

Vec3 support_w_portable(const SmallPolytope& a, const SmallPolytope& b, const Pose& b_in_a, const Vec3& d) {
  return PortableSupport::w(a, b, b_in_a, d);
}

bool load_small_polytope(const AnyConvex& shape, SmallPolytope& out) {
  const Polytope* p = std::get_if<Polytope>(&shape.variant());
  if (p == nullptr || p->size() >= kPolytopeHillClimbMinVertices) return false;
  const std::vector<Vec3>& v = p->vertices();
  out.size = p->size();
  out.padded = (static_cast<std::size_t>(out.size) + 3) / 4 * 4;
  for (std::size_t i = 0; i < out.padded; ++i) {
    const Vec3& q = v[i < v.size() ? i : 0];
    out.x[i] = q.x();
    out.y[i] = q.y();
    out.z[i] = q.z();
  }
  out.sphere = p->bounding_sphere();
  out.polytope = p;
  return true;
}

KernelPath best_path() { return kHaveAvx2 ? KernelPath::avx2 : KernelPath::portable; }

IntersectResult intersect_small_polytopes(const SmallPolytope& a, const Pose& pose_a, const SmallPolytope& b,
                                          const Pose& b_in_a, const gjk::GjkOptions& options, KernelPath path) {
  if (options.nesterov) {  // momentum directions: run_gjk itself
    if (path == KernelPath::avx2) return intersect_impl<KernelPath::avx2>(a, pose_a, b, b_in_a, options);
    return intersect_impl<KernelPath::portable>(a, pose_a, b, b_in_a, options);
  }
  // Without momentum on an AVX2 CPU the batch runs the lanes (small_polytope_lanes.cpp), so the
  // lean one-element kernel is the portable one on every path.
  return lean_intersect<PortableSupport>(a, pose_a, b, b_in_a, options);
}

}  // namespace proxima::batch::detail
