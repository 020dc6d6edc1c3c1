// The tokenizer's two paths cut records alike: a record whole in the buffer
// with no quote and no lone '\r' is split in place (the fast path); one
// delivered a byte at a time always takes the general path. Any text, read
// both ways, gives the same fields, line numbers, outcomes and errors.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "irithyll/core/rng.hpp"
#include "stream/csv_tokenizer.hpp"

namespace irithyll::detail {
namespace {

// Hands out its text one byte per read, so no record is ever whole in the buffer.
class TrickleSource final : public ByteSource {
 public:
  explicit TrickleSource(std::string text) : text_(std::move(text)) {}
  std::size_t read(char* dst, std::size_t n) override {
    if (n == 0 || at_ == text_.size()) return 0;
    *dst = text_[at_++];
    return 1;
  }
  const Status& error() const override { return ok_; }

 private:
  std::string text_;
  std::size_t at_ = 0;
  Status ok_;
};

struct Record {
  CsvTokenizer::Outcome outcome;
  std::uint64_t line;
  std::vector<std::string> fields;
  std::string error;
  bool operator==(const Record&) const = default;
};

std::vector<Record> tokenize(ByteSource* source, char sep) {
  CsvTokenizer tok(source);
  tok.set_separator(sep);
  std::vector<Record> out;
  std::vector<std::string_view> fields;
  for (;;) {
    const auto outcome = tok.next(fields);
    Record r{outcome, tok.record_line(), {fields.begin(), fields.end()}, {}};
    if (outcome == CsvTokenizer::Outcome::kError) r.error = tok.error_message();
    out.push_back(std::move(r));
    if (outcome != CsvTokenizer::Outcome::kRecord) return out;
  }
}

void expect_same(const std::string& text, char sep) {
  auto whole = make_string_source(text);
  TrickleSource trickle(text);
  const auto fast = tokenize(whole.get(), sep);
  const auto general = tokenize(&trickle, sep);
  ASSERT_EQ(fast.size(), general.size()) << text;
  for (std::size_t i = 0; i < fast.size(); ++i) EXPECT_TRUE(fast[i] == general[i]) << "record " << i << " of " << text;
}

TEST(CsvTokenizer, FastAndGeneralPathsAgreeOnCorners) {
  for (const char* text : {"a,b\n1,2\n", "a,b\r\n1,2\r\n", " a , b \n\t1\t,\t2\t\n", "a,b\n\n  \n\t\n1,2\n",
                           "a,b\n1,2", "a,b\r1,2\r", "a,,b\n,\n,,\n", "\"a\",b\n1,\"2,3\"\n", "a,b\n1,x\"y\n",
                           "\xEF\xBB\xBF" "a,b\n1,2\n", "a\n", " \n", "", "a,b\n\"open\n"})
    for (const char sep : {',', ';', '\t', ' '}) expect_same(text, sep);
}

TEST(CsvTokenizer, FastAndGeneralPathsAgreeOnRandomText) {
  Xorshift64 rng(11);
  const char alphabet[] = {'a', '1', '.', ',', ';', ' ', '\t', '"', '\r', '\n', '\n', ','};
  for (int t = 0; t < 3000; ++t) {
    std::string text;
    const std::size_t n = rng.next_u64() % 80;
    for (std::size_t i = 0; i < n; ++i) text += alphabet[rng.next_u64() % sizeof(alphabet)];
    expect_same(text, t % 3 == 0 ? ';' : ',');
  }
}

TEST(CsvTokenizer, RecordsAcrossBufferRefillsKeepTheirLines) {
  // Several 64 KiB buffers of short rows: records straddle every refill.
  std::string text = "a,b\n";
  for (int i = 0; i < 30000; ++i) text += std::to_string(i) + "," + std::to_string(i % 7) + (i % 5 == 0 ? "\r\n" : "\n");
  auto source = make_string_source(text);
  const auto records = tokenize(source.get(), ',');
  ASSERT_EQ(records.size(), 30002u);
  for (int i = 0; i < 30000; ++i) {
    const Record& r = records[static_cast<std::size_t>(i) + 1];
    ASSERT_EQ(r.line, static_cast<std::uint64_t>(i) + 2);
    ASSERT_EQ(r.fields, (std::vector<std::string>{std::to_string(i), std::to_string(i % 7)}));
  }
}

}  // namespace
}  // namespace irithyll::detail
