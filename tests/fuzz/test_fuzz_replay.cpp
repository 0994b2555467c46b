// Replays the committed fuzz corpus and every crasher found so far through
// the same targets: regression tests that need no libFuzzer.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "targets.hpp"

TEST(FuzzReplay, CorpusAndCrashersOnlyEverRaiseInputErrors) {
  namespace fs = std::filesystem;
  int replayed = 0;
  for (const auto* folder : {"corpus", "crashes"}) {
    const fs::path root = fs::path(TMAP_FUZZ_DIR) / folder;
    for (const auto& entry : fs::recursive_directory_iterator(root)) {
      if (!entry.is_regular_file() || entry.path().filename() == ".keep") continue;
      // corpus/<target>/file; crashes/<target>-<anything>
      const std::string name = std::string(folder) == "corpus" ? entry.path().parent_path().filename().string()
                                                               : entry.path().filename().string().substr(
                                                                     0, entry.path().filename().string().find('-'));
      const auto target = tmap::fuzz::find(name);
      ASSERT_NE(target, nullptr) << entry.path();
      std::ifstream in(entry.path(), std::ios::binary);
      std::stringstream s;
      s << in.rdbuf();
      const auto bytes = s.str();
      EXPECT_NO_THROW(target(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size())) << entry.path();
      ++replayed;
    }
  }
  EXPECT_GT(replayed, 20);
}
