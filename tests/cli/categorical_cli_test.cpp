// String feature columns end to end: `irithyll eval` reads a CSV whose
// colour column holds names, codes them in order of first appearance, marks
// the column categorical for SGBT (saying so in the report) and learns a
// target that depends on a set of colours; naming the column, or giving an
// empty categorical-features list, decides it explicitly.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <string>

#include "irithyll/core/rng.hpp"
#include "support/cli_runner.hpp"

namespace irithyll::testing {
namespace {

// 16 colour names; y = yes iff the colour is in a scattered half of them.
std::string colour_csv(int rows) {
  static const char* kNames[] = {"red",  "green", "blue",  "cyan",  "pink", "gold",  "grey", "navy",
                                 "lime", "teal",  "olive", "coral", "plum", "khaki", "mint", "rust"};
  std::string csv = "colour,noise,label\n";
  Xorshift64 rng(9);
  for (int i = 0; i < rows; ++i) {
    const auto c = static_cast<int>(rng.uniform() * 16.0);
    const bool y = ((0x6A93u >> c) & 1u) != 0;
    csv += std::string(kNames[c]) + "," + std::to_string(rng.uniform()) + "," + (y ? "yes" : "no") + "\n";
  }
  return csv;
}

const std::string kModel = " --model sgbt --n-steps 5 --max-depth 2 --seed 1";

TEST(CategoricalCli, StringColumnIsSplitByCategorySets) {
  const std::string data = write_temp_file("colours.csv", colour_csv(6000));
  const auto with = run_cli("eval --quiet --data " + data + kModel);
  ASSERT_EQ(with.code, 0) << with.err;
  EXPECT_NE(with.out.find("categorical  colour (split by category in sgbt)"), std::string::npos) << with.out;
  // The user's empty list wins: the codes are then plain numbers.
  const auto without = run_cli("eval --quiet --data " + data + kModel + " --categorical-features ''");
  ASSERT_EQ(without.code, 0) << without.err;
  const double a = accuracy_in(with.out), b = accuracy_in(without.out);
  EXPECT_GT(a, 0.9) << with.out;
  EXPECT_GT(a, b + 0.1) << "with " << a << ", without " << b;
  // The VFDT gets the column as a nominal attribute (multiway splits).
  const std::string ht = " --model hoeffding_tree --leaf-model mc --grace-period 50 --seed 1";
  const auto ht_with = run_cli("eval --quiet --data " + data + ht);
  ASSERT_EQ(ht_with.code, 0) << ht_with.err;
  EXPECT_NE(ht_with.out.find("categorical  colour (split by category in hoeffding_tree)"), std::string::npos)
      << ht_with.out;
  const auto ht_without = run_cli("eval --quiet --data " + data + ht + " --categorical-features ''");
  ASSERT_EQ(ht_without.code, 0) << ht_without.err;
  EXPECT_GT(accuracy_in(ht_with.out), accuracy_in(ht_without.out) + 0.05) << ht_with.out << ht_without.out;
  std::remove(data.c_str());
}

// `inspect --tree` spells category splits with the values' names, which the
// checkpoint keeps: SGBT's category sets and the VFDT's multiway branches.
TEST(CategoricalCli, TreeDumpsNameTheCategories) {
  const std::string data = write_temp_file("colours_dump.csv", colour_csv(6000));
  const std::string sgbt = temp_path("colours_dump_sgbt.ckpt"), ht = temp_path("colours_dump_ht.ckpt");
  ASSERT_EQ(run_cli("eval --quiet --data " + data + kModel + " --save " + sgbt).code, 0);
  ASSERT_EQ(run_cli("eval --quiet --data " + data +
                    " --model hoeffding_tree --leaf-model mc --grace-period 50 --seed 1 --save " + ht)
                .code,
            0);
  const auto s = run_cli("inspect " + sgbt + " --tree 0");
  ASSERT_EQ(s.code, 0) << s.err;
  const auto set = s.out.find("colour in {");
  ASSERT_NE(set, std::string::npos) << s.out;
  const std::string members = s.out.substr(set, s.out.find('}', set) - set);
  EXPECT_TRUE(members.find("red") != std::string::npos || members.find("green") != std::string::npos ||
              members.find("blue") != std::string::npos)
      << members;
  EXPECT_EQ(members.find_first_of("0123456789"), std::string::npos) << "codes instead of names: " << members;
  const auto h = run_cli("inspect " + ht + " --tree 0");
  ASSERT_EQ(h.code, 0) << h.err;
  for (const char* v : {"= red\n", "= green\n", "= rust\n"}) EXPECT_NE(h.out.find(v), std::string::npos) << v << h.out;
  EXPECT_NE(h.out.find("colour (missing or unseen: "), std::string::npos) << h.out;
  for (const auto& f : {data, sgbt, ht}) std::remove(f.c_str());
}

// A numeric column named in --categorical (by name or feature index) is
// coded and split the same way; a model without category splits is told so.
TEST(CategoricalCli, NamedNumericColumnAndOtherModels) {
  std::string csv = "code,noise,label\n";
  Xorshift64 rng(4);
  for (int i = 0; i < 4000; ++i) {
    const auto c = static_cast<int>(rng.uniform() * 16.0);
    csv += std::to_string(100 + 7 * c) + "," + std::to_string(rng.uniform()) + "," +
           (((0x6A93u >> c) & 1u) != 0 ? "1" : "0") + "\n";
  }
  const std::string data = write_temp_file("codes.csv", csv);
  for (const char* col : {"code", "0"}) {
    const auto r = run_cli("eval --quiet --data " + data + kModel + " --categorical " + col);
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.out.find("categorical  code (split by category in sgbt)"), std::string::npos) << r.out;
    EXPECT_GT(accuracy_in(r.out), 0.9) << r.out;
  }
  const auto nb = run_cli("eval --quiet --data " + data + " --model loglinear --categorical code");
  ASSERT_EQ(nb.code, 0) << nb.err;
  EXPECT_NE(nb.out.find("categorical  code (read as category codes 0, 1, ...; no category splits"), std::string::npos) << nb.out;
  const auto bad = run_cli("eval --quiet --data " + data + kModel + " --categorical nope");
  EXPECT_NE(bad.code, 0);
  EXPECT_NE(bad.err.find("nope"), std::string::npos) << bad.err;
  std::remove(data.c_str());
}

TEST(CategoricalCli, CompareNamesTheModelsThatSplitByCategory) {
  const std::string data = write_temp_file("colours_cmp.csv", colour_csv(2000));
  const auto r = run_cli("compare --data " + data + " --models sgbt,loglinear,hoeffding_tree");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("categorical  colour (split by category in sgbt, hoeffding_tree)"), std::string::npos) << r.out;
  std::remove(data.c_str());
}

