// The C API's handles and the helpers every entry point uses: exceptions
// turned into status codes and owned messages.
#pragma once

#include <cstdlib>
#include <cstring>
#include <memory>
#include <new>
#include <optional>
#include <string>

#include "tmap/job.hpp"
#include "tmap/scheduler.hpp"
#include "tmap/tmap.h"
#include "tmap/tmap.hpp"

struct tmap_topology {
  std::shared_ptr<tmap::Topology> t;
};
struct tmap_comm {
  tmap::CommMatrix m;
};
struct tmap_constraints {
  tmap::Constraints c;
  /// Where they came from a scheduler's allocation: the job that read it
  /// (its hosts and CPUs for tmap_launch_file), its parts all built.
  std::shared_ptr<tmap::Job> job = {};
};
struct tmap_options {
  tmap::Context context;
  tmap::RunHooks hooks;
  /// A refinement was asked for (tmap_options_set_refine, or "refine" by
  /// key): tmap_refine then runs it, even "none", instead of multilevel.
  bool refine_asked = false;
};
struct tmap_result {
  tmap::Mapping mapping;
  tmap::Metrics metrics;
  double time_s = 0;
  bool partial = false;
  /// A job's run: its whole report (tmap_job_output writes it).
  std::optional<tmap::MappingReport> report = {};
};
struct tmap_job {
  tmap::JobSpec spec;
  /// The job of `spec`, made at the first run; any tmap_job_set drops it.
  std::unique_ptr<tmap::Job> job;
};

namespace tmap::capi {

inline char* duplicate(const std::string& text) {
  auto* copy = static_cast<char*>(std::malloc(text.size() + 1));
  if (copy != nullptr) std::memcpy(copy, text.c_str(), text.size() + 1);
  return copy;
}

inline tmap_status status_of(tmap::ErrorKind kind) {
  switch (kind) {
    case tmap::ErrorKind::InvalidInput:
      return TMAP_ERROR_INPUT;
    case tmap::ErrorKind::InvalidParameter:
      return TMAP_ERROR_PARAMETER;
    case tmap::ErrorKind::Unsupported:
      return TMAP_ERROR_UNSUPPORTED;
    case tmap::ErrorKind::Resource:
      return TMAP_ERROR_RESOURCE;
    case tmap::ErrorKind::System:
      return TMAP_ERROR_SYSTEM;
    case tmap::ErrorKind::Internal:
      return TMAP_ERROR_INTERNAL;
  }
  return TMAP_ERROR_INTERNAL;
}

/// Runs body, mapping every exception to a status and a message.
template <typename Body>
tmap_status guarded(char** error, Body&& body) {
  if (error != nullptr) *error = nullptr;
  auto fail = [&](tmap_status status, const std::string& message) {
    if (error != nullptr) *error = duplicate(message);
    return status;
  };
  try {
    body();
    return TMAP_OK;
  } catch (const tmap::Error& e) {
    return fail(status_of(e.kind()), e.what());
  } catch (const std::bad_alloc&) {
    return fail(TMAP_ERROR_SYSTEM, "out of memory");
  } catch (const std::exception& e) {
    return fail(TMAP_ERROR_INTERNAL, e.what());
  } catch (...) {
    return fail(TMAP_ERROR_INTERNAL, "unknown error");
  }
}

inline tmap_status missing(char** error, const char* what) {
  if (error != nullptr) *error = duplicate(std::string("missing argument: ") + what);
  return TMAP_ERROR_ARGUMENT;
}

inline tmap_status out_of_range(char** error, const char* what, int64_t value, int64_t most) {
  if (error != nullptr) {
    *error = duplicate(std::string(what) + " = " + std::to_string(value) + " is out of range (0.." +
                       std::to_string(most) + ")");
  }
  return TMAP_ERROR_ARGUMENT;
}

}  // namespace tmap::capi
