// SPDX-License-Identifier: MIT
// Ipopt (an independent interior-point code; tests and bench only) on the ipm distance problem
//   min |x - y|^2  subject to  c_k(x) <= 0 for every part of A,  c_k(y) <= 0 for every part of B,
// variables (x, y) in world coordinates. Constraint values, gradients and Hessians go through each
// part's affine map and the object's pose by the chain rule: with u = L^-1 (R^T (p - t) - s) the
// part's primitive coordinates, grad_p c = R L^-T grad_u f and hess_p c = R L^-T H_u L^-1 R^T.
// One header for the ipm oracle test and the bench's Ipopt peer, so both solve the same problem.
// Needs Ipopt's headers and library (pkg-config ipopt; Debian coinor-libipopt-dev).
#pragma once

#include <proxima/ipm/object.hpp>

#include <IpIpoptApplication.hpp>
#include <IpTNLP.hpp>

namespace proxima::oracles {

struct IpoptDistanceOptions {
  double tolerance = 1e-10;      ///< Ipopt's "tol"
  bool exact_hessian = true;     ///< false: Ipopt's L-BFGS approximation
  int max_iterations = 500;
  /// Ipopt relaxes bounds by 1e-8 by default, which moves its optimum by about that much.
  double bound_relax_factor = 0;
};

struct IpoptDistanceAnswer {
  bool solved = false;  ///< Ipopt returned Solve_Succeeded / SUCCESS
  Vec3 x = nan_vec3();  ///< closest point on A (world)
  Vec3 y = nan_vec3();  ///< closest point on B (world)
  double distance() const { return (y - x).norm(); }
};

/// The distance problem as an Ipopt TNLP; `start_x`, `start_y` are Ipopt's starting points.
class IpoptDistanceNlp : public Ipopt::TNLP {
 public:
  IpoptDistanceNlp(const ipm::Object& a, const Pose& pa, const ipm::Object& b, const Pose& pb, const Vec3& start_x,
                   const Vec3& start_y)
      : a_(a), pa_(pa), b_(b), pb_(pb), start_x_(start_x), start_y_(start_y) {}

  IpoptDistanceAnswer answer;

  bool get_nlp_info(Ipopt::Index& n, Ipopt::Index& m, Ipopt::Index& nnz_jac, Ipopt::Index& nnz_h,
                    IndexStyleEnum& style) override {
    n = 6;
    m = static_cast<Ipopt::Index>(a_.parts().size() + b_.parts().size());
    nnz_jac = 3 * m;
    nnz_h = 21;  // the dense lower triangle of the 6 x 6 Lagrangian Hessian
    style = C_STYLE;
    return true;
  }
  bool get_bounds_info(Ipopt::Index n, Ipopt::Number* xl, Ipopt::Number* xu, Ipopt::Index m, Ipopt::Number* gl,
                       Ipopt::Number* gu) override {
    for (Ipopt::Index i = 0; i < n; ++i) xl[i] = -1e19, xu[i] = 1e19;
    for (Ipopt::Index k = 0; k < m; ++k) gl[k] = -1e19, gu[k] = 0;
    return true;
  }
  bool get_starting_point(Ipopt::Index, bool, Ipopt::Number* z, bool, Ipopt::Number*, Ipopt::Number*, Ipopt::Index,
                          bool, Ipopt::Number*) override {
    for (int i = 0; i < 3; ++i) z[i] = start_x_[i], z[3 + i] = start_y_[i];
    return true;
  }
  bool eval_f(Ipopt::Index, const Ipopt::Number* z, bool, Ipopt::Number& f) override {
    f = (point(z, 0) - point(z, 3)).squaredNorm();
    return true;
  }
  bool eval_grad_f(Ipopt::Index, const Ipopt::Number* z, bool, Ipopt::Number* g) override {
    const Vec3 d = 2 * (point(z, 0) - point(z, 3));
    for (int i = 0; i < 3; ++i) g[i] = d[i], g[3 + i] = -d[i];
    return true;
  }
  bool eval_g(Ipopt::Index, const Ipopt::Number* z, bool, Ipopt::Index, Ipopt::Number* g) override {
    Ipopt::Index k = 0;
    for (const auto& part : a_.parts()) g[k++] = part.value(pa_.apply_inverse(point(z, 0)));
    for (const auto& part : b_.parts()) g[k++] = part.value(pb_.apply_inverse(point(z, 3)));
    return true;
  }
  bool eval_jac_g(Ipopt::Index, const Ipopt::Number* z, bool, Ipopt::Index, Ipopt::Index, Ipopt::Index* rows,
                  Ipopt::Index* cols, Ipopt::Number* values) override {
    Ipopt::Index k = 0, e = 0;
    auto add = [&](const ipm::Part& part, const Pose& pose, int column) {
      if (values == nullptr) {
        for (int i = 0; i < 3; ++i) rows[e] = k, cols[e] = column + i, ++e;
      } else {
        const Vec3 g = world_eval(part, pose, point(z, column)).gradient;
        for (int i = 0; i < 3; ++i) values[e++] = g[i];
      }
      ++k;
    };
    for (const auto& part : a_.parts()) add(part, pa_, 0);
    for (const auto& part : b_.parts()) add(part, pb_, 3);
    return true;
  }
  bool eval_h(Ipopt::Index, const Ipopt::Number* z, bool, Ipopt::Number obj_factor, Ipopt::Index, const Ipopt::Number* lambda,
              bool, Ipopt::Index, Ipopt::Index* rows, Ipopt::Index* cols, Ipopt::Number* values) override {
    if (values == nullptr) {
      Ipopt::Index e = 0;
      for (Ipopt::Index i = 0; i < 6; ++i) {
        for (Ipopt::Index j = 0; j <= i; ++j) rows[e] = i, cols[e] = j, ++e;
      }
      return true;
    }
    // Objective: 2 [I -I; -I I]; constraints: each part's world Hessian in its own 3 x 3 block.
    Eigen::Matrix<double, 6, 6> h = Eigen::Matrix<double, 6, 6>::Zero();
    h.topLeftCorner<3, 3>() = h.bottomRightCorner<3, 3>() = 2 * obj_factor * Mat3::Identity();
    h.bottomLeftCorner<3, 3>() = -2 * obj_factor * Mat3::Identity();
    Ipopt::Index k = 0;
    for (const auto& part : a_.parts()) h.topLeftCorner<3, 3>() += lambda[k++] * world_eval(part, pa_, point(z, 0)).hessian;
    for (const auto& part : b_.parts()) h.bottomRightCorner<3, 3>() += lambda[k++] * world_eval(part, pb_, point(z, 3)).hessian;
    Ipopt::Index e = 0;
    for (int i = 0; i < 6; ++i) {
      for (int j = 0; j <= i; ++j) values[e++] = h(i, j);
    }
    return true;
  }
  void finalize_solution(Ipopt::SolverReturn status, Ipopt::Index, const Ipopt::Number* z, const Ipopt::Number*,
                         const Ipopt::Number*, Ipopt::Index, const Ipopt::Number*, const Ipopt::Number*, Ipopt::Number,
                         const Ipopt::IpoptData*, Ipopt::IpoptCalculatedQuantities*) override {
    answer.solved = status == Ipopt::SUCCESS;
    answer.x = point(z, 0);
    answer.y = point(z, 3);
  }

