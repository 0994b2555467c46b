// The configuration path every front end shares: a preset (or a Context
// the front end built), a config file on top, then each option by key,
// then the strategy as NAME[:REFINE]. Errors name the front end's word for
// the option (--seed, seed, TMAP_SEED (topo_tmap_seed)).
#include <string>

#include "job/job_state.hpp"
#include "tmap/config.hpp"
#include "tmap/io.hpp"

namespace tmap {

namespace {

/// Runs `set` for option `key`, a "KEY: ..." error naming the front end's word.
template <typename Set>
void naming(const JobWords& words, const std::string& key, Set&& set) {
  try {
    set();
  } catch (const ParameterError& e) {
    throw ParameterError(named(e.what(), key, words.option(key)));
  }
}

}  // namespace

Context build_context(const ContextSource& source, const JobWords& words) {
  Context c;
  if (source.base) {
    c = *source.base;
  } else if (!source.preset.empty()) {
    naming(words, "preset", [&] { c = preset(source.preset); });
  }
  if (!source.config_file.empty()) c = load_config(read_file(source.config_file), source.config_file, c);
  for (const auto& option : source.options) {
    naming(words, option.first, [&] { set_option(c, option.first, option.second); });
  }
  if (!source.strategy.empty()) {
    naming(words, "strategy", [&] {
      const auto spec = parse_strategy_spec(source.strategy);
      c.strategy = spec.name;
      if (spec.refine) c.refine.kind = *spec.refine;
    });
  }
  return c;
}

std::string bandwidths_origin(const ContextSource& source, const JobWords& words) {
  for (const auto& [key, value] : source.options) {
    if (key == "link-bw") return words.option("link-bw");
  }
  if (!source.config_file.empty()) return source.config_file + ": link-bw";
  return words.option("link-bw");
}

bool refine_asked(const ContextSource& source) {
  for (const auto& [key, value] : source.options) {
    if (key == "refine") return true;
  }
  return source.strategy.find(':') != std::string::npos;
}

}  // namespace tmap
