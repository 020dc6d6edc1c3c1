// `predict --model FILE.bin` with the metadata trailer that `irithyll export`
// writes: features by header name in any order (like --checkpoint), missing
// and unknown columns named, class names and probabilities for binary and
// multiclass files, --raw margins; a file without the trailer still reads by
// position and says so once; every version-1 reader still accepts the file.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <string>
#include <vector>

#include "irithyll/packed/class_bundle.hpp"
#include "irithyll/packed/metadata.hpp"
#include "irithyll/packed/view.hpp"
#include "support/cli_runner.hpp"

namespace irithyll::testing {
namespace {

// Columns a, b, noise and the target; `order` is a permutation of "abn".
std::string table(int rows, const std::string& order, bool classes, int k = 2) {
  std::string text;
  for (char c : order) text += std::string(c == 'a' ? "a" : c == 'b' ? "b" : "noise") + ",";
  text += "y\n";
  for (int i = 0; i < rows; ++i) {
    const int a = (i * 37) % 50, b = (i * 11) % 20, n = (i * 7) % 13;
    std::string y;
    if (!classes) y = std::to_string(3 * a - 2 * b);
    else if (k == 2) y = a > 25 ? "UP" : "DOWN";
    else y = a < 17 ? "low" : a < 34 ? "mid" : "high";
    for (char c : order) text += std::to_string(c == 'a' ? a : c == 'b' ? b : n) + ",";
    text += y + "\n";
  }
  return text;
}

struct Exported {
  std::string ckpt, bin;
};

Exported train_and_export(const std::string& tag, bool classes, int k = 2) {
  Exported e{temp_path(tag + ".ckpt"), temp_path(tag + ".bin")};
  const std::string csv = write_temp_file(tag + ".csv", table(3000, "abn", classes, k));
  auto r = run_cli("eval --data " + csv + " --n-steps 10 --quiet --save " + e.ckpt);
  EXPECT_EQ(r.code, 0) << r.err;
  r = run_cli("export --checkpoint " + e.ckpt + " --format f32 --out " + e.bin);
  EXPECT_EQ(r.code, 0) << r.err;
  return e;
}

std::vector<std::uint8_t> bytes_of(const std::string& path) {
  const std::string raw = read_text_file(path);
  return {raw.begin(), raw.end()};
}

TEST(PackedNamesCli, RegressionColumnsByNameInAnyOrder) {
  const Exported e = train_and_export("pn_reg", false);
  const std::string rows = write_temp_file("pn_reg_rows.csv", table(50, "nba", false));
  const auto full = run_cli("predict --checkpoint " + e.ckpt + " --data " + rows);
  const auto packed = run_cli("predict --model " + e.bin + " --data " + rows);
  ASSERT_EQ(full.code, 0) << full.err;
  ASSERT_EQ(packed.code, 0) << packed.err;
  EXPECT_EQ(packed.err, "");  // names known: no positional warning
  const auto f = split_lines(full.out), p = split_lines(packed.out);
  ASSERT_EQ(f.size(), 50u);
  ASSERT_EQ(p.size(), 50u);
  for (std::size_t i = 0; i < f.size(); ++i) {
    const double a = std::strtod(f[i].c_str(), nullptr), b = std::strtod(p[i].c_str(), nullptr);
    EXPECT_NEAR(a, b, 1e-3 * (1.0 + std::fabs(a))) << i;
  }
}

TEST(PackedNamesCli, MissingAndUnknownColumnsAreNamed) {
  const Exported e = train_and_export("pn_cols", false);
  const std::string missing = write_temp_file("pn_missing.csv", "a,noise\n1,2\n");
  auto r = run_cli("predict --model " + e.bin + " --data " + missing);
  EXPECT_NE(r.code, 0);
  EXPECT_NE(r.err.find("column 'b' that the model was trained on is missing"), std::string::npos) << r.err;
  const std::string extra = write_temp_file("pn_extra.csv", "a,b,noise,zz\n1,2,3,4\n");
  r = run_cli("predict --model " + e.bin + " --data " + extra);
  EXPECT_NE(r.code, 0);
  EXPECT_NE(r.err.find("column 'zz' is not a feature of the model"), std::string::npos) << r.err;
}

TEST(PackedNamesCli, BinaryClassNamesProbabilitiesAndMargins) {
  const Exported e = train_and_export("pn_bin", true);
  const std::string rows = write_temp_file("pn_bin_rows.csv", table(40, "ban", true));
  const auto full = split_lines(run_cli("predict --checkpoint " + e.ckpt + " --data " + rows + " --proba").out);
  const auto packed = run_cli("predict --model " + e.bin + " --data " + rows + " --proba");
  ASSERT_EQ(packed.code, 0) << packed.err;
  const auto p = split_lines(packed.out);
  ASSERT_EQ(full.size(), 41u);
  ASSERT_EQ(p.size(), 41u);
  EXPECT_EQ(p[0], full[0]);  // "prediction,DOWN,UP" (or the stored order)
  for (std::size_t i = 1; i < p.size(); ++i) {
    EXPECT_EQ(p[i].substr(0, p[i].find(',')), full[i].substr(0, full[i].find(','))) << p[i] << " vs " << full[i];
    const double a = std::strtod(p[i].c_str() + p[i].rfind(',') + 1, nullptr);
    const double b = std::strtod(full[i].c_str() + full[i].rfind(',') + 1, nullptr);
    EXPECT_NEAR(a, b, 1e-4) << i;
  }
  const auto one = split_lines(run_cli("predict --model " + e.bin + " --data " + rows).out);
  ASSERT_EQ(one.size(), 40u);
  EXPECT_TRUE(one[0].rfind("UP,", 0) == 0 || one[0].rfind("DOWN,", 0) == 0) << one[0];
  const auto raw = split_lines(run_cli("predict --model " + e.bin + " --data " + rows + " --raw").out);
  ASSERT_EQ(raw.size(), 40u);
  for (std::size_t i = 0; i < raw.size(); ++i) {
    const double margin = std::strtod(raw[i].c_str(), nullptr);
    const double p_last = std::strtod(p[i + 1].c_str() + p[i + 1].rfind(',') + 1, nullptr);
    EXPECT_NEAR(1.0 / (1.0 + std::exp(-margin)), p_last, 1e-5) << raw[i];
  }
}

TEST(PackedNamesCli, MulticlassBundleNamesItsClasses) {
  const Exported e = train_and_export("pn_multi", true, 3);
  const std::string rows = write_temp_file("pn_multi_rows.csv", table(30, "nab", true, 3));
  const auto full = split_lines(run_cli("predict --checkpoint " + e.ckpt + " --data " + rows + " --proba").out);
  const auto packed = run_cli("predict --model " + e.bin + " --data " + rows + " --proba");
  ASSERT_EQ(packed.code, 0) << packed.err;
  const auto p = split_lines(packed.out);
  ASSERT_EQ(p.size(), full.size());
  EXPECT_EQ(p[0], full[0]);
  for (std::size_t i = 1; i < p.size(); ++i)
    EXPECT_EQ(p[i].substr(0, p[i].find(',')), full[i].substr(0, full[i].find(','))) << p[i] << " vs " << full[i];
  const auto raw = split_lines(run_cli("predict --model " + e.bin + " --data " + rows + " --raw").out);
  ASSERT_EQ(raw.size(), 30u);
  EXPECT_EQ(std::count(raw[0].begin(), raw[0].end(), ','), 2) << raw[0];
  // The bundle reader and member 0's reader accept the trailer.
  auto bundle = packed::PackedClassBundle::from_bytes(bytes_of(e.bin));
  ASSERT_TRUE(bundle.is_ok()) << bundle.status().message();
  auto meta = packed::read_metadata(bundle->member(0));
  ASSERT_TRUE(meta.is_ok());
  ASSERT_TRUE(meta->has_value());
  EXPECT_EQ((*meta)->class_names.size(), 3u);
  EXPECT_EQ((*meta)->feature_names, (std::vector<std::string>{"a", "b", "noise"}));
}

TEST(PackedNamesCli, FreestandingViewAcceptsTheTrailerAndDamageIsRefused) {
  const Exported e = train_and_export("pn_view", false);
  const std::vector<std::uint8_t> bytes = bytes_of(e.bin);
  auto model = packed::PackedModel::from_bytes(bytes);
  ASSERT_TRUE(model.is_ok()) << model.status().message();
  std::vector<std::uint16_t> scratch(packed::largest_tree_f32(bytes.data(), bytes.size()));
  packed::F32View view;
  EXPECT_EQ(view.parse(bytes.data(), bytes.size(), scratch.data(), scratch.size()), packed::FormatError::kOk);
  // Every truncation inside the trailer either leaves no trailer (cut at the
  // last node) or a refused one; never a crash.
  std::size_t refused = 0;
  for (std::size_t n = bytes.size() - 1; n + 64 > bytes.size() && n > 0; --n) {
    auto m = packed::PackedModel::from_bytes(std::vector<std::uint8_t>(bytes.begin(), bytes.begin() + n));
    if (!m.is_ok()) continue;
    refused += packed::read_metadata(*m).is_ok() ? 0 : 1;
  }
  EXPECT_GT(refused, 0u);
}

TEST(PackedNamesCli, FileWithoutNamesReadsByPositionAndSaysSoOnce) {
  const Exported e = train_and_export("pn_plain", false);
  auto model = packed::PackedModel::from_bytes(bytes_of(e.bin));
  ASSERT_TRUE(model.is_ok());
  // Rewrite the file without its trailer: the last node is where a fresh
  // export with no metadata ends.
  std::vector<std::uint8_t> plain = model->bytes();
  while (plain.size() > 16) {
    auto m = packed::PackedModel::from_bytes(plain);
    if (m.is_ok() && packed::read_metadata(*m).is_ok() && !packed::read_metadata(*m)->has_value()) break;
    plain.pop_back();
  }
  const std::string path = write_temp_file("pn_plain_stripped.bin", std::string(plain.begin(), plain.end()));
  const std::string rows = write_temp_file("pn_plain_rows.csv", table(5, "abn", false));
  auto r = run_cli("predict --model " + path + " --data " + rows);
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(split_lines(r.out).size(), 5u);
  std::size_t notes = 0;
  for (std::size_t at = r.err.find("stores no column names"); at != std::string::npos;
       at = r.err.find("stores no column names", at + 1))
    ++notes;
  EXPECT_EQ(notes, 1u) << r.err;
}

}  // namespace
}  // namespace irithyll::testing
