// What the questions to Slurm share: where its configuration is, and
// standard error held while libslurm runs (it logs there under the
// program's name; tmap makes its own message of what it said).
#pragma once

#include <cstdio>
#include <string>

namespace tmap::sched {

/// The configuration Slurm's tools would read (SLURM_CONF, else
/// /etc/slurm/slurm.conf, else a configless node's
/// /run/slurm/conf/slurm.conf), or empty when there is none (libslurm would
/// then retry for a minute before failing).
[[nodiscard]] std::string slurm_configuration();

/// Why Slurm's controller cannot be asked now, or empty when it can (or
/// when this cannot be told): none of the controllers slurm.conf names
/// accepts a TCP connection within two seconds. libslurm itself waits
/// MessageTimeout and retries for 18-27 s on an unreachable controller;
/// this answers first, once per process. Built without libslurm: empty.
[[nodiscard]] std::string controller_unreachable();

/// While it lives, standard error goes to a temporary file.
class CapturedStderr {
 public:
  CapturedStderr();
  CapturedStderr(const CapturedStderr&) = delete;
  CapturedStderr& operator=(const CapturedStderr&) = delete;
  ~CapturedStderr();
  /// Restores standard error; the first line written meanwhile, if any.
  [[nodiscard]] std::string first_line();

 private:
  void restore();
  std::FILE* file_;
  int saved_ = -1;
};

}  // namespace tmap::sched
