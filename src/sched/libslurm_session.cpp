#include "sched/libslurm_session.hpp"

#include <unistd.h>

#include <cstdlib>
#include <filesystem>

namespace tmap::sched {

std::string slurm_configuration() {
  std::error_code error;
  if (const char* conf = std::getenv("SLURM_CONF"); conf != nullptr && *conf != '\0') {
    return std::filesystem::is_regular_file(conf, error) ? conf : "";
  }
  for (const char* path : {"/etc/slurm/slurm.conf", "/run/slurm/conf/slurm.conf"}) {
    if (std::filesystem::is_regular_file(path, error)) return path;
  }
  return {};
}

CapturedStderr::CapturedStderr() : file_(std::tmpfile()) {
  std::fflush(stderr);
  saved_ = file_ != nullptr ? dup(STDERR_FILENO) : -1;
  if (saved_ >= 0) dup2(fileno(file_), STDERR_FILENO);
}

CapturedStderr::~CapturedStderr() {
  restore();
  if (file_ != nullptr) std::fclose(file_);
}

std::string CapturedStderr::first_line() {
  restore();
  if (file_ == nullptr) return {};
  std::rewind(file_);
  char line[512] = {};
  if (std::fgets(line, sizeof line, file_) == nullptr) return {};
  std::string text(line);
  while (!text.empty() && (text.back() == '\n' || text.back() == '\r')) text.pop_back();
  return text;
}

void CapturedStderr::restore() {
  if (saved_ < 0) return;
  std::fflush(stderr);
  dup2(saved_, STDERR_FILENO);
  close(saved_);
  saved_ = -1;
}

}  // namespace tmap::sched
