// A multiclass SGBT exports to ONE packed file (the "IRMC" bundle holding a
// version-1 file per class): predict from it agrees with the checkpoint,
// inspect describes it, and a damaged bundle is refused with the reason.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "irithyll/packed/class_bundle.hpp"
#include "support/cli_runner.hpp"

namespace irithyll::testing {
namespace {

TEST(PackedBundleCli, MulticlassExportIsOneFileThatPredictsLikeTheCheckpoint) {
  std::string text = "a,b,y\n";
  for (int i = 0; i < 3000; ++i) {
    const int a = (i * 37) % 30, b = (i * 11) % 7;
    text += std::to_string(a) + "," + std::to_string(b) + "," + std::to_string(a / 10) + "\n";
  }
  const std::string csv = write_temp_file("bundle.csv", text);
  const std::string ckpt = temp_path("bundle.ckpt"), out = temp_path("bundle.bin");
  ASSERT_EQ(run_cli("eval --data " + csv + " --n-steps 5 --quiet --save " + ckpt).code, 0);
  auto exported = run_cli("export --checkpoint " + ckpt + " --format f32 --out " + out);
  ASSERT_EQ(exported.code, 0) << exported.err;
  EXPECT_EQ(split_lines(exported.out), std::vector<std::string>{out});  // one file

  auto inspected = run_cli("inspect " + out);
  ASSERT_EQ(inspected.code, 0) << inspected.err;
  EXPECT_NE(inspected.out.find("kind: packed multiclass bundle"), std::string::npos) << inspected.out;
  EXPECT_NE(inspected.out.find("classes: 3"), std::string::npos) << inspected.out;

  // Every prefix and a sweep of single-byte flips: refused or loaded, never a
  // crash or an out-of-bounds read (the sanitizer build checks the latter).
  const std::string raw = read_text_file(out);
  const std::vector<std::uint8_t> bytes(raw.begin(), raw.end());
  ASSERT_TRUE(packed::PackedClassBundle::from_bytes(bytes).is_ok());
  for (std::size_t n = 0; n < bytes.size(); n += 1 + n / 64)
    EXPECT_FALSE(packed::PackedClassBundle::from_bytes(std::span(bytes.data(), n)).is_ok()) << n;
  for (std::size_t i = 0; i < bytes.size(); i += 1 + i / 32) {
    std::vector<std::uint8_t> flipped = bytes;
    flipped[i] ^= 0x5A;
    auto r = packed::PackedClassBundle::from_bytes(flipped);
    if (r.is_ok()) {
      std::vector<float> x(r->required_features(), 1.0f), p(r->n_classes());
      r->predict_proba(x, p);
    }
  }

  const std::string rows = write_temp_file("bundle_rows.csv", "a,b\n3,1\n15,4\n27,6\n");
  const auto packed = split_lines(run_cli("predict --model " + out + " --data " + rows).out);
  const auto full = split_lines(run_cli("predict --checkpoint " + ckpt + " --data " + rows).out);
  ASSERT_EQ(packed.size(), 3u);
  ASSERT_EQ(full.size(), 3u);
  for (std::size_t i = 0; i < 3; ++i) {
    // Same class (the checkpoint's class names are "0", "1", "2"), same
    // probability to f32 rounding.
    EXPECT_EQ(packed[i].substr(0, 2), full[i].substr(0, 2)) << packed[i] << " vs " << full[i];
    const double p = std::strtod(packed[i].c_str() + 2, nullptr), q = std::strtod(full[i].c_str() + 2, nullptr);
    EXPECT_NEAR(p, q, 1e-5) << i;
  }
}

TEST(PackedBundle, DamagedBundlesAreRefusedWithTheReason) {
  const std::vector<std::uint8_t> junk = {'I', 'R', 'M', 'C', 1, 0, 3, 0, 9, 0, 0, 0};
  auto r = packed::PackedClassBundle::from_bytes(junk);
  ASSERT_FALSE(r.is_ok());
  EXPECT_NE(r.status().message().find("truncated length table"), std::string::npos) << r.status().message();
  const std::vector<std::uint8_t> one = {'I', 'R', 'M', 'C', 1, 0, 1, 0};
  EXPECT_NE(packed::PackedClassBundle::from_bytes(one).status().message().find("class count 1"), std::string::npos);
  const std::vector<std::uint8_t> v2 = {'I', 'R', 'M', 'C', 2, 0, 3, 0};
  EXPECT_EQ(packed::PackedClassBundle::from_bytes(v2).status().code(), StatusCode::kNotSupported);
}

}  // namespace
}  // namespace irithyll::testing
