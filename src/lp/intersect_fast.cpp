// SPDX-License-Identifier: MIT
// Structured phase one for lp::intersect (see intersect_fast.hpp). Columns are numbered
// 0..N-1 (points: A's first, then B's; N = |A| + |B|) and N..N+n-1 (artificial column i is
// sign_i e_i on coordinate row i). Rows 0..n-1 say A l = B m, row n sums l, row n+1 sums m.
#include "lp/intersect_fast.hpp"

#include "lp/common.hpp"
#include "lp/dense_kernels.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace proxima::lp::detail {
namespace {

constexpr double kMinusInf = -std::numeric_limits<double>::infinity();
/// Basis size from which the inverse's update goes through the dispatched (AVX2) kernel; below
/// it the call costs more than it saves (callgrind: +7% instructions at n = 3, -2% at n = 20).
/// Both paths round alike.
constexpr int kWideUpdateRows = 8;
/// Columns (|A| + |B|) from which Dantzig pricing is partial ("multiple pricing"): each full
/// pass keeps the kLargestLanes runners-up of largest_column_combination, and the next pivots
/// enter the best improving one of them, priced again in O(n) each, until none improves; only
/// then is every column priced again (and only a full pass declares optimality).
constexpr int kMultiplePricingColumns = 512;
/// Safety factor on the rounding of a pricing value (at most n + 2 rounded operations of
/// magnitude |y|_1, each within one epsilon) in the optimality shortcut of FastSolver::run.
constexpr double kValueRoundingSlack = 4;
/// The crash's direction is taken as the Farkas ray without a pivot (FastSolver::crash_separates)
/// only when it separates the normalised sets by this many infeasibility tolerances: far outside
/// the touching band, where phase one would end infeasible too (its optimum, the 1-norm of the
/// closest residual, is at least the margin).
constexpr double kCrashSeparationSlack = 16;

/// The crash's direction, between the centres of A's and B's bounding boxes (box as in
/// IntersectStorage: min A, max A, min B, max B), scaled to inf-norm 1. The boxes are in input
/// coordinates: for sets near 1e-162 the raw difference is so small that its products (the
/// Farkas ray's squared norm, d . p) underflow into subnormals, and the normal made from it was
/// 5% short of unit length (fuzz_lp, corpus regress_lp_tiny_crash_direction).
void crash_direction(int n, const double* box, double* dir) {
  double largest = 0;
  for (int i = 0; i < n; ++i) {
    dir[i] = (box[2 * n + i] + box[3 * n + i] - box[i] - box[n + i]) / 2;
    largest = std::max(largest, std::abs(dir[i]));
  }
  // Coinciding centres leave d = 0 (the crash then picks index 0, and separation fails its test);
  // a non-finite largest (boxes near DBL_MAX) leaves d as it is.
  if (!(largest > 0) || !std::isfinite(largest)) return;
  // Divided, not multiplied by 1 / largest: that reciprocal overflows for a subnormal largest.
  for (int i = 0; i < n; ++i) dir[i] /= largest;
}

/// Points per set from which the bounding box at n = 3 goes through the vectorised pass
/// (dense_kernels.hpp, box3): below it the lane reduction costs more than the scalar loop saves
/// (perf: 11% of a query at 8 points per set).
constexpr Eigen::Index kVectorBoxPoints = 32;

/// Basis size at n = 3, for which the small update is compiled with its size fixed.
constexpr int kThreeDimensionalRows = 5;

/// The inverse's update below kWideUpdateRows (see FastSolver::pivot), for Fixed rows and
/// columns when Fixed > 0 (loops unrolled), else for m.
template <int Fixed>
void update_small(double* inv, std::ptrdiff_t ld, int runtime_m, int row, const double* al, const double* new_row) {
  const int m = Fixed > 0 ? Fixed : runtime_m;
  for (int c = 0; c < m; ++c) {
    double* col = inv + c * ld;
    const double f = new_row[c];
    for (int i = 0; i < m; ++i) col[i] -= f * al[i];
    col[row] = f;
  }
}

template <class Vector>
void grow(Vector& v, Eigen::Index size) {
  if (v.size() < size) v.resize(size);
}

/// Dim > 0: the solver for n = Dim, every loop over the m = Dim + 2 rows of a known length (the
/// compiler unrolls them; at n = 3 the loop control was a large part of a pivot); Dim = 0: any n.
template <int Dim>
class FastSolver {
 public:
  FastSolver(IntersectStorage& s, int n, int na, int nb, const SimplexOptions& options)
      : s_(s), n_runtime_(n), na_(na), nb_(nb), cols_(na + nb), m_runtime_(n + 2), opt_(options) {}

