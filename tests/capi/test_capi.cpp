// The C API: status codes and owned messages, copies of inputs, results
// equal to the C++ API's.
#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <set>
#include <thread>
#include <vector>

#include "tmap/generators.hpp"
#include "tmap/tmap.h"
#include "tmap/tmap.hpp"

namespace {

/// The C API's copy of a C++ matrix, through tmap_comm_from_csr.
tmap_comm* c_comm(const tmap::CommMatrix& cpp) {
  const std::vector<int64_t> begin(cpp.row_begin().begin(), cpp.row_begin().end());
  const std::vector<int64_t> cols(cpp.columns().begin(), cpp.columns().end());
  const std::vector<int64_t> vols(cpp.all_volumes().begin(), cpp.all_volumes().end());
  tmap_comm* comm = nullptr;
  char* error = nullptr;
  EXPECT_EQ(tmap_comm_from_csr(cpp.num_ranks(), begin.data(), cols.data(), vols.data(), &comm, &error), TMAP_OK);
  return comm;
}

}  // namespace

TEST(CApi, MapsLikeTheCppApi) {
  tmap_topology* topology = nullptr;
  tmap_comm* comm = nullptr;
  tmap_result* result = nullptr;
  char* error = nullptr;
  ASSERT_EQ(tmap_topology_load("tianhe3:1x2,nodes=4,cores=4", &topology, &error), TMAP_OK);
  EXPECT_EQ(error, nullptr);
  EXPECT_EQ(tmap_topology_size(topology), 32);
  EXPECT_EQ(tmap_topology_distance(topology, 0, 31), 4);
  const auto cpp = tmap::gen::random_sparse(30, 3, 100, 1);
  std::vector<int64_t> begin(cpp.row_begin().begin(), cpp.row_begin().end());
  std::vector<int64_t> cols(cpp.columns().begin(), cpp.columns().end());
  std::vector<int64_t> vols(cpp.all_volumes().begin(), cpp.all_volumes().end());
  ASSERT_EQ(tmap_comm_from_csr(30, begin.data(), cols.data(), vols.data(), &comm, &error), TMAP_OK);
  begin.assign(begin.size(), 0);  // inputs were copied
  tmap_options* options = tmap_options_create();
  tmap_options_set_seed(options, 3);
  tmap_options_set_threads(options, 2);
  ASSERT_EQ(tmap_map(topology, comm, nullptr, "ohtma", options, &result, &error), TMAP_OK);
  const auto topology_cpp = tmap::load_topology("tianhe3:1x2,nodes=4,cores=4");
  const auto constraints = tmap::Constraints::all(*topology_cpp);
  tmap::Context context;
  context.seed = 3;
  const auto expected = tmap::map_with("ohtma", tmap::Problem{cpp, *topology_cpp, constraints}, context);
  ASSERT_EQ(tmap_result_ranks(result), 30);
  EXPECT_EQ(std::vector<int64_t>(tmap_result_mapping(result), tmap_result_mapping(result) + 30), expected);
  EXPECT_EQ(tmap_result_hop_bytes(result), tmap::evaluate(cpp, *topology_cpp, expected).hop_bytes);
  EXPECT_GE(tmap_result_time(result), 0.0);
  tmap_result_free(result);
  // With tabu refinement: the C++ API's mapping again, and no worse.
  ASSERT_EQ(tmap_options_set_refine(options, "tabu", 500, &error), TMAP_OK);
  ASSERT_EQ(tmap_map(topology, comm, nullptr, "ohtma", options, &result, &error), TMAP_OK);
  context.refine.kind = tmap::RefineKind::Tabu;
  context.refine.iterations = 500;
  const auto refined = tmap::map_with("ohtma", tmap::Problem{cpp, *topology_cpp, constraints}, context);
  EXPECT_EQ(std::vector<int64_t>(tmap_result_mapping(result), tmap_result_mapping(result) + 30), refined);
  EXPECT_LE(tmap_result_hop_bytes(result), tmap::evaluate(cpp, *topology_cpp, expected).hop_bytes);
  EXPECT_EQ(tmap_options_set_refine(options, "anneal", -1, &error), TMAP_ERROR_PARAMETER);
  ASSERT_NE(error, nullptr);
  EXPECT_NE(std::string(error).find("unknown refinement 'anneal'"), std::string::npos);
  tmap_string_free(error);
  tmap_result_free(result);
  tmap_options_free(options);
  tmap_comm_free(comm);
  tmap_topology_free(topology);
}

