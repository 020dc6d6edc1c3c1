// Byte sources for the readers: regular files through zlib's gz* interface
// (which decompresses gzip input and passes anything else through unchanged,
// so one code path serves .csv and .csv.gz alike), live sources (standard
// input, pipes, FIFOs, terminals) that hand over each byte as it arrives,
// and strings for tests and fuzzing.
#include <fcntl.h>
#include <poll.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <climits>
#include <cstring>

#include "csv_tokenizer.hpp"

namespace irithyll::detail {
namespace {

struct GzCloser {
  void operator()(gzFile f) const { gzclose(f); }
};

class GzSource final : public ByteSource {
 public:
  GzSource(std::string path, gzFile f, std::optional<double> size) : path_(std::move(path)), file_(f), size_(size) {}
  std::optional<double> fraction_read() const override {
    if (!size_ || *size_ <= 0) return std::nullopt;
    const auto at = gzoffset(file_.get());
    return at < 0 ? std::nullopt : std::optional<double>(std::min(1.0, static_cast<double>(at) / *size_));
  }
  std::size_t read(char* dst, std::size_t n) override {
    if (!error_.is_ok()) return 0;
    const unsigned ask = static_cast<unsigned>(std::min<std::size_t>(n, INT_MAX));
    const int got = gzread(file_.get(), dst, ask);
    if (got < 0) {
      int code = 0;
      const char* why = gzerror(file_.get(), &code);
      error_ = Status::io_error(std::string("read failed: ") +
                                (code == Z_ERRNO ? std::strerror(errno) : (why != nullptr ? why : "corrupt data")));
      return 0;
    }
    if (got == 0) {
      // End of input: zlib reports a gzip stream cut short only here.
      int code = 0;
      gzerror(file_.get(), &code);
      if (code == Z_BUF_ERROR) error_ = Status::io_error("read failed: truncated gzip input (unexpected end of file)");
    }
    return static_cast<std::size_t>(got);
  }
  const Status& error() const override { return error_; }

 private:
  std::string path_;
  std::unique_ptr<gzFile_s, GzCloser> file_;
  std::optional<double> size_;  // bytes of a regular file
  Status error_;
};

// A live source: standard input, a pipe, a FIFO or a terminal. read()
// returns as soon as any bytes are in (one read(2)), where gzread() would
// block until its whole request is filled, so `tail -f log | irithyll eval`
// sees each row as it is written. gzip is recognised by its first two bytes
// and inflated as it arrives, one member after another (gzip allows
// concatenated members, as `cat a.gz b.gz` writes).
class LiveSource final : public ByteSource {
 public:
  LiveSource(std::string name, int fd) : name_(std::move(name)), fd_(fd) {}
  ~LiveSource() override {
    if (gzip_) inflateEnd(&z_);
    ::close(fd_);
  }
  LiveSource(const LiveSource&) = delete;
  LiveSource& operator=(const LiveSource&) = delete;

  bool live() const override { return true; }
  bool wait_readable(int timeout_ms) override {
    if (in_pos_ < in_end_ || at_eof_) return true;
    pollfd p{fd_, POLLIN, 0};
    const int r = ::poll(&p, 1, timeout_ms);
    return r != 0;  // ready, hung up, or an error read() will report
  }

  std::size_t read(char* dst, std::size_t n) override {
    if (!error_.is_ok() || n == 0) return 0;
    if (!sniffed_ && !sniff()) return 0;
    if (!gzip_) {
      if (in_pos_ < in_end_) return take_raw(dst, n);
      return raw_read(dst, n);
    }
    return inflate_some(dst, n);
  }
  const Status& error() const override { return error_; }

