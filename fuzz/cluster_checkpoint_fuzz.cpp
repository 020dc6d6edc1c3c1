// libFuzzer target: arbitrary bytes as clusterer state (its corpus is
// replayed by tests/cluster/fuzz_regression_test.cpp). The first byte picks
// the model (kmeans, clustream, dbstream), the rest goes to its decode()
// directly (the checkpoint's CRC would reject almost every mutation before
// the decoder saw it), and load_clusterer() gets the whole input too.
// Whatever decodes must then predict and learn rows without crashing,
// hanging or reading out of bounds.
#include <cstdint>
#include <span>
#include <vector>

#include "irithyll/cluster/registry.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::span<const std::uint8_t> bytes(data, size);
  (void)irithyll::load_clusterer(bytes);
  const auto table = irithyll::clusterers();
  std::unique_ptr<irithyll::Clusterer> model = table[data[0] % table.size()].make_blank();
  irithyll::ByteReader in(bytes.subspan(1));
  if (!model->decode(in).is_ok()) return 0;
  const std::size_t d = model->n_features() == 0 ? 2 : model->n_features();
  if (d > 64) return 0;
  std::vector<double> x(d);
  for (int i = 0; i < 16; ++i) {
    for (std::size_t f = 0; f < d; ++f) x[f] = static_cast<double>((i * 7 + static_cast<int>(f) * 3) % 11) - 5.0;
    (void)model->predict_one(x);
    (void)model->learn_one(x);
  }
  (void)model->centers();
  (void)irithyll::save_clusterer(*model);
  return 0;
}
