// SPDX-License-Identifier: MIT
#include "batch/thread_pool.hpp"

#include <memory>

namespace proxima::batch::detail {

ThreadPool::ThreadPool(int workers) {
  threads_.reserve(static_cast<std::size_t>(workers));
  for (int w = 0; w < workers; ++w) {
    threads_.emplace_back([this](const std::stop_token& stop) { worker_loop(stop); });
  }
}

ThreadPool::~ThreadPool() {
  for (std::jthread& t : threads_) t.request_stop();
  wake_.notify_all();
  threads_.clear();  // joins
}

void ThreadPool::take_tasks(const std::function<void(int)>& fn, int tasks) {
  for (int k = next_.fetch_add(1); k < tasks; k = next_.fetch_add(1)) {
    try {
      fn(k);
    } catch (...) {
      const std::lock_guard lock(mutex_);
      if (!error_) error_ = std::current_exception();
    }
    const std::lock_guard lock(mutex_);
    if (--remaining_ == 0) done_.notify_all();
  }
}

void ThreadPool::worker_loop(const std::stop_token& stop) {
  std::uint64_t seen = 0;
  while (!stop.stop_requested()) {
    const std::function<void(int)>* job = nullptr;
    int tasks = 0;
    {
      std::unique_lock lock(mutex_);
      if (!wake_.wait(lock, stop, [&] { return generation_ != seen; })) return;  // stop requested
      seen = generation_;
      // A worker that wakes after its job has finished (run() cleared job_ once every task was
      // done and no worker was active) must not join it: its function is gone, and the shared
      // task counter may already belong to the next job (the old code called a null function
      // there, about once in a few thousand short jobs). Joining happens under the lock and
      // counts in active_, so a job never finishes while a worker that joined it still runs.
      if (job_ == nullptr) continue;
      job = job_;
      tasks = tasks_;
      ++active_;
    }
    take_tasks(*job, tasks);
    const std::lock_guard lock(mutex_);
    if (--active_ == 0) done_.notify_all();
  }
}

void ThreadPool::run(int tasks, const std::function<void(int)>& fn) {
  {
    const std::lock_guard lock(mutex_);
    job_ = &fn;
    tasks_ = tasks;
    remaining_ = tasks;
    error_ = nullptr;
    next_.store(0);
    ++generation_;
  }
  wake_.notify_all();
  take_tasks(fn, tasks);
  std::exception_ptr error;
  {
    std::unique_lock lock(mutex_);
    done_.wait(lock, [&] { return remaining_ == 0 && active_ == 0; });
    job_ = nullptr;
    error = error_;
    error_ = nullptr;
  }
  if (error) std::rethrow_exception(error);
}

void run_parallel(int threads, int tasks, const std::function<void(int)>& fn) {
  if (threads <= 1) {
    for (int k = 0; k < tasks; ++k) fn(k);
    return;
  }
  static std::mutex job_mutex;
  static std::unique_ptr<ThreadPool> pool;
  const std::lock_guard lock(job_mutex);
  if (!pool || pool->workers() < threads - 1) {
    pool.reset();
    pool = std::make_unique<ThreadPool>(threads - 1);
  }
  pool->run(tasks, fn);
}

}  // namespace proxima::batch::detail
