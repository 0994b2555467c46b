#include <gtest/gtest.h>

#include "print.hpp"
#include "tmap/error.hpp"
#include "tmap/generators.hpp"
#include "tmap/io.hpp"

using tmap::CommFormat;
using tmap::CommMatrix;
using tmap::parse_comm;

namespace {

// The 3-rank reference: A[0][1]=5, A[1][0]=5, A[1][2]=7, A[2][1]=7, A[0][2]=2, A[2][0]=2.
CommMatrix reference() {
  return CommMatrix::from_entries(3, {{0, 1, 5}, {1, 0, 5}, {1, 2, 7}, {2, 1, 7}, {0, 2, 2}, {2, 0, 2}});
}

// The graph files below: edges 0-1 (load 5), 1-2 (7), 0-2 (2), the load
// being the total bytes the pair exchanges. Graph formats store each
// undirected edge once, A[min][max] = load.
CommMatrix reference_as_graph() {
  return CommMatrix::from_entries(3, {{0, 1, 5}, {1, 2, 7}, {0, 2, 2}});
}

std::string error_of(std::string_view text, CommFormat format) {
  try {
    (void)parse_comm(text, format, "in.x");
  } catch (const tmap::InputError& e) {
    return e.what();
  }
  return "no error";
}

}  // namespace

TEST(CommReaders, DenseMat) {
  EXPECT_EQ(parse_comm("0 5 2\n5 0 7\n2 7 0\n", CommFormat::Dense, "a.mat"), reference());
  // Comments, blank lines, CRLF, the diagonal ignored, decimal notation.
  EXPECT_EQ(parse_comm("# traffic\n9 5 2\r\n\n5 0 7.0\n2 7e0 3\n", CommFormat::Dense, "a.mat"), reference());
}

TEST(CommReaders, Csv) {
  EXPECT_EQ(parse_comm("0,5,2\n5,0,7\n2, 7, 0\n", CommFormat::Csv, "a.csv"), reference());
}

TEST(CommReaders, CooWithAndWithoutSize) {
  EXPECT_EQ(parse_comm("3\n0 1 5\n1 0 5\n1 2 7\n2 1 7\n0 2 2\n2 0 2\n", CommFormat::Coo, "a.coo"), reference());
  EXPECT_EQ(parse_comm("% c\n0 1 5\n1 0 5\n1 2 7\n2 1 7\n0 2 1\n0 2 1\n2 0 2\n", CommFormat::Coo, "a.coo"),
            reference());
  // With n given, ranks without traffic still count.
  EXPECT_EQ(parse_comm("5\n0 1 3\n", CommFormat::Coo, "a.coo").num_ranks(), 5);
}

TEST(CommReaders, MatrixMarket) {
  EXPECT_EQ(
      parse_comm(
          "%%MatrixMarket matrix coordinate integer general\n% c\n3 3 6\n1 2 5\n2 1 5\n2 3 7\n3 2 7\n1 3 2\n3 1 2\n",
          CommFormat::MatrixMarket, "a.mtx"),
      reference());
  EXPECT_EQ(parse_comm("%%MatrixMarket matrix coordinate real symmetric\n3 3 3\n2 1 5\n3 2 7\n3 1 2\n",
                       CommFormat::MatrixMarket, "a.mtx"),
            reference());
  EXPECT_EQ(parse_comm("%%MatrixMarket matrix array integer general\n3 3\n0\n5\n2\n5\n0\n7\n2\n7\n0\n",
                       CommFormat::MatrixMarket, "a.mtx"),
            reference());
  EXPECT_EQ(parse_comm("%%MatrixMarket matrix array integer symmetric\n3 3\n0\n5\n2\n0\n7\n0\n",
                       CommFormat::MatrixMarket, "a.mtx"),
            reference());
  const auto pattern =
      parse_comm("%%MatrixMarket matrix coordinate pattern general\n2 2 1\n1 2\n", CommFormat::MatrixMarket, "a.mtx");
  EXPECT_EQ(pattern.at(0, 1), 1);
}

