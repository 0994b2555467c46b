// Running a tool: its exit codes, option validators, outputs written whole
// and never over an input, and the routing options.
#include "cli.hpp"

#include <fmt/core.h>
#include <sys/stat.h>

#include <charconv>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <optional>

#include "util/file.hpp"
#include "util/text.hpp"

namespace tmap::cli {

namespace {
const char* g_tool = "tmap";  ///< the running tool's name, for notes
}  // namespace

void note(const std::string& message) {
  fmt::print(stderr, "{}: note: {}\n", g_tool, message);
}

NoteSink printed_notes() {
  return [](const std::string& text) { note(text); };
}

std::string read_text(const std::string& path) {
  return detail::read_text_file(path);
}

int exit_code(ErrorKind kind) noexcept {
  switch (kind) {
    case ErrorKind::InvalidInput:
    case ErrorKind::InvalidParameter:
    case ErrorKind::Unsupported:
    case ErrorKind::Resource:
      return kExitInput;
    case ErrorKind::System:
      return kExitSystem;
    case ErrorKind::Internal:
      return kExitInternal;
  }
  return kExitInternal;
}

int run(const char* name, CLI::App& app, int argc, char** argv, const std::function<int()>& body) {
  g_tool = name;
  // A file-size limit (ulimit -f) must fail a write with EFBIG, which we
  // report and clean up after, not kill the process mid-file.
  std::signal(SIGXFSZ, SIG_IGN);
  try {
    try {
      app.parse(argc, argv);
    } catch (const CLI::Success& e) {
      return app.exit(e);  // --help, --version
    } catch (const CLI::ParseError& e) {
      fmt::print(stderr, "{}: error: {}\nRun '{} --help' for the options.\n", name, e.what(), name);
      return kExitInput;
    }
    return body();
  } catch (const Error& e) {
    fmt::print(stderr, "{}: {}: {}\n", name, e.kind() == ErrorKind::Internal ? "internal error" : "error", e.what());
    return exit_code(e.kind());
  } catch (const std::bad_alloc&) {
    fmt::print(stderr, "{}: error: out of memory\n", name);
    return kExitSystem;
  } catch (const std::exception& e) {
    fmt::print(stderr, "{}: internal error: {}\n", name, e.what());
    return kExitInternal;
  }
}

namespace {

std::string trimmed(const std::string& text) {
  const auto first = text.find_first_not_of(" \t");
  if (first == std::string::npos) return {};
  return text.substr(first, text.find_last_not_of(" \t") - first + 1);
}

}  // namespace

CLI::Validator whole_number(std::int64_t lo, std::int64_t hi) {
  return CLI::Validator(
      [lo, hi](std::string& text) -> std::string {
        std::int64_t value = 0;
        auto problem = detail::whole_number_problem(text, lo, hi, &value);
        if (problem.empty()) text = std::to_string(value);
        return problem;
      },
      fmt::format("whole number between {} and {}", lo, hi));
}

CLI::Validator unsigned_number() {
  return CLI::Validator(
      [](std::string& text) -> std::string {
        const auto value = trimmed(text);
        std::uint64_t parsed = 0;
        const auto* end = value.data() + value.size();
        const auto [at, error] = std::from_chars(value.data(), end, parsed);
        if (value.empty() || at != end || error != std::errc()) {
          return "'" + text + "' is not a whole number between 0 and 18446744073709551615";
        }
        text = std::to_string(parsed);
        return {};
      },
      "whole number in [0, 2^64-1]");
}

CLI::Validator real_number(double lo, double hi) {
  return CLI::Validator(
      [lo, hi](std::string& text) -> std::string { return detail::real_number_problem(text, lo, hi); },
      fmt::format("finite number between {} and {}", lo, hi));
}

CLI::Validator file_name() {
  return CLI::Validator([](std::string& text) -> std::string { return text.empty() ? "the file name is empty" : ""; },
                        "FILE");
}

namespace {

struct Protected {
  dev_t device;
  ino_t inode;
  std::string name;
};

std::vector<Protected>& protected_inputs() {
  static std::vector<Protected> inputs;
  return inputs;
}

/// InputError when `path` is one of the registered inputs (same file, by
/// device and inode: links and other spellings included).
void refuse_input(const std::string& path) {
  struct stat info {};
  if (::stat(path.c_str(), &info) != 0 || !S_ISREG(info.st_mode)) return;
  for (const auto& input : protected_inputs()) {
    if (input.device == info.st_dev && input.inode == info.st_ino) {
      throw InputError(path, "is the input " + input.name + "; refusing to write over it");
    }
  }
}

}  // namespace

namespace {

/// What a path will write to: the file it names now (device and inode,
/// through links), else its canonical spelling; nothing for character
/// devices (/dev/null takes any number of writers).
std::optional<std::string> output_identity(const std::string& path) {
  struct stat info {};
  if (::stat(path.c_str(), &info) == 0) {
    if (S_ISCHR(info.st_mode)) return std::nullopt;
    return std::to_string(info.st_dev) + ":" + std::to_string(info.st_ino);
  }
  std::error_code ec;
  const auto canonical = std::filesystem::weakly_canonical(std::filesystem::absolute(path, ec), ec);
  return ec ? path : canonical.string();
}

}  // namespace

void check_outputs(const std::vector<std::string>& paths) {
  std::vector<std::pair<std::string, std::string>> seen;  // identity, as given
  for (const auto& path : paths) {
    if (path.empty()) continue;
    detail::check_output_path(path);
    refuse_input(path);
    const auto identity = output_identity(path);
    if (!identity) continue;
    for (const auto& [other, given] : seen) {
      if (other == *identity) {
        throw InputError(given == path
                             ? "two outputs name the same file '" + path + "': one would be lost"
                             : "outputs '" + given + "' and '" + path + "' are the same file: one would be lost");
      }
    }
    seen.emplace_back(*identity, path);
  }
}

void protect_inputs(const std::vector<std::string>& paths) {
  for (const auto& path : paths) {
    struct stat info {};
    if (::stat(path.c_str(), &info) == 0 && S_ISREG(info.st_mode)) {
      protected_inputs().push_back({info.st_dev, info.st_ino, path});
    }
  }
}

void emit(const std::string& content, const std::string& path) {
  if (!path.empty()) refuse_input(path);
  if (!path.empty()) {
    write_file_atomically(path, content);
    return;
  }
  detail::write_standard_output(content);
}

void RoutingOptions::add_to(CLI::App& app) {
  app.add_option("--link-bw", bandwidths,
                 "Link bandwidths by kind for the congestion metrics, e.g. 'row=2,col=2' (Tianhe-3 kinds: node, "
                 "side, row, col; meshes, tori, hypercubes: dim0, dim1, ...; trees: level1, level2, ...); default 1");
  app.add_option("--link-loads", loads_file,
                 "Write each used link's load as CSV (link,name,kind,bandwidth,messages,bytes,congestion)")
      ->check(file_name());
}

void RoutingOptions::check(const Topology& topology, const RoutingModel* routing) const {
  if (routing == nullptr && !loads_file.empty()) {
    throw InputError("--link-loads: a " + topology.kind() +
                     " topology has no routing model (meshes, tori, hypercubes, complete graphs, trees, hwloc and "
                     "Tianhe-3 have one)");
  }
}

void RoutingOptions::write_loads(const RoutingModel* routing, const std::optional<RouteMetrics>& metrics) const {
  if (loads_file.empty() || routing == nullptr || !metrics) return;
  refuse_input(loads_file);
  write_file_atomically(loads_file, link_loads_csv(*routing, *metrics));
}

std::string route_metrics_text(const RouteMetrics& m) {
  return fmt::format("th {}\nwh {}\nmmc {}\nmc {:.6f}\namc {:.6f}\nac {:.6f}\nused_links {}\n", m.th, m.wh, m.mmc, m.mc,
                     m.amc, m.ac, m.used_links);
}

}  // namespace tmap::cli
