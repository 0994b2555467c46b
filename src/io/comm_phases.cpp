// Phased traffic (.phases): the triplets of .coo grouped into phases, in
// the order the job runs them, so that the time objective can run them one
// after another (docs/formats.md):
//   [n]                the rank count, alone on the first line (optional)
//   phase [REPEAT]     starts a phase, run REPEAT times in a row (default 1)
//   i j bytes          what rank i sends to rank j in one run of the phase
// The matrix read is the sum of the phases, each times its REPEAT.
#include <fmt/format.h>

#include "io/comm_readers.hpp"
#include "tmap/error.hpp"
#include "util/text.hpp"

namespace tmap::detail {

namespace {

/// The largest REPEAT read: a phase runs at most this many times an
/// iteration (a million pipelined steps), which keeps every sum in range.
constexpr std::int64_t kMostRepeats = 1'000'000;

struct PhaseText {
  std::int64_t repeat = 1;
  std::int64_t line = 0;
  std::vector<CommEntry> entries;
};

}  // namespace

CommMatrix parse_phases(std::string_view text, const std::string& origin) {
  TripletReader reader(text, origin, "phase");
  std::vector<PhaseText> phases;
  TripletLine line;
  while (reader.next(line)) {
    if (line.tokens[0] == "phase") {
      if (line.count > 2) throw InputError(origin, line.at, "expected 'phase' or 'phase REPEAT'");
      const auto repeat =
          line.count == 2 ? parse_int_in(line.tokens[1], 1, kMostRepeats, "phase repeat", origin, line.at) : 1;
      phases.push_back({repeat, line.at, {}});
      continue;
    }
    if (phases.empty()) {
      throw InputError(origin, line.at, "an entry before the first 'phase' line (a .phases file starts its phases so)");
    }
    phases.back().entries.push_back(reader.entry(line));
  }
  if (phases.empty()) throw InputError(origin, "no 'phase' line found (not a .phases file, or empty)");
  const auto n = reader.ranks("every phase is empty");
  std::vector<CommPhase> built;
  built.reserve(phases.size());
  for (auto& phase : phases) {
    try {
      built.push_back({CommMatrix::from_entries(n, std::move(phase.entries)), phase.repeat});
    } catch (const InputError& e) {
      throw InputError(origin, phase.line, "this phase: " + e.problem());
    }
    // Checked here too (from_phases checks it for every caller) to name the phase's line.
    const auto& traffic = built.back().traffic;
    for (Rank i = 0; i < n; ++i) {
      for (std::size_t k = 0; k < traffic.targets(i).size(); ++k) {
        Volume total = 0;
        if (__builtin_mul_overflow(traffic.volumes(i)[k], phase.repeat, &total)) {
          throw InputError(
              origin, phase.line,
              fmt::format("this phase: ranks {} and {} exchange more than 2^63-1 bytes over its {} repeats", i,
                          traffic.targets(i)[k], phase.repeat));
        }
      }
    }
  }
  try {
    return CommMatrix::from_phases(n, std::move(built));
  } catch (const InputError& e) {
    throw InputError(origin, e.problem());
  }
}

std::string format_phases(const CommMatrix& comm) {
  fmt::memory_buffer out;
  auto it = std::back_inserter(out);
  const auto entries = [&](const CommMatrix& m) {
    for (Rank i = 0; i < m.num_ranks(); ++i) {
      for (std::size_t k = 0; k < m.targets(i).size(); ++k) {
        fmt::format_to(it, "{} {} {}\n", i, m.targets(i)[k], m.volumes(i)[k]);
      }
    }
  };
  fmt::format_to(it, "{}\n", comm.num_ranks());
  if (comm.phases().empty()) {
    // Nothing known of the order: one phase, the whole matrix.
    fmt::format_to(it, "phase\n");
    entries(comm);
    return fmt::to_string(out);
  }
  for (const auto& phase : comm.phases()) {
    if (phase.repeat == 1) {
      fmt::format_to(it, "phase\n");
    } else {
      fmt::format_to(it, "phase {}\n", phase.repeat);
    }
    entries(phase.traffic);
  }
  return fmt::to_string(out);
}

}  // namespace tmap::detail
