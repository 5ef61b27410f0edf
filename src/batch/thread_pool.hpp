// SPDX-License-Identifier: MIT
// The batch layer's small thread pool: persistent std::jthread workers that run the tasks of one
// job at a time (task k = static chunk k), the calling thread taking part.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <exception>
#include <functional>
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

/// Runs fn(k), k in [0, threads), with `threads` threads in all (the caller and threads - 1
/// workers of a process-wide pool, grown on demand). One job at a time process-wide: concurrent
/// callers wait for each other. threads == 1 runs fn(0) on the caller without the pool.
void run_parallel(int threads, const std::function<void(int)>& fn);

}  // namespace proxima::batch::detail
