// The bad-input catalog: every malformed input gets exit code 2, a message
// naming the file/line/problem, nothing on stdout and no output file.
#include <gtest/gtest.h>

#include <algorithm>

#include "cli_runner.hpp"

namespace {

struct BadInput {
  const char* name;
  std::vector<std::pair<std::string, std::string>> files;  // name -> content
  std::vector<std::string> args;                           // tm-map arguments (before --output)
  std::string message;                                     // expected in stderr
  std::string tool = "tm-map";
};

// gtest prints parameters with this instead of a byte dump.
[[maybe_unused]] void PrintTo(const BadInput& c, std::ostream* os) { *os << c.name; }

const std::string kGood = "0 1 1\n1 0 1\n1 1 0\n";

/// A target of `depth` nested sub targets.
std::string nested_subs(int depth) {
  std::string text;
  for (int k = 0; k < depth; ++k) text += "sub 1 0 ";
  return text + "cmplt 3";
}

std::vector<BadInput> catalog() {
  return {
      {"ragged_row", {{"c.mat", "0 1 2\n1 0\n2 2 0\n"}}, {"-t", "cmplt 3", "-c", "c.mat"}, "c.mat:2: expected 3 values, found 2"},
      {"not_square", {{"c.mat", "0 1 2\n1 0 2\n"}}, {"-t", "cmplt 3", "-c", "c.mat"}, "c.mat: the matrix is not square: 3 columns but 2 rows"},
      {"extra_row", {{"c.mat", "0 1\n1 0\n1 1\n"}}, {"-t", "cmplt 3", "-c", "c.mat"}, "c.mat:3: extra row"},
      {"negative_volume", {{"c.mat", "0 1 1\n1 0 -5\n1 1 0\n"}}, {"-t", "cmplt 3", "-c", "c.mat"}, "c.mat:2: negative volume -5"},
      {"nan_volume", {{"c.mat", "0 nan 1\n1 0 1\n1 1 0\n"}}, {"-t", "cmplt 3", "-c", "c.mat"}, "c.mat:1: volume 'nan' is NaN"},
      {"non_numeric_volume", {{"c.csv", "0,1,1\n1,0,abc\n1,1,0\n"}}, {"-t", "cmplt 3", "-c", "c.csv"}, "c.csv:2: volume 'abc' is not a number"},
      {"fractional_volume", {{"c.mat", "0 0.5\n0.5 0\n"}}, {"-t", "cmplt 3", "-c", "c.mat"}, "c.mat:1: volume '0.5' is not a whole number of bytes"},
      {"huge_volume", {{"c.mat", "0 1e30\n1 0\n"}}, {"-t", "cmplt 3", "-c", "c.mat"}, "c.mat:1: volume '1e30' exceeds 2^63-1 bytes"},
      {"empty_matrix", {{"c.mat", "\n\n"}}, {"-t", "cmplt 3", "-c", "c.mat"}, "c.mat: no matrix found (the file is empty)"},
      {"missing_comm_file", {}, {"-t", "cmplt 3", "-c", "nowhere.mat"}, "nowhere.mat: cannot open: No such file or directory"},
      {"unknown_extension", {{"c.txt", kGood}}, {"-t", "cmplt 3", "-c", "c.txt"}, "c.txt: cannot tell the communication format from the extension '.txt'"},
      {"unknown_comm_format", {{"c.txt", kGood}}, {"-t", "cmplt 3", "-c", "c.txt", "--comm-format", "xls"}, "--comm-format"},
      {"coo_rank_out_of_range", {{"c.coo", "3\n0 1 4\n2 3 4\n"}}, {"-t", "cmplt 3", "-c", "c.coo"}, "c.coo:3: rank j must be between 0 and 2, found 3"},
      {"coo_short_line", {{"c.coo", "0 1 4\n2 1\n"}}, {"-t", "cmplt 3", "-c", "c.coo"}, "c.coo:2: expected 'i j bytes', found 2 value(s)"},
      {"mtx_bad_header", {{"c.mtx", "%%MatrixMarket tensor coordinate real general\n"}}, {"-t", "cmplt 3", "-c", "c.mtx"}, "c.mtx:1: expected '%%MatrixMarket matrix"},
      {"mtx_entry_count", {{"c.mtx", "%%MatrixMarket matrix coordinate integer general\n3 3 2\n1 2 5\n"}}, {"-t", "cmplt 3", "-c", "c.mtx"}, "c.mtx: expected 2 entries, found 1"},
      {"grf_missing_reverse_arc", {{"c.grf", "0\n2 1\n0 000\n1 1\n0\n"}}, {"-t", "cmplt 3", "-c", "c.grf"}, "c.grf:4: edge 0-1 is missing from vertex 1's list"},
      {"grf_truncated", {{"c.grf", "0\n3 4\n0 000\n1 1\n"}}, {"-t", "cmplt 3", "-c", "c.grf"}, "c.grf:5: unexpected end of input, expected vertex 1 degree"},
      {"metis_edge_count", {{"c.graph", "2 2\n2\n1\n"}}, {"-t", "cmplt 3", "-c", "c.graph"}, "c.graph: the header announces 2 edges"},
      {"too_many_ranks", {{"c.mat", kGood}}, {"-t", "cmplt 2", "-c", "c.mat"}, "3 ranks do not fit: 2 allowed PEs x 1 rank(s) each = 2 slots"},
      {"constraint_out_of_range", {{"c.mat", kGood}, {"b.txt", "0 1\n9\n"}}, {"-t", "cmplt 4", "-c", "c.mat", "-b", "b.txt"}, "b.txt:2: PE id must be between 0 and 3, found 9"},
      {"constraint_duplicate", {{"c.mat", kGood}, {"b.txt", "0 1\n2 1\n"}}, {"-t", "cmplt 4", "-c", "c.mat", "-b", "b.txt"}, "b.txt:2: PE 1 is listed twice (first on line 1)"},
      {"constraint_not_a_number", {{"c.mat", kGood}, {"b.txt", "0 x\n"}}, {"-t", "cmplt 4", "-c", "c.mat", "-b", "b.txt"}, "b.txt:1: PE id: expected an integer, found 'x'"},
      {"constraint_too_few_slots", {{"c.mat", kGood}, {"b.txt", "0 1\n"}}, {"-t", "cmplt 4", "-c", "c.mat", "-b", "b.txt"}, "3 ranks do not fit: 2 allowed PEs"},
      {"alloc_out_of_range", {{"c.mat", kGood}}, {"-t", "tianhe3:1x1,nodes=2", "-c", "c.mat", "--alloc", "0-5"}, "--alloc: node 2 is outside the topology"},
      {"alloc_bad_range", {{"c.mat", kGood}}, {"-t", "tianhe3:1x1,nodes=2", "-c", "c.mat", "--alloc", "5-1"}, "--alloc '5-1': bad range '5-1'"},
      {"alloc_unknown_host", {{"c.mat", kGood}}, {"-t", "tianhe3:1x1,nodes=4", "-c", "c.mat", "--alloc", "cn1,login"}, "--alloc: host 'login' has no trailing number"},
      {"alloc_duplicate_host", {{"c.mat", kGood}}, {"-t", "tianhe3:1x1,nodes=4", "-c", "c.mat", "--alloc", "cn[1-2],cn01"}, "--alloc: host cn01 (node 1) is listed twice (also as cn1)"},
      {"alloc_host_outside", {{"c.mat", kGood}}, {"-t", "tianhe3:1x1,nodes=4", "-c", "c.mat", "--alloc", "cn[2-5]"}, "--alloc: host cn4 (node 4) is outside the topology (nodes 0..3)"},
      {"alloc_too_few_slots", {{"c.mat", kGood}}, {"-t", "tianhe3:1x1,nodes=4", "-c", "c.mat", "--alloc", "cn[1-2]"}, "3 ranks do not fit: 2 allowed PEs x 1 rank(s) each = 2 slots"},
      {"alloc_unbalanced", {{"c.mat", kGood}}, {"-t", "tianhe3:1x1,nodes=4", "-c", "c.mat", "--alloc", "cn[1-2"}, "--alloc 'cn[1-2': unbalanced '['"},
      {"unknown_strategy", {{"c.mat", kGood}}, {"-t", "cmplt 3", "-c", "c.mat", "-s", "nope"}, "unknown strategy 'nope' (known: inorder"},
      {"unknown_output_format", {{"c.mat", kGood}}, {"-t", "cmplt 3", "-c", "c.mat", "--format", "xml"}, "--format"},
      {"oversub_zero", {{"c.mat", kGood}}, {"-t", "cmplt 3", "-c", "c.mat", "-o", "0"}, "--oversub"},
      {"inline_target_truncated", {{"c.mat", kGood}}, {"-t", "mesh2D 8", "-c", "c.mat"}, "-t:1: unexpected end of input, expected mesh dimension 1"},
      {"target_file_bad_value", {{"c.mat", kGood}, {"t.tgt", "mesh2D\n4 x\n"}}, {"-t", "t.tgt", "-c", "c.mat"}, "t.tgt:2: mesh dimension 1: expected an integer, found 'x'"},
      {"target_variable_sized", {{"c.mat", kGood}, {"t.tgt", "varcmplt\n"}}, {"-t", "t.tgt", "-c", "c.mat"}, "t.tgt:1: variable-sized targets (varcmplt, varhcub) are not supported for mapping"},
      {"target_unknown_kind", {{"c.mat", kGood}, {"t.tgt", "leaf 4\n"}}, {"-t", "t.tgt", "-c", "c.mat"}, "t.tgt:1: unknown or unsupported target kind 'leaf'"},
      {"target_deco2", {{"c.mat", kGood}, {"t.tgt", "deco 2 4 7\n"}}, {"-t", "t.tgt", "-c", "c.mat"}, "t.tgt:1: deco 2 targets only estimate distances and are not supported for mapping"},
      {"target_deco_distance_zero", {{"c.mat", kGood}, {"t.tgt", "deco 0 2 3\n0 1 2\n1 1 3\n0\n"}}, {"-t", "t.tgt", "-c", "c.mat"}, "t.tgt:4: deco distance must be between 1 and"},
      {"target_sub_out_of_range", {{"c.mat", kGood}, {"t.tgt", "sub 3 0 1 9 cmplt 4\n"}}, {"-t", "t.tgt", "-c", "c.mat"}, "t.tgt:1: sub: terminal 9 is outside the target (0..3)"},
      {"dist_not_symmetric", {{"c.mat", kGood}, {"m.dist", "3\n0 1 2\n1 0 1\n3 1 0\n"}}, {"-t", "m.dist", "-c", "c.mat"}, "m.dist:4: the matrix is not symmetric: (2, 0) is 3 but (0, 2) is 2"},
      {"hwloc_xml_unreadable", {{"c.mat", kGood}, {"n.xml", "<topology><oops"}}, {"-x", "n.xml", "-c", "c.mat"}, "n.xml:1: not valid XML: "},
      {"dist_diagonal", {{"c.mat", kGood}, {"m.dist", "2\n1 1\n1 0\n"}}, {"-t", "m.dist", "-c", "c.mat"}, "m.dist:2: the diagonal must be 0"},
      {"unknown_topology", {{"c.mat", kGood}}, {"-t", "nosuch.tgt", "-c", "c.mat"}, "cannot open topology file 'nosuch.tgt'"},
      {"tianhe3_odd_nodes", {{"c.mat", kGood}}, {"-t", "tianhe3:2x2,nodes=3", "-c", "c.mat"}, "nodes per chip must be even"},
      {"missing_comm_option", {}, {"-t", "cmplt 3"}, "both -t TOPOLOGY and -c COMM are needed"},
      {"example_with_inputs", {}, {"--example", "-t", "cmplt 3"}, "--example cannot be combined with -t, -x or -c"},
      {"eval_wrong_length", {{"c.mat", kGood}, {"m.perm", "0\n1\n"}}, {"-t", "cmplt 3", "-c", "c.mat", "-m", "m.perm"}, "m.perm: maps 2 ranks but c.mat has 3", "tm-eval"},
      {"eval_pe_out_of_range", {{"c.mat", kGood}, {"m.perm", "0\n1\n7\n"}}, {"-t", "cmplt 3", "-c", "c.mat", "-m", "m.perm"}, "m.perm: rank 2 is on PE 7, outside the topology", "tm-eval"},
      {"eval_breaks_constraints", {{"c.mat", kGood}, {"m.perm", "0\n0\n1\n"}}, {"-t", "cmplt 3", "-c", "c.mat", "-m", "m.perm", "-o", "1", "-b", "b.txt"}, "m.perm: breaks the constraints", "tm-eval"},
      {"link_bw_unknown_kind", {{"c.mat", kGood}}, {"-t", "mesh2D 3 1", "-c", "c.mat", "--link-bw", "row=2"}, "link bandwidth 'row=2': expected KIND=VALUE with KIND one of dim0, dim1"},
      {"link_bw_not_positive", {{"c.mat", kGood}}, {"-t", "tianhe3:1x1,nodes=4", "-c", "c.mat", "--link-bw", "side=-1"}, "link bandwidth 'side=-1': the value must be a positive number"},
      {"link_loads_without_routing", {{"c.mat", kGood}, {"d.dist", "3\n0 1 1\n1 0 1\n1 1 0\n"}}, {"-t", "d.dist", "-c", "c.mat", "--link-loads", "l.csv"}, "--link-bw/--link-loads: a dist topology has no routing model"},
      {"grid2d_bw_bad_value", {{"c.mat", "0 1\n1 0\n"}, {"bw.txt", "intra 1 1\ninter 0.5 x\n"}}, {"-t", "cmplt 2", "-c", "c.mat", "-s", "grid2d", "--grid2d-bw", "bw.txt"}, "bw.txt:2: bandwidth 'x' must be a positive number"},
      {"grid2d_bw_missing_pair", {{"c.mat", "0 1\n1 0\n"}, {"bw.txt", "intra 1 1\n"}}, {"-t", "cmplt 2", "-c", "c.mat", "-s", "grid2d", "--grid2d-bw", "bw.txt"}, "bw.txt: no bandwidth for groups 0 and 1 (add 'inter H V' or '0 1 H V')"},
      {"grid2d_bad_domain", {{"c.mat", kGood}}, {"-t", "cmplt 3", "-c", "c.mat", "-s", "grid2d", "--grid2d-domain", "12"}, "--grid2d-domain '12': expected HEIGHTxWIDTH in bytes"},
      {"unknown_refinement", {{"c.mat", kGood}}, {"-t", "cmplt 3", "-c", "c.mat", "--refine", "anneal"}, "--refine"},
      {"unknown_refinement_in_compare", {{"c.mat", kGood}}, {"-t", "cmplt 3", "-c", "c.mat", "--compare", "scotch:anneal"}, "unknown refinement 'anneal' (known: none, swap, tabu)"},
      {"compare_file_wrong_length", {{"c.mat", kGood}, {"m.perm", "0\n1\n"}}, {"-t", "cmplt 3", "-c", "c.mat", "--compare", "inorder", "--compare-file", "x=m.perm"}, "m.perm: maps 2 ranks but the matrix has 3"},
      {"compare_file_no_name", {{"c.mat", kGood}}, {"-t", "cmplt 3", "-c", "c.mat", "--compare", "inorder", "--compare-file", "m.perm"}, "--compare-file 'm.perm': expected NAME=FILE"},
      {"compare_file_without_compare", {{"c.mat", kGood}, {"m.perm", "0\n1\n2\n"}}, {"-t", "cmplt 3", "-c", "c.mat", "--compare-file", "x=m.perm"}, "--compare-file needs --compare"},
      // Issue 16: hostile inputs. Streams without end, absurd option values,
      // deep or huge targets, and what launchers and evaluators must refuse.
      {"stream_comm_dev_zero", {}, {"-t", "cmplt 3", "-c", "/dev/zero", "--comm-format", "mat"}, "/dev/zero: not a regular file and longer than 256 MiB"},
      {"stream_constraints_dev_zero", {{"c.mat", kGood}}, {"-t", "cmplt 3", "-c", "c.mat", "-b", "/dev/zero"}, "/dev/zero: not a regular file and longer than 256 MiB"},
      {"stream_mapping_dev_zero", {{"c.mat", kGood}}, {"-t", "cmplt 3", "-c", "c.mat", "-m", "/dev/zero"}, "/dev/zero: not a regular file and longer than 256 MiB", "tm-eval"},
      {"threads_absurd", {{"c.mat", kGood}}, {"-t", "cmplt 3", "-c", "c.mat", "-p", "100000"}, "--threads: '100000' is not a whole number between 1 and 4096"},
      {"iterations_past_64_bits", {{"c.mat", kGood}}, {"-t", "cmplt 3", "-c", "c.mat", "--refine", "tabu", "--refine-iters", "99999999999999999999"}, "--refine-iters: '99999999999999999999' is not a whole number"},
      {"seed_past_64_bits", {{"c.mat", kGood}}, {"-t", "cmplt 3", "-c", "c.mat", "--seed", "18446744073709551616"}, "--seed: '18446744073709551616' is not a whole number between 0 and 18446744073709551615"},
      {"time_limit_nan", {{"c.mat", kGood}}, {"-t", "cmplt 3", "-c", "c.mat", "--refine", "tabu", "--time-limit", "nan"}, "--time-limit: 'nan' is not a finite number"},
      {"sparse_factor_nan", {{"c.mat", kGood}}, {"-t", "cmplt 3", "-c", "c.mat", "--sparse-factor", "nan"}, "--sparse-factor: 'nan' is not a finite number between 0 and 1"},
      {"ohtma_loop_negative", {{"c.mat", kGood}}, {"-t", "cmplt 3", "-c", "c.mat", "-s", "ohtma", "--ohtma-loop", "-5"}, "--ohtma-loop: '-5' is not a whole number"},
      {"oversub_overflow", {{"c.mat", kGood}}, {"-t", "cmplt 3", "-c", "c.mat", "-o", "9223372036854775807"}, "--oversub: '9223372036854775807' is not a whole number between 1 and 16777216"},
      {"target_nested_deep", {{"c.mat", kGood}}, {"-t", nested_subs(5000), "-c", "c.mat"}, "-t:1: sub targets nested more than 64 deep"},
      {"target_too_many_pes", {{"c.mat", kGood}}, {"-t", "cmplt 4000000000", "-c", "c.mat"}, "-t: the target has 4000000000 PEs; tmap maps onto at most 2097152"},
      {"target_weights_too_large", {{"c.mat", kGood}}, {"-t", "cmpltw 3 1073741824 1073741824 1073741824", "-c", "c.mat"}, "cmpltw: the terminal weights add up to more than 2097152 PEs"},
      {"target_deco_label_twice", {{"c.mat", kGood}, {"t.tgt", "deco 0 2 3\n7 1 2\n7 1 3\n1\n"}}, {"-t", "t.tgt", "-c", "c.mat"}, "deco terminal label 7 is used twice"},
      {"alloc_empty", {{"c.mat", kGood}}, {"-t", "tianhe3:1x1,nodes=4", "-c", "c.mat", "--alloc", ""}, "--alloc '': no nodes given"},
      {"hosts_file_wrong_count", {{"c.mat", kGood}, {"h.txt", "a\nb\n"}}, {"-t", "tianhe3:1x1,nodes=4", "-c", "c.mat", "--hosts", "h.txt", "--format", "rankfile"}, "h.txt: lists 2 hosts but the machine has 4 nodes"},
      {"hosts_file_duplicate", {{"c.mat", kGood}, {"h.txt", "a\nb\na\nc\n"}}, {"-t", "tianhe3:1x1,nodes=4", "-c", "c.mat", "--hosts", "h.txt", "--alloc", "a"}, "h.txt:3: host a is listed twice (first on line 1)"},
      {"hydra_without_program", {{"c.mat", kGood}}, {"-t", "cmplt 3", "-c", "c.mat", "--format", "hydra"}, "--format hydra writes a Hydra -configfile and needs the program"},
      {"coo_pair_total_overflow", {{"c.coo", "2\n0 1 9223372036854775807\n1 0 9223372036854775807\n"}}, {"-t", "cmplt 3", "-c", "c.coo"}, "c.coo: ranks 0 and 1 exchange more than 2^63-1 bytes in total"},
      {"compare_file_same_name", {{"c.mat", kGood}, {"m.perm", "0\n1\n2\n"}}, {"-t", "cmplt 3", "-c", "c.mat", "--compare", "inorder", "--compare-file", "x=m.perm", "--compare-file", "x=m.perm"}, "--compare-file: the name 'x' is given twice"},
      {"eval_oversubscribed_without_o", {{"c.mat", kGood}, {"m.perm", "0\n0\n1\n"}}, {"-t", "cmplt 3", "-c", "c.mat", "-m", "m.perm"}, "m.perm: breaks the constraints: PE 0 holds more than 1 ranks", "tm-eval"},
      {"eval_scotch_map_unknown_terminal", {{"c.mat", kGood}, {"m.map", "3\n0 7\n1 9\n2 7\n"}}, {"-t", "deco 0 2 3  7 2 2  8 2 3  1", "-c", "c.mat", "-m", "m.map"}, "m.map: rank 1 is on terminal 9, which the target does not have", "tm-eval"},
      {"eval_scotch_map_overfull_terminal", {{"c.mat", kGood}, {"m.map", "3\n0 7\n1 7\n2 7\n"}}, {"-t", "deco 0 2 3  7 2 2  8 2 3  1", "-c", "c.mat", "-m", "m.map"}, "m.map: terminal 7 (cn7) gets more than its 2 rank(s), from rank 2 on", "tm-eval"},
      {"output_empty_name", {{"c.mat", kGood}}, {"-t", "cmplt 3", "-c", "c.mat", "--output", ""}, "--output: the file name is empty"},
      {"output_over_the_input", {{"c.mat", kGood}}, {"-t", "cmplt 3", "-c", "c.mat", "--output", "c.mat"}, "c.mat: is the input c.mat; refusing to write over it"},
      {"gen_random_too_many_partners", {}, {"random", "--ranks", "16777216", "--degree", "1048576"}, "random: ranks x degree = 17592186044416 partners; at most 33554432", "tm-gen"},
      {"gen_app_bad_ranks", {}, {"bt", "--ranks", "512"}, "bt: the number of ranks must be a square", "tm-gen"},
      {"gen_bad_dims", {}, {"stencil2d", "--dims", "4xq"}, "--dims '4xq': expected positive sizes", "tm-gen"},
  };
}

}  // namespace

class BadInputCatalog : public ::testing::TestWithParam<BadInput> {};

TEST_P(BadInputCatalog, ExitTwoWithMessageAndNoOutput) {
  const auto& c = GetParam();
  tmap::test::Sandbox box;
  for (const auto& [name, content] : c.files) box.write(name, content);
  if (c.name == std::string("eval_breaks_constraints")) box.write("b.txt", "0 1 2\n");
  auto args = c.args;
  if (std::find(args.begin(), args.end(), "--output") == args.end()) args.insert(args.end(), {"--output", "out.txt"});
  const auto r = box.run(c.tool, args);
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find(c.tool + ": error: "), std::string::npos) << r.err;
  EXPECT_NE(r.err.find(c.message), std::string::npos) << "stderr was: " << r.err;
  EXPECT_TRUE(r.out.empty()) << r.out;
  EXPECT_FALSE(box.exists("out.txt"));
  // Inputs are never touched.
  for (const auto& [name, content] : c.files) EXPECT_EQ(box.read(name), content) << name;
}

INSTANTIATE_TEST_SUITE_P(Catalog, BadInputCatalog, ::testing::ValuesIn(catalog()),
                         [](const ::testing::TestParamInfo<BadInput>& param) { return std::string(param.param.name); });
