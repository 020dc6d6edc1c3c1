// Internal: splits a byte source into CSV records, one at a time, through a
// fixed 64 KiB read buffer (the file is never loaded whole).
//
// Dialect (lenient RFC 4180): fields separated by ',' (or the separator set
// with set_separator: ';', tab, '|'); records end at "\n",
// "\r\n" or a lone "\r"; a field that starts with '"' is quoted: it may hold
// commas, line breaks and doubled quotes ("" -> "); text after its closing
// quote is appended as is. Leading and trailing spaces and tabs outside quotes
// are trimmed.
// Blank lines are skipped. A UTF-8 byte-order mark at the very start is
// dropped. A record longer than kMaxRecordBytes is an error, so hostile input
// cannot make the reader grow without bound.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "irithyll/core/status.hpp"

namespace irithyll::detail {

// Where the bytes come from: a file, a pipe, standard input or a string held
// by value. Read once, front to back: nothing needs to seek, so pipes and
// FIFOs work like files.
class ByteSource {
 public:
  virtual ~ByteSource() = default;
  // Reads up to n bytes; 0 at the end. Sets error() on a read failure.
  virtual std::size_t read(char* dst, std::size_t n) = 0;
  virtual const Status& error() const = 0;
  // Share of the input consumed so far, for regular files (compressed bytes
  // for gzip); empty for pipes and standard input.
  virtual std::optional<double> fraction_read() const { return std::nullopt; }
  // Live sources (a pipe, FIFO or terminal) deliver bytes as they arrive:
  // read() returns what is there instead of waiting to fill `n`. This says
  // whether a byte arrives within `timeout_ms`; files always have one (or
  // their end) ready.
  virtual bool wait_readable(int timeout_ms) { return timeout_ms >= 0; }
  virtual bool live() const { return false; }
};

// path "-" is standard input. gzip-compressed input (by its magic bytes, not
// its name) is decompressed on the fly; anything else is read as is. Standard
// input, pipes, FIFOs and terminals are live sources: each read returns the
// bytes that have arrived, so a row is delivered as soon as its line is in
// (gzip too, decompressed as it arrives); regular files read in 128 KiB blocks.
Result<std::unique_ptr<ByteSource>> open_file_source(const std::string& path);
std::unique_ptr<ByteSource> make_string_source(std::string text);

// The most frequent candidate separator (',', ';', tab, '|') outside quotes
// in a header line; ',' on a tie or none.
char guess_separator(std::string_view line);

class CsvTokenizer {
 public:
  static constexpr std::size_t kMaxRecordBytes = std::size_t{1} << 20;
  static constexpr std::size_t kBufferBytes = std::size_t{1} << 16;
  static_assert(kBufferBytes <= kMaxRecordBytes, "a record whole in the buffer is never too long");

  enum class Outcome { kRecord, kEnd, kError };

  explicit CsvTokenizer(ByteSource* source);

  // Field separator for next() (default ',').
  void set_separator(char sep) { sep_ = sep; }
  char separator() const { return sep_; }
  // The first physical line (after a byte-order mark), without consuming it,
  // as far as the buffer holds it: for guessing the separator.
  std::string_view peek_first_line();
  // Reads the next non-blank physical line, no quote handling (JSON lines);
  // the view stays valid until the next call.
  Outcome next_line(std::string_view& line);
  // Skips n physical lines (quotes are not interpreted).
  void skip_lines(std::uint64_t n);
  // Reads the next non-blank record; the views stay valid until the next call.
  Outcome next(std::vector<std::string_view>& fields);
  // 1-based physical line where the last record started.
  std::uint64_t record_line() const { return record_line_; }
  // Why next() returned kError ("7: unterminated quoted field", ...);
  // the caller prefixes the file name.
  const std::string& error_message() const { return error_; }
  std::optional<double> fraction_read() const { return source_->fraction_read(); }
  // False when the source is live and no byte (buffered or arriving within
  // timeout_ms) is ready: the look-ahead ends there rather than wait.
  bool data_ready(int timeout_ms) { return pos_ < end_ || !source_->live() || source_->wait_readable(timeout_ms); }

 private:
  enum class Simple { kRecord, kBlank, kNo };
  // The common record: whole in the buffer, no quote, no lone '\r'. Its
  // fields become views into the buffer (no copy); kNo leaves everything
  // to the general path.
  Simple next_simple(std::vector<std::string_view>& fields);
  bool fill();  // false at end of input
  int peek();   // -1 at end
  void finish_field(std::size_t keep);
  void drop_bom();

  ByteSource* source_;
  std::vector<char> buf_;
  std::size_t pos_ = 0;
  std::size_t end_ = 0;
  bool at_start_ = true;
  char sep_ = ',';
  std::uint64_t line_ = 1;
  std::uint64_t record_line_ = 0;
  std::string record_;               // field bytes, back to back
  std::vector<std::size_t> bounds_;  // field i is record_[bounds_[2i], bounds_[2i+1])
  std::string error_;
};

}  // namespace irithyll::detail