TEST(CApi, ErrorsAreStatusesWithOwnedMessages) {
  tmap_topology* topology = nullptr;
  char* error = nullptr;
  EXPECT_EQ(tmap_topology_load("mesh2D 8", &topology, &error), TMAP_ERROR_INPUT);
  ASSERT_NE(error, nullptr);
  EXPECT_NE(std::string(error).find("unexpected end of input"), std::string::npos);
  tmap_string_free(error);
  EXPECT_EQ(tmap_topology_load(nullptr, &topology, &error), TMAP_ERROR_ARGUMENT);
  tmap_string_free(error);
  ASSERT_EQ(tmap_topology_load("cmplt 4", &topology, nullptr), TMAP_OK);
  tmap_comm* comm = nullptr;
  const int64_t dense[9] = {0, 1, 2, 1, 0, -3, 2, 1, 0};
  EXPECT_EQ(tmap_comm_from_dense(3, dense, &comm, &error), TMAP_ERROR_INPUT);
  EXPECT_NE(std::string(error).find("negative volume"), std::string::npos);
  tmap_string_free(error);
  const double nan_matrix[4] = {0, 0.0 / 0.0, 1, 0};
  EXPECT_EQ(tmap_comm_from_dense_double(2, nan_matrix, &comm, &error), TMAP_ERROR_INPUT);
  tmap_string_free(error);
  // Too many ranks for the slots: an input error from tmap_map.
  const int64_t five[25] = {};
  ASSERT_EQ(tmap_comm_from_dense(5, five, &comm, nullptr), TMAP_OK);
  tmap_result* result = nullptr;
  EXPECT_EQ(tmap_map(topology, comm, nullptr, "scotch", nullptr, &result, &error), TMAP_ERROR_INPUT);
  EXPECT_NE(std::string(error).find("5 ranks do not fit"), std::string::npos);
  tmap_string_free(error);
  EXPECT_EQ(tmap_map(topology, comm, nullptr, "nope", nullptr, &result, &error), TMAP_ERROR_PARAMETER);
  tmap_string_free(error);
  tmap_comm_free(comm);
  tmap_topology_free(topology);
  tmap_topology_free(nullptr);  // NULL is fine everywhere
}

TEST(CApi, TopoMatchStyleCallWithConstraintsAndDoubles) {
  // Two pairs that talk (affinities 0.5), the rest 0.01, onto tleaf 2 2 10 2 1
  // restricted to PEs {0, 1, 2, 3} of the 4 leaves... each pair on a node.
  const double affinity[16] = {0, 0.5, 0.01, 0.01, 0.5, 0, 0.01, 0.01, 0.01, 0.01, 0, 0.5, 0.01, 0.01, 0.5, 0};
  const int64_t allowed[4] = {3, 2, 1, 0};
  int64_t sigma[4] = {-1, -1, -1, -1};
  char* error = nullptr;
  ASSERT_EQ(tmap_topomatch("tleaf 2 2 10 2 1", affinity, 4, allowed, 4, 1, "treematch", sigma, &error), TMAP_OK);
  EXPECT_EQ(sigma[0] / 2, sigma[1] / 2);
  EXPECT_EQ(sigma[2] / 2, sigma[3] / 2);
  EXPECT_NE(sigma[0] / 2, sigma[2] / 2);
  EXPECT_GT(tmap_strategy_count(), 5);
  EXPECT_STREQ(tmap_strategy_name(0), "inorder");
  EXPECT_EQ(tmap_strategy_name(99), nullptr);
}

