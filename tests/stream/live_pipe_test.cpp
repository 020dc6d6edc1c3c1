// A pipe delivers each row as soon as its line has arrived, with the writer
// still open: the reader neither waits to fill a block nor waits for the
// look-ahead's thousands of rows. Each test writes some rows, keeps the pipe
// open, and reads them; a watchdog closes the pipe after 20 s so that a
// reader that would block until the end cannot hang the suite, and the test
// then fails because the rows came only after the close.
#include <gtest/gtest.h>
#include <unistd.h>
#include <zlib.h>

#include <atomic>
#include <chrono>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "irithyll/stream/table_stream.hpp"

namespace irithyll {
namespace {

class OpenPipe {
 public:
  OpenPipe() {
    EXPECT_EQ(::pipe(fds_), 0);
    watchdog_ = std::thread([this] {
      for (int i = 0; i < 200 && !done_; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(100));
      if (!done_) {
        fired_ = true;
        close_writer();
      }
    });
  }
  ~OpenPipe() {
    done_ = true;
    watchdog_.join();
    close_writer();
    ::close(fds_[0]);
  }
  std::string path() const { return "/dev/fd/" + std::to_string(fds_[0]); }
  void write(const std::string& s) { ASSERT_EQ(::write(fds_[1], s.data(), s.size()), static_cast<ssize_t>(s.size())); }
  void write_bytes(const std::vector<unsigned char>& b) {
    ASSERT_EQ(::write(fds_[1], b.data(), b.size()), static_cast<ssize_t>(b.size()));
  }
  void close_writer() {
    if (fds_[1] >= 0) ::close(std::exchange(fds_[1], -1));
  }
  bool watchdog_fired() const { return fired_; }

 private:
  int fds_[2] = {-1, -1};
  std::atomic<bool> done_{false}, fired_{false};
  std::thread watchdog_;
};

TEST(LivePipe, RowsArriveWhileTheWriterIsOpen) {
  OpenPipe pipe;
  pipe.write("a,b,y\n1,2,3.5\n4,5,6.5\n");
  TableOptions o;
  o.task = Task::kRegression;
  auto s = open_table_stream(pipe.path(), o);
  ASSERT_TRUE(s.is_ok()) << s.status().to_string();
  std::vector<double> x(2);
  double y = 0;
  ASSERT_TRUE((*s)->next(x, y));
  EXPECT_EQ(y, 3.5);
  ASSERT_TRUE((*s)->next(x, y));
  EXPECT_EQ(y, 6.5);
  EXPECT_FALSE(pipe.watchdog_fired()) << "the rows came only when the pipe was closed";
  pipe.write("7,8,9.5\n");
  ASSERT_TRUE((*s)->next(x, y));
  EXPECT_EQ(x[0], 7.0);
  EXPECT_FALSE(pipe.watchdog_fired());
  pipe.close_writer();
  EXPECT_FALSE((*s)->next(x, y));
  EXPECT_TRUE((*s)->status().is_ok());
}

TEST(LivePipe, LookAheadEndsWhenTheStreamPauses) {
  OpenPipe pipe;
  // Task and classes are inferred: the look-ahead wants 10,000 rows, but the
  // writer pauses after three.
  pipe.write("a,label\n1,up\n2,down\n3,up\n");
  auto s = open_table_stream(pipe.path());
  ASSERT_TRUE(s.is_ok()) << s.status().to_string();
  EXPECT_FALSE(pipe.watchdog_fired()) << "the look-ahead waited for the writer to close";
  EXPECT_EQ((*s)->schema().task, Task::kClassification);
  std::vector<double> x(1);
  double y = 0;
  for (int i = 0; i < 3; ++i) ASSERT_TRUE((*s)->next(x, y));
  pipe.write("4,down\n");
  ASSERT_TRUE((*s)->next(x, y));
  EXPECT_EQ(x[0], 4.0);
  EXPECT_FALSE(pipe.watchdog_fired());
}

std::vector<unsigned char> gzip_of(const std::string& text) {
  z_stream z{};
  EXPECT_EQ(deflateInit2(&z, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY), Z_OK);
  std::vector<unsigned char> out(text.size() + 128);
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(text.data()));
  z.avail_in = static_cast<uInt>(text.size());
  z.next_out = out.data();
  z.avail_out = static_cast<uInt>(out.size());
  EXPECT_EQ(deflate(&z, Z_FINISH), Z_STREAM_END);
  out.resize(out.size() - z.avail_out);
  deflateEnd(&z);
  return out;
}

TEST(LivePipe, GzipMembersOnAPipeDecompressAsTheyArrive) {
  OpenPipe pipe;
  // Two gzip members back to back, as `cat a.gz b.gz` writes them.
  pipe.write_bytes(gzip_of("a,y\n1,10\n"));
  TableOptions o;
  o.task = Task::kRegression;
  auto s = open_table_stream(pipe.path(), o);
  ASSERT_TRUE(s.is_ok()) << s.status().to_string();
  std::vector<double> x(1);
  double y = 0;
  ASSERT_TRUE((*s)->next(x, y));
  EXPECT_EQ(y, 10.0);
  pipe.write_bytes(gzip_of("2,20\n"));
  ASSERT_TRUE((*s)->next(x, y));
  EXPECT_EQ(y, 20.0);
  EXPECT_FALSE(pipe.watchdog_fired());
  pipe.close_writer();
  EXPECT_FALSE((*s)->next(x, y));
  EXPECT_TRUE((*s)->status().is_ok()) << (*s)->status().to_string();
}

TEST(LivePipe, TruncatedGzipOnAPipeIsAnError) {
  OpenPipe pipe;
  auto bytes = gzip_of("a,y\n1,10\n2,20\n");
  bytes.resize(bytes.size() - 6);  // cut inside the trailer
  pipe.write_bytes(bytes);
  pipe.close_writer();
  TableOptions o;
  o.task = Task::kRegression;
  auto s = open_table_stream(pipe.path(), o);
  if (!s.is_ok()) {
    EXPECT_NE(s.status().message().find("truncated"), std::string::npos) << s.status().to_string();
    return;
  }
  std::vector<double> x(1);
  double y = 0;
  while ((*s)->next(x, y)) {
  }
  EXPECT_NE((*s)->status().message().find("truncated"), std::string::npos) << (*s)->status().to_string();
}

}  // namespace
}  // namespace irithyll
