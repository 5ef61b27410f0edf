// SPDX-License-Identifier: MIT
// Tests of lp/contains.hpp against the exact oracle (every point of A tested exactly for
// membership in conv(B)), with inside, boundary and 1e-7-outside points, certificates verified.
#include <proxima/core/error.hpp>
#include <proxima/lp/contains.hpp>
#include <proxima/lp/intersect.hpp>

#include "lp/exact_lp_oracle.hpp"
#include "lp/lp_cases.hpp"

#include <gtest/gtest.h>

#include <limits>

namespace proxima::lp {
namespace {

constexpr double kBand = 1e-9;

TEST(LpContains, AgreesWithExactOracle) {
#ifndef PROXIMA_HAVE_CGAL
  GTEST_SKIP() << "CGAL not found: no exact oracle";
#endif
  const unsigned seed = 9001;
  testing::CaseGenerator gen(seed);
  LpWorkspace ws;
  for (const int n : {1, 2, 3, 4, 6, 10, 20}) {
    int yes = 0;
    int no = 0;
    int near = 0;
    const int cases = n >= 10 ? 9 : 27;
    for (int t = 0; t < cases; ++t) {
      const int nb = gen.integer(n + 1, 2 * n + 4);
      const Eigen::MatrixXd b = gen.cloud(n, nb, 1) * std::ldexp(1.0, gen.integer(-10, 17));
      const double size = (b.rowwise().maxCoeff() - b.rowwise().minCoeff()).maxCoeff();
      // A: convex combinations of B (inside), some points of B itself (boundary), and in 2 of 3
      // cases one point pushed outside B's support in a random direction by 1e-7 of the size or
      // by a random amount.
      const int na = gen.integer(1, std::min(n + 4, 8));
      Eigen::MatrixXd a(n, na);
      for (int j = 0; j < na; ++j) {
        if (gen.integer(0, 3) == 0) {
          a.col(j) = b.col(gen.integer(0, nb - 1));
        } else {
          Eigen::VectorXd w = gen.cloud(nb, 1, 1).col(0).cwiseAbs();
          w /= w.sum();
          a.col(j) = b * w;
        }
      }
      const int kind = t % 3;
      if (kind > 0) {
        Eigen::VectorXd u = gen.cloud(n, 1, 1).col(0).normalized();
        int best = 0;
        (u.transpose() * b).maxCoeff(&best);
        const double push = kind == 1 ? 1e-7 * size : gen.uniform(0, 0.5) * size;
        a.col(gen.integer(0, na - 1)) = b.col(best) + push * u;
      }
      SCOPED_TRACE("seed " + std::to_string(seed) + " n " + std::to_string(n) + " case " + std::to_string(t));
      bool truth = true;
      int first_out = -1;
      bool ambiguous = false;
      for (int j = 0; j < na; ++j) {
        if (!oracle::exact_intersect(a.col(j), b)) {
          const double d = oracle::exact_distance_linf(a.col(j), b);
          if (d <= kBand * size) {
            ambiguous = true;
          } else if (truth) {
            truth = false;
            first_out = j;
          }
        }
      }
      const LpContainsResult r = contains(a, b, ws);
      EXPECT_TRUE(r.converged);
      if (!ambiguous) {
        EXPECT_EQ(r.contains, truth);
        if (!truth) {
          EXPECT_EQ(r.outside_vertex, first_out);
        }
      }
      truth ? ++yes : ++no;
      if (kind == 1) ++near;
      if (!r.contains) {
        ASSERT_GE(r.outside_vertex, 0);
        // normal . b <= offset < normal . a_v: check_separation with A = B and B = {a_v}.
        const CertificateCheck c = check_separation(b, a.col(r.outside_vertex), r.separating_normal,
                                                    r.separating_offset);
        EXPECT_TRUE(c.valid) << "margin " << c.value;
        EXPECT_NEAR(c.value, r.margin, 1e-12 * size);
      }
    }
    EXPECT_GT(yes, cases / 5) << "n " << n;
    EXPECT_GT(no, cases / 5) << "n " << n;
    EXPECT_GT(near, cases / 5) << "n " << n;
  }
}

TEST(LpContains, SpecialCases) {
  const Eigen::MatrixXd square{{0, 1, 1, 0}, {0, 0, 1, 1}};
  EXPECT_TRUE(contains(Eigen::MatrixXd(2, 0), square).contains);
  const LpContainsResult empty_b = contains(square, Eigen::MatrixXd(2, 0));
  EXPECT_FALSE(empty_b.contains);
  EXPECT_EQ(empty_b.outside_vertex, 0);
  EXPECT_TRUE(contains(square, square).contains);                               // itself, boundary
  EXPECT_TRUE(contains(Eigen::MatrixXd{{0.5, 0.5}, {0.5, 1.0}}, square).contains);  // segment to an edge
  const LpContainsResult out = contains(Eigen::MatrixXd{{0.5, 0.5, 1.5}, {0.5, 0.2, 0.5}}, square);
  EXPECT_FALSE(out.contains);
  EXPECT_EQ(out.outside_vertex, 2);
  EXPECT_NEAR(out.margin, 0.5, 1e-12);
  EXPECT_NEAR(out.separating_normal[0], 1.0, 1e-12);
  // A square does not fit in its own diagonal segment; a segment fits in a 3-D tetrahedron.
  EXPECT_FALSE(contains(square, Eigen::MatrixXd{{0, 1}, {0, 1}}).contains);
  const Eigen::MatrixXd tet{{0, 1, 0, 0}, {0, 0, 1, 0}, {0, 0, 0, 1}};
  EXPECT_TRUE(contains(Eigen::MatrixXd{{0.1, 0.2}, {0.1, 0.2}, {0.1, 0.2}}, tet).contains);
  EXPECT_THROW(contains(square, tet), InvalidInput);
}

}  // namespace
}  // namespace proxima::lp
