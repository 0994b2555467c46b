// Output files never destroy what a path really is; inputs are bounded
// (issue 16, part 3 and the special-file class of part 4).
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <filesystem>
#include <fstream>
#include <thread>

#include "tmap/error.hpp"
#include "tmap/io.hpp"

namespace fs = std::filesystem;

namespace {

/// A private folder per test, removed afterwards.
class Files : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("tmap_files_" + std::to_string(::getpid()) + "_" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override {
    std::error_code ec;
    fs::permissions(dir_, fs::perms::owner_all, fs::perm_options::add, ec);
    fs::remove_all(dir_, ec);
  }
  [[nodiscard]] std::string path(const std::string& name) const { return (dir_ / name).string(); }
  [[nodiscard]] std::size_t entries() const {
    return static_cast<std::size_t>(std::distance(fs::directory_iterator(dir_), fs::directory_iterator{}));
  }
  static void put(const std::string& file, const std::string& text) { std::ofstream(file) << text; }
  static std::string get(const std::string& file) {
    std::ifstream in(file);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  }
  fs::path dir_;
};

TEST_F(Files, RegularFileIsReplacedWholeAndKeepsItsMode) {
  const auto out = path("out.txt");
  put(out, "old\n");
  fs::permissions(out, fs::perms::owner_read | fs::perms::owner_write);
  tmap::write_file_atomically(out, "new\n");
  EXPECT_EQ(get(out), "new\n");
  EXPECT_EQ(fs::status(out).permissions() & fs::perms::all, fs::perms::owner_read | fs::perms::owner_write);
  EXPECT_EQ(entries(), 1u) << "no temporary file is left behind";
}

TEST_F(Files, SymlinkStaysAndItsTargetIsWritten) {
  const auto target = path("target.txt");
  const auto link = path("link.txt");
  put(target, "old\n");
  fs::create_symlink("target.txt", link);  // relative, as users make them
  tmap::write_file_atomically(link, "new\n");
  EXPECT_TRUE(fs::is_symlink(fs::symlink_status(link)));
  EXPECT_EQ(get(target), "new\n");
  // A dangling link: its target is created, the link kept.
  const auto dangling = path("dangling.txt");
  fs::create_symlink("later.txt", dangling);
  tmap::write_file_atomically(dangling, "x\n");
  EXPECT_TRUE(fs::is_symlink(fs::symlink_status(dangling)));
  EXPECT_EQ(get(path("later.txt")), "x\n");
}

TEST_F(Files, FifoIsWrittenInPlace) {
  const auto fifo = path("pipe");
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  std::string received;
  std::thread reader([&] { received = get(fifo); });
  tmap::write_file_atomically(fifo, "through the pipe\n");
  reader.join();
  EXPECT_EQ(received, "through the pipe\n");
  EXPECT_TRUE(fs::is_fifo(fifo)) << "the FIFO is still a FIFO";
}

TEST_F(Files, DevicesAreWrittenInPlaceAndWriteErrorsReported) {
  tmap::write_file_atomically("/dev/null", "discarded\n");
  EXPECT_TRUE(fs::is_character_file("/dev/null"));
  if (fs::exists("/dev/full")) {
    EXPECT_THROW(tmap::write_file_atomically("/dev/full", "no room\n"), tmap::SystemError);
    EXPECT_TRUE(fs::is_character_file("/dev/full"));
  }
}

TEST_F(Files, ReadOnlyFileIsRefusedAndKept) {
  const auto out = path("ro.txt");
  put(out, "precious\n");
  fs::permissions(out, fs::perms::owner_read | fs::perms::group_read | fs::perms::others_read);
  EXPECT_THROW(tmap::write_file_atomically(out, "new\n"), tmap::ParameterError);
  EXPECT_EQ(get(out), "precious\n");
  EXPECT_EQ(entries(), 1u);
}

TEST_F(Files, DirectoryAndMissingFolderAreRefused) {
  EXPECT_THROW(tmap::write_file_atomically(dir_.string(), "x"), tmap::ParameterError);
  EXPECT_THROW(tmap::write_file_atomically(path("missing/x"), "x"), tmap::ParameterError);
}

TEST_F(Files, FileSizeLimitFailsTheWriteAndLeavesNoPartialFile) {
  const auto out = path("big.txt");
  put(out, "old\n");
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    std::signal(SIGXFSZ, SIG_IGN);  // as the tools do
    rlimit limit{4096, 4096};
    ::setrlimit(RLIMIT_FSIZE, &limit);
    try {
      tmap::write_file_atomically(out, std::string(1 << 20, 'x'));
    } catch (const tmap::SystemError&) {
      ::_exit(3);  // the expected outcome
    }
    ::_exit(0);
  }
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 3) << "a write beyond RLIMIT_FSIZE must be an error";
  EXPECT_EQ(get(out), "old\n") << "the old file is untouched";
  EXPECT_EQ(entries(), 1u) << "no partial temporary file";
}

TEST_F(Files, StreamsAreBoundedAndByteOrderMarksDropped) {
  EXPECT_THROW((void)tmap::read_file("/dev/zero"), tmap::InputError);
  const auto bom = path("bom.txt");
  put(bom,
      "\xEF\xBB\xBF"
      "2 3\n");
  EXPECT_EQ(tmap::read_file(bom), "2 3\n");
  EXPECT_THROW((void)tmap::read_file(dir_.string()), tmap::InputError);
  EXPECT_THROW((void)tmap::read_file(path("none")), tmap::InputError);
  // A FIFO with a writer is read whole (process substitution, <(...)).
  const auto fifo = path("in");
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  std::thread writer([&] { put(fifo, "1 2\n"); });
  EXPECT_EQ(tmap::read_file(fifo), "1 2\n");
  writer.join();
}

}  // namespace
