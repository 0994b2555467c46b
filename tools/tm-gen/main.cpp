// tm-gen: writes synthetic communication patterns.
#include <fmt/format.h>

#include <filesystem>

#include "cli.hpp"
#include "tmap/generators.hpp"

namespace {

std::vector<std::int64_t> parse_dims(const std::string& text) {
  std::vector<std::int64_t> dims;
  std::size_t pos = 0;
  while (pos <= text.size()) {
    const auto x = text.find('x', pos);
    const auto item = text.substr(pos, x == std::string::npos ? std::string::npos : x - pos);
    std::size_t used = 0;
    long long value = 0;
    try {
      value = std::stoll(item, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used == 0 || used != item.size() || value < 1) {
      throw tmap::InputError("--dims '" + text + "': expected positive sizes like 16x16 or 8x8x8");
    }
    dims.push_back(value);
    if (x == std::string::npos) break;
    pos = x + 1;
  }
  return dims;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace tmap;
  using namespace tmap::cli;
  CLI::App app{
      "tm-gen: writes a communication pattern. Patterns: stencil2d, stencil3d (every rank sends --volume "
      "bytes to each neighbour; rank = x + X*(y + Y*z)), random (--ranks, --degree partners each, "
      "volumes uniform in [1, --volume], symmetric) and the application-like cg, bt, sp, lu, mg, ft, "
      "sweep3d, snap (--ranks, --class; bytes per iteration, models in docs/formats.md); convert rewrites the matrix "
      "of --from in another format (e.g. Open MPI monitoring output as a TopoMatch .mat).",
      "tm-gen"};
  app.set_version_flag("--version", std::string("tm-gen ") + tmap::version());
  std::string pattern;
  std::string dims;
  int points = 0;
  std::int64_t volume = 1000;
  bool periodic = false;
  std::int64_t ranks = 0;
  std::int64_t degree = 4;
  std::uint64_t seed = 0;
  std::optional<std::uint64_t> shuffle;
  std::string format;
  std::string output;
  app.add_option("pattern", pattern, "stencil2d, stencil3d, random, cg, bt, sp, lu, mg, ft, sweep3d, snap or convert")
      ->required()
      ->check(CLI::IsMember(
          {"stencil2d", "stencil3d", "random", "cg", "bt", "sp", "lu", "mg", "ft", "sweep3d", "snap", "convert"}));
  CommInput from;
  from.add_to(app, "--from");
  std::string npb_class = "D";
  app.add_option("--class", npb_class, "NPB problem class of cg, bt, sp, lu, mg, ft: S, W, A, B, C, D (default) or E")
      ->check(CLI::IsMember({"S", "W", "A", "B", "C", "D", "E"}));
  app.add_option("--dims", dims, "Grid of a stencil: XxY or XxYxZ");
  app.add_option("--points", points, "Stencil points: 5 or 9 (2D, default 5), 7 or 27 (3D, default 7)")
      ->transform(whole_number(0, 27));
  app.add_option("--volume", volume, "Bytes per neighbour (stencils) or largest volume (random); default 1000")
      ->transform(whole_number(1, std::int64_t{1} << 50));
  app.add_flag("--periodic", periodic, "Wrap the stencil around (torus)");
  std::vector<std::int64_t> axis_volumes;
  app.add_option("--axis-volumes", axis_volumes,
                 "Bytes per face neighbour along each axis (x,y[,z]): asymmetric halos, e.g. 4000,1000")
      ->delimiter(',')
      ->transform(whole_number(0, std::int64_t{1} << 50));
  app.add_option("--ranks", ranks, "Ranks of the random and application patterns")
      ->transform(whole_number(1, kMaxRanks));
  app.add_option("--degree", degree, "Partners each rank picks in the random pattern (default 4)")
      ->transform(whole_number(0, 1 << 20));
  app.add_option("--seed", seed, "Seed of the random pattern (default 0)")->transform(unsigned_number());
  app.add_option("--shuffle", shuffle, "Renumber the ranks by a random permutation from this seed")
      ->transform(unsigned_number());
  app.add_option("--format", format,
                 "Output format (default from --output's extension, else mat); phases: the application patterns' "
                 "phases in the order the code runs them (tm-map's time objective and tm-sim's replay follow them)")
      ->check(CLI::IsMember({"mat", "csv", "coo", "mtx", "grf", "graph", "phases"}));
  app.add_option("--output", output, "Output file (default stdout)")->check(file_name());

  // The generators' messages name what is wrong; the option it came from
  // is tm-gen's to add (the library knows no flags).
  const auto naming_option = [](const InputError& e, std::initializer_list<std::pair<const char*, const char*>> words) {
    const std::string message = e.what();
    for (const auto& [word, option] : words) {
      if (message.find(word) != std::string::npos) return InputError(std::string(option) + ": " + message);
    }
    return e;
  };

  return run("tm-gen", app, argc, argv, [&]() -> int {
    check_outputs({output});
    protect_inputs(from.files());
    // A .phases output gets the application patterns' phases (the order
    // their proxies run them); the format is checked after the pattern.
    const bool with_phases =
        format.empty() ? std::filesystem::path(output).extension() == ".phases" : format == "phases";
    CommMatrix comm;
    if (pattern == "convert") {
      if (from.path.empty()) throw InputError("convert: --from is needed");
      comm = from.load();
    } else if (!from.path.empty()) {
      throw InputError("--from is for the convert pattern");
    } else if (pattern == "random") {
      if (ranks == 0) throw InputError("random: --ranks is needed");
      try {
        comm = gen::random_sparse(ranks, degree, volume, seed);
      } catch (const InputError& e) {
        throw naming_option(e, {{"degree", "--degree"}, {"volume", "--volume"}, {"ranks", "--ranks"}});
      }
    } else if (pattern != "stencil2d" && pattern != "stencil3d") {
      if (ranks == 0) throw InputError(pattern + ": --ranks is needed");
      try {
        comm = gen::app_pattern(pattern, ranks, npb_class[0], with_phases);
      } catch (const InputError& e) {
        throw naming_option(e, {{"class", "--class"}, {"ranks", "--ranks"}});
      }
    } else {
      if (dims.empty()) throw InputError(pattern + ": --dims is needed (e.g. --dims 16x16)");
      const auto grid = parse_dims(dims);
      const auto want = pattern == "stencil2d" ? 2U : 3U;
      if (grid.size() != want) throw InputError(pattern + ": --dims needs " + std::to_string(want) + " sizes");
      try {
        comm = gen::stencil(grid, points != 0 ? points : (want == 2 ? 5 : 7), volume, periodic,
                            std::vector<Volume>(axis_volumes.begin(), axis_volumes.end()));
      } catch (const InputError& e) {
        throw naming_option(e, {{"points", "--points"},
                                {"axis volume", "--axis-volumes"},
                                {"volume", "--volume"},
                                {"dimension", "--dims"},
                                {"ranks", "--dims"}});
      }
    }
    if (shuffle) comm = gen::shuffle_ranks(comm, *shuffle);
    CommFormat out_format = CommFormat::Dense;
    if (!format.empty()) {
      out_format = comm_format_from_name(format);
    } else if (!output.empty()) {
      out_format = comm_format_from_path(output);
    }
    emit(format_comm(comm, out_format), output);
    return kExitOk;
  });
}
