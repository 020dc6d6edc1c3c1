// Inputs of fuzz/cluster_checkpoint_fuzz.cpp replayed as a unit test, so the
// plain and sanitizer builds check them without clang: the seeds and the
// crashes the fuzzer found (fuzz/corpus/cluster_checkpoint/):
//   dbstream_array_mismatch.bin        micro-cluster arrays of unequal length
//                                      were read past their end in decode
//   clustream_macro_without_width.bin  macro clusters with no feature width
//                                      decoded, then predict read an empty array
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <vector>

#include "irithyll/cluster/registry.hpp"

namespace irithyll {
namespace {

// The fuzzer's body: byte 0 picks the model, the rest is its state.
void exercise(const std::vector<std::uint8_t>& bytes) {
  (void)load_clusterer(bytes);
  if (bytes.empty()) return;
  std::unique_ptr<Clusterer> model = clusterers()[bytes[0] % clusterers().size()].make_blank();
  ByteReader in(std::span<const std::uint8_t>(bytes).subspan(1));
  if (!model->decode(in).is_ok()) return;
  const std::size_t d = model->n_features() == 0 ? 2 : model->n_features();
  if (d > 64) return;
  std::vector<double> x(d);
  for (int i = 0; i < 16; ++i) {
    for (std::size_t f = 0; f < d; ++f) x[f] = static_cast<double>((i * 7 + static_cast<int>(f) * 3) % 11) - 5.0;
    (void)model->predict_one(x);
    (void)model->learn_one(x);
  }
  (void)save_clusterer(*model);
}

TEST(ClusterFuzzRegression, CorpusInputsRunCleanly) {
  const std::filesystem::path dir = std::filesystem::path(IRITHYLL_SOURCE_DIR) / "fuzz/corpus/cluster_checkpoint";
  ASSERT_TRUE(std::filesystem::is_directory(dir)) << dir;
  int files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    std::ifstream f(entry.path(), std::ios::binary);
    const std::vector<std::uint8_t> bytes((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
    exercise(bytes);
    ++files;
  }
  EXPECT_GE(files, 5);
}

}  // namespace
}  // namespace irithyll
