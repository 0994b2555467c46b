// Named presets: a starting Context for the three things users ask for.
#include <array>
#include <string>

#include "tmap/config.hpp"
#include "tmap/error.hpp"

namespace tmap {

namespace {

constexpr std::array<std::string_view, 3> kNames{"fast", "default", "quality"};

}  // namespace

std::span<const std::string_view> preset_names() {
  return kNames;
}

std::string_view preset_summary(std::string_view name) {
  if (name == "fast") return "auto without treematch where Scotch runs: gmap's time";
  if (name == "default") return "auto: the lowest of one libscotch run, treematch (trees) and in-order";
  if (name == "quality") {
    return "auto with the scotch+ portfolio, then multilevel V-cycles (up to 256 ranks a tabu search and the swap "
           "descent after them; on trees whose distances follow their levels, FM between sibling subtrees instead)";
  }
  return {};
}

Context preset(std::string_view name) {
  Context context;
  if (name == "default") return context;
  if (name == "fast") {
    context.auto_strategy.treematch = "without-scotch";
    return context;
  }
  if (name == "quality") {
    // V-cycles move whole blocks of ranks at every level of the machine,
    // which is where best's tabu search found its gains, at a fraction of
    // its time (benchmarks/results/quality_mode.md).
    context.refine.kind = RefineKind::Multilevel;
    context.auto_strategy.scotch = "scotch+";
    context.treematch.bisection = "flat";
    // TreeMatch's bottom-up grouping beside its top-down split, at every
    // size, was left out in session 47: it changed the quality mode's
    // mapping on none of the 56 peers' rows and 24 jobs of 1,024-16,384
    // ranks on tleafs and Tianhe-3, for up to a fifth of its time.
    return context;
  }
  throw ParameterError("preset: '" + std::string(name) + "' is not one of fast, default, quality");
}

}  // namespace tmap
