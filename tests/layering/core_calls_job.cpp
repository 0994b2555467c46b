// A call that climbs the layering: code linked with core's closure (core,
// util) calling the job module's read_traffic. The ctest
// layering_call_upward_fails_to_link expects its link to fail, naming it.
#include "tmap/job.hpp"

namespace tmap {

std::int64_t ranks_of_a_file_read_from_below(const std::string& path) {
  TrafficSource source;
  source.path = path;
  return read_traffic(source).num_ranks();
}

}  // namespace tmap
