// The C API: thin wrappers over the C++ API that turn exceptions into status
// codes and owned messages.
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <new>
#include <optional>
#include <string>

#include "capi/handles.hpp"

namespace {

using tmap::capi::duplicate;
using tmap::capi::guarded;
using tmap::capi::missing;
using tmap::capi::out_of_range;

/// A mapping made by `make(problem, run)` with the options' hooks and this
/// call's own stop flag, timed and scored: tmap_map's and tmap_refine's result.
template <typename Make>
tmap_result* timed_result(const tmap_topology& topology, const tmap_comm& comm, const tmap_constraints* constraints,
                          const tmap_options* options, const tmap::Context& context, Make&& make) {
  const auto all = constraints == nullptr ? tmap::Constraints::all(*topology.t) : constraints->c;
  tmap::Run run(context, options == nullptr ? tmap::RunHooks{} : options->hooks);
  run.hooks.control = std::make_shared<tmap::RunControl>();  // this call's own stop flag
  const tmap::Problem problem{comm.m, *topology.t, all};
  const auto start = std::chrono::steady_clock::now();
  auto result = std::make_unique<tmap_result>();
  result->mapping = make(problem, run);
  result->partial = run.hooks.control->stop.load();
  result->time_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  result->metrics = tmap::evaluate(comm.m, *topology.t, result->mapping);
  return result.release();
}

}  // namespace

