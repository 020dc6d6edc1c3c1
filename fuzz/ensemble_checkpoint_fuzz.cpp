// libFuzzer target for arf, srp and leveraging_bagging checkpoints: the
// first byte picks the learner, the rest goes through its decode(). It must
// refuse what it cannot use, never crash, hang or allocate without bound
// (member counts are checked against the settings, at most 1000, before any
// member is read); an ensemble that decodes must predict and learn a few rows
// of its width with finite outputs, and encode again.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <vector>

#include "irithyll/ensemble/arf.hpp"
#include "irithyll/ensemble/leveraging_bagging.hpp"
#include "irithyll/ensemble/srp.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  std::unique_ptr<irithyll::Learner> m;
  switch (data[0] % 3) {
    case 0: m = std::make_unique<irithyll::AdaptiveRandomForest>(); break;
    case 1: m = std::make_unique<irithyll::StreamingRandomPatches>(); break;
    default: m = std::make_unique<irithyll::LeveragingBagging>(); break;
  }
  irithyll::ByteReader in(std::span<const std::uint8_t>(data + 1, size - 1));
  if (!m->decode(in).is_ok()) return 0;
  const std::size_t width = m->n_features() == 0 ? 3 : m->n_features();
  if (width > 4096) return 0;
  std::vector<double> x(width, 0.5);
  std::vector<double> proba(m->n_classes());
  for (int i = 0; i < 4; ++i) {
    if (!std::isfinite(m->predict_one(x))) std::abort();
    if (!proba.empty()) {
      m->predict_proba_one(x, proba);
      for (double p : proba)
        if (!std::isfinite(p)) std::abort();
    }
    m->learn_one(x, m->task() == irithyll::Task::kClassification ? 1.0 : 2.5);
    x[static_cast<std::size_t>(i) % width] = i % 2 ? NAN : -3.0;
  }
  irithyll::ByteWriter w;
  m->encode(w);
  return 0;
}
