// Numbers written by spreadsheets and locales: decimal commas, thousands
// separators, percentages and currency signs, cell by cell
// (stream/number_format.hpp) and through the table reader (whole columns,
// the per-column report, the suspicious-column warnings).
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "irithyll/stream/table_stream.hpp"
#include "stream/number_format.hpp"

namespace irithyll {
namespace {

using detail::NumberFormat;
using detail::NumberFormatGuess;
using detail::parse_number;

NumberFormat guess(const std::vector<std::string>& cells, char separator = ';', char forced = 0) {
  NumberFormatGuess g(separator, forced);
  for (const std::string& c : cells) EXPECT_TRUE(g.add(c)) << c;
  return g.result();
}

double value_of(std::string_view cell, const NumberFormat& f) {
  double v = std::nan("");
  EXPECT_TRUE(parse_number(cell, f, v)) << cell;
  return v;
}

TEST(NumberFormat, DecimalCommaWhenTheSeparatorIsNotAComma) {
  const NumberFormat f = guess({"3,14", "-0,5", "12"});
  EXPECT_EQ(f.decimal, ',');
  EXPECT_FALSE(f.decimal_guessed);
  EXPECT_DOUBLE_EQ(value_of("3,14", f), 3.14);
  EXPECT_DOUBLE_EQ(value_of("-0,5", f), -0.5);
  EXPECT_DOUBLE_EQ(value_of("12", f), 12.0);
  // In a comma-separated file a comma inside a number can only group thousands.
  EXPECT_EQ(guess({"3,14"}, ',').decimal, '.');
  // Named by the user, it holds anywhere.
  EXPECT_EQ(guess({"3,14"}, ',', ',').decimal, ',');
}

TEST(NumberFormat, ThousandsSeparators) {
  const NumberFormat us = guess({"1,234,567", "1,234.5", "12"}, ',');
  EXPECT_EQ(us.decimal, '.');
  EXPECT_TRUE(us.grouped);
  EXPECT_DOUBLE_EQ(value_of("1,234,567", us), 1234567.0);
  EXPECT_DOUBLE_EQ(value_of("1,234.5", us), 1234.5);
  const NumberFormat eu = guess({"1.234.567,89", "2,5"});
  EXPECT_EQ(eu.decimal, ',');
  EXPECT_TRUE(eu.grouped);
  EXPECT_DOUBLE_EQ(value_of("1.234.567,89", eu), 1234567.89);
  const NumberFormat dots = guess({"1.234.567", "7.000"});
  EXPECT_EQ(dots.decimal, ',');
  EXPECT_DOUBLE_EQ(value_of("7.000", dots), 7000.0);
  const NumberFormat spaced = guess({"1 234 567", "1'000"}, ',');
  EXPECT_DOUBLE_EQ(value_of("1 234 567", spaced), 1234567.0);
  EXPECT_DOUBLE_EQ(value_of("1'000", spaced), 1000.0);
  // Badly grouped cells are not numbers under any format.
  double v = 0.0;
  EXPECT_FALSE(parse_number("1,23,4", us, v));
  EXPECT_FALSE(parse_number("12,34", us, v));
  EXPECT_FALSE(parse_number("1,234,5678", us, v));
  EXPECT_FALSE(parse_number("1.234,567", us, v));  // '.' before ',' under a '.' decimal mark
  EXPECT_FALSE(parse_number("1,234'567", us, v));  // two group characters
  EXPECT_FALSE(parse_number("1,234e5", us, v));
}

TEST(NumberFormat, AmbiguousCommasFollowTheSeparatorAndSaySo) {
  const NumberFormat f = guess({"1,234", "5,678"});
  EXPECT_EQ(f.decimal, ',');
  EXPECT_TRUE(f.decimal_guessed);
  EXPECT_DOUBLE_EQ(value_of("1,234", f), 1.234);
  EXPECT_NE(detail::describe_number_format(f).find("--decimal ."), std::string::npos);
  // One cell with another width settles it.
  EXPECT_FALSE(guess({"1,234", "5,6"}).decimal_guessed);
  // With '.' decimals beside them, the commas group thousands.
  const NumberFormat g = guess({"1,234", "5.5"});
  EXPECT_EQ(g.decimal, '.');
  EXPECT_DOUBLE_EQ(value_of("1,234", g), 1234.0);
}

TEST(NumberFormat, PercentAndCurrency) {
  const NumberFormat p = guess({"12.3%", "5 %", "-1%"}, ',');
  EXPECT_TRUE(p.percent);
  EXPECT_DOUBLE_EQ(value_of("12.3%", p), 0.123);
  EXPECT_DOUBLE_EQ(value_of("5 %", p), 0.05);
  EXPECT_DOUBLE_EQ(value_of("-1%", p), -0.01);
  const NumberFormat c = guess({"$4.56", "-$1,200", "$-3", "US$ 7", "\xE2\x82\xAC" "2"}, ',');
  EXPECT_TRUE(c.currency);
  EXPECT_DOUBLE_EQ(value_of("$4.56", c), 4.56);
  EXPECT_DOUBLE_EQ(value_of("-$1,200", c), -1200.0);
  EXPECT_DOUBLE_EQ(value_of("$-3", c), -3.0);
  EXPECT_DOUBLE_EQ(value_of("US$ 7", c), 7.0);
  const NumberFormat eur = guess({"4,56 \xE2\x82\xAC", "1.200,00 EUR"});
  EXPECT_EQ(eur.decimal, ',');
  EXPECT_DOUBLE_EQ(value_of("1.200,00 EUR", eur), 1200.0);
  // A decoration the column's format does not carry is not accepted.
  double v = 0.0;
  EXPECT_FALSE(parse_number("12%", NumberFormat{}, v));
  EXPECT_FALSE(parse_number("$5", NumberFormat{}, v));
}

TEST(NumberFormat, TextIsNotANumber) {
  NumberFormat any;
  any.grouped = any.percent = any.currency = true;
  for (const char* text : {"abc", "$", "%", "1.2.x", "12 apples", "--5", "e5", "1e", "$5%", "", "1,2,3"}) {
    double v = 0.0;
    EXPECT_FALSE(parse_number(text, any, v)) << text;
  }
}

std::vector<std::vector<double>> read_all(const std::string& text, const TableOptions& options, Schema* schema = nullptr,
                                          std::vector<std::string>* notes = nullptr) {
  auto opened = open_table_stream_from_string(text, options, "t.csv");
  EXPECT_TRUE(opened.is_ok()) << opened.status().message();
  if (!opened.is_ok()) return {};
  TableStream& s = **opened;
  if (schema != nullptr) *schema = s.schema();
  if (notes != nullptr) *notes = s.column_notes();
  std::vector<std::vector<double>> rows;
  std::vector<double> x(s.schema().n_features());
  double y = 0.0;
  while (s.next(x, y)) {
    rows.push_back(x);
    rows.back().push_back(y);
  }
  EXPECT_TRUE(s.status().is_ok()) << s.status().message();
  return rows;
}

bool any_note_has(const std::vector<std::string>& notes, const std::string& part) {
  for (const std::string& n : notes)
    if (n.find(part) != std::string::npos) return true;
  return false;
}

TEST(NumberFormatColumns, DecoratedColumnsAreNumericWithAReport) {
  const std::string text =
      "price;share;rate;city;y\n"
      "\"$1,200\";12%;3,5;Oslo;1,5\n"
      "$4.56;7.5%;-0,25;Rome;2\n"
      "$900;;1,0;Oslo;3,25\n";
  Schema schema;
  std::vector<std::string> notes;
  TableOptions options;
  options.task = Task::kRegression;
  const auto rows = read_all(text, options, &schema, &notes);
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(schema.categorical_features, (std::vector<std::size_t>{3}));  // only 'city'
  EXPECT_DOUBLE_EQ(rows[0][0], 1200.0);
  EXPECT_DOUBLE_EQ(rows[1][0], 4.56);
  EXPECT_DOUBLE_EQ(rows[0][1], 0.12);
  EXPECT_TRUE(std::isnan(rows[2][1]));
  EXPECT_DOUBLE_EQ(rows[0][2], 3.5);
  EXPECT_DOUBLE_EQ(rows[1][2], -0.25);
  EXPECT_DOUBLE_EQ(rows[0][4], 1.5);  // the target too
  EXPECT_DOUBLE_EQ(rows[2][4], 3.25);
  EXPECT_TRUE(any_note_has(notes, "column 'price' read as numbers: thousands separators"));
  EXPECT_TRUE(any_note_has(notes, "currency signs dropped"));
  EXPECT_TRUE(any_note_has(notes, "column 'share' read as numbers: '%' read as hundredths"));
  EXPECT_TRUE(any_note_has(notes, "column 'rate' read as numbers: ',' as the decimal mark"));
  EXPECT_TRUE(any_note_has(notes, "target 'y' read as numbers"));
  EXPECT_FALSE(any_note_has(notes, "'city'"));
}

TEST(NumberFormatColumns, PlainFilesReadAsBeforeWithNoNotes) {
  std::vector<std::string> notes;
  const auto rows = read_all("a,b,y\n1.5,2,0\n-3e2,4,1\n", {}, nullptr, &notes);
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_DOUBLE_EQ(rows[1][0], -300.0);
  EXPECT_TRUE(notes.empty());
}

TEST(NumberFormatColumns, CommaDecimalsInACommaFileAreTextWithAHint) {
  Schema schema;
  std::vector<std::string> notes;
  const auto rows = read_all("a,y\n\"1,5\",0\n\"2,25\",1\n", {}, &schema, &notes);
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(schema.categorical_features, (std::vector<std::size_t>{0}));
  EXPECT_TRUE(any_note_has(notes, "with --decimal , every value of it would be a number"));
  // Named, the mark reads them.
  TableOptions comma;
  comma.decimal = ',';
  const auto read = read_all("a,y\n\"1,5\",0\n\"2,25\",1\n", comma, &schema, nullptr);
  ASSERT_EQ(read.size(), 2u);
  EXPECT_TRUE(schema.categorical_features.empty());
  EXPECT_DOUBLE_EQ(read[1][0], 2.25);
}

TEST(NumberFormatColumns, ForcedDecimalCommaReadsDotsAsThousands) {
  TableOptions comma;
  comma.decimal = ',';
  const auto rows = read_all("a;y\n1.234;0\n5;1\n", comma);
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_DOUBLE_EQ(rows[0][0], 1234.0);
}

TEST(NumberFormatColumns, OneOddCellIsNamed) {
  std::vector<std::string> notes;
  TableOptions options;
  options.skip_bad_rows = true;
  // Three currency values and one that is not a number: the column stays as
  // its first value says (text here), and the report names the odd cell.
  read_all("p;y\n$1;0\n$2;1\n$3;0\nabout $4;1\n", options, nullptr, &notes);
  EXPECT_TRUE(any_note_has(notes, "t.csv:5: column 'p': 3 of its 4 values")) << (notes.empty() ? "" : notes[0]);
  EXPECT_TRUE(any_note_has(notes, "'about $4' is not"));
}

TEST(NumberFormatColumns, LaterDecoratedCellsInAPlainColumnFailByName) {
  TableOptions options;
  options.lookahead_rows = 2;
  auto opened = open_table_stream_from_string("a;y\n1;0\n2;1\n12%;0\n", options, "t.csv");
  ASSERT_TRUE(opened.is_ok());
  std::vector<double> x(1);
  double y = 0.0;
  int n = 0;
  while ((*opened)->next(x, y)) ++n;
  EXPECT_EQ(n, 2);
  EXPECT_NE((*opened)->status().message().find("t.csv:4:1: not a number: '12%'"), std::string::npos)
      << (*opened)->status().message();
}

TEST(SuspiciousColumns, NearDistinctCategoriesAndIdColumnsAreFlagged) {
  std::string text = "id,user,colour,y\n";
  for (int i = 0; i < 200; ++i)
    text += std::to_string(1000 + i) + ",u" + std::to_string(i) + "," + (i % 3 == 0 ? "red" : "blue") + "," +
            std::to_string(i % 2) + "\n";
  std::vector<std::string> notes;
  read_all(text, {}, nullptr, &notes);
  EXPECT_TRUE(any_note_has(notes, "warning: column 'user' is read as categories but 200 of its 200 values"));
  EXPECT_TRUE(any_note_has(notes, "warning: column 'id' holds increasing unique integers"));
  EXPECT_FALSE(any_note_has(notes, "'colour'"));
  EXPECT_FALSE(any_note_has(notes, "target 'y'"));
}

TEST(SuspiciousColumns, AnEpochTargetIsFlaggedBeforeARegression) {
  std::string text = "x,time\n";
  for (int i = 0; i < 100; ++i) text += std::to_string(i % 7) + "," + std::to_string(1700000000 + 60 * i) + "\n";
  std::vector<std::string> notes;
  Schema schema;
  read_all(text, {}, &schema, &notes);
  EXPECT_EQ(schema.task, Task::kRegression);
  EXPECT_TRUE(any_note_has(notes, "warning: target 'time' holds increasing unique integers"));
  EXPECT_TRUE(any_note_has(notes, "--target COL"));
}

}  // namespace
}  // namespace irithyll
