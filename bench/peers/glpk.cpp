// SPDX-License-Identifier: MIT
// GLPK as the peer of the lp suite: glp_simplex (primal simplex, presolve off, messages off) on
// the LP of lp::intersect, rows 0..n-1: A l - B m = 0, rows n, n+1: sum l = 1, sum m = 1,
// l, m >= 0, zero objective. Built from the input points on every call (that is the cost a
// caller of GLPK pays per query), in input coordinates (GLPK scales the problem itself).
#include "suites/lp.hpp"

#include <glpk.h>

#include <vector>

namespace proxima::bench {

bool have_glpk() { return true; }

bool glpk_intersect(const Eigen::MatrixXd& a, const Eigen::MatrixXd& b, bool& ok) {
  const int n = static_cast<int>(a.rows());
  const int na = static_cast<int>(a.cols());
  const int nb = static_cast<int>(b.cols());
  // Triplets (1-based; GLPK ignores entry 0), kept across calls: the peer's own allocation is
  // part of GLPK's problem object, not of this buffer.
  thread_local std::vector<int> ia;
  thread_local std::vector<int> ja;
  thread_local std::vector<double> ar;
  ia.assign(1, 0);
  ja.assign(1, 0);
  ar.assign(1, 0.0);
  glp_prob* lp = glp_create_prob();
  glp_add_rows(lp, n + 2);
  for (int i = 1; i <= n; ++i) glp_set_row_bnds(lp, i, GLP_FX, 0, 0);
  glp_set_row_bnds(lp, n + 1, GLP_FX, 1, 1);
  glp_set_row_bnds(lp, n + 2, GLP_FX, 1, 1);
  glp_add_cols(lp, na + nb);
  for (int j = 0; j < na + nb; ++j) {
    glp_set_col_bnds(lp, j + 1, GLP_LO, 0, 0);
    const bool in_a = j < na;
    for (int i = 0; i < n; ++i) {
      ia.push_back(i + 1);
      ja.push_back(j + 1);
      ar.push_back(in_a ? a(i, j) : -b(i, j - na));
    }
    ia.push_back(in_a ? n + 1 : n + 2);
    ja.push_back(j + 1);
    ar.push_back(1);
  }
  glp_load_matrix(lp, static_cast<int>(ia.size()) - 1, ia.data(), ja.data(), ar.data());
  glp_smcp parm;
  glp_init_smcp(&parm);
  parm.msg_lev = GLP_MSG_OFF;
  parm.presolve = GLP_OFF;
  const int rc = glp_simplex(lp, &parm);
  const int status = glp_get_status(lp);
  ok = rc == 0 && (status == GLP_OPT || status == GLP_FEAS || status == GLP_NOFEAS);
  const bool feasible = glp_get_prim_stat(lp) == GLP_FEAS;
  glp_delete_prob(lp);
  return feasible;
}

}  // namespace proxima::bench