// Issue 16: sizes above the documented limits are refused before any array
// is read (the arrays here are far too small for n), and counts are checked.
TEST(CApi, SizesAboveTheLimitsAreArgumentErrors) {
  const int64_t tiny[4] = {0, 1, 1, 0};
  tmap_comm* comm = nullptr;
  char* error = nullptr;
  EXPECT_EQ(tmap_comm_from_dense(TMAP_MAX_DENSE_RANKS + 1, tiny, &comm, &error), TMAP_ERROR_ARGUMENT);
  ASSERT_NE(error, nullptr);
  EXPECT_NE(std::string(error).find("out of range"), std::string::npos) << error;
  tmap_string_free(error);
  const double tiny_double[4] = {0, 1, 1, 0};
  EXPECT_EQ(tmap_comm_from_dense_double(int64_t{1} << 40, tiny_double, &comm, nullptr), TMAP_ERROR_ARGUMENT);
  const int64_t begin[2] = {0, 0};
  EXPECT_EQ(tmap_comm_from_csr(TMAP_MAX_RANKS + 1, begin, nullptr, nullptr, &comm, nullptr), TMAP_ERROR_ARGUMENT);
  EXPECT_EQ(comm, nullptr);
  tmap_topology* topology = nullptr;
  ASSERT_EQ(tmap_topology_load("cmplt 4", &topology, nullptr), TMAP_OK);
  tmap_constraints* constraints = nullptr;
  EXPECT_EQ(tmap_constraints_create(topology, tiny, -1, 1, &constraints, nullptr), TMAP_ERROR_ARGUMENT);
  EXPECT_EQ(constraints, nullptr);
  tmap_topology_free(topology);
}

// Issue 16: concurrent tmap_map calls (shared or separate handles) give the
// single-threaded mapping every time, for libscotch too.
TEST(CApi, ConcurrentCallsAreDeterministic) {
  const auto cpp = tmap::gen::random_sparse(96, 4, 1000, 7);
  std::vector<int64_t> begin(cpp.row_begin().begin(), cpp.row_begin().end());
  std::vector<int64_t> cols(cpp.columns().begin(), cpp.columns().end());
  std::vector<int64_t> vols(cpp.all_volumes().begin(), cpp.all_volumes().end());
  auto mapping_of = [&](tmap_topology* topology, tmap_comm* comm, const char* strategy) {
    tmap_result* result = nullptr;
    char* error = nullptr;
    std::vector<int64_t> sigma;
    if (tmap_map(topology, comm, nullptr, strategy, nullptr, &result, &error) == TMAP_OK) {
      sigma.assign(tmap_result_mapping(result), tmap_result_mapping(result) + tmap_result_ranks(result));
    }
    tmap_string_free(error);
    tmap_result_free(result);
    return sigma;
  };
  tmap_topology* shared_topology = nullptr;
  tmap_comm* shared_comm = nullptr;
  ASSERT_EQ(tmap_topology_load("tianhe3:2x2,nodes=8,cores=4", &shared_topology, nullptr), TMAP_OK);
  ASSERT_EQ(tmap_comm_from_csr(96, begin.data(), cols.data(), vols.data(), &shared_comm, nullptr), TMAP_OK);
  for (const char* strategy : {"scotch", "treematch", "ohtma"}) {
    const auto reference = mapping_of(shared_topology, shared_comm, strategy);
    ASSERT_EQ(reference.size(), 96u) << strategy;
    std::atomic<int> differ{0};
    auto worker = [&](bool own_handles) {
      tmap_topology* topology = shared_topology;
      tmap_comm* comm = shared_comm;
      if (own_handles) {
        tmap_topology_load("tianhe3:2x2,nodes=8,cores=4", &topology, nullptr);
        tmap_comm_from_csr(96, begin.data(), cols.data(), vols.data(), &comm, nullptr);
      }
      for (int k = 0; k < 40; ++k) differ += mapping_of(topology, comm, strategy) != reference ? 1 : 0;
      if (own_handles) {
        tmap_comm_free(comm);
        tmap_topology_free(topology);
      }
    };
    std::vector<std::thread> threads;
    for (int t = 0; t < 4; ++t) threads.emplace_back(worker, t % 2 == 1);
    for (auto& t : threads) t.join();
    EXPECT_EQ(differ.load(), 0) << strategy << ": mappings that differ from the single-threaded one";
  }
  tmap_comm_free(shared_comm);
  tmap_topology_free(shared_topology);
}

