// libFuzzer target for "ttt" checkpoints: any bytes go through
// TttLearner::decode. It must refuse what it cannot use, never crash, hang
// or allocate without bound; a learner that decodes must predict and learn a
// few rows of its width (missing values among them) with finite outputs,
// and encode again.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <vector>

#include "irithyll/nn/ttt/ttt_learner.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  irithyll::nn::TttLearner m;
  irithyll::ByteReader in(std::span<const std::uint8_t>(data, size));
  if (!m.decode(in).is_ok()) return 0;
  const std::size_t width = m.n_features() == 0 ? 3 : m.n_features();
  std::vector<double> x(width, 0.5);
  std::vector<double> proba(m.n_classes());
  for (int i = 0; i < 4; ++i) {
    if (!std::isfinite(m.predict_one(x))) std::abort();
    if (!proba.empty()) {
      m.predict_proba_one(x, proba);
      for (double p : proba)
        if (!std::isfinite(p)) std::abort();
    }
    m.learn_one(x, m.task() == irithyll::Task::kClassification ? 1.0 : 2.5);
    x[static_cast<std::size_t>(i) % width] = i % 2 ? NAN : -3.0;
  }
  irithyll::ByteWriter w;
  m.encode(w);
  return 0;
}
