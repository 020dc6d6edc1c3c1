// libFuzzer target for "kan" checkpoints: the bytes go through decode(). It
// must refuse what it cannot use, never crash, hang or allocate without
// bound; a network that decodes must predict and learn a few rows of its
// width (missing values among them) with finite outputs, and encode again.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <vector>

#include "irithyll/nn/kan/kan.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  irithyll::nn::KolmogorovArnoldNetwork m;
  irithyll::ByteReader in(std::span<const std::uint8_t>(data, size));
  if (!m.decode(in).is_ok()) return 0;
  const std::size_t width = m.n_features() == 0 ? 3 : m.n_features();
  if (width > 4096) return 0;
  std::vector<double> x(width, 0.5);
  std::vector<double> proba(m.n_classes());
  const bool classify = m.task() == irithyll::Task::kClassification;
  for (int i = 0; i < 4; ++i) {
    if (!std::isfinite(m.predict_one(x))) std::abort();
    if (!proba.empty()) {
      m.predict_proba_one(x, proba);
      for (double p : proba)
        if (!std::isfinite(p)) std::abort();
    }
    m.learn_one(x, classify ? static_cast<double>(i % 2) : 2.5 * i);
    x[static_cast<std::size_t>(i) % width] = i % 2 ? NAN : -3.0;
  }
  irithyll::ByteWriter w;
  m.encode(w);
  return 0;
}
