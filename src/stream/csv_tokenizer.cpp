#include "csv_tokenizer.hpp"

#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstring>

namespace irithyll::detail {
namespace {

bool is_blank(char c) { return c == ' ' || c == '\t'; }

// The first byte of [p, stop) that is the separator, a quote or '\r' (stop
// when there is none), eight bytes to a step while eight are readable before
// `readable`. A zero byte of w ^ pattern marks a match; of the bits
// (x - 1s) & ~x & highs, the lowest is exact (borrows only mark bytes above
// a true zero), and the lowest is the one used.
const char* find_special(const char* p, const char* stop, const char* readable, char sep) {
  if constexpr (std::endian::native == std::endian::little) {
    constexpr std::uint64_t kOnes = 0x0101010101010101ull, kHighs = 0x8080808080808080ull;
    const std::uint64_t seps = kOnes * static_cast<unsigned char>(sep);
    auto zero = [](std::uint64_t x) { return (x - kOnes) & ~x & kHighs; };
    while (p < stop && readable - p >= 8) {
      std::uint64_t w = 0;
      std::memcpy(&w, p, 8);
      const std::uint64_t hit = zero(w ^ seps) | zero(w ^ (kOnes * '"')) | zero(w ^ (kOnes * '\r'));
      if (hit != 0) {
        const char* q = p + (std::countr_zero(hit) >> 3);
        return q < stop ? q : stop;
      }
      p += 8;
    }
    if (p > stop) return stop;
  }
  while (p < stop && *p != sep && *p != '"' && *p != '\r') ++p;
  return p;
}

}  // namespace

CsvTokenizer::CsvTokenizer(ByteSource* source) : source_(source), buf_(kBufferBytes) {}

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

void CsvTokenizer::drop_bom() {
  if (!at_start_) return;
  at_start_ = false;
  while (end_ - pos_ < 3 && fill()) {
  }
  if (end_ - pos_ >= 3 && std::memcmp(buf_.data() + pos_, "\xEF\xBB\xBF", 3) == 0) pos_ += 3;
}

std::string_view CsvTokenizer::peek_first_line() {
  drop_bom();
  while (end_ < buf_.size() && std::memchr(buf_.data() + pos_, '\n', end_ - pos_) == nullptr && fill()) {
  }
  const char* begin = buf_.data() + pos_;
  const char* nl = static_cast<const char*>(std::memchr(begin, '\n', end_ - pos_));
  return std::string_view(begin, nl != nullptr ? static_cast<std::size_t>(nl - begin) : end_ - pos_);
}

CsvTokenizer::Outcome CsvTokenizer::next_line(std::string_view& line) {
  drop_bom();
  for (;;) {
    record_.clear();
    record_line_ = line_;
    if (peek() < 0) {
      if (source_->error().is_ok()) return Outcome::kEnd;
      error_ = std::to_string(line_) + ": " + source_->error().message();
      return Outcome::kError;
    }
    for (;;) {
      if (pos_ == end_ && !fill()) break;
      const char* const begin = buf_.data() + pos_;
      const char* const limit = buf_.data() + end_;
      const char* p = begin;
      while (p < limit && *p != '\n' && *p != '\r') ++p;
      record_.append(begin, p);
      pos_ += static_cast<std::size_t>(p - begin);
      if (record_.size() > kMaxRecordBytes) {
        error_ = std::to_string(record_line_) + ": line longer than " + std::to_string(kMaxRecordBytes) + " bytes";
        return Outcome::kError;
      }
      if (p < limit) break;
    }
    const int c = peek();
    if (c == '\r') {
      ++pos_;
      if (peek() == '\n') ++pos_;
    } else if (c == '\n') {
      ++pos_;
    }
    ++line_;
    if (!source_->error().is_ok()) {
      error_ = std::to_string(line_) + ": " + source_->error().message();
      return Outcome::kError;
    }
    if (record_.find_first_not_of(" \t") == std::string::npos) continue;  // blank line
    line = record_;
    return Outcome::kRecord;
  }
}

CsvTokenizer::Simple CsvTokenizer::next_simple(std::vector<std::string_view>& fields) {
  // A pending read error, a record cut by the buffer's end and a separator
  // that is also a line break or a quote all take the general path, so that
  // its messages and line numbers stay as they are.
  if (pos_ == end_ || sep_ == '\n' || sep_ == '\r' || sep_ == '"' || !source_->error().is_ok()) return Simple::kNo;
  const char* const begin = buf_.data() + pos_;
  const char* const nl = static_cast<const char*>(std::memchr(begin, '\n', end_ - pos_));
  if (nl == nullptr) return Simple::kNo;
  const char* stop = nl;
  if (stop > begin && stop[-1] == '\r') --stop;
  // One pass cuts the fields as the general path does (leading blanks other
  // than the separator and trailing blanks trimmed) and gives up on a quote
  // or a lone '\r'.
  const char sep = sep_;
  const char* const readable = buf_.data() + end_;
  for (const char* f = begin;;) {
    const char* const p = find_special(f, stop, readable, sep);
    if (p < stop && *p != sep) {  // a quote or a lone '\r'
      fields.clear();
      return Simple::kNo;
    }
    const char* a = f;
    while (a < p && is_blank(*a) && *a != sep) ++a;
    const char* b = p;
    while (b > a && is_blank(b[-1])) --b;
    fields.emplace_back(a, static_cast<std::size_t>(b - a));
    if (p == stop) break;
    f = p + 1;
  }
  pos_ = static_cast<std::size_t>(nl + 1 - buf_.data());
  ++line_;
  if (fields.size() == 1 && fields[0].empty()) {  // blank line
    fields.clear();
    return Simple::kBlank;
  }
  return Simple::kRecord;
}

CsvTokenizer::Outcome CsvTokenizer::next(std::vector<std::string_view>& fields) {
  fields.clear();
  drop_bom();
  for (;;) {
    record_line_ = line_;
    const Simple simple = next_simple(fields);
    if (simple == Simple::kRecord) return Outcome::kRecord;
    if (simple == Simple::kBlank) continue;
    record_.clear();
    bounds_.clear();
    if (peek() < 0) {
      if (source_->error().is_ok()) return Outcome::kEnd;
      error_ = std::to_string(line_) + ": " + source_->error().message();
      return Outcome::kError;
    }
    bool single_unquoted = true;
    for (;;) {  // one field per iteration
      bounds_.push_back(record_.size());
      while (peek() >= 0 && is_blank(buf_[pos_]) && buf_[pos_] != sep_) ++pos_;
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
        while (p < limit && *p != sep_ && *p != '\n' && *p != '\r') ++p;
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
      if (c == static_cast<unsigned char>(sep_)) {
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

char guess_separator(std::string_view line) {
  const char candidates[] = {',', ';', '\t', '|'};
  std::size_t counts[4] = {0, 0, 0, 0};
  bool in_quotes = false;
  for (const char c : line) {
    if (c == '"') in_quotes = !in_quotes;
    if (in_quotes) continue;
    for (int k = 0; k < 4; ++k) counts[k] += c == candidates[k] ? 1 : 0;
  }
  int best = 0;
  for (int k = 1; k < 4; ++k)
    if (counts[k] > counts[best]) best = k;
  return candidates[best];
}

}  // namespace irithyll::detail
