// SPDX-License-Identifier: MIT
#include <proxima/ipm/object.hpp>

#include <proxima/core/error.hpp>
#include <proxima/core/tolerance.hpp>
#include <proxima/ipm/solver.hpp>

#include <Eigen/Eigenvalues>
#include <Eigen/SVD>
#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <string>

namespace proxima::ipm {
namespace {

auto never_stop = [](const auto&) { return false; };

/// Weight that makes a part's value comparable across kinds in phase one: halfspace values are
/// lengths in the primitive frame, so they are divided by the object-frame length of a unit step
/// along their normal times the scale; quadrics by their depth at the centre; the power
/// primitives are already unitless (value -1 at the centre).
double phase_one_weight(const Part& part, double scale) {
  const auto& v = part.primitive().variant();
  if (const auto* h = std::get_if<Halfspace>(&v)) {
    return scale * (part.inverse_linear().transpose() * h->normal()).norm();
  }
  if (const auto* q = std::get_if<Quadric>(&v)) {
    const double depth = -q->value(part.primitive().centre());
    return depth > 0 ? depth : 1;
  }
  return 1;
}

/// An axis-aligned box (object frame) that contains the part's primitive set, for a bounded
/// primitive; false for one that is not bounded alone (a halfspace, an open quadric). Closed
/// forms, no solve, so the box holds whatever the interior-point solves do:
///  - superquadric: the set lies in [-a, a] (each term is at most 1);
///  - quadric with Q positive definite: in the ball about its centre c of radius
///    sqrt(-value(c) / lambda_min(Q));
///  - hyperquadric: each term |plane . (u, 1)| is at most 1, so the set lies in the
///    parallelepiped of the three best-conditioned planes (largest |det| of their normals).
/// The primitive-frame box (centre, half extents) is mapped by the part's affine map.
bool part_outer_box(const Part& part, Aabb& out) {
  Vec3 centre = Vec3::Zero();
  Mat3 spread = Mat3::Zero();  // primitive-frame offsets: centre + spread * s, |s|_inf <= 1
  const auto& v = part.primitive().variant();
  if (const auto* sq = std::get_if<Superquadric>(&v)) {
    spread = sq->semiaxes().asDiagonal();
  } else if (const auto* q = std::get_if<Quadric>(&v)) {
    if (!q->bounded()) return false;
    centre = part.primitive().centre();
    const double depth = -q->value(centre);
    const double lambda = Eigen::SelfAdjointEigenSolver<Mat3>(q->q(), Eigen::EigenvaluesOnly).eigenvalues()(0);
    if (!(lambda > 0) || !(depth >= 0)) return false;
    // A ball of radius r contains the set; each primitive axis spans r (the box of the ball).
    spread = std::sqrt(depth / lambda) * Mat3::Identity();
  } else if (const auto* h = std::get_if<Hyperquadric>(&v)) {
    if (!h->bounded()) return false;
    const auto& terms = h->terms();
    double best = 0;
    Mat3 rows = Mat3::Zero();
    Vec3 offsets = Vec3::Zero();
    for (std::size_t i = 0; i < terms.size(); ++i) {
      for (std::size_t j = i + 1; j < terms.size(); ++j) {
        for (std::size_t k = j + 1; k < terms.size(); ++k) {
          Mat3 m;
          m.row(0) = terms[i].plane.head<3>().transpose();
          m.row(1) = terms[j].plane.head<3>().transpose();
          m.row(2) = terms[k].plane.head<3>().transpose();
          const double det = std::abs(m.determinant());
          if (det > best) {
            best = det;
            rows = m;
            offsets = Vec3(terms[i].plane[3], terms[j].plane[3], terms[k].plane[3]);
          }
        }
      }
    }
    if (!(best > 0)) return false;
    // -1 <= rows u + offsets <= 1: u = rows^-1 (s - offsets), |s|_inf <= 1.
    const Mat3 inverse = rows.inverse();
    centre = -inverse * offsets;
    spread = inverse;
  } else {
    return false;
  }
  // Object frame: x = linear * u + translation.
  const Vec3 c = part.linear() * centre + part.translation();
  const Vec3 half = (part.linear() * spread).cwiseAbs().rowwise().sum();
  if (!c.allFinite() || !half.allFinite()) return false;
  out.min = c - half;
  out.max = c + half;
  return true;
}

/// Epigraph reformulation of the set-up solves (phase one and the box solves) for objects with
/// power terms of low exponent. |w|^n with n near 1 has (nearly) no curvature and a kink at
/// w = 0 that the Newton model cannot see: phase one stopped with no_progress at a positive
/// margin on exponents of exactly 1 cut by a plane, and the box solves ran to their cap
/// (docs/reliability.md, "Implicit objects near exponent 1"). As in the distance solver's
/// fallback (DistanceSolver::run_reformulated), each such term of a part becomes t^n on its own
/// variable t > 0 with -t <= w <= t (two linear constraints): every constraint is then smooth
/// where the iterates are (t > |w| >= 0). The sets are the same: a point is in the reformulated
/// set exactly when its first columns are in the object with t >= |w|, and then
/// f_k(u) <= [f_k without the terms](u) + sum t^n, so optima and margins are the original ones.
///
/// Columns: the problem's own `first` columns, then one per term (at most kEpigraphSlots, the
/// lowest exponents first; the others stay in their primitive). N = kEpigraphColumns for both
/// the phase one (4 + 8) and the box solves (3 + 8, the last column unused: no constraint and a
/// zero objective there, so its Newton step is exactly 0).
constexpr int kEpigraphColumns = 12;
constexpr int kEpigraphSlots = 8;
/// Power terms with exponents below this are moved to epigraph variables in the set-up solves.
constexpr double kSetUpReformulateBelow = 2;

using VecE = Eigen::Matrix<double, kEpigraphColumns, 1>;

/// Stall checks of the set-up solves (IpmOptions::checkpoint_from / checkpoint_every).
constexpr int kSetUpCheckFrom = 20;
constexpr int kSetUpCheckEvery = 10;
/// A set-up solve has stalled when its progress measure (gap plus stationarity times the
/// feasible widths) is not below kSetUpStallRatio of its value `window` checks earlier. A healthy
/// interior-point run divides it by far more over 20 iterations; the stalled runs seen
/// (reformulated box solves at a degenerate optimum, walls of exponents of 1e17 and more) sit at
/// the same value for hundreds of iterations, up to the cap, which was the construction cost.
constexpr double kSetUpStallRatio = 0.5;
/// The window in checks: 2 (20 iterations) once a solve's answer is usable (a box solve, or
/// phase one at a negative margin); kSetUpLongWindow (100 iterations) for phase one before its
/// margin is negative, which can sit on a plateau for 30-40 iterations and then converge (a
/// reformulated phase one of a sheared superquadric with exponents (1, 1, 3.28) cut through
/// its centre: 66 iterations in all, the plateau from 20 to 60).
constexpr int kSetUpShortWindow = 2;
constexpr int kSetUpLongWindow = 10;
/// A reformulated box solve whose bound leaves more than this (normalised units: a share of
/// the object's scale) is followed by the direct solve, and the tighter bound kept.
constexpr double kSetUpLooseBound = 1e-6;

/// Remembers the progress measure at each check; stalled() once it has not fallen below
/// kSetUpStallRatio of its value `window` checks earlier (or is not a number).
struct StallCheck {
  std::array<double, kSetUpLongWindow> last{};
  int seen = 0;
  bool stalled(double value, int window = kSetUpShortWindow) {
    if (std::isnan(value)) return true;
    const auto at = [&](int back) { return last[static_cast<std::size_t>((seen - back) % kSetUpLongWindow)]; };
    const bool stuck = seen >= window && !(value < kSetUpStallRatio * at(window));
    last[static_cast<std::size_t>(seen % kSetUpLongWindow)] = value;
    ++seen;
    return stuck;
  }
};

/// gap + |grad L|_inf * widths at the solver's current iterate (its workspace), for a linear
/// objective g . z: by weak duality the optimum lies at most this below the iterate's objective
/// when `widths` bounds |z - z*|_1 (see bound_beyond).
template <int N>
double progress(const Problem<N>& p, const Workspace<N>& ws, double widths = 1) {
  double gap = 0;
  Eigen::Matrix<double, N, 1> residual = p.g;
  for (std::size_t k = 0; k < p.constraints.size(); ++k) {
    gap += ws.s[k] * ws.lambda[k];
    residual += ws.lambda[k] * ws.grad[k];
  }
  return gap + residual.cwiseAbs().maxCoeff() * widths;
}

/// How far the optimum of a set-up solve with linear objective g . z can lie beyond the
/// iterate's objective, at any iterate (converged or not): with lambda > 0 and every constraint
/// convex, the Lagrangian L(., lambda) is convex, so for an optimum z*
///   f* >= L(z*, lambda) >= L(z, lambda) + grad L . (z* - z) >= f(z) - gap - |grad L|_inf |z* - z|_1,
/// and |z* - z|_1 <= widths (the sum of the feasible set's widths over the columns). NaN or
/// infinite when it says nothing.
template <int N>
double bound_beyond(const SolverOutput<N>& out, double widths) {
  return std::abs(out.gap) + out.stationarity * widths;
}

/// One power term of one part: w = row . z + w0 (z in the solve's columns), exponent n.
struct EpigraphTerm {
  std::size_t part = 0;
  int term = 0;
  double exponent = 1;
  VecE row = VecE::Zero();
  double w0 = 0;
};

/// The reformulated constraints of a solve over `first` columns.
struct Epigraph {
  std::vector<Constraint<kEpigraphColumns>> constraints;
  std::array<double, kEpigraphColumns> exponents{};
  std::vector<EpigraphTerm> terms;
  int first = 0;
};

/// The power terms of `parts` with exponent below kSetUpReformulateBelow, lowest first (ties in
/// part then term order), at most kEpigraphSlots; `base` are the solve's own constraints
/// (maps over the first columns). Empty when there is none.
std::vector<EpigraphTerm> low_exponent_terms(const std::vector<Constraint<kEpigraphColumns>>& base) {
  std::vector<EpigraphTerm> terms;
  for (std::size_t k = 0; k < base.size(); ++k) {
    const Constraint<kEpigraphColumns>& c = base[k];
    const auto& v = c.primitive->variant();
    if (const auto* sq = std::get_if<Superquadric>(&v)) {
      for (int i = 0; i < 3; ++i) {
        if (!(sq->exponents()[i] < kSetUpReformulateBelow)) continue;
        const double inv = 1 / sq->semiaxes()[i];
        terms.push_back({k, i, sq->exponents()[i], c.map.row(i).transpose() * inv, c.offset[i] * inv});
      }
    } else if (const auto* hq = std::get_if<Hyperquadric>(&v)) {
      for (std::size_t i = 0; i < hq->terms().size() && i < 32; ++i) {
        const auto& t = hq->terms()[i];
        if (!(t.exponent < kSetUpReformulateBelow)) continue;
        const Vec3 normal = t.plane.head<3>();
        terms.push_back({k, static_cast<int>(i), t.exponent, c.map.transpose() * normal, normal.dot(c.offset) + t.plane[3]});
      }
    }
  }
  std::stable_sort(terms.begin(), terms.end(),
                   [](const EpigraphTerm& x, const EpigraphTerm& y) { return x.exponent < y.exponent; });
  if (terms.size() > static_cast<std::size_t>(kEpigraphSlots)) terms.resize(kEpigraphSlots);
  return terms;
}

/// Builds the reformulated problem from `base` (the solve's constraints over its `first`
/// columns) and completes the start z (first columns strictly inside) with the epigraph
/// variables: t^n = |w|^n plus a share of the part's slack at z, half the slack shared among the
/// part's terms, so each part keeps half its slack and t > |w|. False when there is no term to
/// move or the start is not strictly inside every reformulated constraint (t rounded onto |w|
/// when the share is below the rounding of |w|^n): the caller then solves the direct problem.
bool reformulate(const std::vector<Constraint<kEpigraphColumns>>& base, int first, VecE& z, Epigraph& out) {
  out.first = first;
  out.terms = low_exponent_terms(base);
  if (out.terms.empty()) return false;
  out.constraints = base;
  out.exponents.fill(1);
  std::vector<double> slack(base.size());
  std::vector<int> count(base.size(), 0);
  for (std::size_t k = 0; k < base.size(); ++k) slack[k] = -constraint_value(base[k], z);
  for (const auto& t : out.terms) ++count[t.part];
  for (std::size_t i = 0; i < out.terms.size(); ++i) {
    const EpigraphTerm& t = out.terms[i];
    const int col = first + static_cast<int>(i);
    if (!(slack[t.part] > 0)) return false;
    const double w = t.row.dot(z) + t.w0;
    const double share = slack[t.part] / (2 * count[t.part]);
    z(col) = std::pow(std::pow(std::abs(w), t.exponent) + share, 1 / t.exponent);
    out.exponents[static_cast<std::size_t>(col)] = t.exponent;
    Constraint<kEpigraphColumns>& c = out.constraints[t.part];
    c.skip |= 1U << t.term;
    c.powers |= 1U << col;
    c.exponents = out.exponents.data();
  }
  for (std::size_t i = 0; i < out.terms.size(); ++i) {
    const EpigraphTerm& t = out.terms[i];
    const int col = first + static_cast<int>(i);
    for (double sign : {1.0, -1.0}) {
      Constraint<kEpigraphColumns> c;
      c.linear = sign * t.row;
      c.linear(col) -= 1;
      c.constant = sign * t.w0;
      out.constraints.push_back(c);
    }
  }
  for (const auto& c : out.constraints) {
    if (!(constraint_value(c, z) < 0)) return false;
  }
  return true;
}

/// The base constraints of a set-up solve in the reformulation's column count (the first
/// `cols` columns of `map` and `linear` copied, the rest zero).
template <int M>
std::vector<Constraint<kEpigraphColumns>> widened(const std::vector<Constraint<M>>& narrow) {
  std::vector<Constraint<kEpigraphColumns>> wide(narrow.size());
  for (std::size_t k = 0; k < narrow.size(); ++k) {
    wide[k].primitive = narrow[k].primitive;
    wide[k].map.template leftCols<M>() = narrow[k].map;
    wide[k].offset = narrow[k].offset;
    wide[k].linear.template head<M>() = narrow[k].linear;
    wide[k].constant = narrow[k].constant;
  }
  return wide;
}

}  // namespace

Part::Part(Primitive primitive) : primitive_(std::move(primitive)) {}

Part::Part(Primitive primitive, const Pose& pose)
    : primitive_(std::move(primitive)), linear_(pose.rotation()), translation_(pose.translation()),
      inverse_(pose.rotation().transpose()) {}

Part::Part(Primitive primitive, const Mat3& linear, const Vec3& translation)
    : primitive_(std::move(primitive)), linear_(linear), translation_(translation) {
  for (int r = 0; r < 3; ++r) {
    for (int c = 0; c < 3; ++c) {
      require_finite("affine.linear[" + std::to_string(r) + "][" + std::to_string(c) + "]", linear(r, c));
    }
  }
  require_finite("affine.translation", translation);
  const Eigen::JacobiSVD<Mat3> svd(linear);
  const auto& sv = svd.singularValues();
  if (!(sv(2) > kAffineMinSingularValueRatio * sv(0))) {
    throw InvalidInput("affine.linear", "must be invertible, singular values " + format_number(sv(0)) + ", " +
                                            format_number(sv(1)) + ", " + format_number(sv(2)));
  }
  inverse_ = linear.inverse();
}

Object::Object(std::vector<Part> parts) : parts_(std::move(parts)) {
  if (parts_.empty()) throw InvalidInput("parts", "an implicit object needs at least one part");

  // Scale of the parts in the object frame, and a start for phase one.
  double scale = 0;
  Vec3 start = Vec3::Zero();
  int bounded = 0;
  for (const auto& part : parts_) {
    const double stretch = Eigen::JacobiSVD<Mat3>(part.linear()).singularValues()(0);
    scale = std::max(scale, part.primitive().scale() * stretch + part.translation().norm());
    if (part.primitive().bounded()) {
      start += part.linear() * part.primitive().centre() + part.translation();
      ++bounded;
    }
  }
  if (!(scale > 0)) scale = 1;
  if (bounded > 0) start /= bounded;

  // Phase one in normalised coordinates u = scale * v: minimise r subject to
  // value_k(scale * v) <= weight_k * r. z = (v, r).
  const IpmOptions options;
  std::vector<Constraint<4>> one(parts_.size());
  for (std::size_t k = 0; k < parts_.size(); ++k) {
    const Part& part = parts_[k];
    one[k].primitive = &part.primitive();
    one[k].map.leftCols<3>() = scale * part.inverse_linear();
    one[k].offset = -part.inverse_linear() * part.translation();
    one[k].linear(3) = -phase_one_weight(part, scale);
  }
  Problem<4> p1;
  p1.g(3) = 1;
  p1.constraints = one;
  Eigen::Vector4d z0;
  z0.head<3>() = start / scale;
  double worst = 0;
  for (std::size_t k = 0; k < parts_.size(); ++k) {
    worst = std::max(worst, parts_[k].value(start) / -one[k].linear(3));
  }
  z0(3) = worst + 1;
  Workspace<4> ws4;
  // The set-up solves ask their stall check (StallCheck) every kSetUpCheckEvery iterations.
  IpmOptions staged = options;
  staged.checkpoint_from = kSetUpCheckFrom;
  staged.checkpoint_every = kSetUpCheckEvery;
  // Objects with low exponents: phase one on the epigraph reformulation first (see Epigraph).
  // Its point is used when its margin is below -kIpmEmptyInteriorTolerance and the point is
  // strictly inside every part by the parts' own values; it refuses the object only when it
  // converged (a KKT point of the same problem) at a margin that is not. Otherwise (or when
  // there is nothing to reformulate) the direct solve decides as before, so whatever it
  // accepted is still accepted.
  bool found = false;
  {
    Epigraph epi;
    VecE z = VecE::Zero();
    z.head<4>() = z0;
    if (reformulate(widened(one), 4, z, epi)) {
      Problem<kEpigraphColumns> pe;
      pe.g(3) = 1;
      pe.constraints = epi.constraints;
      Workspace<kEpigraphColumns> wse;
      // The interior point need not be the optimum to the last digit: a solve that has stopped
      // improving (StallCheck: at a degenerate optimum, or on the walls of huge exponents) is
      // ended rather than run to the cap, after 20 iterations without progress at a negative
      // margin and after 100 before; its point is used if its margin is negative, and
      // otherwise the direct solve decides.
      StallCheck stall;
      const auto re = solve(pe, z, {}, options.initial_barrier, staged, wse, never_stop,
                            [&](const VecE& zc) {
                              return stall.stalled(progress(pe, wse), zc(3) < -kIpmEmptyInteriorTolerance
                                                                          ? kSetUpShortWindow
                                                                          : kSetUpLongWindow);
                            });
      const Vec3 candidate = scale * re.z.head<3>();
      bool inside = re.termination != Termination::unbounded && re.z(3) < -kIpmEmptyInteriorTolerance;
      for (const auto& part : parts_) inside = inside && part.value(candidate) < 0;
      if (inside) {
        interior_ = candidate;
        found = true;
      } else if (re.termination == Termination::converged && !(re.z(3) < -kIpmEmptyInteriorTolerance)) {
        throw InvalidInput("parts", "the intersection is empty or has no interior (largest margin " +
                                        format_number(-re.z(3)) + ")");
      }
    }
  }
  if (!found) {
    // Ended when stalled with a negative margin only: the object is then accepted, as it would
    // have been at the cap, and a stall at a margin that is not negative runs on to the cap.
    StallCheck stall;
    const auto r1 = solve(p1, z0, {}, options.initial_barrier, staged, ws4, never_stop, [&](const Eigen::Vector4d& zc) {
      return zc(3) < -kIpmEmptyInteriorTolerance && stall.stalled(progress(p1, ws4));
    });
    if (r1.termination == Termination::unbounded) {
      throw InvalidInput("parts", "the intersection is unbounded (an object must be compact)");
    }
    if (!(r1.z(3) < -kIpmEmptyInteriorTolerance)) {
      throw InvalidInput("parts", "the intersection is empty or has no interior (largest margin " +
                                      format_number(-r1.z(3)) + ")");
    }
    interior_ = scale * r1.z.head<3>();
  }

  // Bounding box: maximise and minimise each coordinate over the object (z = v, N = 3).
  std::vector<Constraint<3>> box(parts_.size());
  for (std::size_t k = 0; k < parts_.size(); ++k) {
    box[k].primitive = one[k].primitive;
    box[k].map = one[k].map.leftCols<3>();
    box[k].offset = one[k].offset;
  }
  Problem<3> p3;
  p3.constraints = box;
  Workspace<3> ws3;
  // The box of the bounded parts' closed-form boxes: it contains the object whatever the solves
  // below do. Their answers bound the object only when they converged (the gap bounds the
  // distance to the optimum only at a stationary point): near exponents of 1 they can stop at the
  // iteration cap far inside, and a box or sphere from such an iterate left parts of the object
  // outside, which the distance certificates rely on (docs/reliability.md, "Implicit objects
  // near exponent 1").
  Aabb outer;
  outer.min = Vec3::Constant(-std::numeric_limits<double>::infinity());
  outer.max = Vec3::Constant(std::numeric_limits<double>::infinity());
  for (const auto& part : parts_) {
    Aabb b;
    if (part_outer_box(part, b)) {
      outer.min = outer.min.cwiseMax(b.min);
      outer.max = outer.max.cwiseMin(b.max);
    }
  }
  // Sum of the feasible set's widths over the solve's columns (normalised units): the closed-
  // form box for the point, and [0, 1] for each epigraph variable (t^n <= 1 in the box
  // problem, every other term being >= 0). Infinite without a closed-form box.
  const double point_widths = ((outer.max - outer.min) / scale).sum();
  aabb_.min = aabb_.max = interior_;
  // The box solves on the epigraph reformulation when the object has low exponents (see
  // Epigraph): the same optimum, reached without a Newton model across a kink. The solve is
  // ended when its bound stops improving (StallCheck) and its extreme is then taken from the
  // weak-duality bound (bound_beyond), which holds at any iterate; a converged solve's is as
  // before. When the reformulated solve leaves more than kSetUpLooseBound, the direct solve is
  // run as before and the tighter of the bounds kept.
  Epigraph epi_box;
  VecE ze = VecE::Zero();
  ze.head<3>() = interior_ / scale;
  const bool box_reformulated = reformulate(widened(box), 3, ze, epi_box);
  const double epigraph_widths = static_cast<double>(epi_box.terms.size());
  Problem<kEpigraphColumns> pe;
  pe.constraints = epi_box.constraints;
  Workspace<kEpigraphColumns> wse;
  for (int axis = 0; axis < 3; ++axis) {
    for (int sign : {-1, 1}) {
      const double bound = sign < 0 ? outer.min(axis) : outer.max(axis);
      double extreme = bound;
      // The iterate is inside and the optimum at most `beyond` further along the axis.
      auto tighten = [&](double coordinate, double beyond) {
        if (!(beyond >= 0) || !std::isfinite(beyond)) return;
        const double solved = scale * (coordinate + sign * beyond);
        extreme = sign < 0 ? std::max(extreme, solved) : std::min(extreme, solved);
      };
      double left = std::numeric_limits<double>::infinity();
      if (box_reformulated) {
        pe.g.setZero();
        pe.g(axis) = -sign;
        StallCheck stall;
        const double widths = point_widths + epigraph_widths;
        const auto re = solve(pe, ze, {}, options.initial_barrier, staged, wse, never_stop, [&](const VecE&) {
          return std::isfinite(widths) && stall.stalled(progress(pe, wse, widths));
        });
        if (re.termination == Termination::converged) {
          left = std::abs(re.gap);
        } else if (re.termination != Termination::unbounded) {
          left = bound_beyond(re, widths);
        }
        tighten(re.z(axis), left);
      }
      if (!(left <= kSetUpLooseBound)) {
        p3.g.setZero();
        p3.g(axis) = -sign;
        // Ended when stalled only where the closed-form box gives a finite bound to fall back on
        // (bound_beyond): without one the last iterate is the only bound there is, as before.
        StallCheck stall;
        const auto r3 = solve(p3, Eigen::Vector3d(interior_ / scale), {}, options.initial_barrier, staged, ws3,
                              never_stop, [&](const Eigen::Vector3d&) {
                                return std::isfinite(point_widths) && stall.stalled(progress(p3, ws3, point_widths));
                              });
        if (r3.termination == Termination::unbounded) {
          throw InvalidInput("parts", "the intersection is unbounded (an object must be compact)");
        }
        if (r3.termination == Termination::converged || !std::isfinite(bound)) {
          // Converged, the optimum is at most `gap` further (to the solver's stationarity
          // tolerance). Without a closed-form box this is the only bound there is.
          const double solved = scale * (r3.z(axis) + sign * std::abs(r3.gap));
          extreme = sign < 0 ? std::max(solved, extreme) : std::min(solved, extreme);
        } else {
          tighten(r3.z(axis), bound_beyond(r3, point_widths));
        }
      }
      if (sign < 0) {
        aabb_.min(axis) = extreme;
      } else {
        aabb_.max(axis) = extreme;
      }
    }
  }
  sphere_.center = (aabb_.min + aabb_.max) / 2;
  sphere_.radius = (aabb_.max - aabb_.min).norm() / 2;
}

bool Object::contains(const Vec3& p) const {
  for (const auto& part : parts_) {
    if (!(part.value(p) <= 0)) return false;
  }
  return true;
}

Object Object::deformed(const Mat3& linear, const Vec3& translation) const {
  const Part check(parts_.front().primitive(), linear, translation);  // validates the map
  std::vector<Part> parts;
  parts.reserve(parts_.size());
  for (const auto& part : parts_) {
    parts.emplace_back(part.primitive(), linear * part.linear(), linear * part.translation() + translation);
  }
  return Object(std::move(parts));
}

}  // namespace proxima::ipm