  FastResult run();

 private:
  int n() const {
    if constexpr (Dim > 0) return Dim;
    return n_runtime_;
  }
  int m() const {
    if constexpr (Dim > 0) return Dim + 2;
    return m_runtime_;
  }
  bool artificial(int j) const { return j >= cols_; }
  int basic(int r) const { return s_.basis[static_cast<std::size_t>(r)]; }
  auto binv() { return s_.binv.topLeftCorner(m(), m()); }
  auto points() { return s_.points.topLeftCorner(cols_, n()); }
  auto xb() { return s_.xb.head(m()); }
  auto y() { return s_.y.head(m()); }
  auto alpha() { return s_.alpha.head(m()); }
  /// Row of the convexity constraint that holds column j (j structural).
  int convexity_row(int j) const { return j < na_ ? n() : n() + 1; }

  void write_column(int j, Eigen::Ref<Eigen::VectorXd> out) {
    if (artificial(j)) {
      out.setZero();
      out[j - cols_] = s_.sign[j - cols_];
      return;
    }
    out.head(n()) = points().row(j).transpose();
    out[n()] = j < na_ ? 1.0 : 0.0;
    out[n() + 1] = j < na_ ? 0.0 : 1.0;
  }
  /// alpha = B^-1 (column j).
  void compute_alpha(int j) {
    // Raw loops: at m = 5 Eigen's per-expression set-up costs more than the copies.
    const std::ptrdiff_t ld = s_.binv.outerStride();
    double* al = s_.alpha.data();
    if (artificial(j)) {
      const double sign = s_.sign[j - cols_];
      const double* col = s_.binv.data() + (j - cols_) * ld;
      for (int i = 0; i < m(); ++i) al[i] = sign * col[i];
      return;
    }
    // The point's coordinates are a strided row of the store: gathered first, so that the
    // kernel reads the inverse's contiguous columns with a contiguous multiplier vector.
    const std::ptrdiff_t ld_points = s_.points.outerStride();
    const double* point = s_.points.data() + j;
    if constexpr (Dim > 0) {
      // The kernel's sums in its order, inline: at m = 5 the call and its dispatch cost more
      // than the 15 products.
      const double* inv = s_.binv.data();
      const double* base = inv + convexity_row(j) * ld;
      double p[Dim];
      for (int c = 0; c < Dim; ++c) p[c] = point[c * ld_points];
      for (int i = 0; i < m(); ++i) {
        double acc = base[i];
        for (int c = 0; c < Dim; ++c) acc += p[c] * inv[c * ld + i];
        al[i] = acc;
      }
      return;
    }
    double* coords = s_.coords.data();
    for (int c = 0; c < n(); ++c) coords[c] = point[c * ld_points];
    const double* col = s_.binv.data() + convexity_row(j) * ld;
    for (int i = 0; i < m(); ++i) al[i] = col[i];
    add_column_combination(s_.binv.data(), ld, m(), n(), coords, al);
  }
  /// v = P d over the stored points, plus `shift_a` on A's rows and `shift_b` on B's.
  void points_times(const double* d, double shift_a, double shift_b) {
    auto v = s_.values.head(cols_);
    v.head(na_).setConstant(shift_a);
    v.tail(nb_).setConstant(shift_b);
    add_column_combination(s_.points.data(), s_.points.outerStride(), cols_, n(), d, s_.values.data());
  }
  /// The first column of one set's rows [first, first + count) where d . p is largest.
  ArgMax largest_in(int first, int count, const double* d) {
    return largest_column_combination(s_.points.data() + first, s_.points.outerStride(), count, count, n(), d, 0.0,
                                      0.0);
  }
  /// Phase-one multipliers y = B^-T c_B (cost 1 on artificial columns, 0 on points), from
  /// scratch; pivot() updates them in O(m) in between.
  void compute_y() {
    const std::ptrdiff_t ld = s_.binv.outerStride();
    const double* inv = s_.binv.data();
    double* y = s_.y.data();
    for (int c = 0; c < m(); ++c) y[c] = 0;
    for (int r = 0; r < m(); ++r) {
      if (!artificial(basic(r))) continue;
      for (int c = 0; c < m(); ++c) y[c] += inv[c * ld + r];
    }
  }
  double artificial_sum() {
    double sum = 0;
    for (int r = 0; r < m(); ++r) {
      if (artificial(basic(r))) sum += std::max(s_.xb[r], 0.0);
    }
    return sum;
  }
  void set_basic(int r, int j) {
    s_.basis[static_cast<std::size_t>(r)] = j;
    if (!artificial(j)) s_.is_basic[static_cast<std::size_t>(j)] = 1;
  }

