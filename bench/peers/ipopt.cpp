// SPDX-License-Identifier: MIT
#include "peers/ipopt.hpp"

#include <IpIpoptApplication.hpp>
#include <IpTNLP.hpp>

namespace proxima::bench {
namespace {

using Ipopt::Index;
using Ipopt::Number;

class DistanceNlp : public Ipopt::TNLP {
 public:
  DistanceNlp(const ipm::Object& a, const Pose& pa, const ipm::Object& b, const Pose& pb)
      : a_(a), pa_(pa), b_(b), pb_(pb) {}

  bool solved = false;
  double distance = 0;

  bool get_nlp_info(Index& n, Index& m, Index& nnz_jac, Index& nnz_h, IndexStyleEnum& style) override {
    n = 6;
    m = static_cast<Index>(a_.parts().size() + b_.parts().size());
    nnz_jac = 3 * m;
    nnz_h = 0;
    style = C_STYLE;
    return true;
  }
  bool get_bounds_info(Index n, Number* xl, Number* xu, Index m, Number* gl, Number* gu) override {
    for (Index i = 0; i < n; ++i) xl[i] = -1e19, xu[i] = 1e19;
    for (Index k = 0; k < m; ++k) gl[k] = -1e19, gu[k] = 0;
    return true;
  }
  bool get_starting_point(Index, bool, Number* z, bool, Number*, Number*, Index, bool, Number*) override {
    const Vec3 xa = pa_.apply(a_.interior_point()), yb = pb_.apply(b_.interior_point());
    for (int i = 0; i < 3; ++i) z[i] = xa[i], z[3 + i] = yb[i];
    return true;
  }
  bool eval_f(Index, const Number* z, bool, Number& f) override {
    f = (point(z, 0) - point(z, 3)).squaredNorm();
    return true;
  }
  bool eval_grad_f(Index, const Number* z, bool, Number* g) override {
    const Vec3 d = 2 * (point(z, 0) - point(z, 3));
    for (int i = 0; i < 3; ++i) g[i] = d[i], g[3 + i] = -d[i];
    return true;
  }
  bool eval_g(Index, const Number* z, bool, Index, Number* g) override {
    Index k = 0;
    for (const auto& part : a_.parts()) g[k++] = part.value(pa_.apply_inverse(point(z, 0)));
    for (const auto& part : b_.parts()) g[k++] = part.value(pb_.apply_inverse(point(z, 3)));
    return true;
  }
  bool eval_jac_g(Index, const Number* z, bool, Index, Index, Index* rows, Index* cols, Number* values) override {
    Index k = 0, e = 0;
    auto add = [&](const ipm::Part& part, const Pose& pose, int column) {
      if (values == nullptr) {
        for (int i = 0; i < 3; ++i) rows[e] = k, cols[e] = column + i, ++e;
      } else {
        ipm::LocalEval local;
        part.primitive().evaluate(part.to_primitive(pose.apply_inverse(point(z, column))), 1e-12, local);
        const Vec3 g = pose.rotation() * (part.inverse_linear().transpose() * local.gradient);
        for (int i = 0; i < 3; ++i) values[e++] = g[i];
      }
      ++k;
    };
    for (const auto& part : a_.parts()) add(part, pa_, 0);
    for (const auto& part : b_.parts()) add(part, pb_, 3);
    return true;
  }
  void finalize_solution(Ipopt::SolverReturn status, Index, const Number* z, const Number*, const Number*, Index,
                         const Number*, const Number*, Number, const Ipopt::IpoptData*,
                         Ipopt::IpoptCalculatedQuantities*) override {
    solved = status == Ipopt::SUCCESS;
    distance = (point(z, 0) - point(z, 3)).norm();
  }

 private:
  static Vec3 point(const Number* z, int offset) { return {z[offset], z[offset + 1], z[offset + 2]}; }
  const ipm::Object& a_;
  Pose pa_;
  const ipm::Object& b_;
  Pose pb_;
};

}  // namespace

IpoptAnswer ipopt_distance(const ipm::Object& a, const Pose& pose_a, const ipm::Object& b, const Pose& pose_b) {
  Ipopt::SmartPtr<DistanceNlp> nlp = new DistanceNlp(a, pose_a, b, pose_b);
  Ipopt::SmartPtr<Ipopt::IpoptApplication> app = IpoptApplicationFactory();
  app->Options()->SetNumericValue("tol", 1e-8);
  app->Options()->SetIntegerValue("print_level", 0);
  app->Options()->SetStringValue("hessian_approximation", "limited-memory");
  app->Options()->SetIntegerValue("max_iter", 500);
  app->Options()->SetStringValue("sb", "yes");
  if (app->Initialize() != Ipopt::Solve_Succeeded) return {};
  app->OptimizeTNLP(nlp);
  return {nlp->solved, nlp->distance};
}

}  // namespace proxima::bench
