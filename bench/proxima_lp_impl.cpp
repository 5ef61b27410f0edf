// SPDX-License-Identifier: MIT
// proxima's linear-programming collision test (lp::intersect, seed 000) as one more row of the
// gjk_intersect suite on polytopes and boxes, judged by the same references. The lp layer has no
// poses: each query maps both vertex sets to world coordinates (inside the timing, as the GJK
// rows pay for their poses) and solves cold (forget_basis(); workspace reused). The lp layer's
// own benchmark against GLPK in n dimensions is the lp suite (suites/lp.cpp). Compiled when the lp layer exists.
#include "common.hpp"

#include <proxima/lp/intersect.hpp>
#include <proxima/lp/workspace.hpp>

namespace proxima::bench {
namespace {

bool is_hull(const Body& body) { return body.kind == ShapeKind::polytope || body.kind == ShapeKind::box; }

class ProximaLp final : public Implementation {
 public:
  std::string name() const override { return "proxima_lp"; }
  bool supports(Suite suite, const CaseSet& set) const override {
    if (suite != Suite::gjk_intersect) return false;
    for (const PairCase& pc : set.pairs) {
      if (!is_hull(set.bodies[static_cast<std::size_t>(pc.body_a)]) ||
          !is_hull(set.bodies[static_cast<std::size_t>(pc.body_b)])) {
        return false;
      }
    }
    return true;
  }
  void prepare(const CaseSet& set) override { set_ = &set; }
  bool intersect(std::size_t i) override {
    const PairCase& pc = set_->pairs[i];
    place(set_->bodies[static_cast<std::size_t>(pc.body_a)], pc.pose_a, a_);
    place(set_->bodies[static_cast<std::size_t>(pc.body_b)], pc.pose_b, b_);
    workspace_.forget_basis();
    return lp::intersect(a_, b_, workspace_).intersect;
  }
  DistanceAnswer distance(std::size_t) override { return {}; }
  DepthAnswer penetration(std::size_t) override { return {}; }

 private:
  static void place(const Body& body, const Placement& pose, Eigen::MatrixXd& out) {
    const auto& v = body.hull.vertices;
    out.resize(3, static_cast<Eigen::Index>(v.size()));
    for (std::size_t k = 0; k < v.size(); ++k) {
      out.col(static_cast<Eigen::Index>(k)) = pose.rotation * v[k] + pose.translation;
    }
  }

  const CaseSet* set_ = nullptr;
  Eigen::MatrixXd a_;
  Eigen::MatrixXd b_;
  lp::LpWorkspace workspace_;
};

}  // namespace

std::vector<std::unique_ptr<Implementation>> make_proxima_lp() {
  std::vector<std::unique_ptr<Implementation>> out;
  out.push_back(std::make_unique<ProximaLp>());
  return out;
}

}  // namespace proxima::bench