// Issue 19: one generic setter for every strategy option, the rows' keys.
TEST(CApi, GenericOptionSetterUsesTheStrategyRows) {
  tmap_options* options = tmap_options_create();
  ASSERT_NE(options, nullptr);
  char* error = nullptr;
  // A key set through the C API reaches the strategy: the mapping is the
  // C++ API's with the same typed field set, and differs from the default's
  // (ohtma with no pair exchange, plain scotch with gmap's -cq at 5 %).
  tmap_topology* topology = nullptr;
  tmap_comm* comm = nullptr;
  ASSERT_EQ(tmap_topology_load("tianhe3:1x2,nodes=8,cores=2", &topology, &error), TMAP_OK);
  const auto cpp = tmap::gen::shuffle_ranks(tmap::gen::stencil({8, 4}, 5, 100), 4);
  comm = c_comm(cpp);
  ASSERT_NE(comm, nullptr);
  const auto machine = tmap::load_topology("tianhe3:1x2,nodes=8,cores=2");
  const auto all = tmap::Constraints::all(*machine);
  const tmap::Problem problem{cpp, *machine, all};
  const auto c_mapping = [&](const char* strategy) {
    tmap_result* result = nullptr;
    EXPECT_EQ(tmap_map(topology, comm, nullptr, strategy, options, &result, &error), TMAP_OK);
    std::vector<int64_t> m(tmap_result_mapping(result), tmap_result_mapping(result) + 32);
    tmap_result_free(result);
    return m;
  };
  ASSERT_EQ(tmap_options_set(options, "ohtma-loop", "0", &error), TMAP_OK);
  tmap::Context typed;
  typed.ohtma.loop = 0;
  EXPECT_EQ(c_mapping("ohtma"), tmap::map_with("ohtma", problem, typed));
  EXPECT_NE(c_mapping("ohtma"), tmap::map_with("ohtma", problem, tmap::Context{}));
  ASSERT_EQ(tmap_options_set(options, "scotch-flags", "q", &error), TMAP_OK);
  ASSERT_EQ(tmap_options_set(options, "scotch-imbalance", "0.05", &error), TMAP_OK);
  typed.scotch.flags = "q";
  typed.scotch.imbalance = 0.05;
  EXPECT_EQ(c_mapping("scotch"), tmap::map_with("scotch", problem, typed));
  // The objective by key: the mapping is the C++ API's under it.
  ASSERT_EQ(tmap_options_set(options, "objective", "congestion", &error), TMAP_OK);
  typed.objective = tmap::Objective::Congestion;
  EXPECT_EQ(c_mapping("greedy"), tmap::map_with("greedy", problem, typed));
  EXPECT_NE(c_mapping("greedy"), tmap::map_with("greedy", problem, tmap::Context{}));
  // The deprecated setter is the generic one's row: a negative loop is the default.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
  tmap_options_set_ohtma_loop(options, -1);
  typed.ohtma.loop = -1;
  EXPECT_EQ(c_mapping("ohtma"), tmap::map_with("ohtma", problem, typed));
  tmap_options_set_ohtma_loop(options, 0);
#pragma GCC diagnostic pop
  typed.ohtma.loop = 0;
  EXPECT_EQ(c_mapping("ohtma"), tmap::map_with("ohtma", problem, typed));
  tmap_comm_free(comm);
  tmap_topology_free(topology);
  EXPECT_EQ(tmap_options_set(options, "ohtma-loop", "x", &error), TMAP_ERROR_PARAMETER);
  ASSERT_NE(error, nullptr);
  EXPECT_NE(std::string(error).find("ohtma-loop: 'x' is not a whole number"), std::string::npos) << error;
  tmap_string_free(error);
  EXPECT_EQ(tmap_options_set(options, "no-such", "1", &error), TMAP_ERROR_PARAMETER);
  ASSERT_NE(error, nullptr);
  EXPECT_NE(std::string(error).find(
                "unknown option 'no-such' (known: strategy, seed, threads, refine, refine-iters, time-limit, "
                "objective, link-bw, "
                "scotch-imbalance, scotch-flags, scotch-strategy, sparse-factor, scotch-target, tau, "
                "treematch-bisection, treematch-grouping, ohtma-loop"),
            std::string::npos)
      << error;
  tmap_string_free(error);
  EXPECT_EQ(tmap_options_set(options, nullptr, "1", nullptr), TMAP_ERROR_ARGUMENT);
  tmap_options_free(options);
  // Keys are unique across the run's options and the table, and every
  // option but the free-text link-bw refuses garbage (grid2d-bw as a file
  // that is not there, the others as a bad value).
  std::set<std::string_view> keys;
  for (const auto* option : tmap::context_options()) {
    EXPECT_TRUE(keys.insert(option->key).second) << option->key;
    if (option->key == "link-bw") continue;  // checked against the machine's link kinds when used
    tmap::Context c;
    try {
      option->apply(c, "nan?");
      ADD_FAILURE() << option->key << " accepted 'nan?'";
    } catch (const tmap::ParameterError& e) {
      EXPECT_TRUE(std::string_view(e.what()).starts_with(option->key)) << e.what();
    } catch (const tmap::InputError& e) {
      EXPECT_EQ(option->key, "grid2d-bw") << e.what();
    }
  }
  // The options of the first strategies stay (a new strategy adds its own).
  for (const std::string_view key :
       {"sparse-factor", "tau", "ohtma-loop", "ohtma-passes", "grid2d-bw", "grid2d-domain"}) {
    EXPECT_EQ(keys.count(key), 1u) << key;
  }
}

