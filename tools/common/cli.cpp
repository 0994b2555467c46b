#include "cli.hpp"

#include <fmt/core.h>

#include <cstdio>
#include <iostream>

namespace tmap::cli {

int run(const char* name, CLI::App& app, int argc, char** argv, const std::function<int()>& body) {
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
  } catch (const InputError& e) {
    fmt::print(stderr, "{}: error: {}\n", name, e.what());
    return kExitInput;
  } catch (const std::bad_alloc&) {
    fmt::print(stderr, "{}: error: out of memory\n", name);
    return kExitInternal;
  } catch (const std::exception& e) {
    fmt::print(stderr, "{}: internal error: {}\n", name, e.what());
    return kExitInternal;
  }
}

void emit(const std::string& content, const std::string& path) {
  if (!path.empty()) {
    write_file_atomically(path, content);
    return;
  }
  std::fwrite(content.data(), 1, content.size(), stdout);
  std::fflush(stdout);
}

void InputOptions::add_to(CLI::App& app) {
  auto* t = app.add_option("-t,--topology", topology,
                           "Machine: a Scotch .tgt file, an inline Scotch target ('mesh2D 8 8', "
                           "'tleaf 3 4 100 4 10 4 1'), a built-in spec (tianhe3:RxC[,nodes=N][,cores=K]), a "
                           ".dist distance matrix or an hwloc .xml file");
  app.add_option("-x,--hwloc-xml", hwloc_xml, "Machine: an hwloc XML file (as TopoMatch's -x)")->excludes(t);
  app.add_option("-c,--comm", comm,
                 "Communication matrix (.mat, .csv, .coo, .mtx, .grf, .graph; A[i][j] = bytes i sends to j)");
  app.add_option("--comm-format", comm_format, "Format of -c when the extension does not tell")
      ->check(CLI::IsMember({"mat", "csv", "coo", "mtx", "grf", "graph"}));
  auto* b = app.add_option("-b,--constraints", constraints_file,
                           "File of allowed PE ids (white space separated, # comments), as TopoMatch -b");
  app.add_option("--alloc", alloc, "Allowed nodes as id ranges (0-95,192-287); all PEs of those nodes")
      ->excludes(b);
  app.add_option("-o,--oversub", oversub, "Ranks each allowed PE may hold")->check(CLI::PositiveNumber);
}

std::unique_ptr<Topology> InputOptions::load_topology() const {
  if (!hwloc_xml.empty()) return tmap::load_hwloc_xml(hwloc_xml);
  return tmap::load_topology(topology);
}

CommMatrix InputOptions::load_comm() const {
  if (comm_format.empty()) return read_comm(comm);
  return read_comm(comm, comm_format_from_name(comm_format));
}

Constraints InputOptions::load_constraints(const Topology& t) const {
  if (!constraints_file.empty()) {
    return Constraints::allowed(t, read_pe_list(constraints_file, t.size()), oversub);
  }
  if (!alloc.empty()) {
    const auto nodes = parse_node_ranges(alloc);
    try {
      return Constraints::on_nodes(t, nodes, oversub);
    } catch (const InputError& e) {
      throw InputError("--alloc: " + e.problem());
    }
  }
  return Constraints::all(t, oversub);
}

}  // namespace tmap::cli
