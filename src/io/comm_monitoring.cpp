// Open MPI's monitoring output as a communication matrix: the files
// PREFIX.<rank>.prof that `mpirun --mca pml_monitoring_enable 2
// --mca pml_monitoring_enable_output 3 --mca pml_monitoring_filename PREFIX`
// writes at MPI_Finalize, one per process of MPI_COMM_WORLD. The lines
// (tab separated, as Open MPI 4.1 writes them):
//   E|I|S|C <me> <peer> <N> bytes <M> msgs sent [histogram]
//   R <me> <peer> <N> bytes <M> msgs received [histogram]
//   D <communicator name...> procs: <ranks>      (per-communicator summary)
//   O2A|A2O|A2A <me> <N> bytes <M> msgs sent     (its collective totals)
//   # POINT TO POINT / # OSC / # COLLECTIVES     (section titles)
// E: the application's point-to-point messages; I: the point-to-point
// messages collectives are made of; S/R: one-sided traffic put or got;
// C: collective totals (the same traffic as I, counted by the collective
// layer). With pml_monitoring_enable 1 everything is aggregated as E.
// libtmap-mpi's recorder (TMAP_RECORD) writes the same lines after a first
// "# tmap-record version=1 rank=R size=N collectives=C": no I lines (the
// MPI library hides its collectives' messages), so its runs count E and C
// unless the kinds are chosen.
#include <algorithm>
#include <filesystem>
#include <map>
#include <optional>
#include <regex>
#include <set>

#include "io/comm_readers.hpp"
#include "tmap/error.hpp"
#include "tmap/io.hpp"
#include "util/file.hpp"
#include "util/text.hpp"

namespace tmap {

namespace {

namespace fs = std::filesystem;

/// A rank file's name: <prefix>.<rank>.prof.
const std::regex& rank_file_name() {
  static const std::regex kRankFile(R"((.+)\.[0-9]+\.prof)");
  return kRankFile;
}

/// The rank files of one run: their common prefix (as given to Open MPI)
/// and each rank's file.
struct RankFiles {
  std::string prefix;
  std::vector<std::string> by_rank;
};

/// "name.<k>.prof" -> k; -1 when the name is not one of those.
std::int64_t rank_of_file(const std::string& name, const std::string& base) {
  constexpr std::string_view kSuffix = ".prof";
  if (name.size() <= base.size() + 1 + kSuffix.size() || !name.starts_with(base) || name[base.size()] != '.' ||
      !name.ends_with(kSuffix)) {
    return -1;
  }
  const auto digits = std::string_view(name).substr(base.size() + 1, name.size() - base.size() - 1 - kSuffix.size());
  // Up to 18 digits: a rank past tmap's limit is named, not passed over.
  if (digits.empty() || digits.size() > 18 ||
      !std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; })) {
    return -1;
  }
  return std::stoll(std::string(digits));
}

/// The prefixes of every "<prefix>.<k>.prof" file in a folder.
std::set<std::string> prefixes_in(const fs::path& folder) {
  std::set<std::string> found;
  std::error_code ec;
  for (fs::directory_iterator it(folder, ec), end; !ec && it != end; it.increment(ec)) {
    const auto name = it->path().filename().string();
    std::smatch m;
    if (std::regex_match(name, m, rank_file_name())) found.insert(m[1].str());
  }
  return found;
}

/// Finds the rank files from what the user gave: the prefix, one of the
/// rank files, or a folder holding one run's files.
RankFiles find_rank_files(const std::string& given) {
  std::error_code ec;
  fs::path folder;
  std::string base;
  if (fs::is_directory(given, ec)) {
    folder = given;
    const auto prefixes = prefixes_in(folder);
    if (prefixes.empty()) throw InputError(given, "no Open MPI monitoring files (NAME.<rank>.prof) in this folder");
    if (prefixes.size() > 1) {
      std::string list;
      for (const auto& p : prefixes) list += (list.empty() ? "" : ", ") + p;
      throw InputError(given,
                       "monitoring files of several runs in this folder (" + list + "): give one as -c FOLDER/NAME");
    }
    base = *prefixes.begin();
  } else {
    fs::path path(given);
    folder = path.has_parent_path() ? path.parent_path() : fs::path(".");
    base = path.filename().string();
    // A rank file itself (prof.3.prof) names its run.
    std::smatch m;
    if (std::regex_match(base, m, rank_file_name()) && fs::is_regular_file(given, ec)) base = m[1].str();
  }
  RankFiles files;
  files.prefix = (folder / base).string();
  std::map<std::int64_t, std::string> found;
  for (fs::directory_iterator it(folder, ec), end; !ec && it != end; it.increment(ec)) {
    const auto name = it->path().filename().string();
    const auto k = rank_of_file(name, base);
    if (k < 0) continue;
    if (k >= kMaxRanks) {
      throw InputError(it->path().string(),
                       "rank " + std::to_string(k) + " is beyond tmap's limit of " + std::to_string(kMaxRanks) +
                           " ranks: a file of another run, or renamed? Move it away to map this run");
    }
    const auto [at, fresh] = found.emplace(k, it->path().string());
    if (!fresh) {
      throw InputError(it->path().string(), "a second file for rank " + std::to_string(k) + " (also " + at->second +
                                                "): files of two runs?");
    }
  }
  if (ec) throw InputError(folder.string(), "cannot list the folder: " + ec.message());
  if (found.empty()) {
    throw InputError(given, "no such file, and no Open MPI monitoring files " + files.prefix + ".<rank>.prof");
  }
  const auto n = found.rbegin()->first + 1;
  for (std::int64_t k = 0; k < n; ++k) {
    if (!found.contains(k)) {
      throw InputError(
          files.prefix + "." + std::to_string(k) + ".prof",
          "missing: the run has files up to rank " + std::to_string(n - 1) + " but none for rank " + std::to_string(k));
    }
    files.by_rank.push_back(found[k]);
  }
  return files;
}