// The headers' version macros and the library's version agree.
TEST(CApi, VersionMacrosMatchTheLibrary) {
  EXPECT_STREQ(tmap_version(), TMAP_VERSION_STRING);
  EXPECT_EQ(std::string(TMAP_VERSION_STRING), std::to_string(TMAP_VERSION_MAJOR) + "." +
                                                  std::to_string(TMAP_VERSION_MINOR) + "." +
                                                  std::to_string(TMAP_VERSION_PATCH));
}

namespace {

/// The launcher file of `result` in `format`, or the error message.
std::string launch_file(const tmap_topology* topology, const tmap_result* result, const tmap_constraints* allowed,
                        const char* format, tmap_status expected = TMAP_OK) {
  char* text = nullptr;
  char* error = nullptr;
  const auto status = tmap_launch_file(topology, result, allowed, format, "./app -v", &text, &error);
  EXPECT_EQ(status, expected) << (error != nullptr ? error : "");
  std::string out = text != nullptr ? text : (error != nullptr ? error : "");
  tmap_string_free(text);
  tmap_string_free(error);
  return out;
}

/// n ranks in a ring, 100 bytes to each neighbour, row-major.
std::vector<int64_t> dense_ring(int64_t n) {
  std::vector<int64_t> m(static_cast<std::size_t>(n * n), 0);
  for (int64_t r = 0; r < n; ++r) {
    const auto next = (r + 1) % n;
    if (next != r) m[static_cast<std::size_t>(r * n + next)] = m[static_cast<std::size_t>(next * n + r)] = 100;
  }
  return m;
}

}  // namespace

