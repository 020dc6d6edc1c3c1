// libFuzzer target for anomaly detector checkpoints: any bytes go through
// decode_anomaly_detector. It must refuse what it cannot use, never crash,
// hang or allocate without bound; a detector that decodes must score and
// learn a few rows of its own width with finite scores in [0, 1] and encode
// again.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <vector>

#include "irithyll/anomaly/registry.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  auto decoded = irithyll::decode_anomaly_detector(std::span<const std::uint8_t>(data, size));
  if (!decoded.is_ok()) return 0;
  irithyll::AnomalyDetector& d = **decoded;
  const std::size_t width = d.n_features() == 0 ? 3 : d.n_features();
  if (width > 4096) return 0;
  std::vector<double> x(width, 0.5);
  for (int i = 0; i < 4; ++i) {
    const double s = d.score_one(x);
    if (!(s >= 0.0 && s <= 1.0)) std::abort();
    d.learn_one(x);
    x[static_cast<std::size_t>(i) % width] = i % 2 ? NAN : -3.0;
  }
  irithyll::ByteWriter w;
  irithyll::encode_anomaly_detector(d, w);
  return 0;
}
