// The input options the tools share (-c and its monitoring options, -t and
// the machine's, the allocation and constraints), and the check of a
// mapping file against them: how each flag becomes a matrix, a machine or
// the PEs ranks may use, its errors named by the flag.
#include <fmt/core.h>
#include <fmt/ranges.h>

#include <filesystem>
#include <optional>

#include "cli.hpp"
#include "tmap/host_layout.hpp"
#include "tmap/machine.hpp"
#include "util/file.hpp"
#include "util/text.hpp"

namespace tmap::cli {

void CommInput::add_to(CLI::App& app, const std::string& names) {
  app.add_option(
      names, path,
      "Communication matrix (.mat, .csv, .coo, .mtx, .grf, .graph, .phases; A[i][j] = bytes i sends to j), or Open "
      "MPI monitoring output: the PREFIX given to pml_monitoring_filename, one PREFIX.<rank>.prof file "
      "or their folder");
  app.add_option("--comm-format", format, "Format of -c when the extension does not tell (prof: Open MPI monitoring)")
      ->check(CLI::IsMember(comm_format_names()));
  app.add_option("--monitoring-kinds", monitoring.kinds,
                 "Open MPI monitoring lines that count: E (application point-to-point), I (collectives' "
                 "point-to-point), S/R (one-sided put/get), C (collective totals, the same traffic as I); default E,I "
                 "(E,C for a TMAP_RECORD recording)")
      ->transform(CLI::Validator(
          [](std::string& value) {
            std::string letters;
            for (const char c : value) {
              if (c == ',' || c == ' ') continue;
              if (std::string_view("EISRC").find(c) == std::string_view::npos || letters.find(c) != std::string::npos) {
                return std::string("'") + c + "' is not one of E, I, S, R, C (each once)";
              }
              letters += c;
            }
            if (letters.empty()) return std::string("give at least one of E, I, S, R, C");
            value = letters;
            return std::string();
          },
          "letters of E, I, S, R, C"));
  app.add_option("--weights", weights,
                 "The ranks' weights (their work, which --imbalance balances): one number per rank in rank order; "
                 "replaces a graph's vertex loads");
  app.add_option("--monitoring-count", monitoring_count, "Open MPI monitoring: count bytes (default) or messages")
      ->check(CLI::IsMember({"bytes", "messages"}));
}

bool CommInput::is_monitoring() const {
  std::error_code ec;
  if (!format.empty()) return format == "prof";
  return is_ompi_monitoring(path) || std::filesystem::is_directory(path, ec);
}

TrafficSource CommInput::source() const {
  TrafficSource source;
  source.path = path;
  source.format = format;
  source.monitoring = monitoring;
  source.monitoring.messages = monitoring_count == "messages";
  source.weights = weights;
  return source;
}

CommMatrix CommInput::load() const {
  return read_traffic(source());
}

std::vector<std::string> CommInput::files() const {
  if (path.empty()) return {};
  if (!weights.empty()) {
    auto list = CommInput{path, format, monitoring, monitoring_count, {}}.files();
    list.push_back(weights);
    return list;
  }
  // Monitoring output is many files: each is an input.
  if ((format.empty() || format == "prof") && is_ompi_monitoring(path)) return ompi_monitoring_files(path);
  return {path};
}

void InputOptions::add_to(CLI::App& app) {
  auto* t = app.add_option("-t,--topology", topology,
                           "Machine: a Scotch .tgt file, an inline Scotch target ('mesh2D 8 8', "
                           "'tleaf 3 4 100 4 10 4 1'), a built-in spec (tianhe3:RxC[,nodes=N][,cores=K]), a "
                           "network of nodes with --node (fattree:L;d1,..;u1,..;p1,.., dragonfly:G,gl;C,cl;R,rl;N, "
                           "torus:X,Y[,Z]), a Slurm topology.conf, a .dist distance matrix or an hwloc .xml file "
                           "(tm-topo MACHINE --describe says what tmap reads)");
  app.add_option("-x,--hwloc-xml", hwloc_xml, "Machine: an hwloc XML file (as TopoMatch's -x)")->excludes(t);
  comm.add_to(app, "-c,--comm");
  auto* b = app.add_option("-b,--constraints", constraints_file,
                           "File of allowed PE ids (white space separated, # comments), as TopoMatch -b");
  auto* a = app.add_option("--alloc", alloc,
                           "Allowed nodes: a Slurm host list (cn[0012-0040,0100],gpu[1-3]) or id ranges "
                           "(0-95,192-287); all PEs of those nodes")
                ->excludes(b);
  app.add_flag("--alloc-from-env", alloc_from_env, "Allowed nodes from SLURM_JOB_NODELIST (or PBS_NODEFILE)")
      ->excludes(b)
      ->excludes(a);
  app.add_option("--host-pattern", host_pattern,
                 "Regular expression matching a whole host name, its first group the node id (default: the "
                 "host name's trailing number, cn0012 -> 12)");
  // An empty value is a mistake (a variable left unset), never "no names".
  const auto not_empty = [](const std::string& value) {
    return value.find_first_not_of(" \t\n") == std::string::npos ? std::string("is empty") : std::string();
  };
  auto* hosts_option =
      app.add_option("--hosts", hosts_file,
                     "Host names in the machine's node order, one per line (line k names node k): used in launcher "
                     "files and to read --alloc host lists whose names carry no node number")
          ->check(not_empty);
  app.add_option("--node", node_args,
                 "What each node of a network (-t fattree:...) holds: an hwloc synthetic description "
                 "('package:2 core:8'), an lstopo XML file of one node, 'this' (this machine), or a GPU node "
                 "(nvidia-smi topo -m or rocm-smi --showtopo output in a file, 'gpu:4 link:all'); default one PE "
                 "per node. Again as HOSTS=SPEC for nodes of another kind ('gpu[01-04]=package:1 core:16')")
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  app.add_option("--host-names", host_name_list,
                 "The nodes of a network (-t fattree:...) by name, in node order, as a Slurm host list "
                 "('cn[01-16]'); launcher files and --alloc use them")
      ->check(not_empty)
      ->excludes(hosts_option);
  app.add_option("--pes-per-node", pes_per_node,
                 "PEs of one host where the machine does not say (a tleaf: the PEs below one of its levels; "
                 "default the last level's)")
      ->transform(whole_number(1, std::int64_t{1} << 40));
  app.add_option("--pe", pe,
                 "What a PE is: cpu (the nodes' hardware threads, the default) or gpu (their GPUs, one rank each: "
                 "nodes from nvidia-smi topo -m or rocm-smi --showtopo output, an hwloc XML listing GPUs, or "
                 "'gpu:N ...')")
      ->check(CLI::IsMember({"cpu", "gpu"}));
  app.add_option("-o,--oversub", oversub, "Ranks each allowed PE may hold")
      ->transform(whole_number(1, kMaxOversubscription));
  app.add_option("--imbalance", imbalance,
                 "Many ranks per PE balanced by load: each PE holds ranks weighing at most (1 + EPS) x the average "
                 "(weights from a graph's vertex loads, else 1 a rank; Scotch's -b, KaHIP's epsilon); -o K then "
                 "caps the count too")
      ->check(CLI::Range(0.0, 1e6));
  app.add_option("--cpus-per-rank", cpus_per_rank,
                 "CPUs each rank takes on its node, for MPI+OpenMP jobs (default: SLURM_CPUS_PER_TASK with "
                 "--alloc-from-env, else 1); launcher files name each rank's CPUs")
      ->transform(whole_number(1, 1 << 20));
  app.add_option("--het-group", het_group,
                 "With --alloc-from-env in a heterogeneous Slurm job: map onto this group only (default: all groups)")
      ->needs("--alloc-from-env")
      ->transform(whole_number(0, 1 << 20));
}

std::string InputOptions::default_node() const {
  return parse_node_args(node_args, "--node").node;
}

std::vector<std::pair<std::string, std::string>> InputOptions::nodes_by_hosts() const {
  return parse_node_args(node_args, "--node").by_hosts;
}

JobSpec InputOptions::job_spec() const {
  JobSpec spec;
  auto& m = spec.machine;
  m.topology = topology;
  m.hwloc_xml = hwloc_xml;
  m.nodes = node_args;
  m.host_names = host_name_list;
  m.hosts_file = hosts_file;
  m.host_pattern = host_pattern;
  m.pes_per_node = pes_per_node;
  m.pe = pe;
  spec.traffic = comm.source();
  auto& a = spec.allocation;
  using Kind = AllocationSource::Kind;
  if (!constraints_file.empty()) {
    a.kind = Kind::PeFile;
    a.pe_file = constraints_file;
  } else if (alloc) {
    a.kind = Kind::Hosts;
    a.hosts = *alloc;
  } else if (alloc_from_env) {
    a.kind = Kind::Scheduler;
  }
  a.oversubscription = oversub;
  a.imbalance = imbalance;
  a.cpus_per_rank = cpus_per_rank;
  a.het_group = het_group;
  return spec;
}

std::vector<std::string> InputOptions::files() const {
  std::vector<std::string> list{topology, hwloc_xml, constraints_file, hosts_file};
  std::error_code ec;
  const auto nodes = parse_node_args(node_args, "--node");
  for (const auto& node : {nodes.node}) {
    if (std::filesystem::exists(node, ec)) list.push_back(node);  // an lstopo XML
  }
  for (const auto& [hosts, node] : nodes.by_hosts) {
    if (std::filesystem::exists(node, ec)) list.push_back(node);
  }
  for (auto& file : comm.files()) list.push_back(std::move(file));
  std::erase_if(list, [](const std::string& f) { return f.empty(); });
  return list;
}

void check_mapping_file(const Mapping& mapping, const std::string& file, Rank ranks, const std::string& matrix,
                        const Topology& topology, const Constraints* constraints) {
  if (static_cast<Rank>(mapping.size()) != ranks) {
    throw InputError(
        file, "maps " + std::to_string(mapping.size()) + " ranks but " + matrix + " has " + std::to_string(ranks));
  }
  for (std::size_t r = 0; r < mapping.size(); ++r) {
    if (mapping[r] >= topology.size()) {
      throw InputError(file, "rank " + std::to_string(r) + " is on PE " + std::to_string(mapping[r]) +
                                 ", outside the topology (PEs 0.." + std::to_string(topology.size() - 1) + ")");
    }
  }
  if (constraints == nullptr) return;
  try {
    validate_mapping(mapping, ranks, *constraints);
  } catch (const InternalError& e) {
    throw InputError(file, std::string("breaks the constraints: ") + e.what());
  }
}

}  // namespace tmap::cli
