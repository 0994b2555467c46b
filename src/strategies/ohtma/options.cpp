// ohtma's and ohtma+'s options (rows of the strategy table).
#include "strategies/common/option_values.hpp"
#include "strategies/ohtma/ohtma.hpp"
#include "strategies/ohtma/ohtma_plus.hpp"

namespace tmap::strategies {

namespace {

constexpr StrategyOption kOhtmaOptions[] = {
    {"ohtma-loop", "OHTMA pair-exchange iterations (default n/2, the paper's choice)",
     [](Context& c, std::string_view v) { c.ohtma.loop = whole_value("ohtma-loop", v, 0, kMaxRanks); }},
};

constexpr StrategyOption kOhtmaPlusOptions[] = {
    {"ohtma-passes", "ohtma+: most refinement passes (default 64)",
     [](Context& c, std::string_view v) { c.ohtma.max_passes = whole_value("ohtma-passes", v, 1, 1 << 20); }},
};

}  // namespace

std::span<const StrategyOption> ohtma_options() {
  return kOhtmaOptions;
}
std::span<const StrategyOption> ohtma_plus_options() {
  return kOhtmaPlusOptions;
}

}  // namespace tmap::strategies
