// The body of a libFuzzer target for one learner's checkpoints: the bytes go
// through a blank learner's decode(). It must refuse what it cannot use,
// never crash, hang or allocate without bound; a learner that decodes must
// predict and learn a few rows of its width (missing values among them)
// with finite outputs, and encode again.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <span>
#include <vector>

#include "irithyll/core/bytes.hpp"
#include "irithyll/learner.hpp"

namespace irithyll::fuzzing {

// The body for any learner: bytes through m.decode(), then the rows.
inline int fuzz_decoded_learner(Learner& m, std::span<const std::uint8_t> bytes) {
  ByteReader in(bytes);
  if (!m.decode(in).is_ok()) return 0;
  const std::size_t width = m.n_features() == 0 ? 3 : m.n_features();
  if (width > 4096) return 0;
  std::vector<double> x(width, 0.5);
  std::vector<double> proba(m.n_classes());
  const bool classify = m.task() == Task::kClassification;
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
  ByteWriter w;
  m.encode(w);
  return 0;
}

template <class L>
int fuzz_learner_checkpoint(const std::uint8_t* data, std::size_t size) {
  L m;
  return fuzz_decoded_learner(m, std::span<const std::uint8_t>(data, size));
}

}  // namespace irithyll::fuzzing
