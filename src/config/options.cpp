// Every option of a Context by key: the run's own rows here, each
// strategy's from its row of the strategy table; and the JSON form.
#include <algorithm>
#include <charconv>
#include <nlohmann/json.hpp>
#include <string>

#include "refine/dense_search.hpp"
#include "strategies/common/option_values.hpp"
#include "tmap/config.hpp"
#include "tmap/error.hpp"
#include "tmap/objective.hpp"
#include "tmap/routing.hpp"
#include "tmap/version.hpp"

namespace tmap {

namespace {

using strategies::real_text;
using strategies::real_value;
using strategies::whole_or_default;
using strategies::whole_or_default_text;
using strategies::whole_value;

/// f(), its ParameterError's message starting with the option's key.
template <typename F>
auto naming_key(std::string_view key, F&& f) {
  try {
    return f();
  } catch (const ParameterError& e) {
    throw ParameterError(std::string(key) + ": " + e.what());
  }
}

/// The objective's value when none is set (Context::objective).
constexpr const char* kAutoObjective = "auto";

/// A thread budget above any machine's: map() uses at most the machine's.
constexpr std::int64_t kMostThreads = 4096;

constexpr StrategyOption kRunOptions[] = {
    {"strategy", "the strategy to run (a name of the strategy table)",
     [](Context& c, std::string_view v) {
       c.strategy = std::string(naming_key("strategy", [&] { return find_strategy(v).name; }));
     },
     [](const Context& c) { return c.strategy; }},
    {"seed", "seed of every random choice (default 0)",
     [](Context& c, std::string_view v) {
       std::uint64_t seed = 0;
       const auto [end, error] = std::from_chars(v.data(), v.data() + v.size(), seed);
       if (v.empty() || error != std::errc{} || end != v.data() + v.size()) {
         throw ParameterError("seed: '" + std::string(v) + "' is not a whole number between 0 and 2^64-1");
       }
       c.seed = seed;
     },
     [](const Context& c) { return std::to_string(c.seed); }},
    {"threads", "the thread budget (results do not depend on it)",
     [](Context& c, std::string_view v) { c.threads = static_cast<int>(whole_value("threads", v, 1, kMostThreads)); },
     [](const Context& c) { return std::to_string(c.threads); }},
    {"refine", "refinement after the strategy: none, swap, tabu or multilevel",
     [](Context& c, std::string_view v) {
       c.refine.kind = naming_key("refine", [&] { return refine_kind_from_name(v); });
     },
     [](const Context& c) { return std::string(refine_kind_name(c.refine.kind)); }},
    {"refine-iters", refine::kTabuBudgetHelp,
     [](Context& c, std::string_view v) { c.refine.iterations = whole_or_default("refine-iters", v, 0, 1000000000); },
     [](const Context& c) { return whole_or_default_text(c.refine.iterations); }},
    {"time-limit", "wall-clock cap of the tabu search in seconds (0 = none)",
     [](Context& c, std::string_view v) { c.refine.time_limit_s = real_value("time-limit", v, 0.0, 1e9); },
     [](const Context& c) { return real_text(c.refine.time_limit_s); }},
    {"objective",
     "what the run minimises: hop-bytes, congestion (the busiest link) or time (one round's predicted time); "
     "auto (default): hop-bytes, the default strategy choosing its candidate by predicted time where the machine "
     "has routes",
     [](Context& c, std::string_view v) {
       if (v == kAutoObjective) {
         c.objective.reset();
         return;
       }
       std::string known = kAutoObjective;
       for (const auto& name : objective_names()) {
         if (name == v) {
           c.objective = objective_from_name(v);
           return;
         }
         known += ", " + name;
       }
       throw ParameterError("objective: unknown objective '" + std::string(v) + "' (known: " + known + ")");
     },
     [](const Context& c) { return c.objective ? std::string(objective_name(*c.objective)) : kAutoObjective; }},
    {"link-bw", "link bandwidths by kind for routing-aware strategies ('row=2,col=2'; empty = 1)",
     [](Context& c, std::string_view v) {
       try {
         (void)parse_link_bandwidths(v);  // the kinds are the machine's, checked with it
       } catch (const InputError& e) {
         throw ParameterError(std::string("link-bw: ") + e.what());
       }
       c.link_bandwidths = std::string(v);
     },
     [](const Context& c) { return c.link_bandwidths; }},
};

const StrategyOption* find_option(std::string_view key) {
  for (const auto* option : context_options()) {
    if (option->key == key) return option;
  }
  return nullptr;
}

std::string known_keys() {
  std::string known;
  for (const auto* option : context_options()) known += (known.empty() ? "" : ", ") + std::string(option->key);
  return known;
}

}  // namespace

std::vector<const StrategyOption*> context_options() {
  std::vector<const StrategyOption*> all;
  for (const auto& option : kRunOptions) all.push_back(&option);
  for (const auto& row : strategy_table()) {
    for (const auto& option : row.options) all.push_back(&option);
  }
  return all;
}

void set_option(Context& context, std::string_view key, std::string_view value) {
  const auto* option = find_option(key);
  if (option == nullptr) {
    throw ParameterError("unknown option '" + std::string(key) + "' (known: " + known_keys() + ")");
  }
  option->apply(context, value);
}

std::vector<std::pair<std::string, std::string>> option_values(const Context& context) {
  std::vector<std::pair<std::string, std::string>> values;
  for (const auto* option : context_options()) values.emplace_back(option->key, option->show(context));
  return values;
}

std::string save_config(const Context& context) {
  auto options = nlohmann::ordered_json::object();
  for (const auto& [key, value] : option_values(context)) options[key] = value;
  nlohmann::ordered_json document;
  document["tmap_config"] = 1;
  document["version"] = std::string(version());
  document["options"] = std::move(options);
  return document.dump(2) + "\n";
}

Context load_config(std::string_view text, const std::string& origin, const Context& base) {
  // nlohmann's reader stops at a NUL as at the end: what follows it would
  // pass unread.
  if (const auto nul = text.find('\0'); nul != std::string_view::npos) {
    const auto line = 1 + std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(nul), '\n');
    throw InputError(origin, line, "a NUL byte: a configuration is JSON text");
  }
  nlohmann::json document;
  try {
    document = nlohmann::json::parse(text);
  } catch (const nlohmann::json::exception& e) {  // parse errors and numbers out of range (1e999999)
    throw InputError(origin, std::string("not valid JSON: ") + e.what());
  }
  // tm-map's JSON result keeps its configuration under "config".
  const nlohmann::json* options = nullptr;
  if (document.is_object() && document.contains("tmap_config")) {
    if (!document["tmap_config"].is_number_integer() || document["tmap_config"].get<std::int64_t>() != 1) {
      throw InputError(origin, "tmap_config: this tmap reads version 1 of the configuration format");
    }
    if (document.contains("options")) options = &document["options"];
  } else if (document.is_object() && document.contains("config") && document["config"].is_object()) {
    options = document["config"].contains("options") ? &document["config"]["options"] : &document["config"];
  } else {
    throw InputError(origin, R"(neither a tmap configuration ("tmap_config") nor a tm-map JSON result ("config"))");
  }
  Context context = base;
  if (options == nullptr) return context;
  if (!options->is_object()) throw InputError(origin, "\"options\" must be an object of KEY: VALUE");
  for (const auto& [key, value] : options->items()) {
    const auto* option = find_option(key);
    if (option == nullptr) {
      throw InputError(origin, "unknown option '" + key + "' (known: " + known_keys() + ")");
    }
    std::string value_text;
    if (value.is_string()) {
      value_text = value.get<std::string>();
    } else if (value.is_number() || value.is_boolean()) {
      value_text = value.dump();
    } else {
      throw InputError(origin, key + ": expected a string or a number");
    }
    try {
      option->apply(context, value_text);
    } catch (const ParameterError& e) {
      throw InputError(origin, e.what());
    }
  }
  return context;
}

}  // namespace tmap
