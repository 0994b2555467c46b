#include "sched/slurm_cpus.hpp"

#include <algorithm>
#include <cstdlib>
#include <set>

#if TMAP_HAVE_LIBSLURM
#include <slurm/slurm.h>
#include <slurm/slurm_errno.h>

#include "sched/libslurm_session.hpp"
#endif

namespace tmap::sched {

std::vector<std::int64_t> parse_cpu_list(const std::string& text) {
  std::set<std::int64_t> cpus;
  std::size_t pos = 0;
  const auto number = [&text, &pos](std::int64_t& value) {
    const std::size_t start = pos;
    value = 0;
    while (pos < text.size() && text[pos] >= '0' && text[pos] <= '9' && pos - start < 9) {
      value = value * 10 + (text[pos++] - '0');
    }
    return pos > start;
  };
  while (pos < text.size()) {
    std::int64_t lo = 0;
    std::int64_t hi = 0;
    if (!number(lo)) return {};
    hi = lo;
    if (pos < text.size() && text[pos] == '-') {
      ++pos;
      if (!number(hi) || hi < lo || hi - lo > (1 << 20)) return {};
    }
    for (std::int64_t c = lo; c <= hi; ++c) cpus.insert(c);
    if (pos < text.size() && text[pos++] != ',') return {};
  }
  return {cpus.begin(), cpus.end()};
}

#if TMAP_HAVE_LIBSLURM

SlurmJobCpus slurm_job_cpus(const std::vector<std::string>& job_ids) {
  SlurmJobCpus answer;
  if (slurm_configuration().empty()) {
    answer.unavailable = "no Slurm configuration to find the controller (SLURM_CONF, /etc/slurm/slurm.conf)";
    return answer;
  }
  if (const auto down = controller_unreachable(); !down.empty()) {
    answer.unavailable = down;
    return answer;
  }
  std::map<std::string, std::set<std::int64_t>> held;
  for (const auto& text : job_ids) {
    char* end = nullptr;
    const unsigned long id = std::strtoul(text.c_str(), &end, 10);
    if (text.empty() || *end != '\0' || id == 0 || id > 0xffffffffUL) {
      answer.unavailable = "SLURM_JOB_ID '" + text + "' is not a job id";
      return answer;
    }
    job_info_msg_t* jobs = nullptr;
    CapturedStderr log;
    const int rc = slurm_load_job(&jobs, static_cast<std::uint32_t>(id), SHOW_DETAIL);
    const int error = slurm_get_errno();
    const auto said = log.first_line();
    if (rc != SLURM_SUCCESS || jobs == nullptr) {
      answer.unavailable = "slurmctld did not describe job " + text + ": " + slurm_strerror(error) +
                           (said.empty() ? "" : " (libslurm: " + said + ")");
      return answer;
    }
    for (std::uint32_t j = 0; j < jobs->record_count; ++j) {
      slurm_job_info_t& job = jobs->job_array[j];
      if (job.job_id != id || job.nodes == nullptr || job.job_resrcs == nullptr) continue;
      hostlist_t hosts = slurm_hostlist_create(job.nodes);
      while (char* host = slurm_hostlist_shift(hosts)) {
        char list[4096] = {};
        if (slurm_job_cpus_allocated_str_on_node(list, sizeof list, job.job_resrcs, host) == SLURM_SUCCESS) {
          const auto cpus = parse_cpu_list(list);
          held[host].insert(cpus.begin(), cpus.end());
        }
        std::free(host);  // NOLINT(cppcoreguidelines-no-malloc): libslurm's strings are malloc'ed
      }
      slurm_hostlist_destroy(hosts);
    }
    slurm_free_job_info_msg(jobs);
  }
  for (auto& [host, cpus] : held) answer.by_host[host] = {cpus.begin(), cpus.end()};
  if (answer.by_host.empty()) answer.unavailable = "slurmctld gave no CPU ids for the job";
  return answer;
}

#else

SlurmJobCpus slurm_job_cpus(const std::vector<std::string>& /*job_ids*/) {
  return {{}, "tmap was built without libslurm (Debian's libslurm-dev)"};
}

#endif

}  // namespace tmap::sched