TEST(CommReaders, ScotchGraph) {
  EXPECT_EQ(parse_comm("0\n3 6\n0 010\n2 5 1 2 2\n2 5 0 7 2\n2 2 0 7 1\n", CommFormat::ScotchGraph, "a.grf"),
            reference_as_graph());
  // Base 1, vertex loads (the ranks' weights), no edge loads: every edge carries 1.
  EXPECT_EQ(parse_comm("0\n3 4\n1 001\n4 1 2\n1 2 1 3\n9 1 2\n", CommFormat::ScotchGraph, "a.grf"),
            CommMatrix::from_entries(3, {{0, 1, 1}, {1, 2, 1}}).with_rank_weights({4, 1, 9}));
  // Labels and loads: a load belongs to the vertex of its line, whatever its label.
  const auto labelled = parse_comm("0\n2 2\n0 111\n20 3 1 5 10\n10 6 1 5 20\n", CommFormat::ScotchGraph, "a.grf");
  EXPECT_EQ(std::vector<tmap::Volume>(labelled.rank_weights().begin(), labelled.rank_weights().end()),
            (std::vector<tmap::Volume>{3, 6}));
  // Labels: neighbours refer to labels.
  EXPECT_EQ(
      parse_comm("0\n3 6\n0 110\n10 2 5 20 2 30\n20 2 5 10 7 30\n30 2 2 10 7 20\n", CommFormat::ScotchGraph, "a.grf"),
      reference_as_graph());
}

// Random small graphs written as Scotch graphs, as they are or with one
// arc spoiled (its reverse dropped, its load changed, a loop or an arc
// listed twice): a good one reads as its edges, a spoiled one is refused
// naming the file and a line (the reader's one-pass check of the arcs,
// against what the test knows it wrote).
TEST(CommReaders, ScotchGraphsReadAsWrittenOrRefusedWhenSpoiled) {
  std::uint64_t state = 12345;
  const auto below = [&](std::uint64_t bound) {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return static_cast<std::int64_t>((state >> 33) % bound);
  };
  for (int round = 0; round < 400; ++round) {
    const std::int64_t n = 2 + below(7);
    // load[u][v] = load[v][u] > 0: an edge.
    std::vector<std::vector<tmap::Volume>> load(n, std::vector<tmap::Volume>(n, 0));
    for (std::int64_t u = 0; u < n; ++u) {
      for (std::int64_t v = u + 1; v < n; ++v) {
        if (below(3) == 0) load[u][v] = load[v][u] = 1 + below(9);
      }
    }
    std::vector<std::vector<std::pair<std::int64_t, tmap::Volume>>> rows(n);  // (neighbour, load) in file order
    std::vector<tmap::CommEntry> edges;
    for (std::int64_t u = 0; u < n; ++u) {
      for (std::int64_t v = n; v-- > 0;) {  // descending: the reader sorts rows
        if (load[u][v] > 0) rows[u].emplace_back(v, load[u][v]);
      }
      for (std::int64_t v = u + 1; v < n; ++v) {
        if (load[u][v] > 0) edges.push_back({u, v, load[u][v]});
      }
    }
    const int spoil = static_cast<int>(below(5));  // 0: none
    std::int64_t u = below(n);
    if (spoil == 1 || spoil == 2) {  // an arc of some vertex: dropped or its load changed
      while (rows[u].empty() && u + 1 < n) ++u;
      if (rows[u].empty()) continue;
      if (spoil == 1) {
        rows[u].pop_back();
      } else {
        rows[u].back().second += 1;
      }
    } else if (spoil == 3) {
      rows[u].emplace_back(u, 1);
    } else if (spoil == 4) {
      if (rows[u].empty()) continue;
      rows[u].push_back(rows[u].front());
    }
    std::size_t arcs = 0;
    for (const auto& row : rows) arcs += row.size();
    std::string text = "0\n" + std::to_string(n) + " " + std::to_string(arcs) + "\n0 010\n";
    for (const auto& row : rows) {
      text += std::to_string(row.size());
      for (const auto& [v, bytes] : row) text += " " + std::to_string(bytes) + " " + std::to_string(v);
      text += "\n";
    }
    if (spoil == 0) {
      EXPECT_EQ(parse_comm(text, CommFormat::ScotchGraph, "g.grf"), CommMatrix::from_entries(n, edges)) << text;
    } else {
      EXPECT_TRUE(error_of(text, CommFormat::ScotchGraph).starts_with("in.x:")) << text;
    }
  }
}

