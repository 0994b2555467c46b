#include "strategies/ptscotch/ptscotch.hpp"

#include "strategies/scotch/scotch.hpp"

namespace tmap::strategies {

Mapping PtScotchMapper::map(const Problem& problem, const Run& context) const {
  context.fall_back("ptscotch", "scotch",
                    "PT-Scotch maps a graph spread over MPI processes (tm-pmap -s ptscotch under mpirun, or "
                    "TMAP_STRATEGY=ptscotch in an MPI program); in one process Scotch's static mapping is its "
                    "counterpart");
  return ScotchMapper{}.map(problem, context);
}

}  // namespace tmap::strategies