// Packed export of a checkpoint with category splits fails with an error
// that names the column and the way out, and the way out exports.
TEST(CategoricalCli, ExportRefusesCategorySplits) {
  const std::string data = write_temp_file("colours_exp.csv", colour_csv(3000));
  const std::string ckpt = temp_path("colours.ckpt"), out = temp_path("colours.bin");
  const auto e = run_cli("eval --quiet --data " + data + kModel + " --save " + ckpt);
  ASSERT_EQ(e.code, 0) << e.err;
  const auto x = run_cli("export --checkpoint " + ckpt + " --out " + out);
  EXPECT_NE(x.code, 0);
  EXPECT_NE(x.err.find("splits 'colour' by category sets"), std::string::npos) << x.err;
  EXPECT_NE(x.err.find("--categorical-features \"\""), std::string::npos) << x.err;
  const auto again = run_cli("eval --quiet --data " + data + kModel + " --categorical-features \"\" --save " + ckpt);
  ASSERT_EQ(again.code, 0) << again.err;
  const auto ok = run_cli("export --checkpoint " + ckpt + " --out " + out);
  EXPECT_EQ(ok.code, 0) << ok.err;
  const auto p = run_cli("predict --model " + out + " --data " + data);
  EXPECT_EQ(p.code, 0) << p.err;
  for (const auto& f : {data, ckpt, out}) std::remove(f.c_str());
}

