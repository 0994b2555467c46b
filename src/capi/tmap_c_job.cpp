// The C API's jobs: a job described field by field in tm-map's words
// (tmap_job_set), run and written by the library's Job, the one assembly
// every front end shares.
#include <chrono>

#include "capi/handles.hpp"

using tmap::capi::duplicate;
using tmap::capi::guarded;
using tmap::capi::missing;

extern "C" {

tmap_job* tmap_job_create(void) {
  return new (std::nothrow) tmap_job{};
}

void tmap_job_free(tmap_job* job) {
  delete job;
}

tmap_status tmap_job_set(tmap_job* job, const char* key, const char* value, char** error) {
  if (job == nullptr || key == nullptr || value == nullptr) return missing(error, "job, key or value");
  return guarded(error, [&] {
    tmap::set_job_field(job->spec, key, value);
    job->job.reset();
  });
}

tmap_status tmap_job_set_comm(tmap_job* job, const tmap_comm* comm, char** error) {
  if (job == nullptr || comm == nullptr) return missing(error, "job or comm");
  return guarded(error, [&] {
    job->spec.traffic = {};
    job->spec.traffic.matrix = comm->m;
    job->job.reset();
  });
}

tmap_status tmap_job_run(tmap_job* job, tmap_result** out, char** error) {
  if (job == nullptr || out == nullptr) return missing(error, "job or out");
  return guarded(error, [&] {
    if (!job->job) job->job = std::make_unique<tmap::Job>(job->spec);
    auto reported = job->job->run();
    auto result = std::make_unique<tmap_result>();
    result->metrics = reported.report.metrics;
    result->time_s = reported.report.time_s;
    result->partial = reported.report.partial;
    result->mapping = std::move(reported.mapping);
    result->report = std::move(reported.report);
    *out = result.release();
  });
}

tmap_status tmap_job_output(tmap_job* job, const tmap_result* result, char** text, char** error) {
  if (job == nullptr || result == nullptr || text == nullptr) return missing(error, "job, result or text");
  return guarded(error, [&] {
    if (!job->job) job->job = std::make_unique<tmap::Job>(job->spec);
    tmap::ReportedMapping reported;
    reported.mapping = result->mapping;
    if (result->report) {
      reported.report = *result->report;
    } else {  // a result of tmap_map: its figures
      reported.report.metrics = result->metrics;
      reported.report.time_s = result->time_s;
      reported.report.partial = result->partial;
    }
    job->job->prepare_output(reported);
    *text = duplicate(job->job->output(reported));
  });
}

}  // extern "C"
