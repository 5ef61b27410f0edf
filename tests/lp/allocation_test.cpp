// SPDX-License-Identifier: MIT
// Proof of the workspace contract: once a SimplexWorkspace has seen a size, solving again (cold
// or warm, any outcome) allocates nothing, so no pivot allocates either. Counted by interposing
// malloc (glibc: forwarding to __libc_malloc) for this test binary, which sees Eigen's
// allocations as well as operator new's; a deliberate allocation checks that the counter works.
#include <proxima/lp/intersect.hpp>
#include <proxima/lp/simplex_method.hpp>

#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <new>
#include <random>

// Sanitizers intercept malloc themselves; the counting hook cannot coexist with them, so under a
// sanitizer build the test reports itself skipped (tools/sanitize.sh, docs/reliability.md).
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define PROXIMA_MALLOC_HOOK_UNAVAILABLE 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || __has_feature(memory_sanitizer)
#define PROXIMA_MALLOC_HOOK_UNAVAILABLE 1
#endif
#endif

#ifdef PROXIMA_MALLOC_HOOK_UNAVAILABLE
TEST(LpAllocation, SolveOnASizedWorkspaceDoesNotAllocate) {
  GTEST_SKIP() << "malloc counting hook disabled under sanitizers";
}
#else
namespace {
std::atomic<long> g_allocations{0};
}  // namespace

extern "C" void* __libc_malloc(std::size_t size);  // NOLINT(bugprone-reserved-identifier): glibc
extern "C" void* malloc(std::size_t size) {
  g_allocations.fetch_add(1, std::memory_order_relaxed);
  return __libc_malloc(size);
}

namespace proxima::lp {
namespace {

TEST(LpAllocation, SolveOnASizedWorkspaceDoesNotAllocate) {
  std::mt19937 rng(99);
  std::uniform_real_distribution<double> u(-1, 1);
  const int m = 6;
  const int n = 40;
  Eigen::MatrixXd a = Eigen::MatrixXd::NullaryExpr(m, n, [&] { return u(rng); });
  const Eigen::VectorXd x0 = Eigen::VectorXd::NullaryExpr(n, [&] { return (u(rng) + 1) / 2; });
  const Eigen::VectorXd b = a * x0;
  const Eigen::VectorXd c = Eigen::VectorXd::NullaryExpr(n, [&] { return (u(rng) + 1) / 2; });
  const Eigen::VectorXd infeasible_b = Eigen::VectorXd::Constant(m, 1e3).cwiseProduct(a.col(1).cwiseSign());
  const Eigen::VectorXd moved_b = b + 0.1 * a.col(0);
  const Eigen::VectorXd no_costs;
  SimplexWorkspace ws(m, n);  // reserve() sizes everything: no warm-up solve needed
  {
    const long before = g_allocations.load();
    const Eigen::VectorXd probe = Eigen::VectorXd::Zero(m + n);
    ASSERT_GE(g_allocations.load() - before, 1) << "the counter must see Eigen's allocations";
    ASSERT_EQ(probe.size(), m + n);
  }
  for (const PricingRule rule : {PricingRule::bland, PricingRule::dantzig_bland_fallback}) {
    SimplexOptions options;
    options.pricing = rule;
    const long before = g_allocations.load();
    int pivots = 0;
    ws.forget_basis();
    pivots += solve(a, b, c, ws, options).iterations;                // cold, optimal
    pivots += solve(a, moved_b, c, ws, options).iterations;      // warm, repaired
    pivots += solve(a, infeasible_b, no_costs, ws, options).iterations;  // infeasible
    const long after = g_allocations.load();
    EXPECT_GT(pivots, 10);
    EXPECT_EQ(after - before, 0) << "allocations during " << pivots << " pivots";
  }
}

// lp::intersect_into with a workspace and a result that have seen the sizes: cold and warm
// queries, intersecting and separated, allocate nothing (the structured path).
TEST(LpAllocation, IntersectIntoOnASizedWorkspaceDoesNotAllocate) {
  std::mt19937 rng(7);
  std::normal_distribution<double> g;
  for (const int n : {3, 10}) {
    const int count = 48;
    Eigen::MatrixXd a = Eigen::MatrixXd::NullaryExpr(n, count, [&] { return g(rng); });
    Eigen::MatrixXd b = Eigen::MatrixXd::NullaryExpr(n, count, [&] { return g(rng); });
    a.colwise().normalize();
    b.colwise().normalize();
    const Eigen::MatrixXd far = (b.array() + 3.0).matrix();
    LpWorkspace ws;
    LpIntersectResult r;
    intersect_into(a, far, ws, r);  // sizes the workspace and the result
    const long before = g_allocations.load();
    int pivots = 0;
    int hits = 0;
    for (int round = 0; round < 4; ++round) {
      for (const Eigen::MatrixXd* other : {static_cast<const Eigen::MatrixXd*>(&b), &far}) {
        if (round % 2 == 0) ws.forget_basis();  // cold, then warm
        intersect_into(a, *other, ws, r);
        pivots += r.iterations;
        hits += r.intersect ? 1 : 0;
      }
    }
    const long after = g_allocations.load();
    EXPECT_EQ(hits, 4) << "n " << n;
    EXPECT_GT(pivots, 8) << "n " << n;
    EXPECT_EQ(ws.intersect_fallbacks(), 0) << "n " << n;
    EXPECT_EQ(after - before, 0) << "allocations in 8 queries, n " << n;
  }
}

}  // namespace
}  // namespace proxima::lp
#endif  // PROXIMA_MALLOC_HOOK_UNAVAILABLE
