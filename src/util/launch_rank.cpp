#include "util/launch_rank.hpp"

#include <cstdlib>
#include <optional>

#include "util/text.hpp"

namespace tmap::detail {

namespace {

constexpr std::int64_t kMostRanks = std::int64_t{1} << 24;
constexpr const char* kGlobal[] = {"TMAP_RANK",    "OMPI_COMM_WORLD_RANK", "PMIX_RANK",  "PMI_RANK",
                                   "SLURM_PROCID", "PALS_RANKID",          "ALPS_APP_PE"};
constexpr const char* kLocal[] = {"OMPI_COMM_WORLD_LOCAL_RANK", "MPI_LOCALRANKID", "SLURM_LOCALID",
                                  "PALS_LOCAL_RANKID"};

}  // namespace

LaunchRank launch_rank() {
  LaunchRank found;
  const auto value = [](const char* name) -> std::optional<std::int64_t> {
    const char* text = std::getenv(name);
    if (text == nullptr || *text == '\0') return std::nullopt;
    return parse_int_in(text, 0, kMostRanks - 1, "rank", std::string(name), 0);
  };
  for (const char* name : kGlobal) {
    if (const auto r = value(name)) return {*r, -1, name};
  }
  for (const char* name : kLocal) {
    if (const auto r = value(name)) return {-1, *r, name};
  }
  return found;
}

std::string launch_rank_variables() {
  std::string text;
  for (const char* name : kGlobal) text += std::string(text.empty() ? "" : ", ") + name;
  text += "; else the rank on the host from ";
  bool first = true;
  for (const char* name : kLocal) {
    text += std::string(first ? "" : ", ") + name;
    first = false;
  }
  return text;
}

}  // namespace tmap::detail
