#include "sched/libslurm_session.hpp"

#include <dlfcn.h>
#include <fcntl.h>
#include <netdb.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <mutex>
#include <string>
#include <vector>

#if TMAP_HAVE_LIBSLURM
#include <slurm/slurm.h>
#endif

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

namespace {

/// Whether `host`:`port` accepts a TCP connection within `wait_ms`.
bool accepts(const std::string& host, std::uint32_t port, int wait_ms) {
  addrinfo hints{};
  hints.ai_socktype = SOCK_STREAM;
  addrinfo* found = nullptr;
  if (getaddrinfo(host.c_str(), std::to_string(port).c_str(), &hints, &found) != 0 || found == nullptr) return false;
  bool connected = false;
  for (const addrinfo* a = found; a != nullptr && !connected; a = a->ai_next) {
    const int fd = socket(a->ai_family, a->ai_socktype | SOCK_NONBLOCK | SOCK_CLOEXEC, a->ai_protocol);
    if (fd < 0) continue;
    if (connect(fd, a->ai_addr, a->ai_addrlen) == 0) {
      connected = true;
    } else if (errno == EINPROGRESS) {
      pollfd p{fd, POLLOUT, 0};
      int error = 0;
      socklen_t length = sizeof error;
      connected = poll(&p, 1, wait_ms) == 1 && getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &length) == 0 && error == 0;
    }
    close(fd);
  }
  freeaddrinfo(found);
  return connected;
}

}  // namespace

std::string controller_unreachable() {
#if TMAP_HAVE_LIBSLURM
  static std::once_flag once;
  static std::string why;
  std::call_once(once, [] {
    // libslurm's own reading of slurm.conf (exported, not in its public
    // header: looked up, and the check skipped where it is missing).
    using Lock = slurm_conf_t* (*)();
    using Unlock = void (*)();
    const auto lock = reinterpret_cast<Lock>(dlsym(RTLD_DEFAULT, "slurm_conf_lock"));
    const auto unlock = reinterpret_cast<Unlock>(dlsym(RTLD_DEFAULT, "slurm_conf_unlock"));
    if (lock == nullptr || unlock == nullptr || slurm_configuration().empty()) return;
    std::vector<std::string> addresses;
    std::uint32_t port = 0;
    {
      CapturedStderr log;  // libslurm logs its parse errors there
      const slurm_conf_t* conf = lock();
      if (conf != nullptr) {
        for (std::uint32_t k = 0; k < conf->control_cnt; ++k) {
          if (conf->control_addr != nullptr && conf->control_addr[k] != nullptr) {
            addresses.emplace_back(conf->control_addr[k]);
          }
        }
        port = conf->slurmctld_port;
      }
      unlock();
    }
    if (addresses.empty() || port == 0) return;
    constexpr int kWaitMs = 2000;
    for (const auto& address : addresses) {
      if (accepts(address, port, kWaitMs)) return;
    }
    why = "slurmctld (" + addresses.front() + ":" + std::to_string(port) +
          (addresses.size() > 1 ? " and " + std::to_string(addresses.size() - 1) + " backup" : "") +
          ") accepts no connection within 2 s";
  });
  return why;
#else
  return {};
#endif
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