TEST(CApi, LaunchFilesOnAnAllocationNameItsHostsAsSpelled) {
  // Tianhe-3 with 8 nodes (cn0..cn7) of 2 cores; the job holds cn02, cn03
  // and cn06, spelled with zeros as a scheduler might.
  tmap_topology* topology = nullptr;
  tmap_comm* comm = nullptr;
  tmap_constraints* allowed = nullptr;
  tmap_result* result = nullptr;
  char* error = nullptr;
  ASSERT_EQ(tmap_topology_load("tianhe3:1x2,nodes=4,cores=2", &topology, &error), TMAP_OK);
  ASSERT_EQ(tmap_comm_from_dense(6, dense_ring(6).data(), &comm, &error), TMAP_OK);
  ASSERT_EQ(tmap_constraints_from_allocation(topology, "cn[02-03],cn06", 1, &allowed, &error), TMAP_OK) << error;
  ASSERT_EQ(tmap_map(topology, comm, allowed, nullptr, nullptr, &result, &error), TMAP_OK) << error;
  const std::vector<int64_t> mapping(tmap_result_mapping(result), tmap_result_mapping(result) + 6);
  const auto host = [](int64_t pe) {
    const int64_t node = pe / 2;  // 2 cores a node
    return node == 2 ? "cn02" : node == 3 ? "cn03" : node == 6 ? "cn06" : "outside";
  };
  std::string rankfile;
  std::string hostfile;
  for (std::size_t r = 0; r < mapping.size(); ++r) {
    rankfile += "rank " + std::to_string(r) + "=" + host(mapping[r]) + " slot=" + std::to_string(mapping[r] % 2) + "\n";
    hostfile += std::string(host(mapping[r])) + "\n";
  }
  EXPECT_EQ(launch_file(topology, result, allowed, "rankfile"), rankfile);
  EXPECT_EQ(launch_file(topology, result, allowed, "hostfile"), hostfile);
  EXPECT_EQ(rankfile.find("outside"), std::string::npos);
  const auto hydra = launch_file(topology, result, allowed, "hydra");
  EXPECT_NE(hydra.find(" ./app -v\n"), std::string::npos) << hydra;
  // Without the allocation: the machine's own names.
  EXPECT_NE(launch_file(topology, result, nullptr, "hostfile").find("cn2\n"), std::string::npos);
  EXPECT_NE(launch_file(topology, result, allowed, "perm", TMAP_ERROR_PARAMETER).find("not a launcher's"),
            std::string::npos);
  tmap_result_free(result);
  tmap_constraints_free(allowed);

  // Inside a Slurm job holding one CPU on each of cn02 and cn03: two PEs.
  ASSERT_EQ(setenv("SLURM_JOB_NODELIST", "cn[02-03]", 1), 0);
  ASSERT_EQ(setenv("SLURM_JOB_CPUS_PER_NODE", "1(x2)", 1), 0);
  const auto status = tmap_constraints_from_allocation(topology, nullptr, 1, &allowed, &error);
  unsetenv("SLURM_JOB_NODELIST");
  unsetenv("SLURM_JOB_CPUS_PER_NODE");
  ASSERT_EQ(status, TMAP_OK) << error;
  tmap_comm* two = nullptr;
  ASSERT_EQ(tmap_comm_from_dense(2, dense_ring(2).data(), &two, &error), TMAP_OK);
  ASSERT_EQ(tmap_map(topology, two, allowed, nullptr, nullptr, &result, &error), TMAP_OK) << error;
  const auto file = launch_file(topology, result, allowed, "rankfile");
  EXPECT_TRUE(file == "rank 0=cn02 slot=0\nrank 1=cn03 slot=0\n" || file == "rank 0=cn03 slot=0\nrank 1=cn02 slot=0\n")
      << file;
  tmap_result_free(result);
  tmap_constraints_free(allowed);
  tmap_comm_free(two);

  // The job's machine from the scheduler: no Slurm configuration here, so
  // the job's nodes under one switch, each of 2 cores (4 PEs, 2 nodes).
  ASSERT_EQ(setenv("SLURM_CONF", "/nonexistent/slurm.conf", 1), 0);
  ASSERT_EQ(setenv("SLURM_JOB_NODELIST", "cn[07-08]", 1), 0);
  tmap_topology* job = nullptr;
  const auto from_scheduler = tmap_topology_from_scheduler("core:2", &job, &error);
  unsetenv("SLURM_JOB_NODELIST");
  ASSERT_EQ(from_scheduler, TMAP_OK) << error;
  EXPECT_EQ(tmap_topology_size(job), 4);
  EXPECT_EQ(tmap_topology_distance(job, 0, 1), 4);  // PU, core, node, core, PU
  EXPECT_EQ(tmap_topology_distance(job, 0, 2), 6);  // up 2, the switch's 2 cables, down 2
  tmap_topology_free(job);
  EXPECT_EQ(tmap_topology_from_scheduler("core:2", &job, &error), TMAP_ERROR_INPUT);  // outside a job
  tmap_string_free(error);
  unsetenv("SLURM_CONF");

  // Outside any job: an input error that says so.
  EXPECT_EQ(tmap_constraints_from_allocation(topology, nullptr, 1, &allowed, &error), TMAP_ERROR_INPUT);
  ASSERT_NE(error, nullptr);
  EXPECT_NE(std::string(error).find("no scheduler allocation"), std::string::npos) << error;
  tmap_string_free(error);
  tmap_comm_free(comm);
  tmap_topology_free(topology);
}

