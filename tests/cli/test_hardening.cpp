// Trust, round 4 (issue #44): inputs a careless or hostile user gives, and
// the messages that must say what to do. Each case failed on the main
// before it (exit 1 with libscotch's words, exit 0 with a wrong mapping, or
// a message that named nothing to do); tm-sim's are in tests/sim/smpi_inputs.sh,
// the MPI layer's in tests/mpi/mpi_plugin.sh, the report's in tests/cli/report.sh.
#include <gtest/gtest.h>

#include <algorithm>
#include <nlohmann/json.hpp>

#include "cli_runner.hpp"

namespace {

using tmap::test::Sandbox;

struct Refusal {
  const char* name;
  std::vector<std::pair<std::string, std::string>> files;  // name -> content
  std::vector<std::string> args;
  std::string message;  // expected in stderr
  std::vector<std::pair<std::string, std::string>> env = {};
  std::string tool = "tm-map";
};

[[maybe_unused]] void PrintTo(const Refusal& c, std::ostream* os) {
  *os << c.name;
}

const std::string kRing = "4\n0 1 5\n1 0 5\n1 2 5\n2 1 5\n2 3 5\n3 2 5\n";
const std::string kMachine = "tianhe3:1x1,nodes=4,cores=4";  // 4 nodes of 4 CPUs

/// A configuration as tm-map --dump-config writes it, with `extra` options.
std::string config_with(const std::string& extra) {
  return R"({"tmap_config": 1, "options": {"strategy": "inorder")" + extra + "}}\n";
}

std::vector<Refusal> refusals() {
  return {
      {"cpus_per_rank_that_no_node_has",
       {{"c.coo", kRing}},
       {"-t", kMachine, "-c", "c.coo", "--cpus-per-rank", "5", "--format", "rankfile"},
       "--cpus-per-rank 5: a rank takes 5 CPUs, but no node has that many for this job (4 at most)"},
      {"slurm_cpus_per_task_that_no_node_has",
       {{"c.coo", kRing}},
       {"-t", kMachine, "-c", "c.coo", "--alloc-from-env", "--format", "rankfile"},
       "SLURM_CPUS_PER_TASK=5: a rank takes 5 CPUs, but no node has that many",
       {{"SLURM_JOB_NODELIST", "cn[0-1]"}, {"SLURM_CPUS_PER_TASK", "5"}}},
      {"cpus_per_rank_past_the_cpus_slurm_gave",
       {{"c.coo", kRing}},
       {"-t", kMachine, "-c", "c.coo", "--alloc-from-env", "--cpus-per-rank", "3", "--format", "rankfile"},
       "--cpus-per-rank 3: a rank takes 3 CPUs, but no node has that many for this job (2 at most, as the "
       "scheduler counts them)",
       {{"SLURM_JOB_NODELIST", "cn[0-3]"}, {"SLURM_JOB_CPUS_PER_NODE", "2(x4)"}}},
      {"config_with_a_nul_after_its_json",
       {{"c.coo", kRing}, {"cfg.json", config_with("") + std::string("\0\x01junk", 6)}},
       {"-t", "cmplt 4", "-c", "c.coo", "--config", "cfg.json"},
       "cfg.json:2: a NUL byte: a configuration is JSON text"},
      {"config_link_bw_without_a_value",
       {{"c.coo", kRing}, {"cfg.json", config_with(R"(, "link-bw": "dim0")")}},
       {"-t", "mesh2D 2 2", "-c", "c.coo", "--config", "cfg.json"},
       "cfg.json: link-bw: link bandwidth 'dim0': expected KIND=VALUE"},
      {"config_link_bw_of_a_kind_the_machine_lacks",
       {{"c.coo", kRing}, {"cfg.json", config_with(R"(, "link-bw": "row=2")")}},
       {"-t", "mesh2D 2 2", "-c", "c.coo", "--config", "cfg.json"},
       "cfg.json: link-bw: link bandwidth 'row=2': this machine's link kinds are dim0, dim1"},
      {"link_bw_flag_named",
       {{"c.coo", kRing}},
       {"-t", "mesh2D 2 2", "-c", "c.coo", "--link-bw", "row=2"},
       "--link-bw: link bandwidth 'row=2': this machine's link kinds are dim0, dim1"},
      {"compare_naming_nothing",
       {{"c.coo", kRing}},
       {"-t", "cmplt 4", "-c", "c.coo", "--compare", ""},
       "--compare '': no strategy named"},
      {"hosts_with_a_nul",
       {{"c.coo", kRing}, {"h.txt", std::string("cn0\ncn\0x\ncn2\ncn3\n", 17)}},
       {"-t", "tianhe3:1x1,nodes=4,cores=1", "-c", "c.coo", "--hosts", "h.txt", "--format", "hostfile"},
       "h.txt:2: the control byte 0x00 inside a host name"},
      {"monitoring_rank_past_the_limit",
       {{"run/prof.0.prof", "E 0 1 5 bytes 1 msgs sent\n"},
        {"run/prof.1.prof", "E 1 0 5 bytes 1 msgs sent\n"},
        {"run/prof.2000000000.prof", "E 0 1 5 bytes 1 msgs sent\n"}},
       {"-t", "cmplt 4", "-c", "run"},
       "rank 2000000000 is beyond tmap's limit"},
      {"misspelt_monitoring_prefix",
       {{"run/prof.0.prof", "E 0 1 5 bytes 1 msgs sent\n"}},
       {"-t", "cmplt 4", "-c", "run/porf"},
       "run/porf: no such file, nor Open MPI monitoring output run/porf.<rank>.prof"},
      {"coo_numbered_from_one",
       {{"c.coo", "4\n1 2 5\n2 1 5\n3 4 5\n4 3 5\n"}},
       {"-t", "cmplt 4", "-c", "c.coo"},
       "c.coo:4: rank j must be between 0 and 3, found 4: ranks are numbered from 0 (is the file numbered from 1?"},
      {"coo_numbered_from_one_without_a_count",
       {{"c.coo", "1 2 5\n2 1 5\n3 4 5\n4 3 5\n"}},
       {"-t", "cmplt 4", "-c", "c.coo"},
       "5 ranks do not fit: 4 allowed PEs x 1 rank(s) each = 4 slots; rank 0 sends and receives nothing: is the "
       "matrix numbered from 1?"},
      {"do_not_fit_names_the_k",
       {{"c.coo", "9\n0 8 5\n"}},
       {"-t", "cmplt 4", "-c", "c.coo"},
       "9 ranks do not fit: 4 allowed PEs x 1 rank(s) each = 4 slots; give the job more PEs (9 ranks need 9 PEs: "
       "a larger allocation, or more nodes of 1 PE(s)), or, to share CPUs between ranks, -o 3"},
      {"machine_and_matrix_swapped",
       {{"c.mat", "0 1\n1 0\n"}, {"m.tgt", "cmplt 2\n"}},
       {"-t", "c.mat", "-c", "m.tgt"},
       "c.mat:1: this is not a machine: a Scotch target starts with its kind"},
      {"txt_names_comm_format",
       {{"c.txt", "0 1\n1 0\n"}},
       {"-t", "cmplt 2", "-c", "c.txt"},
       "c.txt: cannot tell the communication format from the extension '.txt': name it with --comm-format FORMAT"},
  };
}

}  // namespace

