// Readable gtest output for tmap types.
#pragma once

#include <ostream>

#include "tmap/comm_matrix.hpp"

namespace tmap {
inline void PrintTo(const CommMatrix& m, std::ostream* os) {
  *os << "CommMatrix(n=" << m.num_ranks() << ";";
  for (Rank i = 0; i < m.num_ranks(); ++i) {
    for (std::size_t k = 0; k < m.targets(i).size(); ++k)
      *os << " " << i << "->" << m.targets(i)[k] << ":" << m.volumes(i)[k];
  }
  *os << ")";
}
}  // namespace tmap
