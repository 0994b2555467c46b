// The traffic of a job: a matrix a front end holds, or a file read as -c
// reads it (every format by its extension, Open MPI monitoring output by
// its prefix, file or folder).
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <filesystem>

#include "job/job_state.hpp"
#include "tmap/io.hpp"

namespace tmap {

namespace {

CommMatrix read_matrix(const TrafficSource& source) {
  if (source.matrix) return *source.matrix;
  const auto& path = source.path;
  if (path.empty()) throw InputError("-c: no traffic given");
  std::error_code ec;
  if (source.format.empty() && !is_ompi_monitoring(path) && !std::filesystem::is_directory(path, ec)) {
    bool known = true;
    try {
      (void)comm_format_from_path(path);
    } catch (const InputError&) {
      known = false;
    }
    if (!known && !std::filesystem::exists(path, ec)) {
      throw InputError(path, "no such file, nor Open MPI monitoring output " + path +
                                 ".<rank>.prof (check the name: -c takes the prefix given to "
                                 "pml_monitoring_filename, one of its files or their folder)");
    }
    if (!known) {
      throw InputError(path, "cannot tell the communication format from the extension '" +
                                 std::filesystem::path(path).extension().string() +
                                 "': name it with --comm-format FORMAT (" +
                                 fmt::format("{}", fmt::join(comm_format_names(), ", ")) + ")");
    }
  }
  if (source.format.empty()) return read_comm(path, std::nullopt, source.monitoring);
  return read_comm(path, comm_format_from_name(source.format), source.monitoring);
}

}  // namespace

CommMatrix read_traffic(const TrafficSource& source) {
  auto matrix = read_matrix(source);
  if (!source.weight_values.empty()) {
    try {
      return matrix.with_rank_weights(source.weight_values);
    } catch (const InputError& e) {
      throw InputError(std::string("weights: ") + e.what());
    }
  }
  if (source.weights.empty()) return matrix;
  return matrix.with_rank_weights(read_rank_weights(source.weights, matrix.num_ranks()));
}

}  // namespace tmap