class Round4Refusals : public ::testing::TestWithParam<Refusal> {};

TEST_P(Round4Refusals, ExitTwoWithAMessageThatSaysWhatToDo) {
  const auto& c = GetParam();
  Sandbox box;
  for (const auto& [name, content] : c.files) box.write(name, content);
  auto args = c.args;
  args.insert(args.end(), {"--output", "out.txt"});
  const auto r = box.run(c.tool, args, c.env);
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find(c.message), std::string::npos) << "stderr was: " << r.err;
  EXPECT_TRUE(r.out.empty()) << r.out;
  EXPECT_FALSE(box.exists("out.txt"));
  for (const auto& [name, content] : c.files) EXPECT_EQ(box.read(name), content) << name;
}

INSTANTIATE_TEST_SUITE_P(Catalog, Round4Refusals, ::testing::ValuesIn(refusals()),
                         [](const ::testing::TestParamInfo<Refusal>& param) { return std::string(param.param.name); });

// libscotch refuses a tleaf level of fan-out 1; tmap reads it as the tree it
// is: every strategy maps it, and libscotch's own words never reach stderr.
TEST(Round4, TleafWithALevelOfFanOutOneMapsWithEveryStrategy) {
  Sandbox box;
  std::string ring = "16\n";
  for (int r = 0; r < 16; ++r) ring += std::to_string(r) + " " + std::to_string((r + 1) % 16) + " 7\n";
  box.write("c.coo", ring);
  for (const char* strategy : {"multilevel", "geometric", "best", "auto", "scotch", "scotch+"}) {
    const auto r = box.run("tm-map", {"-t", "tleaf 3 1 10 16 1 1 1", "-c", "c.coo", "-s", strategy});
    EXPECT_EQ(r.exit_code, 0) << strategy << ": " << r.err;
    EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 16) << strategy;
    EXPECT_EQ(r.err.find("ERROR"), std::string::npos) << strategy << ": " << r.err;
  }
}