TEST(CommReaders, MetisGraph) {
  EXPECT_EQ(parse_comm("% c\n3 3 001\n2 5 3 2\n1 5 3 7\n1 2 2 7\n", CommFormat::MetisGraph, "a.graph"),
            reference_as_graph());
  // Vertex weights and an isolated vertex (weight 7, no neighbours).
  EXPECT_EQ(parse_comm("4 1 010\n1 2\n1 1\n1\n7\n", CommFormat::MetisGraph, "a.graph"),
            CommMatrix::from_entries(4, {{0, 1, 1}}).with_rank_weights({1, 1, 1, 7}));
  // Sizes before weights (fmt 110), and several constraints: the first weight is balanced.
  EXPECT_EQ(parse_comm("2 1 110\n9 3 2\n9 4 1\n", CommFormat::MetisGraph, "a.graph"),
            CommMatrix::from_entries(2, {{0, 1, 1}}).with_rank_weights({3, 4}));
  EXPECT_EQ(parse_comm("2 1 011 2\n3 8 2 5\n4 8 1 5\n", CommFormat::MetisGraph, "a.graph"),
            CommMatrix::from_entries(2, {{0, 1, 5}}).with_rank_weights({3, 4}));
  // Weights that sum past 2^63-1 are refused, naming the file.
  EXPECT_NE(error_of("2 1 010\n9223372036854775807 2\n1 1\n", CommFormat::MetisGraph).find("vertex weights sum"),
            std::string::npos);
}

TEST(CommReaders, WritersRoundTripEveryFormat) {
  const auto comm = tmap::gen::random_sparse(30, 4, 1000, 3);
  for (const auto format : {CommFormat::Dense, CommFormat::Csv, CommFormat::Coo, CommFormat::MatrixMarket}) {
    EXPECT_EQ(parse_comm(tmap::format_comm(comm, format), format, "rt"), comm) << tmap::comm_format_name(format);
  }
  // Graph formats keep A[i][j] + A[j][i] once per edge.
  std::vector<tmap::CommEntry> upper;
  const auto sym = comm.symmetrized();
  for (tmap::Rank i = 0; i < sym.num_ranks(); ++i) {
    for (std::size_t k = 0; k < sym.targets(i).size(); ++k) {
      if (sym.targets(i)[k] > i) upper.push_back({i, sym.targets(i)[k], sym.volumes(i)[k]});
    }
  }
  const auto expected = CommMatrix::from_entries(30, upper);
  for (const auto format : {CommFormat::ScotchGraph, CommFormat::MetisGraph}) {
    EXPECT_EQ(parse_comm(tmap::format_comm(comm, format), format, "rt"), expected) << tmap::comm_format_name(format);
  }
  // The ranks' weights travel as vertex loads (rank 7 weighs 0).
  std::vector<tmap::Volume> weights(30);
  for (std::size_t r = 0; r < weights.size(); ++r) weights[r] = r == 7 ? 0 : static_cast<tmap::Volume>(1 + r % 5);
  const auto weighted = comm.with_rank_weights(weights);
  for (const auto format : {CommFormat::ScotchGraph, CommFormat::MetisGraph}) {
    EXPECT_EQ(parse_comm(tmap::format_comm(weighted, format), format, "rt"), expected.with_rank_weights(weights))
        << tmap::comm_format_name(format);
  }
}