/// The number of processes of MPI_COMM_WORLD from its "D" line, or -1.
std::int64_t world_size_of(std::string_view line) {
  if (line.find("MPI_COMM_WORLD") == std::string_view::npos) return -1;
  const auto procs = line.find("procs:");
  if (procs == std::string_view::npos) return -1;
  std::int64_t count = 0;
  std::string_view rest = line.substr(procs + 6);
  std::string_view token;
  while (detail::next_token(rest, token, ", \t\r")) ++count;
  return count;
}

/// A recording's first line: "# tmap-record version=1 rank=R size=N ...".
struct RecordMarker {
  std::int64_t rank = -1;
  std::int64_t size = -1;
};

/// The marker when `text` starts with one (InputError when it is malformed).
std::optional<RecordMarker> record_marker(std::string_view text, const std::string& origin) {
  const auto end = text.find('\n');
  std::string_view line = text.substr(0, end);
  if (!line.starts_with("# tmap-record")) return std::nullopt;
  line.remove_prefix(std::string_view("# tmap-record").size());
  RecordMarker marker;
  std::string_view token;
  while (detail::next_token(line, token)) {
    const auto eq = token.find('=');
    if (eq == std::string_view::npos) continue;
    const auto key = token.substr(0, eq);
    const auto value = token.substr(eq + 1);
    if (key == "version" && value != "1") {
      throw InputError(origin, 1, "a tmap recording of version " + std::string(value) + ": this tmap reads version 1");
    }
    if (key == "rank") marker.rank = detail::parse_int_in(value, 0, kMaxRanks - 1, "rank", origin, 1);
    if (key == "size") marker.size = detail::parse_int_in(value, 1, kMaxRanks, "size", origin, 1);
  }
  if (marker.rank < 0 || marker.size < 0) throw InputError(origin, 1, "a '# tmap-record' line without rank= and size=");
  return marker;
}

/// The world size a file states (Open MPI's D line, a recording's marker)
/// against the run's files: a file of another run is named.
void check_world_size(std::int64_t world, std::int64_t n, const RankFiles& files, const std::string& origin,
                      std::int64_t at, std::string_view where) {
  if (world >= 0 && world < n) {
    throw InputError(files.by_rank[static_cast<std::size_t>(world)],
                     "rank " + std::to_string(world) + " is beyond this run's " + std::to_string(world) +
                         " processes (" + std::string(where) + " in " + origin + ":" + std::to_string(at) +
                         "): a file of another run? Move it away to map this run");
  }
  if (world >= 0 && world != n) {
    throw InputError(origin, at,
                     "this run had " + std::to_string(world) + " processes in MPI_COMM_WORLD but there are " +
                         std::to_string(n) + " rank files: files missing, or of another run");
  }
}

}  // namespace

