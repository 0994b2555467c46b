#include "binding_file.hpp"

#include <algorithm>

#include "tmap/error.hpp"
#include "util/text.hpp"

namespace tmap::bind {

namespace {

constexpr std::int64_t kMostSlot = (std::int64_t{1} << 20) - 1;
constexpr std::int64_t kMostRanks = std::int64_t{1} << 24;

std::vector<std::int64_t> slot_list(std::string_view text, const std::string& origin, std::int64_t line) {
  std::vector<std::int64_t> slots;
  std::string_view token;
  while (detail::next_token(text, token, ",")) {
    const auto [first, last] = detail::parse_range(token, 0, kMostSlot, "CPU", origin, line);
    for (auto c = first; c <= last; ++c) slots.push_back(c);
  }
  if (slots.empty()) throw InputError(origin, line, "no CPU given");
  return slots;
}

}  // namespace

BindingFile parse_binding_file(std::string_view text, const std::string& origin) {
  BindingFile file;
  std::vector<std::int64_t> line_of;
  // Every rank below the highest has a line: a rank past the file's line
  // count is wrong, and is refused before anything is sized by it.
  const auto lines_in_file = static_cast<std::int64_t>(std::count(text.begin(), text.end(), '\n')) + 1;
  detail::LineReader lines(text);
  std::string_view line;
  while (lines.next(line)) {
    const auto at = lines.line_number();
    if (const auto key = line.find("tmap binding pe="); key != std::string_view::npos && line.starts_with("#")) {
      std::string_view rest = line.substr(key + 16);
      std::string_view kind;
      (void)detail::next_token(rest, kind);
      if (kind == "core") {
        file.kind = SlotKind::Core;
      } else if (kind == "pu") {
        file.kind = SlotKind::Pu;
      } else if (kind == "gpu") {
        file.kind = SlotKind::Gpu;
      } else {
        throw InputError(origin, at, "pe=" + detail::quote(kind) + ": expected core, pu or gpu");
      }
    }
    line = detail::strip_comment(line, '#');
    if (detail::is_blank(line)) continue;
    std::string_view rank_text, host, slots, device, extra;
    if (file.kind == SlotKind::Gpu) {
      if (!detail::next_token(line, rank_text) || !detail::next_token(line, host) || !detail::next_token(line, slots) ||
          !detail::next_token(line, device) || detail::next_token(line, extra)) {
        throw InputError(origin, at,
                         "expected 'RANK HOST CPUS VARIABLE=GPU' (e.g. '3 cn01 0-7 CUDA_VISIBLE_DEVICES=3'): the "
                         "file tm-map --format binding writes for GPUs");
      }
    } else if (line.starts_with("rank ")) {
      // An Open MPI rankfile line as tm-map writes it: "rank R=HOST slot=CPUS".
      std::string_view rest = line.substr(5);
      const auto eq = rest.find('=');
      const auto slot = rest.find(" slot=");
      if (eq == std::string_view::npos || slot == std::string_view::npos || slot < eq) {
        throw InputError(origin, at, "expected 'rank R=HOST slot=CPUS' (an Open MPI rankfile line)");
      }
      std::string_view rank_part = rest.substr(0, eq);
      std::string_view host_part = rest.substr(eq + 1, slot - eq - 1);
      std::string_view slot_part = rest.substr(slot + 6);
      (void)detail::next_token(rank_part, rank_text);
      (void)detail::next_token(host_part, host);
      (void)detail::next_token(slot_part, slots);
    } else if (!detail::next_token(line, rank_text) || !detail::next_token(line, host) ||
               !detail::next_token(line, slots) || detail::next_token(line, extra)) {
      throw InputError(origin, at,
                       "expected 'RANK HOST CPUS' (e.g. '3 cn01 2-3'): the file tm-map --format binding "
                       "writes");
    }
    const auto rank = detail::parse_int_in(rank_text, 0, kMostRanks - 1, "rank", origin, at);
    if (rank >= lines_in_file) {
      throw InputError(origin, at,
                       "rank " + std::to_string(rank) + " but the file has " + std::to_string(lines_in_file) +
                           " lines: ranks 0 to " + std::to_string(rank) + " cannot all be placed");
    }
    if (static_cast<std::size_t>(rank) >= file.ranks.size()) {
      file.ranks.resize(static_cast<std::size_t>(rank) + 1);
      line_of.resize(static_cast<std::size_t>(rank) + 1, 0);
    }
    auto& seen = line_of[static_cast<std::size_t>(rank)];
    if (seen != 0) {
      throw InputError(origin, at,
                       "rank " + std::to_string(rank) + " is placed twice (also line " + std::to_string(seen) + ")");
    }
    seen = at;
    auto& placement = file.ranks[static_cast<std::size_t>(rank)];
    placement.host = std::string(host);
    if (file.kind == SlotKind::Gpu) {
      if (slots != "-") placement.slots = slot_list(slots, origin, at);
      const auto eq = device.find('=');
      const auto variable = device.substr(0, std::min(eq, device.size()));
      if (variable != "CUDA_VISIBLE_DEVICES" && variable != "ROCR_VISIBLE_DEVICES" && variable != "ZE_AFFINITY_MASK") {
        throw InputError(
            origin, at,
            detail::quote(device) + ": expected CUDA_VISIBLE_DEVICES=N, ROCR_VISIBLE_DEVICES=N or ZE_AFFINITY_MASK=N");
      }
      placement.device_variable = std::string(variable);
      placement.device = detail::parse_int_in(eq == std::string_view::npos ? std::string_view() : device.substr(eq + 1),
                                              0, kMostSlot, "GPU", origin, at);
    } else {
      placement.slots = slot_list(slots, origin, at);
    }
  }
  if (file.ranks.empty()) throw InputError(origin, "no rank placed");
  for (std::size_t r = 0; r < line_of.size(); ++r) {
    if (line_of[r] == 0) {
      throw InputError(origin, "rank " + std::to_string(r) + " is missing (the file places ranks up to " +
                                   std::to_string(line_of.size() - 1) + ")");
    }
  }
  return file;
}

}  // namespace tmap::bind