// A checkpoint keeps its category dictionary: a file whose colours first
// appear in another order is coded as in training, so `predict` gives the
// same rows the same predictions and `eval --load` keeps its accuracy. (Before
// the dictionary was stored, the reversed file re-coded the colours.)
TEST(CategoricalCli, CheckpointKeepsTheCategoryCodes) {
  const std::string train = colour_csv(6000);
  const std::string data = write_temp_file("colours_codes.csv", train), ckpt = temp_path("colours_codes.ckpt");
  const auto e = run_cli("eval --quiet --data " + data + kModel + " --save " + ckpt);
  ASSERT_EQ(e.code, 0) << e.err;
  // The last 600 rows, forwards and reversed, without the label column.
  const auto lines = split_lines(train);
  auto features = [](const std::string& line) { return line.substr(0, line.rfind(',')); };
  std::string fwd = "colour,noise\n", rev = fwd, rev_labelled = lines[0] + "\n";
  for (std::size_t i = lines.size() - 600; i < lines.size(); ++i) fwd += features(lines[i]) + "\n";
  for (std::size_t i = lines.size(); i-- > lines.size() - 600;) {
    rev += features(lines[i]) + "\n";
    rev_labelled += lines[i] + "\n";
  }
  const std::string fwd_path = write_temp_file("colours_fwd.csv", fwd), rev_path = write_temp_file("colours_rev.csv", rev);
  const std::string rev_labelled_path = write_temp_file("colours_rev_labelled.csv", rev_labelled);
  const auto a = run_cli("predict --checkpoint " + ckpt + " --data " + fwd_path);
  const auto b = run_cli("predict --checkpoint " + ckpt + " --data " + rev_path);
  ASSERT_EQ(a.code, 0) << a.err;
  ASSERT_EQ(b.code, 0) << b.err;
  auto pa = split_lines(a.out), pb = split_lines(b.out);
  ASSERT_EQ(pa.size(), pb.size());
  std::reverse(pb.begin(), pb.end());
  EXPECT_EQ(pa, pb);
  const auto loaded = run_cli("eval --quiet --load " + ckpt + " --data " + rev_labelled_path);
  ASSERT_EQ(loaded.code, 0) << loaded.err;
  EXPECT_GT(accuracy_in(loaded.out), 0.9) << loaded.out;
  EXPECT_EQ(a.err.find("never saw"), std::string::npos) << a.err;  // every colour known: no note
  // Colours the model never learned are read as missing, and predict says so
  // once per column, with the first few values.
  const std::string novel_path =
      write_temp_file("colours_novel.csv", "colour,noise\nred,0.5\nmauve,0.5\nsepia,0.1\nmauve,0.2\n"
                                           "umber,0.3\nochre,0.4\n,0.5\n");
  const auto novel = run_cli("predict --checkpoint " + ckpt + " --data " + novel_path);
  ASSERT_EQ(novel.code, 0) << novel.err;
  const auto rows = split_lines(novel.out);
  ASSERT_EQ(rows.size(), 7u) << novel.out;
  EXPECT_EQ(rows[1], rows[6]) << "mauve should read as a missing colour";
  EXPECT_NE(novel.err.find("column 'colour' had 4 values the model never saw in training ('mauve', 'sepia', 'umber', "
                           "...); rows with one were predicted as if 'colour' were missing"),
            std::string::npos)
      << novel.err;
  for (const auto& p : {data, ckpt, fwd_path, rev_path, rev_labelled_path, novel_path}) std::remove(p.c_str());
}

}  // namespace
}  // namespace irithyll::testing