// tm-map's configuration path through the C API: a preset, then a config
// file saved by --dump-config, give the C++ API's mapping with that context.
TEST(CApi, PresetsAndConfigFilesAsTmMapReadsThem) {
  tmap::Context saved;
  saved.strategy = "greedy";
  saved.seed = 9;
  saved.refine.kind = tmap::RefineKind::Swap;
  const auto path =
      std::filesystem::temp_directory_path() / ("tmap_capi_config_" + std::to_string(::getpid()) + ".json");
  {
    std::ofstream out(path);
    out << tmap::save_config(saved);
  }
  tmap_options* options = tmap_options_create();
  char* error = nullptr;
  ASSERT_EQ(tmap_options_set_preset(options, "fast", &error), TMAP_OK);
  ASSERT_EQ(tmap_options_load_config(options, path.c_str(), &error), TMAP_OK) << error;
  tmap_topology* topology = nullptr;
  ASSERT_EQ(tmap_topology_load("tleaf 2 4 10 4 1", &topology, &error), TMAP_OK);
  const auto cpp = tmap::gen::random_sparse(16, 3, 100, 2);
  tmap_comm* comm = c_comm(cpp);
  ASSERT_NE(comm, nullptr);
  tmap_result* result = nullptr;
  ASSERT_EQ(tmap_map(topology, comm, nullptr, nullptr, options, &result, &error), TMAP_OK) << error;
  const auto machine = tmap::load_topology("tleaf 2 4 10 4 1");
  const auto expected = tmap::map({cpp, *machine, tmap::Constraints::all(*machine)},
                                  tmap::load_config(tmap::save_config(saved), "saved", tmap::preset("fast")));
  EXPECT_EQ(std::vector<int64_t>(tmap_result_mapping(result), tmap_result_mapping(result) + 16), expected);
  // The file mattered: the preset alone maps otherwise.
  EXPECT_NE(tmap::map({cpp, *machine, tmap::Constraints::all(*machine)}, tmap::preset("fast")), expected);
  EXPECT_EQ(tmap_options_set_preset(options, "fastest", &error), TMAP_ERROR_PARAMETER);
  ASSERT_NE(error, nullptr);
  tmap_string_free(error);
  EXPECT_EQ(tmap_options_load_config(options, "/nonexistent/run.json", &error), TMAP_ERROR_INPUT);
  ASSERT_NE(error, nullptr);
  EXPECT_NE(std::string(error).find("/nonexistent/run.json"), std::string::npos) << error;
  tmap_string_free(error);
  std::filesystem::remove(path);
  tmap_result_free(result);
  tmap_comm_free(comm);
  tmap_topology_free(topology);
  tmap_options_free(options);
}

