// grid2d's options (a row of the strategy table).
#include <cstdlib>
#include <string>

#include "strategies/common/option_values.hpp"
#include "strategies/grid2d/grid2d.hpp"
#include "tmap/error.hpp"
#include "util/file.hpp"

namespace tmap::strategies {

namespace {

/// "HEIGHTxWIDTH" in bytes, both positive and finite.
void set_domain(Context& c, std::string_view value) {
  const std::string text(value);
  if (text.empty()) {  // the matrix's stencil fixes shape and halos (the default)
    c.grid2d.domain_height = c.grid2d.domain_width = 0.0;
    return;
  }
  const auto x = text.find('x');
  char* end_h = nullptr;
  char* end_w = nullptr;
  const double h = std::strtod(text.c_str(), &end_h);
  const double w = x == std::string::npos ? 0.0 : std::strtod(text.c_str() + x + 1, &end_w);
  if (x == std::string::npos || end_h != text.c_str() + x || end_w != text.c_str() + text.size() || !(h > 0) ||
      !(w > 0) || h > 1e300 || w > 1e300) {
    throw ParameterError("grid2d-domain '" + text + "': expected HEIGHTxWIDTH in bytes, e.g. 262144x262144");
  }
  c.grid2d.domain_height = h;
  c.grid2d.domain_width = w;
}

constexpr StrategyOption kGrid2dOptions[] = {
    {"grid2d-bw", "grid2d: bandwidth table file (lines 'intra H V', 'inter H V', 'G1 G2 H V'; default 1 / hops)",
     [](Context& c, std::string_view v) {
       c.grid2d.bandwidths = v.empty() ? std::string() : detail::read_text_file(std::string(v));
       c.grid2d.bandwidths_origin = std::string(v);
     },
     [](const Context& c) { return c.grid2d.bandwidths_origin; }, true},
    {"grid2d-domain", "grid2d: the domain in bytes (HEIGHTxWIDTH): choose the r x c shape too, ranks row-major in it",
     set_domain,
     [](const Context& c) {
       return c.grid2d.domain_height > 0 ? real_text(c.grid2d.domain_height) + "x" + real_text(c.grid2d.domain_width)
                                         : std::string();
     }},
};

}  // namespace

std::span<const StrategyOption> grid2d_options() {
  return kGrid2dOptions;
}

}  // namespace tmap::strategies
