// The job facade (tmap/job.hpp): one assembly for every front end, its
// errors in each front end's words, its notes, its outputs.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tmap/error.hpp"
#include "tmap/generators.hpp"
#include "tmap/job.hpp"

namespace {

/// A fat tree of 16 two-socket nodes with two threads a core, named cn01..cn16.
tmap::JobSpec fat_tree_job(const tmap::JobWords& words = {}) {
  tmap::JobSpec spec;
  spec.words = words;
  spec.machine.topology = "fattree:2;4,4;1,2;1,2";
  spec.machine.nodes = {"package:2 core:2 pu:2"};
  spec.machine.host_names = "cn[01-16]";
  spec.traffic.matrix = tmap::gen::stencil({4, 8}, 5, 1000);
  return spec;
}

/// The message of the error `work` throws (of type E), or a failure.
template <typename E, typename Work>
std::string message_of(Work&& work) {
  try {
    work();
  } catch (const E& e) {
    return e.what();
  }
  ADD_FAILURE() << "no error";
  return {};
}

TEST(JobWords, SayTheFrontEndsWordForEachField) {
  const auto python = tmap::JobWords::python();
  const auto mpi = tmap::JobWords::mpi();
  EXPECT_EQ(python.say("-t 'fatree:1': no such machine"), "machine 'fatree:1': no such machine");
  EXPECT_EQ(mpi.say("-t: the topology is empty"), "TMAP_TOPOLOGY (topo_tmap_topology): the topology is empty");
  EXPECT_EQ(python.say("--node: empty"), "node: empty");
  EXPECT_EQ(python.say("host-names: 3 names for the 4 nodes"), "host_names: 3 names for the 4 nodes");
  EXPECT_EQ(mpi.say("node: only a network of nodes takes one"),
            "TMAP_NODE (topo_tmap_node): only a network of nodes takes one");
  EXPECT_EQ(python.say("-o: ranks per PE must be between 1 and 16777216"),
            "oversubscription: ranks per PE must be between 1 and 16777216");
  // Advice inside a message names the front end's word too.
  EXPECT_EQ(python.say("--alloc: read by number; name the hosts: --host-names 'node[001-032]'"),
            "alloc: read by number; name the hosts: host_names 'node[001-032]'");
  // tm-map's own words are the library's: nothing changes; unknown starts stay.
  EXPECT_EQ(tmap::JobWords::flags().say("-t 'x': bad"), "-t 'x': bad");
  EXPECT_EQ(python.say("traffic: 0 ranks"), "traffic: 0 ranks");
  EXPECT_EQ(python.option("seed"), "seed");
  // A field's key (set_job_field's) and its word, from the same table.
  EXPECT_EQ(python.field("het-group"), "het_group");
  EXPECT_EQ(mpi.field("machine"), "TMAP_TOPOLOGY (topo_tmap_topology)");
  EXPECT_EQ(tmap::JobWords::flags().field("oversubscription"), "-o");
  EXPECT_EQ(python.field("seed"), "seed");
  EXPECT_EQ(tmap::JobWords::flags().option("refine-iters"), "--refine-iters");
  EXPECT_EQ(mpi.option("refine-iters"), "TMAP_REFINE_ITERS (topo_tmap_refine_iters)");
}

TEST(JobSpec, FieldsByKeyAreCheckedAsTheyAreSet) {
  tmap::JobSpec spec;
  tmap::set_job_field(spec, "alloc", "cn[01-04]");
  EXPECT_EQ(spec.allocation.kind, tmap::AllocationSource::Kind::Hosts);
  tmap::set_job_field(spec, "slots", "pu");
  EXPECT_EQ(spec.output.slots, tmap::SlotKind::Pu);
  tmap::set_job_field(spec, "format", "rankfile");
  EXPECT_EQ(spec.output.format, tmap::MappingFormat::Rankfile);
  tmap::set_job_field(spec, "objective", "congestion");
  ASSERT_EQ(spec.context.options.size(), 1U);
  EXPECT_EQ(spec.context.options.front().first, "objective");
  EXPECT_EQ(message_of<tmap::ParameterError>([&] {
              tmap::set_job_field(spec, "colour", "blue");
            }).rfind("--colour: unknown option 'colour'", 0),
            0U);
  EXPECT_EQ(message_of<tmap::ParameterError>([&] { tmap::set_job_field(spec, "oversubscription", "0"); }),
            "-o: '0' is not a whole number from 1 to 16777216");
  tmap::set_job_field(spec, "imbalance", "0.03");
  EXPECT_DOUBLE_EQ(spec.allocation.imbalance.value_or(-1.0), 0.03);
  tmap::set_job_field(spec, "weights", "w.txt");
  EXPECT_EQ(spec.traffic.weights, "w.txt");
  EXPECT_EQ(message_of<tmap::ParameterError>([&] {
              tmap::set_job_field(spec, "imbalance", "-1");
            }).rfind("--imbalance: '-1' is not a number from 0 to 1e6", 0),
            0U);
  spec.words = tmap::JobWords::mpi();
  EXPECT_EQ(message_of<tmap::ParameterError>([&] {
              tmap::set_job_field(spec, "objective", "speed");
            }).rfind("TMAP_OBJECTIVE (topo_tmap_objective): ", 0),
            0U);
  EXPECT_EQ(message_of<tmap::ParameterError>([&] {
              tmap::set_job_field(spec, "strategy", "scoth");
            }).rfind("TMAP_STRATEGY (topo_tmap_strategy): ", 0),
            0U);
  EXPECT_EQ(message_of<tmap::ParameterError>([&] {
              tmap::set_job_field(spec, "node", "core:2;;core:4");
            }).rfind("TMAP_NODE (topo_tmap_node) 'core:2;;core:4': an empty entry between ';'", 0),
            0U);
}

TEST(Job, AssemblesAnAllocationByHostNamesWithItsPuSlots) {
  auto spec = fat_tree_job();
  spec.allocation.kind = tmap::AllocationSource::Kind::Hosts;
  spec.allocation.hosts = "cn[03-06]";
  spec.output.format = tmap::MappingFormat::Rankfile;
  spec.output.slots = tmap::SlotKind::Pu;
  std::vector<std::string> notes;
  tmap::Job job(spec, [&notes](const std::string& note) { notes.push_back(note); });
  EXPECT_EQ(job.machine().size(), 128);
  const auto& allowed = job.constraints().allowed_pes();
  ASSERT_EQ(allowed.size(), 32U);
  EXPECT_EQ(allowed.front(), 16);  // cn03's first PE: nodes hold 8 PEs each
  EXPECT_EQ(allowed.back(), 47);
  auto result = job.run();
  job.prepare_output(result);
  const auto rankfile = job.output(result);
  // Every rank on cn03..cn06, slots the hardware threads 0..7 of its node.
  std::size_t lines = 0;
  bool thread_above_core = false;
  for (std::size_t at = 0; at < rankfile.size(); at = rankfile.find('\n', at) + 1, ++lines) {
    const auto line = rankfile.substr(at, rankfile.find('\n', at) - at);
    EXPECT_NE(line.find("=cn0"), std::string::npos) << line;
    const auto slot = std::stoi(line.substr(line.find("slot=") + 5));
    EXPECT_LT(slot, 8) << line;
    thread_above_core = thread_above_core || slot >= 4;
  }
  EXPECT_EQ(lines, 32U);
  EXPECT_TRUE(thread_above_core) << "PU slots name the node's 8 hardware threads, cores only 4";
  // The same mapping through a launcher file of the mapping alone.
  EXPECT_EQ(job.launch_file(result.mapping, spec.output), rankfile);
  EXPECT_EQ(message_of<tmap::ParameterError>([&] { (void)job.launch_file(result.mapping, {}); }),
            "format: 'perm' is not a launcher's (rankfile, hostfile, machinefile, hydra, rank-order, binding)");
}

TEST(Job, SaysWhyRanksDoNotFitInTheFrontEndsWords) {
  auto spec = fat_tree_job(tmap::JobWords::python());
  spec.machine.nodes.clear();  // a PE a node: 16 PEs for 32 ranks
  const auto message = message_of<tmap::InputError>([&] { (void)tmap::Job(spec).problem(); });
  EXPECT_EQ(message.rfind("32 ranks do not fit: 16 allowed PEs x 1 rank(s) each = 16 slots", 0), 0U) << message;
  EXPECT_NE(message.find("node 'package:2 core:12'"), std::string::npos) << message;
  EXPECT_EQ(message.find("--node"), std::string::npos) << message;
}

TEST(Job, ConfigurationIsPresetThenOptionsThenStrategy) {
  auto spec = fat_tree_job();
  spec.context.preset = "quality";
  spec.context.options = {{"seed", "7"}, {"objective", "congestion"}};
  spec.context.strategy = "scotch:tabu";
  tmap::Job job(spec);
  const auto& c = job.context();
  EXPECT_EQ(c.seed, 7U);
  EXPECT_EQ(c.strategy, "scotch");
  EXPECT_EQ(c.refine.kind, tmap::RefineKind::Tabu);
  EXPECT_EQ(c.objective, tmap::Objective::Congestion);
  spec.context.options = {{"seed", "-1"}};
  EXPECT_EQ(message_of<tmap::ParameterError>([&] { (void)tmap::Job(spec).context(); }).rfind("--seed: ", 0), 0U);
}

TEST(Job, NotesComeToTheSinkInTheFrontEndsWords) {
  auto spec = fat_tree_job(tmap::JobWords::python());
  spec.machine.host_names.clear();  // hosts cn0..cn15: "node003" is read by its number
  spec.allocation.kind = tmap::AllocationSource::Kind::Hosts;
  spec.allocation.hosts = "node[003-006]";
  std::vector<std::string> notes;
  tmap::Job job(spec, [&notes](const std::string& note) { notes.push_back(note); });
  EXPECT_EQ(job.constraints().allowed_pes().front(), 24);  // node 3
  ASSERT_FALSE(notes.empty());
  EXPECT_EQ(notes.front().rfind("alloc: this machine's hosts have no names", 0), 0U) << notes.front();
  EXPECT_NE(notes.front().find("host_names 'node[001-016]'"), std::string::npos) << notes.front();
}

}  // namespace