TEST(CommReaders, FormatNamesAndDetection) {
  EXPECT_EQ(tmap::comm_format_from_path("x/y.mat"), CommFormat::Dense);
  EXPECT_EQ(tmap::comm_format_from_path("y.graph"), CommFormat::MetisGraph);
  EXPECT_EQ(tmap::comm_format_from_name("grf"), CommFormat::ScotchGraph);
  EXPECT_THROW((void)tmap::comm_format_from_path("y.txt"), tmap::InputError);
  EXPECT_THROW((void)tmap::comm_format_from_name("xls"), tmap::InputError);
}

TEST(CommReaders, ErrorsNameLineAndProblem) {
  EXPECT_EQ(error_of("0 1\n1\n", CommFormat::Dense), "in.x:2: expected 2 values, found 1");
  EXPECT_EQ(error_of("0 1\n1 0\n1 1\n", CommFormat::Dense),
            "in.x:3: extra row: the first row has 2 values, so the matrix has 2 rows");
  EXPECT_EQ(error_of("0 1 2\n1 0 3\n", CommFormat::Dense), "in.x: the matrix is not square: 3 columns but 2 rows");
  EXPECT_EQ(error_of("0 -1\n1 0\n", CommFormat::Dense), "in.x:1: negative volume -1");
  EXPECT_EQ(error_of("", CommFormat::Dense), "in.x: no matrix found (the file is empty)");
  EXPECT_EQ(error_of("3\n0 5 1\n", CommFormat::Coo), "in.x:2: rank j must be between 0 and 2, found 5");
  EXPECT_EQ(error_of("0 1\n", CommFormat::Coo), "in.x:1: expected 'i j bytes', found 2 value(s)");
  EXPECT_NE(error_of("%%MatrixMarket matrix coordinate integer general\n2 3 0\n", CommFormat::MatrixMarket)
                .find("not square"),
            std::string::npos);
  EXPECT_NE(error_of("%%MatrixMarket matrix coordinate integer general\n2 2 2\n1 2 4\n", CommFormat::MatrixMarket)
                .find("expected 2 entries, found 1"),
            std::string::npos);
  EXPECT_NE(error_of("%%MatrixMarket matrix coordinate complex general\n2 2 0\n", CommFormat::MatrixMarket)
                .find("unsupported MatrixMarket field"),
            std::string::npos);
  EXPECT_NE(error_of("0\n2 1\n0 000\n1 1\n0\n", CommFormat::ScotchGraph).find("missing from vertex 1's list"),
            std::string::npos);
  EXPECT_NE(error_of("0\n2 2\n0 010\n1 5 1\n1 6 0\n", CommFormat::ScotchGraph).find("has load 5 here but 6"),
            std::string::npos);
  EXPECT_NE(error_of("0\n2 2\n0 000\n1 1\n", CommFormat::ScotchGraph).find("unexpected end of input"),
            std::string::npos);
  EXPECT_NE(error_of("2 1\n2\n\n", CommFormat::MetisGraph).find("the header announces 1 edges"), std::string::npos);
  EXPECT_NE(error_of("3 1\n2\n3\n\n", CommFormat::MetisGraph).find("in.x:2: edge 1-2 is missing from vertex 2's list"),
            std::string::npos);
  EXPECT_NE(error_of("2 2\n2\n1\n", CommFormat::MetisGraph).find("announces 2 edges"), std::string::npos);
  EXPECT_NE(error_of("2 1\n3\n1\n", CommFormat::MetisGraph).find("in.x:2: neighbour must be between 1 and 2"),
            std::string::npos);
}