  bool values_stay_optimal(const double* old_y) const;
  void crash();
  bool crash_separates();
  bool warm_start();
  bool refactor();
  int price(bool bland, double& value);
  int price_candidates(double& value);
  /// y^T A_j for structural column j, summed in the order of largest_column_combination.
  double column_value(int j) const {
    const double* y = s_.y.data();
    const double* p = s_.points.data() + j;
    const Eigen::Index ld = s_.points.outerStride();
    double acc = j < na_ ? y[n()] : y[n() + 1];
    for (int c = 0; c < n(); ++c) acc += y[c] * p[c * ld];
    return acc;
  }
  int price_excluding_basic(bool bland, double& value);
  int ratio_test(bool& degenerate);
  void pivot(int row, int entering, double value);

  IntersectStorage& s_;
  int n_runtime_;
  int na_;
  int nb_;
  int cols_;
  int m_runtime_;
  const SimplexOptions& opt_;
  /// Largest value of the last fused full pricing pass (all columns), +inf when the last pass
  /// was not one: the optimality shortcut in run() starts from it.
  double last_full_max_ = std::numeric_limits<double>::infinity();
  int candidates_[kLargestLanes] = {};
  int candidate_count_ = 0;
};

template <int Dim>
void FastSolver<Dim>::crash() {
  // The support point of A towards B and of B towards A (directions between the centres of
  // the two bounding boxes), each basic in its convexity row at level 1; the coordinate rows
  // take artificial columns signed so that their levels |residual| are >= 0. With u = a', v = -b'
  // the basis matrix is [D u v; 0 1 0; 0 0 1], whose inverse is [D -Du -Dv; 0 1 0; 0 0 1].
  // normalise_points found them while storing the points (n = 3), with the same values.
  int sa = s_.crash_a;
  int sb = s_.crash_b;
  if (sa < 0 || sb < 0) {
    double* dir = s_.y.data();  // y is free until the first pricing
    crash_direction(n(), s_.box.data(), dir);
    sa = largest_in(0, na_, dir).index;
    sb = largest_in(na_, nb_, dir).index;
  }
  // Finite points and direction give finite values; index 0 only guards the impossible.
  sa = std::max(sa, 0);
  sb = na_ + std::max(sb, 0);
  std::fill(s_.is_basic.begin(), s_.is_basic.begin() + cols_, 0);
  auto inv = binv();
  inv.setZero();
  for (int i = 0; i < n(); ++i) {
    const double residual = -(s_.points(sa, i) + s_.points(sb, i));
    const double sign = residual < 0 ? -1.0 : 1.0;
    s_.sign[i] = sign;
    inv(i, i) = sign;
    inv(i, n()) = -sign * s_.points(sa, i);
    inv(i, n() + 1) = -sign * s_.points(sb, i);
    s_.xb[i] = std::abs(residual);
    set_basic(i, cols_ + i);
  }
  inv(n(), n()) = 1;
  inv(n() + 1, n() + 1) = 1;
  s_.xb[n()] = 1;
  s_.xb[n() + 1] = 1;
  set_basic(n(), sa);
  set_basic(n() + 1, sb);
  // The multipliers of this basis, compute_y's sums written out: the artificial rows 0..n-1
  // hold sign_i in column i and -sign_i a'_i, -sign_i (-b'_i) in columns n, n+1; added in row
  // order from 0 as compute_y adds them (the zeros add exactly), so the bits are the same.
  double* y = s_.y.data();
  y[n()] = 0;
  y[n() + 1] = 0;
  for (int i = 0; i < n(); ++i) {
    y[i] = s_.sign[i];
    y[n()] += inv(i, n());
    y[n() + 1] += inv(i, n() + 1);
  }
}

template <int Dim>
bool FastSolver<Dim>::crash_separates() {
  // The crash found the support point a'_s of A along d (the direction between the box centres)
  // and the support point -b'_s of B along -d. When d . a'_s < d . b'_s by a clear margin, d
  // already separates the sets: y = (d, -d . a'_s, d . b'_s) is a Farkas ray of the phase-one LP
  // (y . A_j <= 0 on every column, y . rhs > 0), the certificate a pivot sequence would end with,
  // found without one. Pairs that are separated along the line of their centres (most separated
  // pairs of a broad phase) then cost the input passes only. fast_answer checks the hyperplane on
  // the input points as for any Farkas ray.
  double* dir = s_.alpha.data();  // alpha is free until the first pivot
  crash_direction(n(), s_.box.data(), dir);
  const int sa = basic(n());
  const int sb = basic(n() + 1);
  double high_a = 0;
  double low_b = 0;  // d . b'_s (B's rows hold -b')
  double norm2 = 0;
  for (int i = 0; i < n(); ++i) {
    high_a += dir[i] * s_.points(sa, i);
    low_b -= dir[i] * s_.points(sb, i);
    norm2 += dir[i] * dir[i];
  }
  if (!(low_b - high_a > kCrashSeparationSlack * opt_.infeasibility_tolerance * std::sqrt(norm2))) return false;
  double* y = s_.y.data();
  for (int i = 0; i < n(); ++i) y[i] = dir[i];
  y[n()] = -high_a;
  y[n() + 1] = low_b;
  return true;
}

template <int Dim>
bool FastSolver<Dim>::warm_start() {
  // The previous basis on the new data. Artificial levels that came out negative are made
  // positive by flipping the sign of their column (which negates that row of the inverse); a
  // negative point weight would need a repair phase, and the crash basis is as good a start.
  std::fill(s_.is_basic.begin(), s_.is_basic.begin() + cols_, 0);
  for (int r = 0; r < m(); ++r) {
    if (!artificial(basic(r))) s_.is_basic[static_cast<std::size_t>(basic(r))] = 1;
  }
  if (!refactor()) return false;
  const double feas = opt_.feasibility_tolerance;
  for (int r = 0; r < m(); ++r) {
    const int j = basic(r);
    if (artificial(j)) {
      if (s_.xb[r] < 0) {
        s_.sign[j - cols_] = -s_.sign[j - cols_];
        binv().row(r) *= -1;
        s_.xb[r] = -s_.xb[r];
      }
    } else if (s_.xb[r] < -feas) {
      return false;
    }
  }
  return true;
}

template <int Dim>
bool FastSolver<Dim>::refactor() {
  // Gauss-Jordan with partial pivoting on the basis matrix; then x_B = B^-1 (e_n + e_{n+1}).
  auto bm = s_.factor.topLeftCorner(m(), m());
  for (int r = 0; r < m(); ++r) write_column(basic(r), bm.col(r));
  auto inv = binv();
  inv.setIdentity();
  const double scale = std::max(1.0, bm.cwiseAbs().maxCoeff());
  for (int k = 0; k < m(); ++k) {
    int p = k;
    double best = std::abs(bm(k, k));
    for (int i = k + 1; i < m(); ++i) {
      if (std::abs(bm(i, k)) > best) {
        best = std::abs(bm(i, k));
        p = i;
      }
    }
    if (!(best > opt_.pivot_tolerance * scale)) return false;
    if (p != k) {
      bm.row(p).swap(bm.row(k));
      inv.row(p).swap(inv.row(k));
    }
    const double inv_pivot = 1.0 / bm(k, k);
    bm.row(k) *= inv_pivot;
    inv.row(k) *= inv_pivot;
    for (int i = 0; i < m(); ++i) {
      const double f = bm(i, k);
      if (i == k || f == 0) continue;
      bm.row(i) -= f * bm.row(k);
      inv.row(i) -= f * inv.row(k);
    }
  }
  xb() = inv.col(n()) + inv.col(n() + 1);
  return true;
}

template <int Dim>
int FastSolver<Dim>::price(bool bland, double& value) {
  // Value of column j: y^T A_j = y_x . p_j + y_{convexity row}; its reduced cost is -value.
  // Dantzig in one pass over both sets, the values never stored: the largest value over all columns,
  // basic ones included. Basic columns have value 0 up to rounding, so when that largest value
  // is above the tolerance and belongs to a non-basic column it is also the largest over the
  // non-basic columns, with the same first index; otherwise the old exclusion pass decides
  // (only on a basic column's rounding above the tolerance, or an exact tie with one).
  if (bland) return price_excluding_basic(true, value);
  const bool multiple = cols_ >= kMultiplePricingColumns;
  if (multiple && candidate_count_ > 0) {
    const int q = price_candidates(value);
    if (q >= 0) return q;
  }
  int lanes[kLargestLanes];
  const ArgMax best = largest_column_combination(s_.points.data(), s_.points.outerStride(), cols_, na_, n(), s_.y.data(),
                                                 s_.y[n()], s_.y[n() + 1], multiple ? lanes : nullptr);
  if (multiple) {
    candidate_count_ = 0;
    for (const int j : lanes) {
      if (j >= 0 && j != best.index) candidates_[candidate_count_++] = j;
    }
  }
  last_full_max_ = best.value;
  if (!(best.value > opt_.optimality_tolerance)) return -1;
  if (s_.is_basic[static_cast<std::size_t>(best.index)] != 0) return price_excluding_basic(false, value);
  value = best.value;
  return best.index;
}

template <int Dim>
int FastSolver<Dim>::price_candidates(double& value) {
  // The best improving candidate (first index on ties), or -1: then the caller prices every
  // column. Candidates that became basic are skipped.
  int q = -1;
  double best = opt_.optimality_tolerance;
  for (int k = 0; k < candidate_count_; ++k) {
    const int j = candidates_[k];
    if (s_.is_basic[static_cast<std::size_t>(j)] != 0) continue;
    const double v = column_value(j);
    if (v > best || (v == best && q >= 0 && j < q)) {
      best = v;
      q = j;
    }
  }
  value = best;
  return q;
}

template <int Dim>
int FastSolver<Dim>::price_excluding_basic(bool bland, double& value) {
  // Basic columns are excluded explicitly (their value is 0 only up to rounding).
  last_full_max_ = std::numeric_limits<double>::infinity();
  points_times(s_.y.data(), s_.y[n()], s_.y[n() + 1]);
  auto v = s_.values.head(cols_);
  for (int r = 0; r < m(); ++r) {
    if (!artificial(basic(r))) v[basic(r)] = kMinusInf;
  }
  const double tol = opt_.optimality_tolerance;
  if (bland) {
    for (int j = 0; j < cols_; ++j) {
      if (v[j] > tol) {
        value = v[j];
        return j;
      }
    }
    return -1;
  }
  const double best = v.maxCoeff();  // vectorised; the index is found by a second, short scan
  if (!(best > tol)) return -1;
  for (int j = 0; j < cols_; ++j) {
    if (v[j] == best) {
      value = best;
      return j;
    }
  }
  return -1;
}

template <int Dim>
int FastSolver<Dim>::ratio_test(bool& degenerate) {
  // Harris two-pass test with Bland's leaving rule on degenerate steps, as in the general
  // solver (simplex_method.cpp, SimplexSolver::ratio_test), phase one only.
  auto al = alpha();
  const double piv = opt_.pivot_tolerance * std::max(1.0, al.cwiseAbs().maxCoeff());
  const double feas = opt_.feasibility_tolerance;
  double theta_max = std::numeric_limits<double>::infinity();
  for (int i = 0; i < m(); ++i) {
    if (al[i] > piv) theta_max = std::min(theta_max, (std::max(s_.xb[i], 0.0) + feas) / al[i]);
  }
  if (!std::isfinite(theta_max)) return -1;
  int row = -1;
  double row_alpha = 0;
  for (int i = 0; i < m(); ++i) {
    if (al[i] > piv && std::max(s_.xb[i], 0.0) / al[i] <= theta_max && al[i] > row_alpha) {
      row = i;
      row_alpha = al[i];
    }
  }
  degenerate = s_.xb[row] <= feas;
  if (!degenerate) return row;
  int bland_row = -1;
  int bland_index = 0;
  for (int i = 0; i < m(); ++i) {
    if (al[i] > piv && s_.xb[i] <= feas && s_.xb[i] / al[i] <= theta_max) {
      if (bland_row < 0 || basic(i) < bland_index) {
        bland_row = i;
        bland_index = basic(i);
      }
    }
  }
  return bland_row >= 0 ? bland_row : row;
}

template <int Dim>
void FastSolver<Dim>::pivot(int row, int entering, double value) {
  // Product-form update of the explicit inverse as one rank-1 update over its contiguous
  // columns: new row r = old row r / alpha_r, every other row i -= alpha_i * new row r. The
  // multipliers follow in O(m): y += d_q * (new row r), d_q = -value the entering reduced cost.
  // Raw loops: at m = 5 Eigen's per-column alignment bookkeeping costs more than the flops.
  // Each element is updated as inv - (f * alpha), the rounding of the vector expression; the
  // pivot row is then overwritten with its new value.
  const int rows = m();
  const std::ptrdiff_t ld = s_.binv.outerStride();
  double* inv = s_.binv.data();
  const double* al = s_.alpha.data();
  double* xb = s_.xb.data();
  double* new_row = s_.factor.data();  // factor is scratch outside refactor()
  const double ar = al[row];
  const double theta = std::max(xb[row], 0.0) / ar;
  for (int i = 0; i < rows; ++i) xb[i] -= theta * al[i];
  xb[row] = theta;
  // One division, then products: the divisions' latency was the update's longest chain.
  const double inv_ar = 1.0 / ar;
  for (int c = 0; c < rows; ++c) new_row[c] = inv[c * ld + row] * inv_ar;
  if (rows >= kWideUpdateRows) {
    subtract_outer_product(inv, ld, rows, rows, al, new_row);
    for (int c = 0; c < rows; ++c) inv[c * ld + row] = new_row[c];
  } else if (rows == kThreeDimensionalRows) {
    update_small<kThreeDimensionalRows>(inv, ld, rows, row, al, new_row);
  } else {
    update_small<0>(inv, ld, rows, row, al, new_row);
  }
  double* y = s_.y.data();
  for (int c = 0; c < rows; ++c) y[c] -= value * new_row[c];
  const int leaving = basic(row);
  if (!artificial(leaving)) s_.is_basic[static_cast<std::size_t>(leaving)] = 0;
  set_basic(row, entering);
}

template <int Dim>
bool FastSolver<Dim>::values_stay_optimal(const double* old_y) const {
  // The last full pass found every value y_old . A_j <= last_full_max_ <= tolerance. With the
  // fresh y, value_j changes by (y - y_old) . A_j, at most |dy_x|_1 max|p| + max(|dy_n|,
  // |dy_n+1|), and the normalised coordinates are within [-1, 1] (2 allows their rounding).
  // Each computed value is also within (n + 2) epsilons of |y|_1 of its exact value, on both
  // passes. When the largest value plus both margins stays within the tolerance, pricing again
  // cannot find an improving column: the repeated full pass is skipped, and the answer (the
  // fresh y as Farkas ray) is the one it would have confirmed.
  const double* y = s_.y.data();
  double change = 0;
  double size = 0;
  for (int i = 0; i < n(); ++i) {
    change += std::abs(y[i] - old_y[i]);
    size += std::max(std::abs(y[i]), std::abs(old_y[i]));
  }
  change = 2 * change + std::max(std::abs(y[n()] - old_y[n()]), std::abs(y[n() + 1] - old_y[n() + 1]));
  size = 2 * size + std::max({std::abs(y[n()]), std::abs(y[n() + 1]), std::abs(old_y[n()]), std::abs(old_y[n() + 1])});
  const double rounding = kValueRoundingSlack * (n() + 2) * std::numeric_limits<double>::epsilon() * size;
  return last_full_max_ + change + 2 * rounding <= opt_.optimality_tolerance;
}

template <int Dim>
FastResult FastSolver<Dim>::run() {
  FastResult result;
  const bool warm = opt_.warm_start && s_.n == n() && s_.count_a == na_ && s_.count_b == nb_ && warm_start();
  if (!warm) crash();
  result.warm_started = warm;
  if (!warm && crash_separates()) {
    // The crash basis is a valid basis to warm-start the next query from.
    result.outcome = FastOutcome::infeasible;
    s_.n = n();
    s_.count_a = na_;
    s_.count_b = nb_;
    return result;
  }
  s_.n = -1;  // the stored basis is valid again only after a finished solve
  const bool bland_only = opt_.pricing == PricingRule::bland;
  int degenerate_run = 0;
  int since_refactor = 0;
  bool fresh_y = !warm;  // y computed from scratch since the last pivot (the crash computes it)
  StallCounter stall;  // kLpStallPivots: fed the artificial sum once per pivot
  int measured = -1;   // the pivot count at the last feed
  for (;;) {
    const double sum = artificial_sum();
    if (sum <= opt_.infeasibility_tolerance) {
      result.outcome = FastOutcome::feasible;
      break;
    }
    if (result.iterations != measured) {
      measured = result.iterations;
      if (stall.stalled(sum)) return result;  // cycling through rounding: failed, the general solver decides
    }
    if (result.iterations >= opt_.max_iterations) {
      result.outcome = FastOutcome::iteration_limit;
      return result;
    }
    if (since_refactor >= opt_.refactor_interval) {
      if (!refactor()) return result;  // failed
      since_refactor = 0;
      fresh_y = false;
      continue;
    }
    if (!fresh_y && (result.iterations == 0 || since_refactor == 0)) {
      compute_y();
      fresh_y = true;
    }
    double value = 0;
    const int q = price(bland_only || degenerate_run >= opt_.degenerate_run_before_bland, value);
    if (q < 0) {
      if (!fresh_y) {  // confirm the optimum with multipliers computed from scratch
        double* old_y = s_.alpha.data();  // free until the next pivot
        for (int c = 0; c < m(); ++c) old_y[c] = s_.y[c];
        compute_y();
        fresh_y = true;
        if (values_stay_optimal(old_y)) {
          result.outcome = FastOutcome::infeasible;
          break;
        }
        continue;  // price every column again with the fresh multipliers
      }
      result.outcome = FastOutcome::infeasible;
      break;
    }
    compute_alpha(q);
    bool degenerate = false;
    const int r = ratio_test(degenerate);
    if (r < 0) return result;  // phase one is bounded: only rounding gets here
    degenerate_run = degenerate ? degenerate_run + 1 : 0;
    pivot(r, q, value);
    fresh_y = false;
    ++result.iterations;
    ++since_refactor;
  }
  s_.n = n();
  s_.count_a = na_;
  s_.count_b = nb_;
  return result;
}

}  // namespace