CommMatrix read_ompi_monitoring(const std::string& given, const MonitoringSelection& selection) {
  for (const char kind : selection.kinds) {
    if (std::string_view("EISRC").find(kind) == std::string_view::npos) {
      throw InputError(std::string("monitoring kinds: '") + kind + "' is not one of E, I, S, R, C");
    }
  }
  const auto files = find_rank_files(given);
  const auto n = static_cast<Rank>(files.by_rank.size());
  std::vector<CommEntry> entries;
  bool recorded = false;  // rank 0's file says whose run it is
  std::string kinds = selection.kinds;
  for (Rank me = 0; me < n; ++me) {
    const auto& origin = files.by_rank[static_cast<std::size_t>(me)];
    const auto text = detail::read_text_file(origin);
    if (text.find_first_not_of(" \t\r\n") == std::string::npos) {
      // Open MPI writes its section headers even for a rank that sent nothing.
      throw InputError(origin,
                       "is empty: Open MPI writes its section headers even for a rank that sent nothing, so this "
                       "process's output was cut short (or the file truncated); a row of zeros would hide it");
    }
    const auto marker = record_marker(text, origin);
    if (me == 0) {
      recorded = marker.has_value();
      if (kinds.empty()) kinds = recorded ? "EC" : "EI";
    } else if (marker.has_value() != recorded) {
      throw InputError(origin, std::string(recorded ? "is Open MPI's monitoring output but rank 0's file is tmap's "
                                                      "recording (TMAP_RECORD)"
                                                    : "is tmap's recording (TMAP_RECORD) but rank 0's file is Open "
                                                      "MPI's monitoring output") +
                                   ": files of two runs?");
    }
    if (marker) {
      if (marker->rank != me) {
        throw InputError(origin, 1,
                         "the recording is rank " + std::to_string(marker->rank) + "'s but the file is rank " +
                             std::to_string(me) + "'s: files of two runs, or renamed?");
      }
      check_world_size(marker->size, n, files, origin, 1, "the recording's size");
    }
    detail::LineReader lines(text);
    std::string_view line;
    std::set<std::pair<char, Rank>> seen;  // (kind, peer): each pair once per file
    while (lines.next(line)) {
      const auto at = lines.line_number();
      std::string_view rest = line;
      std::string_view kind;
      if (!detail::next_token(rest, kind) || kind.starts_with('#')) continue;
      if (kind == "D") {
        check_world_size(world_size_of(line), n, files, origin, at, "MPI_COMM_WORLD");
        continue;
      }
      if (kind == "O2A" || kind == "A2O" || kind == "A2A") continue;  // per-communicator totals
      if (kind.size() != 1 || std::string_view("EISRC").find(kind[0]) == std::string_view::npos) {
        throw InputError(origin, at,
                         "unknown line kind " + detail::quote(kind) + " (expected E, I, S, R, C, D, O2A, A2O, A2A)");
      }
      std::string_view tokens[7];
      int count = 0;
      while (count < 7 && detail::next_token(rest, tokens[count])) ++count;
      const bool received = kind[0] == 'R';
      if (count < 7 || tokens[3] != "bytes" || tokens[5] != "msgs" || tokens[6] != (received ? "received" : "sent")) {
        throw InputError(origin, at,
                         std::string("expected '") + kind[0] + " <rank> <peer> <N> bytes <M> msgs " +
                             (received ? "received" : "sent") + "'");
      }
      const auto sender = detail::parse_int_in(tokens[0], 0, kMaxRanks - 1, "rank", origin, at);
      if (sender != me) {
        throw InputError(origin, at,
                         "the line is rank " + std::to_string(sender) + "'s but the file is rank " +
                             std::to_string(me) + "'s: files of two runs, or renamed?");
      }
      const auto peer = detail::parse_int_in(tokens[1], 0, kMaxRanks - 1, "peer rank", origin, at);
      if (peer >= n) {
        throw InputError(origin, at,
                         "peer rank " + std::to_string(peer) + " but the run has " + std::to_string(n) +
                             " rank files: files missing, or of another run");
      }
      const auto bytes = detail::parse_volume(tokens[2], origin, at);
      const auto messages = detail::parse_volume(tokens[4], origin, at);
      if (!seen.emplace(kind[0], peer).second) {
        throw InputError(origin, at, std::string("a second '") + kind[0] + "' line for peer " + std::to_string(peer));
      }
      if (kinds.find(kind[0]) == std::string::npos) continue;
      const auto volume = selection.messages ? messages : bytes;
      // R: bytes this rank got from its peer (a one-sided get).
      if (received) {
        entries.push_back({peer, me, volume});
      } else {
        entries.push_back({me, peer, volume});
      }
    }
  }
  try {
    return CommMatrix::from_entries(n, std::move(entries));
  } catch (const InputError& e) {
    throw InputError(files.prefix, e.problem());
  }
}

std::vector<std::string> ompi_monitoring_files(const std::string& given) {
  return find_rank_files(given).by_rank;
}

bool is_ompi_monitoring(const std::string& path) {
  std::error_code ec;
  if (fs::is_directory(path, ec)) return !prefixes_in(path).empty();
  const fs::path p(path);
  if (fs::exists(p, ec)) return fs::is_regular_file(p, ec) && std::regex_match(p.filename().string(), rank_file_name());
  // A prefix: some <prefix>.<rank>.prof beside it.
  const auto folder = p.has_parent_path() ? p.parent_path() : fs::path(".");
  const auto base = p.filename().string();
  for (fs::directory_iterator it(folder, ec), end; !ec && it != end; it.increment(ec)) {
    if (rank_of_file(it->path().filename().string(), base) >= 0) return true;
  }
  return false;
}

}  // namespace tmap