// .phases: the triplets grouped in phases, the matrix their sum times each
// phase's repeat; the phases kept in order, written back the same.
TEST(CommReaders, PhasesSumTheirRepeatsAndKeepTheirOrder) {
  const auto comm =
      parse_comm("# two phases\n3\nphase 2\n0 1 5\n1 2 7\nphase\n1 0 4\n0 1 1\n", CommFormat::Phases, "p");
  EXPECT_EQ(comm, CommMatrix::from_phases(3, {{CommMatrix::from_entries(3, {{0, 1, 5}, {1, 2, 7}}), 2},
                                              {CommMatrix::from_entries(3, {{1, 0, 4}, {0, 1, 1}}), 1}}));
  EXPECT_EQ(comm.at(0, 1), 11);
  EXPECT_EQ(comm.at(1, 2), 14);
  EXPECT_EQ(comm.at(1, 0), 4);
  ASSERT_EQ(comm.phases().size(), 2U);
  EXPECT_EQ(comm.phases()[0].repeat, 2);
  EXPECT_EQ(comm.phases()[1].traffic, CommMatrix::from_entries(3, {{1, 0, 4}, {0, 1, 1}}));
  EXPECT_EQ(parse_comm(tmap::format_comm(comm, CommFormat::Phases), CommFormat::Phases, "rt"), comm);
  // The sum alone, written as phases: one phase of the whole matrix.
  const auto plain = tmap::gen::random_sparse(20, 3, 100, 1);
  const auto one = parse_comm(tmap::format_comm(plain, CommFormat::Phases), CommFormat::Phases, "rt");
  ASSERT_EQ(one.phases().size(), 1U);
  EXPECT_EQ(one.phases()[0].traffic, plain);
  // A matrix equals another only with the same phases.
  EXPECT_NE(comm, CommMatrix::from_entries(3, {{0, 1, 11}, {1, 2, 14}, {1, 0, 4}}));
  EXPECT_EQ(tmap::comm_format_from_path("job.phases"), CommFormat::Phases);
}

TEST(CommReaders, PhasesErrorsNameLineAndProblem) {
  EXPECT_EQ(error_of("0 1 5\n", CommFormat::Phases),
            "in.x:1: an entry before the first 'phase' line (a .phases file starts its phases so)");
  EXPECT_EQ(error_of("phase 0\n0 1 5\n", CommFormat::Phases),
            "in.x:1: phase repeat must be between 1 and 1000000, found 0");
  EXPECT_EQ(error_of("phase two\n", CommFormat::Phases).rfind("in.x:1: phase repeat", 0), 0U);
  EXPECT_EQ(error_of("phase 2 3\n", CommFormat::Phases), "in.x:1: expected 'phase' or 'phase REPEAT'");
  EXPECT_EQ(error_of("# nothing\n", CommFormat::Phases), "in.x: no 'phase' line found (not a .phases file, or empty)");
  EXPECT_EQ(error_of("phase\nphase 3\n", CommFormat::Phases), "in.x: no entries found (every phase is empty)");
  EXPECT_EQ(error_of("2\nphase\n0 2 1\n", CommFormat::Phases),
            "in.x:3: rank j must be between 0 and 1, found 2: ranks are numbered from 0 (is the file numbered from 1? "
            "subtract 1 from every rank)");
  EXPECT_EQ(error_of("phase\n0 1\n", CommFormat::Phases), "in.x:2: expected 'i j bytes', found 2 value(s)");
  // Over its repeats a pair would pass 2^63-1 bytes.
  EXPECT_EQ(error_of("phase\n0 1 5\nphase 1000000\n0 1 9000000000000000\n", CommFormat::Phases),
            "in.x:3: this phase: ranks 0 and 1 exchange more than 2^63-1 bytes over its 1000000 repeats");
  // Each phase within range, their sum not.
  EXPECT_EQ(error_of("phase 1000000\n0 1 9000000000000\nphase 1000000\n0 1 9000000000000\n", CommFormat::Phases),
            "in.x: communication volume between two ranks exceeds 2^63-1 bytes");
}
