// tm-mapping: TopoMatch's `mapping` command line on tmap, flag for flag, so
// that scripts written for TopoMatch run unchanged. It prints what
// TopoMatch prints: "TopoMatch: <sigma> : <cost>" with the cost of -m in
// TopoMatch's convention, then the Packed and RR baselines on tree machines.
#include <fmt/format.h>

#include <chrono>
#include <filesystem>

#include "cli.hpp"
#include "tmap/machine.hpp"
#include "tmap/topology_views.hpp"
#include "topomatch_cost.hpp"

namespace {

using namespace tmap;
using namespace tmap::cli;

/// TopoMatch reads any -c file as a dense matrix; tmap's other formats are
/// known by their extension.
CommMatrix read_topomatch_matrix(const std::string& path) {
  auto ext = std::filesystem::path(path).extension().string();
  if (!ext.empty()) ext.erase(0, 1);
  for (const char* known : {"csv", "coo", "mtx", "grf", "graph", "prof", "phases"}) {
    if (ext == known) return read_comm(path);
  }
  return read_comm(path, CommFormat::Dense);
}

std::string line_of(const char* label, const CommMatrix& comm, const Topology& topology, const Mapping& sigma,
                    TopoMatchMetric metric) {
  return fmt::format("{} {} : {:g}\n", label, fmt::join(sigma, ","), topomatch_cost(comm, topology, sigma, metric));
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{
      "tm-mapping: TopoMatch's `mapping` command on tmap (same flags, same output: 'TopoMatch: sigma : cost', then "
      "Packed and RR on tree machines). Costs follow TopoMatch: each unordered pair once (the matrix's upper "
      "triangle), so they are half of tm-map's hop-bytes for a symmetric matrix.",
      "tm-mapping"};
  app.set_version_flag("--version", std::string("tm-mapping ") + tmap::version());
  std::string tgt;
  std::string xml;
  std::string comm_file;
  std::string binding;
  std::int64_t oversub = 1;
  int metric = 1;
  std::int64_t threads = 1;
  int verbose = 2;
  std::string log_file;
  std::optional<double> sparse;
  std::optional<std::int64_t> bucket;
  int tleaf_strategy = 0;
  bool no_optimize = false;
  bool exhaustive = false;
  bool greedy_k = false;
  bool physical = false;
  bool no_solution = false;
  std::string strategy;
  std::uint64_t seed = 0;
  auto* t = app.add_option("-t", tgt, "Architecture file: a Scotch target (tgt)");
  app.add_option("-x", xml, "Architecture file: hwloc XML")->excludes(t);
  app.add_option("-c", comm_file, "Communication pattern file (a dense matrix, or any tmap format by extension)")
      ->required();
  app.add_option("-b", binding, "Binding constraint file (allowed PE ids)");
  app.add_option("-o", oversub, "Oversubscribing factor (default 1)")->transform(whole_number(1, kMaxOversubscription));
  app.add_option("-m", metric, "Evaluation metric: 1 SUM_COM (default), 2 MAX_COM, 3 HOP_BYTE")
      ->transform(whole_number(1, 3));
  app.add_option("-p", threads, "Most threads")->transform(whole_number(1, kMaxThreads));
  app.add_option("-v", verbose, "Verbose level 0-7 (default 2); 4 and above print timings, 3 and above notes")
      ->transform(whole_number(0, 7));
  app.add_option("-f", log_file, "Write the verbose messages to this file")->check(file_name());
  app.add_option("-a", sparse, "Sparsify for Scotch: keep traffic above this fraction of the heaviest pair")
      ->transform(real_number(0.0, 1.0));
  app.add_option("-g", bucket, "Thousands of groups above which TopoMatch uses bucket grouping (no effect in tmap)")
      ->transform(whole_number(0, std::int64_t{1} << 40));
  app.add_option("-l", tleaf_strategy, "Strategy for tleaf machines: 0 TopoMatch's (tmap treematch), 1 Scotch")
      ->transform(whole_number(0, 1));
  app.add_flag("-d", no_optimize, "Disable topology optimization (no effect in tmap)");
  app.add_flag("-e", exhaustive, "Exhaustive search (treematch groups by full enumeration)");
  app.add_flag("-k", greedy_k, "Greedy k-partitioning (no effect in tmap)");
  app.add_flag("-n", physical, "Physical numbering for hwloc machines (tmap numbers PUs logically)");
  app.add_flag("-s", no_solution, "Do not print the solution");
  app.add_option("--strategy", strategy,
                 "tmap's strategy behind it (default treematch, TopoMatch's own algorithm; scotch with -l 1)");
  app.add_option("--seed", seed, "Seed of every random choice")->transform(unsigned_number());

  return run("tm-mapping", app, argc, argv, [&]() -> int {
    if (tgt.empty() && xml.empty()) throw InputError("-t or -x: an architecture file is needed");
    check_outputs({log_file});
    protect_inputs({tgt, xml, comm_file, binding});
    const auto start = std::chrono::steady_clock::now();
    std::string log;
    const auto note = [&](const std::string& text) {
      if (verbose >= 3) log += "tm-mapping: " + text + "\n";
    };
    if (no_optimize) note("-d has no effect: tmap does not rebuild the tree");
    if (greedy_k) note("-k has no effect: tmap's treematch splits groups by exact-size bisection");
    if (bucket) note("-g has no effect: tmap's treematch has no bucket grouping");
    if (physical) note("-n has no effect: tmap numbers hwloc PUs logically");
    // The job TopoMatch's words describe: -t or -x, -b and -o, the seed,
    // threads, -a and -e as options.
    JobSpec spec;
    spec.machine.topology = tgt;
    spec.machine.hwloc_xml = xml;
    spec.traffic.matrix = read_topomatch_matrix(comm_file);
    spec.allocation.oversubscription = oversub;
    if (!binding.empty()) {
      spec.allocation.kind = AllocationSource::Kind::PeFile;
      spec.allocation.pe_file = binding;
    }
    auto& options = spec.context.options;
    options.emplace_back("seed", std::to_string(seed));
    options.emplace_back("threads", std::to_string(threads));
    if (sparse) options.emplace_back("sparse-factor", fmt::format("{}", *sparse));
    if (exhaustive) options.emplace_back("tau", "10000000");
    Job job(std::move(spec));
    const auto* topology = &job.machine();
    const auto& comm = job.traffic();
    const auto& constraints = job.constraints();
    const auto& context = job.context();
    const auto io_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const std::string chosen = !strategy.empty() ? strategy : (tleaf_strategy == 1 ? "scotch+" : "treematch");
    const auto map_start = std::chrono::steady_clock::now();
    const auto sigma = map_with(chosen, Problem{comm, *topology, constraints}, context);
    const auto map_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - map_start).count();
    const auto total = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (verbose >= 4) {
      log += fmt::format("I/O:            {:10.4f} ms\nMapping:        {:10.4f} ms\nTotal duration: {:10.4f} ms\n",
                         io_seconds * 1000, map_seconds * 1000, total * 1000);
    }
    const auto m = static_cast<TopoMatchMetric>(metric);
    std::vector<std::int64_t> path;
    if (m == TopoMatchMetric::HopByte && !tree_path(*topology, 0, path)) {
      note("-m 3 on a machine that is not a tree prints SUM_COM, as TopoMatch does on Scotch targets");
    }
    std::string out;
    if (!no_solution) {
      out += line_of("TopoMatch:", comm, *topology, sigma, m);
      if (tree_path(*topology, 0, path)) {
        // TopoMatch's baselines: the allowed PEs in order, K ranks each
        // (Packed), and dealt one by one (RR).
        const auto allowed = constraints.allowed_pes();
        const auto n = static_cast<std::size_t>(comm.num_ranks());
        Mapping packed(n);
        Mapping rr(n);
        for (std::size_t i = 0; i < n; ++i) {
          packed[i] = allowed[i / static_cast<std::size_t>(oversub)];
          rr[i] = allowed[i % allowed.size()];
        }
        out += line_of("Packed:", comm, *topology, packed, m);
        out += line_of("RR:", comm, *topology, rr, m);
      }
    }
    if (log_file.empty()) {
      emit(log + out, "");
    } else {
      emit(log, log_file);
      emit(out, "");
    }
    return kExitOk;
  });
}
