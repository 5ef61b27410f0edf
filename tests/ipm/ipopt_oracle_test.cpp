// SPDX-License-Identifier: MIT
// Ipopt (an independent interior-point code, test-only) solves the same distance problem, min
// |x - y|^2 over x in A, y in B, to 1e-10 from two starts; our answer must agree to 1e-8 in
// distance (relative) and 1e-6 in the closest points. Compiled only when pkg-config finds Ipopt.
#ifdef PROXIMA_HAVE_IPOPT

#include <proxima/ipm/distance.hpp>
#include <proxima/ipm/presets.hpp>

#include <IpIpoptApplication.hpp>
#include <IpTNLP.hpp>
#include <gtest/gtest.h>

#include <random>

namespace proxima::ipm {
namespace {

using Ipopt::Index;
using Ipopt::Number;

/// The distance problem for Ipopt: variables (x, y), one constraint per part (world value <= 0).
/// Gradients by the chain rule through the parts' maps and poses; Hessians by Ipopt's L-BFGS.
class DistanceNlp : public Ipopt::TNLP {
 public:
  DistanceNlp(const Object& a, const Pose& pa, const Object& b, const Pose& pb, const Vec3& xa, const Vec3& yb)
      : a_(a), pa_(pa), b_(b), pb_(pb), start_x_(xa), start_y_(yb) {}

  Vec3 x = nan_vec3(), y = nan_vec3();
  bool solved = false;

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
    for (int i = 0; i < 3; ++i) z[i] = start_x_[i], z[3 + i] = start_y_[i];
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
    auto add = [&](const Part& part, const Pose& pose, int column) {
      if (values == nullptr) {
        for (int i = 0; i < 3; ++i) rows[e] = k, cols[e] = column + i, ++e;
      } else {
        LocalEval local;
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
    x = point(z, 0);
    y = point(z, 3);
  }

 private:
  static Vec3 point(const Number* z, int offset) { return {z[offset], z[offset + 1], z[offset + 2]}; }
  const Object& a_;
  Pose pa_;
  const Object& b_;
  Pose pb_;
  Vec3 start_x_, start_y_;
};

TEST(IpmVersusIpopt, PresetPairsAgree) {
  const Object objects[] = {soda_can(), rounded_cuboid(), mouse(), hexagonal_nut(), pyramid(), diamond()};
  std::mt19937_64 rng(501);
  std::normal_distribution<double> n(0, 1);
  std::uniform_real_distribution<double> u(-2.5, 2.5);
  int compared = 0;
  for (int trial = 0; trial < 18; ++trial) {
    SCOPED_TRACE("seed 501 trial " + std::to_string(trial));
    const Object& a = objects[trial % 6];
    const Object& b = objects[(trial / 6 + 1 + trial) % 6];
    const Pose pa = Pose::from_quaternion(n(rng), n(rng), n(rng), n(rng), Vec3(u(rng), u(rng), u(rng)));
    const Pose pb = Pose::from_quaternion(n(rng), n(rng), n(rng), n(rng), Vec3(u(rng), u(rng), u(rng)));
    const DistanceResult r = distance(a, pa, b, pb);
    if (r.status != Status::converged || r.intersect) continue;
    // Two starts: the interior points, and the interior points nudged towards each other.
    const Vec3 ca = pa.apply(a.interior_point()), cb = pb.apply(b.interior_point());
    for (double shift : {0.0, 0.05}) {
      auto nlp = Ipopt::SmartPtr<DistanceNlp>(new DistanceNlp(a, pa, b, pb, ca + shift * (cb - ca), cb + shift * (ca - cb)));
      Ipopt::SmartPtr<Ipopt::IpoptApplication> app = IpoptApplicationFactory();
      app->Options()->SetNumericValue("tol", 1e-10);
      app->Options()->SetIntegerValue("print_level", 0);
      app->Options()->SetStringValue("hessian_approximation", "limited-memory");
      app->Options()->SetIntegerValue("max_iter", 500);
      // Ipopt relaxes bounds by 1e-8 by default, which moves its optimum by about that much.
      app->Options()->SetNumericValue("bound_relax_factor", 0);
      app->Options()->SetStringValue("sb", "yes");
      ASSERT_EQ(app->Initialize(), Ipopt::Solve_Succeeded);
      app->OptimizeTNLP(nlp);
      if (!nlp->solved) continue;  // Ipopt's own failures (the issue measured 6-9% on diamonds)
      ++compared;
      const double d = (nlp->y - nlp->x).norm();
      EXPECT_NEAR(r.distance, d, 1e-8 * d + 1e-10);
      EXPECT_NEAR((r.point_a - nlp->x).norm(), 0, 1e-6);
      EXPECT_NEAR((r.point_b - nlp->y).norm(), 0, 1e-6);
    }
  }
  EXPECT_GE(compared, 10);
}

}  // namespace
}  // namespace proxima::ipm

#endif  // PROXIMA_HAVE_IPOPT
