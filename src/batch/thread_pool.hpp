// SPDX-License-Identifier: MIT
// The batch layer's small thread pool: persistent std::jthread workers that run the tasks of one
// job at a time (task k = block k of a batch), the calling thread taking part.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <condition_variable>
#include <cstdint>
#include <exception>
#include <functional>
#include <limits>
#include <mutex>
#include <stop_token>
#include <thread>
#include <vector>

namespace proxima::batch::detail {

class ThreadPool {
 public:
  /// Starts `workers` threads (0 is allowed: every job then runs on the caller).
  explicit ThreadPool(int workers);
  ~ThreadPool();
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  /// Runs fn(k) for every k in [0, tasks) on the workers and the caller; returns when all are
  /// done and no worker touches `fn` any more. Rethrows the first exception a task threw.
  /// Which thread runs which task is not fixed; callers make each task's output depend only on k.
  void run(int tasks, const std::function<void(int)>& fn);

  int workers() const noexcept { return static_cast<int>(threads_.size()); }

 private:
  void worker_loop(const std::stop_token& stop);
  void take_tasks(const std::function<void(int)>& fn, int tasks);

  std::mutex mutex_;
  std::condition_variable_any wake_;
  std::condition_variable done_;
  const std::function<void(int)>* job_ = nullptr;
  int tasks_ = 0;
  int remaining_ = 0;
  int active_ = 0;
  std::uint64_t generation_ = 0;
  std::atomic<int> next_{0};
  std::exception_ptr error_;
  std::vector<std::jthread> threads_;
};

/// Runs fn(k), k in [0, tasks), with `threads` threads in all (the caller and threads - 1
/// workers of a process-wide pool, grown on demand); each thread takes the next task as soon as it
/// is free, so a thread that starts late or is slowed down (a shared machine) takes fewer tasks.
/// One job at a time process-wide: concurrent callers wait for each other. threads == 1 runs
/// every task on the caller, in order, without the pool.
void run_parallel(int threads, int tasks, const std::function<void(int)>& fn);

/// Elements per block below which a batch is not cut further (the pool's per-task cost, a lock
/// and an atomic increment, stays under a thousandth of the block's work).
inline constexpr std::size_t kMinBatchBlock = 256;
/// Blocks per thread a large batch is cut into: enough that a thread delayed by a few blocks'
/// worth of time (another process on its core, a late wake-up) does not hold up the batch.
inline constexpr std::size_t kBatchBlocksPerThread = 16;

/// Number of contiguous blocks a batch of n elements is cut into for `threads` threads: 1 for one
/// thread, else about kBatchBlocksPerThread per thread, each at least kMinBatchBlock elements
/// (and at least `threads` blocks when n allows). Block k is [k n / blocks, (k + 1) n / blocks).
inline int batch_blocks(std::size_t n, int threads) {
  const auto t = static_cast<std::size_t>(threads);
  if (t <= 1 || n <= 1) return 1;
  std::size_t blocks = std::min(t * kBatchBlocksPerThread, n / kMinBatchBlock);
  blocks = std::max(blocks, std::min(t, n));
  return static_cast<int>(blocks);
}

/// What first_marked_in_blocks returns when no block marks an element.
inline constexpr std::size_t kNoElement = std::numeric_limits<std::size_t>::max();

/// Cuts [0, n) into batch_blocks(n, threads) contiguous blocks, taken by `threads` threads as they
/// free up (run_parallel), and calls solve(begin, end) on each: solve answers the elements of its
/// block and returns the first one it marks (a bad pose, say), or kNoElement. Returns the lowest
/// marked element of the whole batch, or kNoElement: the same whatever the threads and blocks.
template <class Solve>
std::size_t first_marked_in_blocks(std::size_t n, int threads, const Solve& solve) {
  const int blocks = batch_blocks(n, threads);
  std::vector<std::size_t> first(static_cast<std::size_t>(blocks), kNoElement);  // one slot per block
  run_parallel(threads, blocks, [&](int block) {
    const auto k = static_cast<std::size_t>(block);
    const auto t = static_cast<std::size_t>(blocks);
    first[k] = solve(k * n / t, (k + 1) * n / t);
  });
  return *std::min_element(first.begin(), first.end());
}

}  // namespace proxima::batch::detail
