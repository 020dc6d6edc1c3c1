// arf's categorical-features row reaches every member tree and its
// checkpoint: the members' nominal attributes (hoeffding_tree's), split one
// value against the rest, learn as well as the same codes read as numbers.
#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "irithyll/core/bytes.hpp"
#include "irithyll/core/config_codec.hpp"
#include "irithyll/core/rng.hpp"
#include "irithyll/ensemble/arf.hpp"
#include "irithyll/ensemble/arf_config.hpp"
#include "support/prequential.hpp"
#include "support/encoded.hpp"
#include "support/legacy_config_records.hpp"

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
  encode_config(arf_config_fields(), c, w);
  ARFConfig d;
  ByteReader in(w.data());
  ASSERT_TRUE(decode_config("arf", arf_config_fields(), in, d).is_ok());
  EXPECT_EQ(d.tree.categorical, c.tree.categorical);
}


// A stream like Agrawal's function 0: the class is 1 when age < 40 or
// age >= 60, on eight attributes of which 3 (20 values) and 4 (5 values)
// are nominal codes and irrelevant, as are the numeric 1, 2, 5, 6, 7.
struct AgeStream {
  Xorshift64 rng{7};
  std::vector<double> x = std::vector<double>(8, 0.0);
  double next() {
    x[0] = std::floor(rng.uniform(20.0, 80.0));
    x[1] = rng.uniform(20000.0, 150000.0);
    x[2] = rng.uniform(0.0, 75000.0);
    x[3] = static_cast<double>(rng.below(20));
    x[4] = static_cast<double>(rng.below(5));
    x[5] = rng.uniform(0.0, 1.0);
    x[6] = rng.uniform(0.0, 30.0);
    x[7] = rng.uniform(0.0, 500000.0);
    return x[0] < 40.0 || x[0] >= 60.0 ? 1.0 : 0.0;
  }
};

std::unique_ptr<AdaptiveRandomForest> forest(const ARFConfig& c) {
  auto m = AdaptiveRandomForest::make(c, {Task::kClassification, 2, 8, 5});
  EXPECT_TRUE(m.is_ok()) << m.status().to_string();
  return std::move(m).value();
}

double accuracy(Learner& m, int n) {
  AgeStream s;
  return testing::prequential_accuracy(m, s, n);
}

TEST(ARFNominal, NominalAttributesLearnAsWellAsTheirCodesAsNumbers) {
  // Members whose leaves split nominal attributes multiway took a split on
  // the irrelevant 20-valued attribute (its gain grows with the branch count
  // on noise) wherever the leaf's subspace lacked age: 0.908 accuracy here
  // in 8.6 MB, against 0.990 in 0.28 MB with the codes read as numbers;
  // one-vs-rest splits, with each observer sized by its attribute's kind,
  // reach 0.995 in 0.92 MB (64 value rows per nominal observer). Fixed
  // seeds and streams: deterministic, no false failures.
  ARFConfig codes;
  ARFConfig nominal;
  ASSERT_TRUE(set_categorical_features(nominal.tree, "3,4").is_ok());
  auto a = forest(codes);
  auto b = forest(nominal);
  const double acc_codes = accuracy(*a, 20000), acc_nominal = accuracy(*b, 20000);
  EXPECT_GT(acc_codes, 0.97);
  EXPECT_GT(acc_nominal, acc_codes - 0.01) << "codes " << acc_codes;
  // The nominal forest does not grow many times larger than the numeric one.
  EXPECT_LT(b->memory_bytes(), 5 * a->memory_bytes());
}

TEST(ARFNominal, MembersSplitOneValueAgainstTheRestAndKeepItInTheCheckpoint) {
  ARFConfig c;
  ASSERT_TRUE(set_categorical_features(c.tree, "3,4").is_ok());
  c.max_features = 8;  // every leaf sees the nominal attributes
  auto m = forest(c);
  accuracy(*m, 5000);
  for (std::size_t i = 0; i < m->n_dump_trees(); ++i) {
    const std::string t = m->dump_tree(i, TreeDumpFormat::kText);
    EXPECT_EQ(t.find("missing or unseen"), std::string::npos) << "a multiway split in tree " << i << ":\n" << t;
  }
  ByteWriter w;
  m->encode(w);
  const auto bytes = w.take();
  AdaptiveRandomForest d;
  ByteReader in(bytes);
  ASSERT_TRUE(d.decode(in).is_ok());
  // Decoded, it continues bit-identically (the member flag travelled).
  AgeStream s;
  for (int i = 0; i < 3000; ++i) {
    const double y = s.next();
    ASSERT_EQ(m->predict_one(s.x), d.predict_one(s.x)) << i;
    m->learn_one(s.x, y);
    d.learn_one(s.x, y);
  }
  ByteWriter w1, w2;
  m->encode(w1);
  d.encode(w2);
  EXPECT_EQ(w1.take(), w2.take());
}

TEST(ARFNominal, HoeffdingTreeConfigRoundTripsTheBinaryNominalFlag) {
  for (bool flag : {false, true}) {
    HoeffdingTreeConfig c;
    c.binary_nominal = flag;
    ByteWriter w;
    testing::encode_legacy(c, w);
    const auto bytes = w.take();
    HoeffdingTreeConfig d;
    ByteReader in(bytes);
    ASSERT_TRUE(d.decode(in).is_ok());
    EXPECT_EQ(d.binary_nominal, flag);
  }
}

}  // namespace
}  // namespace irithyll