namespace {

// The input passes for a dimension known at compile time (3, the common case): point by point,
// each point's coordinates in registers, instead of one strided pass per coordinate whose loop
// overhead dominates at small N. Same operations per element, in the same order over the points.

/// Box of p into lo and hi; returns 0 when the sum of each coordinate over the points is finite,
/// else NaN (see load_points): a NaN or infinite coordinate makes its sum NaN or infinite (at
/// half the cost of summing x - x per coordinate); finite coordinates near DBL_MAX may overflow
/// the sum too, and then load_points' caller checks every coordinate exactly.
/// Four points per step, their minima, maxima and probes combined before they meet the running
/// ones, so that each running value waits on one operation per four points instead of one per
/// point (the pass was bound by that latency). Minimum and maximum are exact and the probes are
/// zeros unless a coordinate is not finite, so the order changes no result.
template <int Dim>
double fixed_dimension_box(const PointsRef& p, double* lo, double* hi) {
  double low[Dim];
  double high[Dim];
  double sum[Dim];
  for (int i = 0; i < Dim; ++i) {
    low[i] = std::numeric_limits<double>::infinity();
    high[i] = -std::numeric_limits<double>::infinity();
    sum[i] = 0;
  }
  const Eigen::Index stride = p.outerStride();
  const Eigen::Index count = p.cols();
  const double* col = p.data();
  Eigen::Index j = 0;
  for (; j + 4 <= count; j += 4, col += 4 * stride) {
    for (int i = 0; i < Dim; ++i) {
      const double x0 = col[i];
      const double x1 = col[stride + i];
      const double x2 = col[2 * stride + i];
      const double x3 = col[3 * stride + i];
      sum[i] += (x0 + x1) + (x2 + x3);
      low[i] = std::min(low[i], std::min(std::min(x0, x1), std::min(x2, x3)));
      high[i] = std::max(high[i], std::max(std::max(x0, x1), std::max(x2, x3)));
    }
  }
  for (; j < count; ++j, col += stride) {
    for (int i = 0; i < Dim; ++i) {
      const double x = col[i];
      sum[i] += x;
      low[i] = std::min(low[i], x);
      high[i] = std::max(high[i], x);
    }
  }
  double finite = 0;
  for (int i = 0; i < Dim; ++i) {
    lo[i] = low[i];
    hi[i] = high[i];
    finite += sum[i] - sum[i];
  }
  return finite;
}

/// Stores p normalised from row first_row of the store (see normalise_points).
template <int Dim>
void fixed_dimension_store(const PointsRef& p, const double* centre, double inv_h, bool negate, double* out,
                           Eigen::Index ld) {
  double c[Dim];
  for (int i = 0; i < Dim; ++i) c[i] = centre[i];
  const Eigen::Index stride = p.outerStride();
  const double* col = p.data();
  for (Eigen::Index j = 0; j < p.cols(); ++j, col += stride) {
    for (int i = 0; i < Dim; ++i) out[i * ld + j] = negate ? (c[i] - col[i]) * inv_h : (col[i] - c[i]) * inv_h;
  }
}

}  // namespace

