// Runs the real tm-* binaries in a scratch folder and captures what they did.
#pragma once

#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace tmap::test {

struct Outcome {
  int exit_code = -1;
  std::string out;
  std::string err;
};

/// A scratch folder with helpers to write inputs and run tools in it.
class Sandbox {
 public:
  Sandbox();
  ~Sandbox();
  Sandbox(const Sandbox&) = delete;
  Sandbox& operator=(const Sandbox&) = delete;

  void write(const std::string& name, const std::string& content) const;
  [[nodiscard]] std::string read(const std::string& name) const;
  [[nodiscard]] bool exists(const std::string& name) const;
  [[nodiscard]] std::filesystem::path path(const std::string& name) const { return dir_ / name; }
  /// Runs bin/TOOL with the arguments (each passed as one word) in the folder.
  [[nodiscard]] Outcome run(const std::string& tool, const std::vector<std::string>& args,
                            const std::vector<std::pair<std::string, std::string>>& env = {}) const;

 private:
  std::filesystem::path dir_;
};

/// Contents of a golden file under tests/cli/golden.
std::string golden(const std::string& name);

}  // namespace tmap::test
