// arf's categorical-features row reaches every member tree and its
// checkpoint: the members' nominal attributes (hoeffding_tree's).
#include <gtest/gtest.h>

#include <vector>

#include "irithyll/core/bytes.hpp"
#include "irithyll/ensemble/arf_config.hpp"

namespace irithyll {
namespace {

TEST(ARFNominal, RowSetsTheMemberTreesListAndEncodes) {
  ARFConfig c;
  bool found = false;
  for (const auto& f : arf_config_fields()) {
    if (f.info.name != "categorical-features") continue;
    found = true;
    ASSERT_TRUE(f.set(c, "3,1").is_ok());
    EXPECT_EQ(f.get(c), "1,3");
    EXPECT_FALSE(f.set(c, "x").is_ok());
  }
  ASSERT_TRUE(found);
  EXPECT_EQ(c.tree.categorical, (std::vector<std::uint32_t>{1, 3}));
  ByteWriter w;
  c.encode(w);
  const auto bytes = w.take();
  ARFConfig d;
  ByteReader in(bytes);
  ASSERT_TRUE(d.decode(in).is_ok());
  EXPECT_EQ(d.tree.categorical, c.tree.categorical);
}

}  // namespace
}  // namespace irithyll
