// Thin wrappers so code builds with and without OpenMP, and two tasks run
// side by side on a thread budget.
#pragma once

#include <exception>
#include <thread>

#ifdef _OPENMP
#include <omp.h>
#endif

namespace tmap::detail {

inline int thread_index() noexcept {
#ifdef _OPENMP
  return omp_get_thread_num();
#else
  return 0;
#endif
}

inline int thread_count() noexcept {
#ifdef _OPENMP
  return omp_get_num_threads();
#else
  return 1;
#endif
}

/// Runs `first` here and `second` on a helper thread when `side_by_side`,
/// else one after the other. An exception from either comes back here (the
/// helper is joined first). The two must share nothing they write.
template <typename First, typename Second>
void run_both(bool side_by_side, First&& first, Second&& second) {
  if (!side_by_side) {
    first();
    second();
    return;
  }
  std::exception_ptr error;
  {
    const std::jthread helper([&] {
      try {
        second();
      } catch (...) {
        error = std::current_exception();
      }
    });
    first();
  }
  if (error) std::rethrow_exception(error);
}

}  // namespace tmap::detail
