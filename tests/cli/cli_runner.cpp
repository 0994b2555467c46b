#include "cli_runner.hpp"

#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace tmap::test {

namespace {

std::string slurp(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string shell_quote(const std::string& word) {
  std::string q = "'";
  for (const char c : word) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

}  // namespace

Sandbox::Sandbox() {
  static std::atomic<int> counter{0};
  dir_ = std::filesystem::temp_directory_path() /
         ("tmap_cli_" + std::to_string(::getpid()) + "_" + std::to_string(counter++));
  std::filesystem::remove_all(dir_);
  std::filesystem::create_directories(dir_);
}

Sandbox::~Sandbox() {
  std::error_code ec;
  std::filesystem::remove_all(dir_, ec);
}

void Sandbox::write(const std::string& name, const std::string& content) const {
  const auto path = dir_ / name;
  std::filesystem::create_directories(path.parent_path());  // "d/keep" makes a folder d
  std::ofstream(path, std::ios::binary) << content;
}

std::string Sandbox::read(const std::string& name) const {
  return slurp(dir_ / name);
}

bool Sandbox::exists(const std::string& name) const {
  return std::filesystem::exists(dir_ / name);
}

Outcome Sandbox::run(const std::string& tool, const std::vector<std::string>& args,
                     const std::vector<std::pair<std::string, std::string>>& env) const {
  std::string command = "cd " + shell_quote(dir_.string()) +
                        " && env -u SLURM_JOB_NODELIST -u PBS_NODEFILE -u SLURM_JOB_ID"
                        " -u SLURM_JOB_CPUS_PER_NODE -u SLURM_CPUS_PER_TASK";
  for (const auto& [name, value] : env) command += " " + name + "=" + shell_quote(value);
  command += " " + shell_quote(std::string(TMAP_BIN_DIR) + "/" + tool);
  for (const auto& a : args) command += " " + shell_quote(a);
  command += " > .stdout 2> .stderr < /dev/null";
  const int status = std::system(command.c_str());
  Outcome o;
  o.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  o.out = slurp(dir_ / ".stdout");
  o.err = slurp(dir_ / ".stderr");
  std::filesystem::remove(dir_ / ".stdout");
  std::filesystem::remove(dir_ / ".stderr");
  return o;
}

std::string golden(const std::string& name) {
  const auto p = std::filesystem::path(TMAP_GOLDEN_DIR) / name;
  if (!std::filesystem::exists(p)) throw std::runtime_error("missing golden file " + p.string());
  return slurp(p);
}

}  // namespace tmap::test
