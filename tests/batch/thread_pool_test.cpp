// SPDX-License-Identifier: MIT
// The batch thread pool under many tiny jobs: each job's tasks run exactly once, on that job's
// function, and a task's exception reaches the caller. Regression for a worker that woke after
// its job had finished and joined the next job with the finished one's (cleared) function: a
// crash about once in a few thousand short jobs (found by the determinism tests under load).
#include "batch/thread_pool.hpp"

#include <gtest/gtest.h>

#include <array>
#include <atomic>
#include <algorithm>
#include <stdexcept>
#include <thread>
#include <vector>

namespace proxima::batch::detail {
namespace {

TEST(ThreadPool, ManyTinyJobsRunEachTaskOnceOnTheirOwnFunction) {
  constexpr int kJobs = 10000;
  // Spinning threads oversubscribe the cores so that workers are preempted between waking and
  // joining: that is when the old pool joined a finished job.
  std::atomic<bool> spin{true};
  std::vector<std::jthread> spinners;
  for (unsigned i = 0; i < 2 * std::max(1u, std::thread::hardware_concurrency()); ++i) {
    spinners.emplace_back([&spin] {
      while (spin.load(std::memory_order_relaxed)) {
      }
    });
  }
  for (int threads : {2, 3, 4}) {
    for (int job = 0; job < kJobs; ++job) {
      std::array<std::atomic<int>, 4> hits{};
      // Tasks of a few microseconds keep a job open long enough for a late worker to meet it.
      run_parallel(threads, threads, [&, job](int k) {
        volatile double x = 1;
        for (int i = 0; i < 2000; ++i) x = x * 1.0000001 + 1e-9;
        hits[static_cast<std::size_t>(k)].fetch_add(job + 1);
      });
      for (int k = 0; k < 4; ++k) {
        ASSERT_EQ(hits[static_cast<std::size_t>(k)].load(), k < threads ? job + 1 : 0)
            << "threads " << threads << " job " << job << " task " << k;
      }
    }
  }
  spin = false;
}

TEST(ThreadPool, TaskExceptionReachesTheCallerAndThePoolStaysUsable) {
  ThreadPool pool(2);
  EXPECT_THROW(pool.run(3, [](int k) {
    if (k == 1) throw std::runtime_error("task 1");
  }),
               std::runtime_error);
  std::atomic<int> sum{0};
  pool.run(3, [&](int k) { sum += k + 1; });
  EXPECT_EQ(sum.load(), 6);
}

}  // namespace
}  // namespace proxima::batch::detail
