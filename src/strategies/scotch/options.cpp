// scotch's options (a row of the strategy table).
#include "strategies/common/option_values.hpp"
#include "strategies/scotch/scotch.hpp"

namespace tmap::strategies {

namespace {

constexpr StrategyOption kScotchOptions[] = {
    {"sparse-factor", "scotch: drop traffic below this fraction of the heaviest pair (TopoMatch -a)",
     [](Context& c, std::string_view v) { c.scotch.sparse_factor = real_value("sparse-factor", v, 0.0, 1.0); }},
};

}  // namespace

std::span<const StrategyOption> scotch_options() {
  return kScotchOptions;
}

}  // namespace tmap::strategies