// What libhwloc 2 loads, tmap loads: an hwloc 1.x file whose Machine and
// NUMANode carry nodesets and whose Socket, Core and PU objects do not.
TEST(Round4, Hwloc1FileWithNodesetsOnTheRootAndNumaOnly) {
  Sandbox box;
  std::string xml =
      R"(<?xml version="1.0" encoding="UTF-8"?>
<topology>
 <object type="Machine" os_index="0" cpuset="0x0000000f" complete_cpuset="0x0000000f" nodeset="0x00000001" complete_nodeset="0x00000001">
  <object type="NUMANode" os_index="0" cpuset="0x0000000f" complete_cpuset="0x0000000f" nodeset="0x00000001" complete_nodeset="0x00000001" local_memory="1073741824">
)";
  const auto hex = [](int bits) { return std::string(1, "0123456789abcdef"[bits]); };  // bits < 16
  for (int s = 0; s < 2; ++s) {
    const auto set = hex(3 << (2 * s));
    xml += "   <object type=\"Socket\" os_index=\"" + std::to_string(s) + "\" cpuset=\"0x" + set +
           "\" complete_cpuset=\"0x" + set + "\">\n";
    for (int c = 2 * s; c < 2 * s + 2; ++c) {
      const auto bit = hex(1 << c);
      xml += "    <object type=\"Core\" os_index=\"" + std::to_string(c) + "\" cpuset=\"0x" + bit +
             "\" complete_cpuset=\"0x" + bit + "\">\n     <object type=\"PU\" os_index=\"" + std::to_string(c) +
             "\" cpuset=\"0x" + bit + "\" complete_cpuset=\"0x" + bit + "\"/>\n    </object>\n";
    }
    xml += "   </object>\n";
  }
  xml += "  </object>\n </object>\n</topology>\n";
  box.write("node.xml", xml);
  box.write("c.coo", kRing);
  const auto r = box.run("tm-map", {"-x", "node.xml", "-c", "c.coo", "-s", "inorder"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "0\n1\n2\n3\n");
  // The same file under another name: told apart by its content.
  box.write("node.txt", xml);
  EXPECT_EQ(box.run("tm-map", {"-t", "node.txt", "-c", "c.coo", "-s", "inorder"}).exit_code, 0);
}

// --cpus-per-rank overrides SLURM_CPUS_PER_TASK, so a malformed variable
// does not matter when the flag is given.
TEST(Round4, CpusPerRankFlagOverridesAMalformedVariable) {
  Sandbox box;
  box.write("c.coo", kRing);
  const auto r = box.run("tm-map",
                         {"-t", kMachine, "-c", "c.coo", "--alloc-from-env", "--cpus-per-rank", "2", "--format",
                          "rankfile", "-s", "inorder"},
                         {{"SLURM_JOB_NODELIST", "cn[0-3]"}, {"SLURM_CPUS_PER_TASK", "abc"}});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("rank 0=cn0 slot=0-1"), std::string::npos) << r.out;
}

