// The config-field primitives every model table uses: list splitting, the
// generic range check and its message, Python spellings.
#include <gtest/gtest.h>

#include <string>
#include <vector>

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

}  // namespace
}  // namespace irithyll