bool load_points(const PointsRef& a, const PointsRef& b, IntersectStorage& s) {
  const int n = static_cast<int>(a.rows());
  const int na = static_cast<int>(a.cols());
  const int nb = static_cast<int>(b.cols());
  const int cols = na + nb;
  const int m = n + 2;
  if (s.points.rows() < cols || s.points.cols() < n) {
    s.points.resize(std::max<Eigen::Index>(cols, s.points.rows()), std::max<Eigen::Index>(n, s.points.cols()));
  }
  if (s.binv.rows() < m) {
    s.binv.resize(m, m);
    s.factor.resize(m, m);
  }
  grow(s.values, cols);
  grow(s.xb, m);
  grow(s.y, m);
  grow(s.alpha, m);
  grow(s.coords, n);
  grow(s.sign, n);
  grow(s.box, 5 * n);
  if (s.basis.size() < static_cast<std::size_t>(m)) s.basis.resize(static_cast<std::size_t>(m));
  if (s.is_basic.size() < static_cast<std::size_t>(cols)) s.is_basic.resize(static_cast<std::size_t>(cols));
  // One read-only pass per set: bounding box, and x - x (0 for finite x, NaN otherwise) summed
  // as the finiteness test (at n = 3 with few points, the sum of x, see fixed_dimension_box). Point by point (each input column read contiguously), the running
  // minimum, maximum and probe of each coordinate independent of the others', so that the n
  // chains overlap instead of one strided pass per coordinate waiting on each comparison. The
  // points are stored by normalise_points, already normalised.
  double finite = 0;
  const auto box = [&](const PointsRef& p, double* __restrict lo, double* __restrict hi) {
    if (n == 3 && p.outerStride() == 3 && p.cols() >= kVectorBoxPoints) {
      finite += box3(p.data(), p.cols(), lo, hi);
      return;
    }
    if (n == 3) {
      finite += fixed_dimension_box<3>(p, lo, hi);
      return;
    }
    double* __restrict probe = s.coords.data();  // free until the solve
    for (int i = 0; i < n; ++i) {
      lo[i] = std::numeric_limits<double>::infinity();
      hi[i] = -std::numeric_limits<double>::infinity();
      probe[i] = 0;
    }
    const Eigen::Index stride = p.outerStride();
    const Eigen::Index count = p.cols();
    for (Eigen::Index j = 0; j < count; ++j) {
      const double* __restrict in = p.data() + j * stride;
      for (int i = 0; i < n; ++i) {
        const double x = in[i];
        probe[i] += x - x;
        lo[i] = std::min(lo[i], x);
        hi[i] = std::max(hi[i], x);
      }
    }
    for (int i = 0; i < n; ++i) finite += probe[i];
  };
  box(a, s.box.data(), s.box.data() + n);
  box(b, s.box.data() + 2 * n, s.box.data() + 3 * n);
  return finite == 0;
}