 private:
  std::size_t raw_read(char* dst, std::size_t n) {
    for (;;) {
      const ssize_t got = ::read(fd_, dst, n);
      if (got >= 0) {
        if (got == 0) at_eof_ = true;
        return static_cast<std::size_t>(got);
      }
      if (errno == EINTR) continue;
      error_ = Status::io_error(name_ + ": read failed: " + std::strerror(errno));
      return 0;
    }
  }
  std::size_t take_raw(char* dst, std::size_t n) {
    const std::size_t k = std::min(n, in_end_ - in_pos_);
    std::memcpy(dst, in_.data() + in_pos_, k);
    in_pos_ += k;
    return k;
  }
  // Fills the input buffer with what has arrived (at least one byte unless
  // the input ended).
  bool refill() {
    in_pos_ = 0;
    in_end_ = raw_read(in_.data(), in_.size());
    return in_end_ > 0;
  }
  // Reads the first two bytes (they may come in two reads) to tell gzip.
  bool sniff() {
    sniffed_ = true;
    while (in_end_ < 2) {
      const std::size_t got = raw_read(in_.data() + in_end_, in_.size() - in_end_);
      if (got == 0) break;
      in_end_ += got;
    }
    if (!error_.is_ok()) return false;
    gzip_ = in_end_ >= 2 && static_cast<unsigned char>(in_[0]) == 0x1f && static_cast<unsigned char>(in_[1]) == 0x8b;
    if (gzip_ && inflateInit2(&z_, 15 + 16) != Z_OK) {
      gzip_ = false;
      error_ = Status::io_error(name_ + ": cannot start gzip decompression");
      return false;
    }
    return true;
  }
  std::size_t inflate_some(char* dst, std::size_t n) {
    const uInt want = static_cast<uInt>(std::min<std::size_t>(n, UINT_MAX));
    for (;;) {
      if (in_pos_ == in_end_) {
        if (!refill()) {
          if (error_.is_ok() && member_open_)
            error_ = Status::io_error(name_ + ": read failed: truncated gzip input (unexpected end of file)");
          return 0;
        }
      }
      z_.next_in = reinterpret_cast<Bytef*>(in_.data() + in_pos_);
      z_.avail_in = static_cast<uInt>(in_end_ - in_pos_);
      z_.next_out = reinterpret_cast<Bytef*>(dst);
      z_.avail_out = want;
      member_open_ = true;
      const int r = inflate(&z_, Z_NO_FLUSH);
      in_pos_ = in_end_ - z_.avail_in;
      const std::size_t produced = want - z_.avail_out;
      if (r == Z_STREAM_END) {
        member_open_ = false;
        inflateReset(&z_);  // a next member may follow
      } else if (r != Z_OK && r != Z_BUF_ERROR) {
        error_ = Status::io_error(name_ + ": read failed: " + (z_.msg != nullptr ? z_.msg : "corrupt gzip data"));
        return 0;
      }
      if (produced > 0) return produced;
    }
  }

  std::string name_;
  int fd_;
  std::array<char, 1u << 16> in_{};
  std::size_t in_pos_ = 0, in_end_ = 0;
  bool sniffed_ = false, gzip_ = false, member_open_ = false, at_eof_ = false;
  z_stream z_{};
  Status error_;
};

class StringSource final : public ByteSource {
 public:
  explicit StringSource(std::string text) : text_(std::move(text)) {}
  std::size_t read(char* dst, std::size_t n) override {
    const std::size_t got = std::min(n, text_.size() - offset_);
    std::memcpy(dst, text_.data() + offset_, got);
    offset_ += got;
    return got;
  }
  const Status& error() const override { return error_; }

 private:
  std::string text_;
  std::size_t offset_ = 0;
  Status error_;
};

}  // namespace

Result<std::unique_ptr<ByteSource>> open_file_source(const std::string& path) {
  gzFile f = nullptr;
  std::optional<double> size;
  struct stat st{};
  const bool regular = path != "-" && ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode);
  if (regular) size = static_cast<double>(st.st_size);
  if (path == "-") {
    // A duplicate, so that closing the source leaves the process's stdin open.
    const int fd = ::dup(STDIN_FILENO);
    if (fd < 0) return Status::io_error("<stdin>: cannot open: " + std::string(std::strerror(errno)));
    return std::unique_ptr<ByteSource>(std::make_unique<LiveSource>("<stdin>", fd));
  }
  if (!regular && ::stat(path.c_str(), &st) == 0 && !S_ISDIR(st.st_mode)) {
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return Status::io_error(path + ": cannot open: " + std::strerror(errno));
    return std::unique_ptr<ByteSource>(std::make_unique<LiveSource>(path, fd));
  }
  {
    errno = 0;
    f = gzopen(path.c_str(), "rb");
  }
  if (f == nullptr)
    return Status::io_error(path + ": cannot open: " + (errno != 0 ? std::strerror(errno) : "out of memory"));
  gzbuffer(f, 1u << 17);
  return std::unique_ptr<ByteSource>(std::make_unique<GzSource>(path, f, size));
}

std::unique_ptr<ByteSource> make_string_source(std::string text) {
  return std::make_unique<StringSource>(std::move(text));
}

}  // namespace irithyll::detail
