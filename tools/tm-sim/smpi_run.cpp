#include "smpi_run.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <spawn.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <chrono>
#include <cmath>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <functional>
#include <optional>
#include <sstream>
#include <thread>

#include "interrupt.hpp"
#include "tmap/error.hpp"

namespace tmap::cli {

namespace {

namespace fs = std::filesystem;

/// The folder of the running executable.
fs::path own_folder() {
  char self[4096];
  const auto length = readlink("/proc/self/exe", self, sizeof self - 1);
  if (length <= 0) return ".";
  return fs::path(std::string(self, static_cast<std::size_t>(length))).parent_path();
}

std::string read_all(const fs::path& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

/// The last `count` lines of a text (for an error message).
std::string last_lines(const std::string& text, int count) {
  auto end = text.size();
  while (end > 0 && text[end - 1] == '\n') --end;
  auto begin = end;
  for (int k = 0; k < count && begin > 0; ++k) {
    begin = text.rfind('\n', begin - 1);
    if (begin == std::string::npos) {
      begin = 0;
      break;
    }
  }
  return text.substr(begin == 0 ? 0 : begin + 1, end - (begin == 0 ? 0 : begin + 1));
}

/// The time on the proxy's last whole progress line (proxy.h's
/// proxy_progress), or nothing before the first.
std::optional<double> last_progress(const std::string& out) {
  static constexpr std::string_view kTag = "tmap-proxy-progress: ";
  const auto end = out.rfind('\n');  // a line cut by the kill is not read
  if (end == std::string::npos) return std::nullopt;
  const auto at = out.rfind(kTag, end);
  if (at == std::string::npos) return std::nullopt;
  const auto begin = at + kTag.size();
  double time = 0;
  const auto [stop, error] = std::from_chars(out.data() + begin, out.data() + end, time);
  if (error != std::errc{} || stop == out.data() + begin || !std::isfinite(time) || time < 0) return std::nullopt;
  return time;
}

void write_file(const fs::path& path, const std::string& text) {
  std::ofstream out(path);
  out << text;
  out.close();
  if (!out) throw SystemError(path.string() + ": write failed");
}

/// A private folder for one run, removed at the end unless kept.
class RunFolder {
 public:
  explicit RunFolder(const std::string& keep) {
    if (!keep.empty()) {
      path_ = keep;
      std::error_code ec;
      // A new or empty folder: the run's files never replace anything.
      if (fs::exists(fs::symlink_status(path_)) &&
          (!fs::is_directory(fs::symlink_status(path_)) || !fs::is_empty(path_, ec))) {
        throw ParameterError("--keep " + keep + ": must be a new or empty folder");
      }
      fs::create_directories(path_, ec);
      if (!ec) path_ = fs::absolute(path_, ec);  // smpirun runs inside the folder: paths must not be relative
      if (ec) throw SystemError("--keep " + keep + ": " + ec.message());
      keep_ = true;
      return;
    }
    std::string pattern = (fs::temp_directory_path() / "tmap-sim-XXXXXX").string();
    if (mkdtemp(pattern.data()) == nullptr)
      throw SystemError("cannot create a folder in " + fs::temp_directory_path().string());
    path_ = pattern;
  }
  ~RunFolder() {
    std::error_code ec;
    if (!keep_) fs::remove_all(path_, ec);
  }
  RunFolder(const RunFolder&) = delete;
  RunFolder& operator=(const RunFolder&) = delete;
  [[nodiscard]] const fs::path& path() const { return path_; }

 private:
  fs::path path_;
  bool keep_ = false;
};

}  // namespace

void check_interrupted() {
  if (interrupted()) throw Interrupted{};
}

const std::vector<std::string>& proxy_names() {
  static const std::vector<std::string> names{"pingpong", "wavefront", "lu", "sweep3d", "snap",
                                              "bt",       "sp",        "cg", "replay"};
  return names;
}

std::string proxy_path(const std::string& name) {
  for (const char* relative : {TMAP_PROXY_DIR_BUILD, TMAP_PROXY_DIR_INSTALLED}) {
    const auto path = (own_folder() / relative / name).lexically_normal();
    if (access(path.c_str(), X_OK) == 0) return path.string();
  }
  throw SystemError("the proxy application '" + name + "' is not built (smpicc was missing at build time?)");
}

std::string platform_module_path() {
  for (const char* relative : {TMAP_PLATFORM_MODULE_BUILD, TMAP_PLATFORM_MODULE_INSTALLED}) {
    const auto path = (own_folder() / relative).lexically_normal();
    if (access(path.c_str(), R_OK) == 0) return path.string();
  }
  throw SystemError("libtmap-smpi-platform.so is not built (SimGrid was missing at build time?)");
}

namespace {

struct Finished {
  int status = 0;
  bool timed_out = false;  ///< killed at the deadline: out and err hold what it had written
  std::string out;
  std::string err;
};

/// Kills smpirun's process group and waits for every process of it:
/// smpimain too, which smpirun's death hands to tm-sim (a child subreaper,
/// see spawn_and_wait), so that none outlives tm-sim (it ran on 1-4 s
/// after a SIGTERM).
void stop_group(pid_t group, int& status) {
  kill(-group, SIGKILL);
  while (waitpid(group, &status, 0) < 0 && errno == EINTR) {
  }
  int other = 0;
  while (waitpid(-group, &other, 0) > 0 || errno == EINTR) {
  }
}

/// Runs `command` in `folder` (stdout and stderr to files there), in a
/// process group of its own, killed at `deadline`.
Finished spawn_and_wait(std::vector<std::string> command, const std::vector<std::string>& env, const fs::path& folder,
                        std::chrono::steady_clock::time_point deadline,
                        const std::function<void(double, double)>& on_progress) {
  std::vector<char*> argv;
  argv.reserve(command.size() + 1);
  for (auto& word : command) argv.push_back(word.data());
  argv.push_back(nullptr);
  std::vector<std::string> env_text = env;
  std::vector<char*> envp;
  envp.reserve(env_text.size() + 1);
  for (auto& e : env_text) envp.push_back(e.data());
  envp.push_back(nullptr);

  const auto out_path = folder / "smpirun.out";
  const auto err_path = folder / "smpirun.err";
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  posix_spawn_file_actions_addchdir_np(&actions, folder.c_str());  // smpirun's own temporary files
  posix_spawnattr_t attributes;
  posix_spawnattr_init(&attributes);
  posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETPGROUP);
  posix_spawnattr_setpgroup(&attributes, 0);  // a group of its own: a time limit stops all of it
  // The processes smpirun starts come back to tm-sim if smpirun dies
  // first, so that stop_group can wait for them.
  (void)prctl(PR_SET_CHILD_SUBREAPER, 1UL, 0UL, 0UL, 0UL);
  pid_t pid = 0;
  const int spawned = posix_spawnp(&pid, "smpirun", &actions, &attributes, argv.data(), envp.data());
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attributes);
  if (spawned != 0) throw SystemError("cannot run smpirun (SimGrid's, from Debian's simgrid package): not found");

