// scotch's options (a row of the strategy table).
#include <algorithm>
#include <array>
#include <string>

#include "strategies/common/option_values.hpp"
#include "strategies/scotch/scotch.hpp"
#include "tmap/error.hpp"

namespace tmap::strategies {

namespace {

constexpr std::string_view kTarget = "scotch-target";
constexpr std::array<std::string_view, 5> kTargetKinds{"auto", "native", "table", "grouped", "graph"};

constexpr StrategyOption kScotchOptions[] = {
    {"sparse-factor", "scotch: drop traffic below this fraction of the heaviest pair (TopoMatch -a)",
     [](Context& c, std::string_view v) { c.scotch.sparse_factor = real_value("sparse-factor", v, 0.0, 1.0); }},
    {kTarget,
     "scotch: the target libscotch gets: auto (default), native (Scotch's own kind), table (deco 0, every "
     "distance), grouped (two levels over Tianhe-3's chip halves) or graph (deco 2 over the machine's graph)",
     [](Context& c, std::string_view v) {
       if (std::find(kTargetKinds.begin(), kTargetKinds.end(), v) == kTargetKinds.end()) {
         throw InputError("scotch-target: '" + std::string(v) + "' is not one of auto, native, table, grouped, graph");
       }
       c.strategy_options[std::string(kTarget)] = std::string(v);
     }},
};

}  // namespace

std::span<const StrategyOption> scotch_options() {
  return kScotchOptions;
}

std::string_view scotch_target_choice(const Context& context) {
  const auto it = context.strategy_options.find(kTarget);
  return it == context.strategy_options.end() ? std::string_view{"auto"} : std::string_view{it->second};
}

}  // namespace tmap::strategies
