// What the tm-* tools share: error handling with the contract's exit codes,
// output written whole to stdout or a file, and the common input options.
#pragma once

#include <CLI/CLI.hpp>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "tmap/tmap.hpp"

namespace tmap::cli {

inline constexpr int kExitOk = 0;
inline constexpr int kExitInternal = 1;
inline constexpr int kExitInput = 2;

/// Runs a tool body: parses with CLI11 and maps every error to a message on
/// stderr ("NAME: error: ...") and the contract's exit code.
int run(const char* name, CLI::App& app, int argc, char** argv, const std::function<int()>& body);

/// Writes to stdout, or to `path` atomically when it is not empty.
void emit(const std::string& content, const std::string& path);

/// Options naming the inputs shared by tm-map and tm-eval.
struct InputOptions {
  std::string topology;
  std::string hwloc_xml;
  std::string comm;
  std::string comm_format;
  std::string constraints_file;
  std::string alloc;
  std::int64_t oversub = 1;

  void add_to(CLI::App& app);
  [[nodiscard]] std::unique_ptr<Topology> load_topology() const;
  [[nodiscard]] CommMatrix load_comm() const;
  /// All PEs, a -b file or an --alloc node list, with -o K slots per PE.
  [[nodiscard]] Constraints load_constraints(const Topology& topology) const;
  /// Was a topology given (-t or -x)?
  [[nodiscard]] bool has_topology() const { return !topology.empty() || !hwloc_xml.empty(); }
  [[nodiscard]] bool has_constraints() const { return !constraints_file.empty() || !alloc.empty(); }
};

}  // namespace tmap::cli
