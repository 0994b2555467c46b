#include "strategies/scotch/accepts.hpp"

#include <charconv>

#include "tmap/scotch_export.hpp"
#include "util/text.hpp"

namespace tmap::scotchmap {

namespace {

/// Scotch target text separates its words by any white space.
constexpr std::string_view kWhiteSpace = " \t\r\n\v\f";

/// The next integer of `rest`, or -1 where there is none.
std::int64_t next_int(std::string_view& rest) {
  std::string_view word;
  if (!detail::next_token(rest, word, kWhiteSpace)) return -1;
  std::int64_t value = -1;
  const auto [end, error] = std::from_chars(word.data(), word.data() + word.size(), value);
  return error == std::errc{} && end == word.data() + word.size() ? value : -1;
}

/// A tleaf none of whose levels has fan-out 1 ("tleaf L f0 c0 f1 c1 ...").
bool tleaf_without_fanout_one(std::string_view rest) {
  const auto levels = next_int(rest);
  if (levels < 1) return false;
  for (std::int64_t level = 0; level < levels; ++level) {
    const auto fanout = next_int(rest);
    if (fanout <= 1 || next_int(rest) < 1) return false;
  }
  return true;
}

}  // namespace

bool libscotch_exact(std::string_view tgt) {
  std::string_view word;
  if (!detail::next_token(tgt, word, kWhiteSpace)) return false;
  if (word == "cmplt" || word == "hcub" || word == "mesh2D" || word == "mesh3D") return true;
  if (word == "torus2D" || word == "torus3D" || word == "torusXD") return true;
  if (word == "tleaf") return tleaf_without_fanout_one(tgt);
  return false;
}

bool libscotch_sub_allowed(std::string_view tgt) {
  std::string_view word;
  return !detail::next_token(tgt, word, kWhiteSpace) || word != "deco";
}

bool libscotch_exact(const Topology& topology) {
  // Only Scotch's own kinds can be exact: asked first, as a Tianhe-3's or a
  // deco's target is a table as large as the machine squared.
  const auto kind = topology.kind();
  if (kind != "cmplt" && kind != "hcub" && kind != "tleaf" && !kind.starts_with("mesh") && !kind.starts_with("torus")) {
    return false;
  }
  const auto* view = topology.find<ScotchView>();
  return view != nullptr && libscotch_exact(view->to_tgt());
}

bool libscotch_sub_allowed(const Topology& topology) {
  return libscotch_sub_allowed(scotch_source(topology));
}

}  // namespace tmap::scotchmap