  Finished finished;
  const auto started = std::chrono::steady_clock::now();
  auto gap = std::chrono::seconds(1);
  auto next_progress = started + gap;
  while (true) {
    const auto done = waitpid(pid, &finished.status, WNOHANG);
    if (done == pid) break;
    if (done < 0) throw SystemError("waiting for smpirun failed");
    if (interrupted()) {
      // smpirun and smpimain are in the group; the folder goes with the throw.
      stop_group(pid, finished.status);
      throw Interrupted{};
    }
    if (std::chrono::steady_clock::now() > deadline) {
      stop_group(pid, finished.status);
      finished.timed_out = true;
      break;
    }
    if (on_progress && std::chrono::steady_clock::now() > next_progress) {
      if (const auto reached = last_progress(read_all(out_path))) {
        on_progress(*reached, std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count());
      }
      gap = std::min<std::chrono::seconds>(gap * 2, std::chrono::seconds(60));
      next_progress += gap;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  finished.out = read_all(out_path);
  finished.err = read_all(err_path);
  return finished;
}

}  // namespace

ProxyReport run_proxy(const ProxyRun& run, const sim::PlatformSpec& given_platform, const Mapping& mapping) {
  check_interrupted();
  const RunFolder folder(run.keep);
  auto platform = given_platform;
  if (!run.machine_text.empty()) {
    write_file(folder.path() / run.machine_name, run.machine_text);
    platform.topology = (folder.path() / run.machine_name).string();
  }
  for (const auto& [name, content] : run.files) write_file(folder.path() / name, content);
  const auto spec_path = folder.path() / "platform.txt";
  write_file(spec_path, sim::to_text(platform));
  std::string hosts;
  for (const auto pe : mapping) hosts += sim::host_name(pe) + "\n";
  write_file(folder.path() / "hosts.txt", hosts);

  // smpirun (a shell script) splits the host file's path and the program's
  // arguments on spaces and expands their wildcards, and takes any --cfg= or
  // --log= among them as its own: the host file is named relative to the
  // folder smpirun runs in, and the proxy's arguments travel in
  // TMAP_PROXY_ARGS (words without white space, read by proxy.h), so they
  // reach the proxy only.
  const std::vector<std::string> command{"smpirun",
                                         "-platform",
                                         run.platform_module,
                                         "-hostfile",
                                         "hosts.txt",
                                         "-np",
                                         std::to_string(mapping.size()),
                                         "-no-privatize",
                                         "--cfg=network/model:CM02",
                                         "--cfg=network/crosstraffic:0",
                                         "--cfg=smpi/simulate-computation:no",
                                         "--cfg=smpi/wtime:0",
                                         "--log=root.thresh:critical"};
  auto proxy_args = run.args;
  if (run.want_matrix) proxy_args.insert(proxy_args.end(), {"--matrix", "traffic.coo"});
  std::string args_text;
  for (const auto& word : proxy_args) args_text += (args_text.empty() ? "" : " ") + word;
  std::vector<std::string> env{"TMAP_SMPI_PLATFORM=" + spec_path.string(), "TMAP_PROXY_ARGS=" + args_text};
  for (char** e = environ; *e != nullptr; ++e) {
    const std::string_view entry(*e);
    if (!entry.starts_with("TMAP_SMPI_PLATFORM=") && !entry.starts_with("TMAP_PROXY_ARGS=")) env.emplace_back(*e);
  }
  const auto deadline =
      std::chrono::steady_clock::now() +
      std::chrono::duration_cast<std::chrono::steady_clock::duration>(std::chrono::duration<double>(run.timeout_s));

  // SimGrid's max-min solver takes a link's flows off its sum of weights
  // (about 1 / route latency each) and compares what is left with an
  // absolute precision, 1e-5 by default: with thousands of flows on one link
  // the rounding can pass it and smpimain aborts, asking for a coarser
  // precision. Then the run is repeated at 1e-4, then 1e-3: a link counts as
  // full within 0.01 % (0.1 %) of its bandwidth, below what the report shows.
  // SimGrid 3.32 can also crash on that failure instead of saying it: its
  // assertion message reads the constraint before the failing one
  // (cnst_light_tab[pos - 1] in MaxMin::do_solve), outside the table when the
  // failing one is the first (seen on LU at 4,096 ranks, 44 minutes in). So a
  // segmentation fault is retried the same way (one from another cause fails
  // at every precision and is then reported as it is).
  for (const double precision : {kSimGridMaxminPrecision, 1e-4, 1e-3}) {
    auto attempt = command;
    if (precision != kSimGridMaxminPrecision) attempt.push_back(fmt::format("--cfg=maxmin/precision:{:g}", precision));
    attempt.push_back(run.program);
    const auto finished = spawn_and_wait(attempt, env, folder.path(), deadline, run.on_progress);
    const auto& out = finished.out;
    const auto& err = finished.err;
    if (finished.timed_out) {
      // What a user waited for is not thrown away: how far the run got.
      const auto reached = last_progress(out);
      if (!reached) {
        throw SystemError("smpirun passed the time limit (" + std::to_string(static_cast<long>(run.timeout_s)) +
                          " s) before the application's clock moved");
      }
      ProxyReport report;
      report.maxmin_precision = precision;
      report.time_s = *reached;
      report.stopped = true;
      return report;
    }
    if (const auto refused = out.find("tmap-proxy-error: "); refused != std::string::npos) {
      const auto begin = refused + std::string_view("tmap-proxy-error: ").size();
      throw ParameterError("--app: " + out.substr(begin, out.find('\n', begin) - begin));
    }
    const auto at = out.find("tmap-proxy: ");
    const auto status = finished.status;
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || at == std::string::npos) {
      const bool solver_gave_up = err.find("--cfg=maxmin/precision") != std::string::npos ||
                                  (WIFEXITED(status) && WEXITSTATUS(status) == 128 + SIGSEGV) ||
                                  (WIFSIGNALED(status) && WTERMSIG(status) == SIGSEGV);
      if (solver_gave_up && precision < 1e-3) continue;
      const auto code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
      throw SystemError("smpirun failed (exit " + std::to_string(code) + "): " + last_lines(err + out, 4));
    }
    ProxyReport report;
    report.maxmin_precision = precision;
    std::istringstream line(out.substr(at, out.find('\n', at) - at));
    std::string word;
    std::string name;
    line >> word >> name;
    while (line >> word) {
      if (word == "time") line >> report.time_s;
      if (word == "comm") line >> report.comm_s;
      if (word == "messages") line >> report.messages;
      if (word == "bytes") line >> report.bytes;
    }
    if (run.want_matrix) {
      const auto matrix = folder.path() / "traffic.coo";
      std::error_code ec;
      if (!fs::is_regular_file(matrix, ec)) throw SystemError("the proxy wrote no traffic matrix (--matrix)");
      report.matrix = read_all(matrix);
    }
    return report;
  }
  throw InternalError("tm-sim: no maxmin precision left to try");  // the loop returns or throws
}

}  // namespace tmap::cli
