// Independent tasks of one strategy (auto's candidates, best's finalists)
// side by side on the run's threads.
#pragma once

#include <algorithm>
#include <cstddef>
#include <functional>

#include "tmap/mapper.hpp"

namespace tmap::strategies {

/// Each of `parts` tasks' share of `threads` (at least one).
[[nodiscard]] inline int thread_share(int threads, std::size_t parts) {
  return std::max(1, threads / static_cast<int>(std::max<std::size_t>(1, parts)));
}

/// Calls task(k, run) for k in [0, tasks), on up to run.threads threads
/// taking tasks in order as they come free; each call's Run has
/// `task_threads` threads and hooks that reach the caller's one message at
/// a time (in the order they come). Results must not depend on which
/// thread runs a task. The first failing task's error (by index) is
/// rethrown once all are done.
void run_tasks(std::size_t tasks, const Run& run, int task_threads,
               const std::function<void(std::size_t, const Run&)>& task);

}  // namespace tmap::strategies