// tmap_refine: a mapping made elsewhere improved as refine_from improves it
// (multilevel unless a refinement was asked for, even none), never worse;
// a start of the wrong length or breaking the constraints is refused.
TEST(CApi, RefineImprovesAGivenMapping) {
  const auto cpp = tmap::gen::random_sparse(48, 4, 1000, 5);
  tmap_comm* comm = c_comm(cpp);
  ASSERT_NE(comm, nullptr);
  char* error = nullptr;
  tmap_topology* topology = nullptr;
  ASSERT_EQ(tmap_topology_load("torus2D 6 8", &topology, &error), TMAP_OK);
  tmap_result* result = nullptr;
  std::vector<int64_t> start(48);
  for (int64_t r = 0; r < 48; ++r) start[static_cast<std::size_t>(r)] = 47 - r;
  const auto topology_cpp = tmap::load_topology("torus2D 6 8");
  const auto constraints = tmap::Constraints::all(*topology_cpp);
  const tmap::Problem problem{cpp, *topology_cpp, constraints};
  const auto start_hop_bytes = tmap::evaluate(cpp, *topology_cpp, start).hop_bytes;
  const auto refined = [&](tmap::RefineKind kind) {
    tmap::Context context;
    context.refine.kind = kind;
    tmap::StageStats stages;
    return tmap::refine_from(start, problem, context, stages);
  };
  ASSERT_EQ(tmap_refine(topology, comm, nullptr, start.data(), 48, nullptr, &result, &error), TMAP_OK) << error;
  const std::vector<int64_t> got(tmap_result_mapping(result), tmap_result_mapping(result) + 48);
  EXPECT_EQ(got, refined(tmap::RefineKind::Multilevel));
  EXPECT_LT(tmap_result_hop_bytes(result), start_hop_bytes);
  EXPECT_EQ(tmap_result_hop_bytes(result), tmap::evaluate(cpp, *topology_cpp, got).hop_bytes);
  tmap_result_free(result);
  tmap_options* options = tmap_options_create();
  for (const char* kind : {"swap", "none"}) {
    ASSERT_EQ(tmap_options_set(options, "refine", kind, &error), TMAP_OK);
    ASSERT_EQ(tmap_refine(topology, comm, nullptr, start.data(), 48, options, &result, &error), TMAP_OK);
    EXPECT_EQ(std::vector<int64_t>(tmap_result_mapping(result), tmap_result_mapping(result) + 48),
              refined(tmap::refine_kind_from_name(kind)))
        << kind;
    tmap_result_free(result);
  }
  EXPECT_EQ(tmap_refine(topology, comm, nullptr, start.data(), 47, nullptr, &result, &error), TMAP_ERROR_ARGUMENT);
  ASSERT_NE(error, nullptr);
  EXPECT_NE(std::string(error).find("start has 47 entries but comm has 48 ranks"), std::string::npos) << error;
  tmap_string_free(error);
  start[1] = start[0];  // two ranks on one PE
  EXPECT_EQ(tmap_refine(topology, comm, nullptr, start.data(), 48, nullptr, &result, &error), TMAP_ERROR_INPUT);
  ASSERT_NE(error, nullptr);
  EXPECT_NE(std::string(error).find("the starting mapping"), std::string::npos) << error;
  tmap_string_free(error);
  tmap_options_free(options);
  tmap_comm_free(comm);
  tmap_topology_free(topology);
}
