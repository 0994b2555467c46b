#include "strategies/common/task_pool.hpp"

#include <algorithm>
#include <atomic>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace tmap::strategies {

void run_tasks(std::size_t tasks, const Run& run, int task_threads,
               const std::function<void(std::size_t, const Run&)>& task) {
  std::vector<std::exception_ptr> errors(tasks);
  const auto run_task = [&](std::size_t k, const Run& on) {
    try {
      task(k, on);
    } catch (...) {
      errors[k] = std::current_exception();
    }
  };
  const auto workers = std::min<std::size_t>(static_cast<std::size_t>(std::max(1, run.threads)), tasks);
  if (workers <= 1) {
    for (std::size_t k = 0; k < tasks; ++k) run_task(k, run);
  } else {
    std::mutex hooks_mutex;
    Run shared = run;
    shared.threads = std::max(1, task_threads);
    if (run.hooks.log) {
      shared.hooks.log = [&](std::string_view message) {
        const std::scoped_lock lock(hooks_mutex);
        run.hooks.log(message);
      };
    }
    if (run.hooks.progress) {
      shared.hooks.progress = [&](const Progress& event) {
        const std::scoped_lock lock(hooks_mutex);
        return run.hooks.progress(event);
      };
    }
    if (run.hooks.fallback) {
      shared.hooks.fallback = [&](std::string_view who, std::string_view instead, std::string_view why) {
        const std::scoped_lock lock(hooks_mutex);
        run.hooks.fallback(who, instead, why);
      };
    }
    std::atomic<std::size_t> next{0};
    const auto work = [&] {
      for (std::size_t k = next++; k < tasks; k = next++) run_task(k, shared);
    };
    std::vector<std::jthread> pool;
    for (std::size_t w = 1; w < workers; ++w) pool.emplace_back(work);
    work();
  }
  for (const auto& error : errors) {
    if (error) std::rethrow_exception(error);
  }
}

}  // namespace tmap::strategies
