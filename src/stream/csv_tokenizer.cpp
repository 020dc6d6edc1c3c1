#include "csv_tokenizer.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>

namespace irithyll::detail {
namespace {

struct FileCloser {
  void operator()(std::FILE* f) const { std::fclose(f); }
};

class FileSource final : public ByteSource {
 public:
  FileSource(std::string path, std::FILE* f) : path_(std::move(path)), file_(f) {}
  std::size_t read(char* dst, std::size_t n) override {
    const std::size_t got = std::fread(dst, 1, n, file_.get());
    if (got < n && std::ferror(file_.get()) != 0 && error_.is_ok())
      error_ = Status::io_error(std::string("read failed: ") + std::strerror(errno));
    return got;
  }
  Status rewind() override {
    std::clearerr(file_.get());
    if (std::fseek(file_.get(), 0, SEEK_SET) != 0)
      return Status::io_error(path_ + ": cannot seek back to the start (the CSV reader reads the file twice)");
    return Status::ok();
  }
  const Status& error() const override { return error_; }

 private:
  std::string path_;
  std::unique_ptr<std::FILE, FileCloser> file_;
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
  Status rewind() override {
    offset_ = 0;
    return Status::ok();
  }
  const Status& error() const override { return error_; }

 private:
  std::string text_;
  std::size_t offset_ = 0;
  Status error_;
};

bool is_blank(char c) { return c == ' ' || c == '\t'; }

}  // namespace

Result<std::unique_ptr<ByteSource>> open_file_source(const std::string& path) {
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (f == nullptr) return Status::io_error(path + ": cannot open: " + std::strerror(errno));
  return std::unique_ptr<ByteSource>(std::make_unique<FileSource>(path, f));
}

std::unique_ptr<ByteSource> make_string_source(std::string text) {
  return std::make_unique<StringSource>(std::move(text));
}

CsvTokenizer::CsvTokenizer(ByteSource* source) : source_(source), buf_(kBufferBytes) {}

Status CsvTokenizer::rewind() {
  IRITHYLL_RETURN_IF_ERROR(source_->rewind());
  pos_ = end_ = 0;
  at_start_ = true;
  line_ = 1;
  record_line_ = 0;
  error_.clear();
  return Status::ok();
}

bool CsvTokenizer::fill() {
  if (pos_ > 0) {  // keep unread bytes, move them to the front
    std::memmove(buf_.data(), buf_.data() + pos_, end_ - pos_);
    end_ -= pos_;
    pos_ = 0;
  }
  if (end_ == buf_.size()) return true;
  const std::size_t got = source_->read(buf_.data() + end_, buf_.size() - end_);
  end_ += got;
  return got > 0;
}

int CsvTokenizer::peek() {
  if (pos_ == end_ && !fill()) return -1;
  return static_cast<unsigned char>(buf_[pos_]);
}

void CsvTokenizer::skip_lines(std::uint64_t n) {
  while (n > 0) {
    const int c = peek();
    if (c < 0) return;
    ++pos_;
    if (c == '\n' || (c == '\r' && peek() != '\n')) {
      ++line_;
      --n;
    }
  }
}

void CsvTokenizer::finish_field(std::size_t keep) {
  std::size_t end = record_.size();
  while (end > keep && is_blank(record_[end - 1])) --end;
  record_.resize(end);
  bounds_.push_back(end);
}

CsvTokenizer::Outcome CsvTokenizer::next(std::vector<std::string_view>& fields) {
  fields.clear();
  if (at_start_) {
    at_start_ = false;
    while (end_ - pos_ < 3 && fill()) {
    }
    if (end_ - pos_ >= 3 && std::memcmp(buf_.data() + pos_, "\xEF\xBB\xBF", 3) == 0) pos_ += 3;
  }
  for (;;) {
    record_.clear();
    bounds_.clear();
    record_line_ = line_;
    if (peek() < 0) {
      if (source_->error().is_ok()) return Outcome::kEnd;
      error_ = std::to_string(line_) + ": " + source_->error().message();
      return Outcome::kError;
    }
    bool single_unquoted = true;
    for (;;) {  // one field per iteration
      bounds_.push_back(record_.size());
      while (peek() >= 0 && is_blank(buf_[pos_])) ++pos_;
      bool quoted = false;
      std::size_t keep = record_.size();  // trailing blanks are trimmed down to here
      if (peek() == '"') {
        quoted = true;
        ++pos_;
        for (;;) {
          const int c = peek();
          if (c < 0) {
            error_ = std::to_string(record_line_) + ": unterminated quoted field";
            return Outcome::kError;
          }
          ++pos_;
          if (c == '"') {
            if (peek() != '"') break;
            ++pos_;
          } else if (c == '\n' || (c == '\r' && peek() != '\n')) {
            ++line_;
          }
          record_.push_back(static_cast<char>(c));
          if (record_.size() > kMaxRecordBytes) break;
        }
        keep = record_.size();
      }
      for (;;) {  // unquoted run: copied a buffer-span at a time
        if (pos_ == end_ && !fill()) break;
        const char* const begin = buf_.data() + pos_;
        const char* const limit = buf_.data() + end_;
        const char* p = begin;
        while (p < limit && *p != ',' && *p != '\n' && *p != '\r') ++p;
        record_.append(begin, p);
        pos_ += static_cast<std::size_t>(p - begin);
        if (p < limit || record_.size() > kMaxRecordBytes) break;
      }
      if (record_.size() > kMaxRecordBytes) {
        error_ = std::to_string(record_line_) + ": record longer than " +
                 std::to_string(kMaxRecordBytes) + " bytes";
        return Outcome::kError;
      }
      finish_field(keep);
      single_unquoted = single_unquoted && !quoted;
      const int c = peek();
      if (c == ',') {
        ++pos_;
        single_unquoted = false;
        continue;
      }
      if (c == '\r') {
        ++pos_;
        if (peek() == '\n') ++pos_;
        ++line_;
      } else if (c == '\n') {
        ++pos_;
        ++line_;
      }
      break;
    }
    if (!source_->error().is_ok()) {
      error_ = std::to_string(line_) + ": " + source_->error().message();
      return Outcome::kError;
    }
    if (single_unquoted && bounds_[0] == bounds_[1]) continue;  // blank line
    for (std::size_t i = 0; i + 1 < bounds_.size(); i += 2)
      fields.emplace_back(record_.data() + bounds_[i], bounds_[i + 1] - bounds_[i]);
    return Outcome::kRecord;
  }
}

}  // namespace irithyll::detail