extern "C" {

const char* tmap_version(void) {
  return tmap::version();
}
void tmap_string_free(char* message) {
  std::free(message);
}

tmap_status tmap_topology_load(const char* spec, tmap_topology** out, char** error) {
  if (spec == nullptr || out == nullptr) return missing(error, "spec or out");
  return guarded(error, [&] { *out = new tmap_topology{tmap::load_topology(spec)}; });
}

tmap_status tmap_topology_load_hwloc_xml(const char* path, tmap_topology** out, char** error) {
  if (path == nullptr || out == nullptr) return missing(error, "path or out");
  return guarded(error, [&] { *out = new tmap_topology{tmap::load_hwloc_xml(path)}; });
}

int64_t tmap_topology_size(const tmap_topology* topology) {
  return topology == nullptr ? -1 : topology->t->size();
}

int64_t tmap_topology_distance(const tmap_topology* topology, int64_t a, int64_t b) {
  if (topology == nullptr || a < 0 || b < 0 || a >= topology->t->size() || b >= topology->t->size()) return -1;
  return topology->t->distance(a, b);
}

void tmap_topology_free(tmap_topology* topology) {
  delete topology;
}

tmap_status tmap_comm_from_csr(int64_t n, const int64_t* row_begin, const int64_t* columns, const int64_t* volumes,
                               tmap_comm** out, char** error) {
  if (row_begin == nullptr || out == nullptr || n < 0) return missing(error, "n, row_begin or out");
  if (n > TMAP_MAX_RANKS) return out_of_range(error, "n", n, TMAP_MAX_RANKS);
  if (row_begin[n] > 0 && (columns == nullptr || volumes == nullptr)) return missing(error, "columns or volumes");
  return guarded(error, [&] {
    std::vector<tmap::CommEntry> entries;
    for (int64_t i = 0; i < n; ++i) {
      if (row_begin[i] > row_begin[i + 1]) throw tmap::InputError("row_begin decreases at row " + std::to_string(i));
      for (int64_t k = row_begin[i]; k < row_begin[i + 1]; ++k) entries.push_back({i, columns[k], volumes[k]});
    }
    *out = new tmap_comm{tmap::CommMatrix::from_entries(n, std::move(entries))};
  });
}

tmap_status tmap_comm_from_dense(int64_t n, const int64_t* matrix, tmap_comm** out, char** error) {
  if (matrix == nullptr || out == nullptr || n < 0) return missing(error, "n, matrix or out");
  if (n > TMAP_MAX_DENSE_RANKS) return out_of_range(error, "n", n, TMAP_MAX_DENSE_RANKS);
  return guarded(error, [&] {
    std::vector<tmap::CommEntry> entries;
    for (int64_t i = 0; i < n; ++i) {
      for (int64_t j = 0; j < n; ++j) {
        if (matrix[i * n + j] != 0) entries.push_back({i, j, matrix[i * n + j]});
      }
    }
    *out = new tmap_comm{tmap::CommMatrix::from_entries(n, std::move(entries))};
  });
}

tmap_status tmap_comm_from_dense_double(int64_t n, const double* matrix, tmap_comm** out, char** error) {
  if (matrix == nullptr || out == nullptr || n < 0) return missing(error, "n, matrix or out");
  if (n > TMAP_MAX_DENSE_RANKS) return out_of_range(error, "n", n, TMAP_MAX_DENSE_RANKS);
  return guarded(error, [&] {
    double largest = 0;
    for (int64_t k = 0; k < n * n; ++k) {
      if (!std::isfinite(matrix[k]) || matrix[k] < 0) {
        throw tmap::InputError("affinity (" + std::to_string(k / n) + ", " + std::to_string(k % n) +
                               ") must be finite and >= 0");
      }
      if (k / n != k % n) largest = std::max(largest, matrix[k]);
    }
    const double scale = largest > 0 ? std::ldexp(1.0, 40) / largest : 1.0;
    std::vector<tmap::CommEntry> entries;
    for (int64_t i = 0; i < n; ++i) {
      for (int64_t j = 0; j < n; ++j) {
        const auto v = static_cast<tmap::Volume>(std::llround(matrix[i * n + j] * scale));
        if (v != 0) entries.push_back({i, j, v});
      }
    }
    *out = new tmap_comm{tmap::CommMatrix::from_entries(n, std::move(entries))};
  });
}

tmap_status tmap_comm_load(const char* path, const char* format, tmap_comm** out, char** error) {
  if (path == nullptr || out == nullptr) return missing(error, "path or out");
  return guarded(error, [&] {
    *out = new tmap_comm{format == nullptr ? tmap::read_comm(path)
                                           : tmap::read_comm(path, tmap::comm_format_from_name(format))};
  });
}

int64_t tmap_comm_ranks(const tmap_comm* comm) {
  return comm == nullptr ? -1 : comm->m.num_ranks();
}
void tmap_comm_free(tmap_comm* comm) {
  delete comm;
}

tmap_status tmap_constraints_create(const tmap_topology* topology, const int64_t* pes, int64_t count,
                                    int64_t oversubscription, tmap_constraints** out, char** error) {
  if (topology == nullptr || out == nullptr) return missing(error, "topology or out");
  if (pes != nullptr && (count < 0 || count > tmap::kMaxPEs)) return out_of_range(error, "count", count, tmap::kMaxPEs);
  return guarded(error, [&] {
    if (pes == nullptr) {
      *out = new tmap_constraints{tmap::Constraints::all(*topology->t, oversubscription)};
    } else {
      *out = new tmap_constraints{
          tmap::Constraints::allowed(*topology->t, std::vector<tmap::PE>(pes, pes + count), oversubscription)};
    }
  });
}

tmap_status tmap_topology_from_scheduler(const char* node, tmap_topology** out, char** error) {
  if (out == nullptr) return missing(error, "out");
  return guarded(error, [&] {
    // Its note is for tools to show.
    const auto machine = tmap::job_scheduler().machine(node != nullptr ? node : "", {}, {});
    *out = new tmap_topology{std::shared_ptr<tmap::Topology>(tmap::load_machine(machine.spec))};
  });
}

tmap_status tmap_constraints_from_allocation(const tmap_topology* topology, const char* nodes, int64_t oversubscription,
                                             tmap_constraints** out, char** error) {
  if (topology == nullptr || out == nullptr) return missing(error, "topology or out");
  return guarded(error, [&] {
    // The job's allocation, as tm-map --alloc (or --alloc-from-env) reads it.
    tmap::JobSpec spec;
    spec.words.alloc = "nodes";
    spec.machine.built = topology->t;
    spec.allocation.kind =
        nodes != nullptr ? tmap::AllocationSource::Kind::Hosts : tmap::AllocationSource::Kind::Scheduler;
    if (nodes != nullptr) spec.allocation.hosts = nodes;
    spec.allocation.oversubscription = oversubscription < 1 ? 1 : oversubscription;
    auto job = std::make_shared<tmap::Job>(std::move(spec));  // its notes are for tools to show
    const auto& constraints = job->constraints();
    *out = new tmap_constraints{constraints, std::move(job)};
  });
}

void tmap_constraints_free(tmap_constraints* constraints) {
  delete constraints;
}

tmap_options* tmap_options_create(void) {
  return new (std::nothrow) tmap_options{};
}
void tmap_options_set_seed(tmap_options* options, uint64_t seed) {
  if (options != nullptr) options->context.seed = seed;
}
tmap_status tmap_options_set(tmap_options* options, const char* key, const char* value, char** error) {
  if (options == nullptr || key == nullptr || value == nullptr) return missing(error, "options, key or value");
  return guarded(error, [&] {
    tmap::set_option(options->context, key, value);
    if (std::string_view(key) == "refine") options->refine_asked = true;
  });
}
tmap_status tmap_options_set_preset(tmap_options* options, const char* name, char** error) {
  if (options == nullptr || name == nullptr) return missing(error, "options or name");
  return guarded(error, [&] { options->context = tmap::preset(name); });
}
tmap_status tmap_options_load_config(tmap_options* options, const char* path, char** error) {
  if (options == nullptr || path == nullptr) return missing(error, "options or path");
  return guarded(error, [&] { options->context = tmap::load_config(tmap::read_file(path), path, options->context); });
}
void tmap_options_set_threads(tmap_options* options, int threads) {
  if (options != nullptr && threads > 0) options->context.threads = threads;
}
void tmap_options_set_ohtma_loop(tmap_options* options, int64_t loop) {
  // The generic setter's row (a negative loop: the paper's n/2, as before).
  if (options != nullptr)
    (void)tmap_options_set(options, "ohtma-loop", loop < 0 ? "default" : std::to_string(loop).c_str(), nullptr);
}
tmap_status tmap_options_set_refine(tmap_options* options, const char* kind, int64_t iterations, char** error) {
  if (options == nullptr) return missing(error, "options");
  if (kind == nullptr) return missing(error, "kind");
  return guarded(error, [&] {
    options->context.refine.kind = tmap::refine_kind_from_name(kind);
    options->context.refine.iterations = iterations;
    options->refine_asked = true;
  });
}
void tmap_options_set_progress(tmap_options* options, tmap_progress_callback callback, void* user_data) {
  if (options == nullptr) return;
  if (callback == nullptr) {
    options->hooks.progress = nullptr;
    return;
  }
  options->hooks.progress = [callback, user_data](const tmap::Progress& p) {
    // NUL-terminated copies for C (string_views need not be).
    const std::string stage(p.stage);
    const std::string detail(p.detail);
    const tmap_progress c{stage.c_str(), detail.c_str(), p.fraction, p.hop_bytes, p.elapsed_s, p.done ? 1 : 0};
    return callback(&c, user_data) != 0;
  };
}

void tmap_options_free(tmap_options* options) {
  delete options;
}

int tmap_strategy_count(void) {
  return static_cast<int>(tmap::strategy_table().size());
}
const char* tmap_strategy_name(int index) {
  const auto table = tmap::strategy_table();
  if (index < 0 || index >= static_cast<int>(table.size())) return nullptr;
  return table[static_cast<std::size_t>(index)].name.data();  // the table's names are string literals
}

tmap_status tmap_map(const tmap_topology* topology, const tmap_comm* comm, const tmap_constraints* constraints,
                     const char* strategy, const tmap_options* options, tmap_result** out, char** error) {
  if (topology == nullptr || comm == nullptr || out == nullptr) return missing(error, "topology, comm or out");
  return guarded(error, [&] {
    tmap::Context context = options == nullptr ? tmap::Context{} : options->context;
    if (strategy != nullptr) context.strategy = strategy;
    *out = timed_result(
        *topology, *comm, constraints, options, context,
        [](const tmap::Problem& problem, const tmap::Run& run) { return tmap::map(problem, run.config(), run.hooks); });
  });
}

tmap_status tmap_refine(const tmap_topology* topology, const tmap_comm* comm, const tmap_constraints* constraints,
                        const int64_t* start, int64_t n, const tmap_options* options, tmap_result** out, char** error) {
  if (topology == nullptr || comm == nullptr || start == nullptr || out == nullptr) {
    return missing(error, "topology, comm, start or out");
  }
  if (n != comm->m.num_ranks()) {
    if (error != nullptr) {
      *error = duplicate("start has " + std::to_string(n) + " entries but comm has " +
                         std::to_string(comm->m.num_ranks()) + " ranks");
    }
    return TMAP_ERROR_ARGUMENT;
  }
  return guarded(error, [&] {
    tmap::Context context = options == nullptr ? tmap::Context{} : options->context;
    tmap::refine_given_mapping_by_default(context, options != nullptr && options->refine_asked);
    *out = timed_result(*topology, *comm, constraints, options, context,
                        [&](const tmap::Problem& problem, const tmap::Run& run) {
                          tmap::StageStats stages;
                          return tmap::refine_from(tmap::Mapping(start, start + n), problem, run, stages);
                        });
  });
}

int64_t tmap_result_ranks(const tmap_result* result) {
  return result == nullptr ? -1 : static_cast<int64_t>(result->mapping.size());
}
const int64_t* tmap_result_mapping(const tmap_result* result) {
  return result == nullptr ? nullptr : result->mapping.data();
}
int64_t tmap_result_hop_bytes(const tmap_result* result) {
  return result == nullptr ? -1 : result->metrics.hop_bytes;
}
double tmap_result_avg_hops(const tmap_result* result) {
  return result == nullptr ? -1 : result->metrics.avg_hops;
}
int64_t tmap_result_max_com(const tmap_result* result) {
  return result == nullptr ? -1 : result->metrics.max_com;
}
double tmap_result_time(const tmap_result* result) {
  return result == nullptr ? -1 : result->time_s;
}
int tmap_result_partial(const tmap_result* result) {
  return result != nullptr && result->partial ? 1 : 0;
}
void tmap_result_free(tmap_result* result) {
  delete result;
}

tmap_status tmap_launch_file(const tmap_topology* topology, const tmap_result* result,
                             const tmap_constraints* constraints, const char* format, const char* program, char** text,
                             char** error) {
  if (topology == nullptr || result == nullptr || format == nullptr || text == nullptr) {
    return missing(error, "topology, result, format or text");
  }
  return guarded(error, [&] {
    tmap::OutputSpec output;
    output.format = tmap::mapping_format_from_name(format);
    output.program = program != nullptr ? program : "";
    if (constraints != nullptr && constraints->job) {
      if (&constraints->job->machine() != topology->t.get()) {
        throw tmap::ParameterError("constraints: made for another topology");
      }
      *text = duplicate(constraints->job->launch_file(result->mapping, output));
      return;
    }
    tmap::JobSpec spec;
    spec.machine.built = topology->t;
    *text = duplicate(tmap::Job(std::move(spec)).launch_file(result->mapping, output));
  });
}

tmap_status tmap_topomatch(const char* topology_file, const double* affinity, int64_t n, const int64_t* constraints,
                           int64_t constraint_count, int64_t oversubscription, const char* strategy, int64_t* sigma,
                           char** error) {
  if (topology_file == nullptr || affinity == nullptr || sigma == nullptr) {
    return missing(error, "topology_file, affinity or sigma");
  }
  tmap_topology* topology = nullptr;
  tmap_comm* comm = nullptr;
  tmap_constraints* allowed = nullptr;
  tmap_result* result = nullptr;
  tmap_status status = tmap_topology_load(topology_file, &topology, error);
  if (status == TMAP_OK) status = tmap_comm_from_dense_double(n, affinity, &comm, error);
  if (status == TMAP_OK) {
    status = tmap_constraints_create(topology, constraints, constraints == nullptr ? 0 : constraint_count,
                                     oversubscription < 1 ? 1 : oversubscription, &allowed, error);
  }
  if (status == TMAP_OK) status = tmap_map(topology, comm, allowed, strategy, nullptr, &result, error);
  if (status == TMAP_OK) std::memcpy(sigma, tmap_result_mapping(result), static_cast<std::size_t>(n) * sizeof(int64_t));
  tmap_result_free(result);
  tmap_constraints_free(allowed);
  tmap_comm_free(comm);
  tmap_topology_free(topology);
  return status;
}

}  // extern "C"
