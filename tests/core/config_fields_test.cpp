// The config-field primitives every model table uses: list splitting, the
// generic range check and its message, Python spellings, and the settings
// record of a checkpoint (a row an older record lacks).
#include <gtest/gtest.h>

#include <span>
#include <string>
#include <vector>

#include "core/field_rows.hpp"
#include "irithyll/core/config_codec.hpp"
#include "irithyll/core/config_fields.hpp"

namespace irithyll {
namespace {

std::vector<std::string> items(std::string_view text, char sep) {
  std::vector<std::string> out;
  for (std::string_view s : split_list_items(text, sep)) out.emplace_back(s);
  return out;
}

TEST(ConfigFields, SplitListItems) {
  EXPECT_EQ(items("", ','), std::vector<std::string>{});
  EXPECT_EQ(items("a", ','), (std::vector<std::string>{"a"}));
  EXPECT_EQ(items("pht|adwin|none", '|'), (std::vector<std::string>{"pht", "adwin", "none"}));
  EXPECT_EQ(items("a,,b", ','), (std::vector<std::string>{"a", "", "b"}));  // an empty item is kept
  EXPECT_EQ(items("a,b,", ','), (std::vector<std::string>{"a", "b"}));      // a closing separator adds none
}

TEST(ConfigFields, RangeCheckNamesSettingValueAndRange) {
  const FieldInfo f = FieldInfo::real("learning-rate", "0.1", "shrinkage").in(0, 1, true);
  EXPECT_TRUE(check_field(f, "1").is_ok());
  const Status s = check_field(f, "0");
  ASSERT_FALSE(s.is_ok());
  EXPECT_EQ(s.message(), "learning-rate = 0 is out of range: must be in (0, 1]");
  const FieldInfo off = FieldInfo::integer("max-tree-samples", "0", "limit").at_least(100).or_off();
  EXPECT_TRUE(check_field(off, "0").is_ok());
  EXPECT_FALSE(check_field(off, "99").is_ok());
  const FieldInfo c = FieldInfo::choice("drift", "pht", "pht|adwin", "detector");
  EXPECT_TRUE(check_field(c, "adwin").is_ok());
  EXPECT_FALSE(check_field(c, "adw").is_ok());
  EXPECT_EQ(FieldInfo::integer("n-steps", "1", "").python_name(), "n_steps");
  EXPECT_TRUE(field_name_matches(f, "learning_rate"));
}

struct TwoSettings {
  double rate = 0.5;
  double prior = 10.0;  // a newer setting; models saved before it behaved as 0
};

// A record written before a row existed: that row takes its absent value
// where it has one, else keeps the default; a record that has the row reads it.
TEST(ConfigCodec, RowAbsentFromARecordTakesItsAbsentValue) {
  using Row = ConfigField<TwoSettings>;
  const Row older[] = {Row{FieldInfo::real("rate", "0.5", ""), IRITHYLL_FIELD_REAL(TwoSettings, rate)}};
  const Row newer[] = {older[0], Row{FieldInfo::real("prior", "10", "").in(0, 100).absent_means("0"),
                                     IRITHYLL_FIELD_REAL(TwoSettings, prior)}};
  // Written with `written`'s rows, read back with `read`'s.
  auto round_trip = [](std::span<const Row> written, std::span<const Row> read, const TwoSettings& saved) {
    ByteWriter out;
    encode_config<TwoSettings>(written, saved, out);
    const auto bytes = out.take();
    TwoSettings back;
    ByteReader in(bytes);
    EXPECT_TRUE(decode_config<TwoSettings>("two", read, in, back).is_ok());
    return back;
  };
  TwoSettings saved;
  saved.rate = 0.25;
  const TwoSettings read = round_trip(older, newer, saved);
  EXPECT_EQ(read.rate, 0.25);
  EXPECT_EQ(read.prior, 0.0);
  saved.prior = 7.0;
  EXPECT_EQ(round_trip(newer, newer, saved).prior, 7.0);
  // Without an absent value a missing row keeps what the config held.
  const Row plain[] = {older[0], Row{FieldInfo::real("prior", "10", ""), IRITHYLL_FIELD_REAL(TwoSettings, prior)}};
  EXPECT_EQ(round_trip(older, plain, saved).prior, 10.0);
}

}  // namespace
}  // namespace irithyll
