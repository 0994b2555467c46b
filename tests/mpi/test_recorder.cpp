// libtmap-mpi's recorder (TMAP_RECORD) without MPI: the counts it keeps
// are written in Open MPI monitoring's format and read back by the same
// reader as monitoring, E and C by default; a recording of another run or
// another rank is refused naming the file (the MPI runs are in
// tests/mpi/recording.sh).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "mpi/recorder.hpp"
#include "tmap/error.hpp"
#include "tmap/io.hpp"

namespace {

using tmap::mpi::Traffic;
using tmap::mpi::TrafficRecorder;
namespace fs = std::filesystem;

class RecorderFiles : public ::testing::Test {
 protected:
  void SetUp() override {
    folder_ = fs::temp_directory_path() /
              ("tmap_recorder_" + std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
    fs::remove_all(folder_);
    fs::create_directories(folder_);
  }
  void TearDown() override { fs::remove_all(folder_); }
  void write(const TrafficRecorder& recorder, const std::string& name = "run") const {
    std::ofstream(folder_ / (name + "." + std::to_string(recorder.world_rank()) + ".prof"))
        << recorder.monitoring_text();
  }
  [[nodiscard]] std::string prefix() const { return (folder_ / "run").string(); }
  fs::path folder_;
};

TEST_F(RecorderFiles, WritesMonitoringsLinesAPeerEach) {
  TrafficRecorder recorder(1, 4, false);
  recorder.add(Traffic::point_to_point, 3, 100);
  recorder.add(Traffic::point_to_point, 3, 28);
  recorder.add(Traffic::point_to_point, 0, 0);
  recorder.add(Traffic::collective, 2, 8);
  recorder.add(Traffic::put, 0, 16);
  recorder.add(Traffic::got, 2, 24);
  recorder.add(Traffic::point_to_point, 4, 999);   // no such rank: ignored
  recorder.add(Traffic::point_to_point, -1, 999);  // MPI_PROC_NULL's translation: ignored
  EXPECT_EQ(recorder.monitoring_text(),
            "# tmap-record version=1 rank=1 size=4 collectives=C\n"
            "# POINT TO POINT\n"
            "E\t1\t0\t0 bytes\t1 msgs sent\n"
            "E\t1\t3\t128 bytes\t2 msgs sent\n"
            "# OSC\n"
            "S\t1\t0\t16 bytes\t1 msgs sent\n"
            "R\t1\t2\t24 bytes\t1 msgs received\n"
            "# COLLECTIVES\n"
            "C\t1\t2\t8 bytes\t1 msgs sent\n");
}

// Threads counting at once (MPI_THREAD_MULTIPLE) lose no message.
TEST_F(RecorderFiles, ThreadsCountEveryMessage) {
  TrafficRecorder recorder(0, 2, true);
  std::vector<std::thread> threads;
  threads.reserve(4);
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&] {
      for (int k = 0; k < 10000; ++k) recorder.add(Traffic::point_to_point, 1, 3);
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_NE(recorder.monitoring_text().find("E\t0\t1\t120000 bytes\t40000 msgs sent\n"), std::string::npos);
}

// Read back as monitoring is: E and C by default (a recording has no I
// lines), any kinds when chosen, message counts too.
TEST_F(RecorderFiles, ReadBackAsMonitoringIs) {
  TrafficRecorder r0(0, 3, false);
  TrafficRecorder r1(1, 3, false);
  TrafficRecorder r2(2, 3, false);
  r0.add(Traffic::point_to_point, 1, 100);
  r1.add(Traffic::point_to_point, 2, 40);
  r1.add(Traffic::point_to_point, 2, 2);
  r2.add(Traffic::collective, 0, 7);
  r2.add(Traffic::put, 1, 5);
  for (const auto* r : {&r0, &r1, &r2}) write(*r);
  const auto both = tmap::read_ompi_monitoring(prefix());
  EXPECT_EQ(both.at(0, 1), 100);
  EXPECT_EQ(both.at(1, 2), 42);
  EXPECT_EQ(both.at(2, 0), 7);
  EXPECT_EQ(both.at(2, 1), 0);  // one-sided: only when asked
  const auto point_to_point = tmap::read_ompi_monitoring(prefix(), {.kinds = "E", .messages = false});
  EXPECT_EQ(point_to_point.at(2, 0), 0);
  const auto messages = tmap::read_ompi_monitoring(prefix(), {.kinds = "ES", .messages = true});
  EXPECT_EQ(messages.at(1, 2), 2);
  EXPECT_EQ(messages.at(2, 1), 1);
  // Through read_comm's detection, as -c PREFIX reads it.
  EXPECT_EQ(tmap::read_comm(prefix()), both);
}

TEST_F(RecorderFiles, AnotherRunsFilesAreNamed) {
  const auto refused = [&] {
    try {
      (void)tmap::read_ompi_monitoring(prefix());
    } catch (const tmap::InputError& e) {
      return std::string(e.what());
    }
    return std::string("(accepted)");
  };
  // A file of a bigger run left in the folder.
  for (int r = 0; r < 2; ++r) write(TrafficRecorder(r, 2, false));
  write(TrafficRecorder(2, 3, false));
  EXPECT_NE(refused().find("rank 2 is beyond this run's 2 processes"), std::string::npos) << refused();
  fs::remove(folder_ / "run.2.prof");
  // A file renamed to another rank.
  fs::copy_file(folder_ / "run.0.prof", folder_ / "run.1.prof", fs::copy_options::overwrite_existing);
  EXPECT_NE(refused().find("run.1.prof:1: the recording is rank 0's but the file is rank 1's"), std::string::npos)
      << refused();
  // Open MPI's output beside a recording.
  std::ofstream(folder_ / "run.1.prof") << "# POINT TO POINT\nE\t1\t0\t5 bytes\t1 msgs sent\n";
  EXPECT_NE(refused().find("run.1.prof: is Open MPI's monitoring output but rank 0's file is tmap's recording"),
            std::string::npos)
      << refused();
}

}  // namespace