 private:
  struct WorldEval {
    Vec3 gradient;
    Mat3 hessian;
  };
  static WorldEval world_eval(const ipm::Part& part, const Pose& pose, const Vec3& p) {
    ipm::LocalEval local;
    // Exponents below 2 have an unbounded Hessian where a coordinate is 0; |w| is raised to
    // 1e-12 there (value and gradient stay exact), as the test oracle always did.
    part.primitive().evaluate(part.to_primitive(pose.apply_inverse(p)), 1e-12, local);
    const Mat3 j = pose.rotation() * part.inverse_linear().transpose();  // d(world)/d(u) transposed
    return {j * local.gradient, j * local.hessian * j.transpose()};
  }
  static Vec3 point(const Ipopt::Number* z, int offset) { return {z[offset], z[offset + 1], z[offset + 2]}; }
  const ipm::Object& a_;
  Pose pa_;
  const ipm::Object& b_;
  Pose pb_;
  Vec3 start_x_, start_y_;
};

/// One Ipopt solve from (start_x, start_y) (a fresh application per call: what a user of a
/// general NLP solver pays per query).
inline IpoptDistanceAnswer ipopt_distance(const ipm::Object& a, const Pose& pa, const ipm::Object& b, const Pose& pb,
                                          const Vec3& start_x, const Vec3& start_y,
                                          const IpoptDistanceOptions& options = {}) {
  Ipopt::SmartPtr<IpoptDistanceNlp> nlp = new IpoptDistanceNlp(a, pa, b, pb, start_x, start_y);
  Ipopt::SmartPtr<Ipopt::IpoptApplication> app = IpoptApplicationFactory();
  app->Options()->SetNumericValue("tol", options.tolerance);
  app->Options()->SetIntegerValue("print_level", 0);
  app->Options()->SetStringValue("hessian_approximation", options.exact_hessian ? "exact" : "limited-memory");
  app->Options()->SetIntegerValue("max_iter", options.max_iterations);
  app->Options()->SetNumericValue("bound_relax_factor", options.bound_relax_factor);
  app->Options()->SetStringValue("sb", "yes");
  if (app->Initialize() != Ipopt::Solve_Succeeded) return {};
  app->OptimizeTNLP(nlp);
  return nlp->answer;
}

}  // namespace proxima::oracles