double normalise_points(const PointsRef& a, const PointsRef& b, IntersectStorage& s) {
  const int n = static_cast<int>(a.rows());
  double half_extent = 0;
  for (int i = 0; i < n; ++i) {
    const double lo = std::min(s.box[i], s.box[2 * n + i]);
    const double hi = std::max(s.box[n + i], s.box[3 * n + i]);
    // Halved before adding so that finite coordinates near +-DBL_MAX cannot overflow (fuzz_lp).
    s.box[4 * n + i] = lo / 2 + hi / 2;
    half_extent = std::max(half_extent, hi / 2 - lo / 2);
  }
  s.crash_a = -1;
  s.crash_b = -1;
  if (!(half_extent > 0)) return half_extent;
  // A's rows hold a' = (a - c) / h, B's hold -b' = (c - b) / h, transposed into the store
  // coordinate by coordinate (each stored column written contiguously).
  const double inv_h = 1.0 / half_extent;
  // At n = 3 the crash's support points are found while storing (store3), in the values the
  // crash would compute from the store.
  // Not when the stored basis has these sizes: a warm start will likely need no crash (and
  // when it fails, the crash prices for itself).
  const bool may_warm = s.n == n && s.count_a == a.cols() && s.count_b == b.cols();
  double direction[3];
  if (n == 3) crash_direction(n, s.box.data(), direction);
  const Eigen::Index ld = s.points.rows();
  const auto store = [&](const PointsRef& p, Eigen::Index first_row, bool negate) {
    // Small sets: the vectorised store pays for its reduction only when it also finds the
    // crash's support point (a cold start); a warm start takes the scalar loop.
    if (n == 3 && p.outerStride() == 3 && (p.cols() >= kVectorBoxPoints || !may_warm)) {
      const ArgMax best = store3(p.data(), p.cols(), s.box.data() + 4 * n, inv_h, negate, s.points.data() + first_row,
                                 ld, may_warm ? nullptr : direction);
      (negate ? s.crash_b : s.crash_a) = best.index;
      return;
    }
    if (n == 3) {
      fixed_dimension_store<3>(p, s.box.data() + 4 * n, inv_h, negate, s.points.data() + first_row, ld);
      return;
    }
    const Eigen::Index stride = p.outerStride();
    const Eigen::Index count = p.cols();
    for (int i = 0; i < n; ++i) {
      const double c = s.box[4 * n + i];
      const double* in = p.data() + i;
      double* out = s.points.data() + i * ld + first_row;
      if (negate) {
        for (Eigen::Index j = 0; j < count; ++j) out[j] = (c - in[j * stride]) * inv_h;
      } else {
        for (Eigen::Index j = 0; j < count; ++j) out[j] = (in[j * stride] - c) * inv_h;
      }
    }
  };
  store(a, 0, false);
  store(b, a.cols(), true);
  return half_extent;
}

FastResult solve_intersect_fast(int n, int na, int nb, IntersectStorage& s, const SimplexOptions& options) {
  if (n == 3) return FastSolver<3>(s, n, na, nb, options).run();
  return FastSolver<0>(s, n, na, nb, options).run();
}

}  // namespace proxima::lp::detail
