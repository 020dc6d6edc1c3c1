// Byte sources for the readers: files, standard input and pipes through
// zlib's gz* interface (which decompresses gzip input and passes anything
// else through unchanged, so one code path serves .csv and .csv.gz alike),
// and strings for tests and fuzzing.
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include <algorithm>
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
  if (struct stat st{}; path != "-" && ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode))
    size = static_cast<double>(st.st_size);
  if (path == "-") {
    // A duplicate, so that gzclose() leaves the process's stdin open.
    const int fd = ::dup(STDIN_FILENO);
    if (fd < 0) return Status::io_error("<stdin>: cannot open: " + std::string(std::strerror(errno)));
    f = gzdopen(fd, "rb");
    if (f == nullptr) ::close(fd);
  } else {
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