// --compare says what its reader must know: a job smaller than the machine
// is spread by Scotch, and a strategy that mapped with another says so (the
// table's notes, the JSON's "notes" and "fell_back_to").
TEST(Round4, CompareSaysWhenScotchSpreadsAndWhoFellBack) {
  Sandbox box;
  // Three ranks in a triangle and one alone: no grid, so geometric (which
  // cuts a grid in blocks on a tree) maps with scotch.
  box.write("c.coo", "4\n0 1 5\n1 0 5\n1 2 5\n2 1 5\n0 2 5\n2 0 5\n");
  const auto table = box.run("tm-map", {"-t", "tleaf 2 4 10 4 1", "-c", "c.coo", "--compare", "inorder,geometric"});
  ASSERT_EQ(table.exit_code, 0) << table.err;
  EXPECT_NE(table.out.find("# scotch spreads the 4 ranks over all 16 allowed PEs"), std::string::npos) << table.out;
  EXPECT_NE(table.out.find("# geometric could not run here: its row is scotch's mapping"), std::string::npos)
      << table.out;
  const auto json = box.run(
      "tm-map", {"-t", "tleaf 2 4 10 4 1", "-c", "c.coo", "--compare", "inorder,geometric", "--format", "json"});
  ASSERT_EQ(json.exit_code, 0) << json.err;
  const auto j = nlohmann::json::parse(json.out);
  ASSERT_EQ(j["notes"].size(), 2U) << json.out;
  for (const auto& r : j["results"]) {
    EXPECT_EQ(r.contains("fell_back_to"), r["strategy"] == "geometric") << r.dump();
    if (r["strategy"] == "geometric") {
      EXPECT_EQ(r["fell_back_to"], "scotch");
    }
  }
  // A job that fills the machine: no spreading note.
  box.write("full.coo", "4\n0 1 5\n1 0 5\n");
  const auto full = box.run("tm-map", {"-t", "cmplt 4", "-c", "full.coo", "--compare", "inorder"});
  EXPECT_EQ(full.out.find("# scotch spreads"), std::string::npos) << full.out;
}

// A launcher file that puts several busy-polling ranks on one CPU warns.
TEST(Round4, OversubscribedLauncherFileWarns) {
  Sandbox box;
  std::string ring = "8\n";
  for (int r = 0; r < 8; ++r) ring += std::to_string(r) + " " + std::to_string((r + 1) % 8) + " 7\n";
  box.write("c.coo", ring);
  const auto r =
      box.run("tm-map", {"-t", "tianhe3:1x1,nodes=2,cores=1", "-c", "c.coo", "-o", "4", "--format", "rankfile"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("note: -o 4 puts up to 4 ranks on one CPU"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("mpi_yield_when_idle 1"), std::string::npos) << r.err;
  // One rank per CPU: nothing to warn about.
  const auto fits = box.run("tm-map", {"-t", "tianhe3:1x1,nodes=2,cores=4", "-c", "c.coo", "--format", "rankfile"});
  EXPECT_EQ(fits.err.find("ranks on one CPU"), std::string::npos) << fits.err;
}

// tm-gmap -vm prints libscotch's own M lines (gmap's, line for line); when
// Scotch spreads fewer ranks than PEs, its CommExpan counts ranks left on
// unsplit domains as close: said on stderr, the log left as gmap writes it.
TEST(Round4, GmapMappingViewSaysWhenItsCommExpanIsLow) {
  Sandbox box;
  box.write("g.grf", "0\n4 8\n0 000\n2 1 2\n2 0 3\n2 0 3\n2 1 2\n");
  const auto spread = box.run("tm-gmap", {"-vm", "g.grf", "tleaf 2 4 10 4 1", "/dev/null"});
  EXPECT_EQ(spread.exit_code, 0) << spread.err;
  EXPECT_NE(spread.out.find("M\tCommExpan="), std::string::npos) << spread.out;
  EXPECT_NE(spread.err.find("(here 4 ranks on 16 PEs"), std::string::npos) << spread.err;
  const auto full = box.run("tm-gmap", {"-vm", "g.grf", "cmplt 4", "/dev/null"});
  EXPECT_EQ(full.exit_code, 0) << full.err;
  EXPECT_EQ(full.err.find("CommExpan is below"), std::string::npos) << full.err;
}
