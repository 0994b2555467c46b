// Thin wrappers so code builds with and without OpenMP.
#pragma once

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

}  // namespace tmap::detail
