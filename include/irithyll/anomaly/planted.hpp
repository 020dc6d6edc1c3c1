// A stream with planted anomalies, for tests, benchmarks and the CLI demo:
// normal samples come from a mixture of `clusters` Gaussians in `dims`
// dimensions (centres uniform in [-5, 5]^dims, per-dimension standard
// deviations uniform in [0.5, 1.5], clusters equally likely); each sample
// is instead, with probability `rate`, an anomaly drawn uniformly from the
// box [-10, 10]^dims. Labels: 1 = anomaly. Deterministic given the seed.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace irithyll {

struct PlantedStream {
  std::size_t dims = 0;
  std::vector<double> x;              // row-major, n * dims
  std::vector<std::uint8_t> label;    // n
};

PlantedStream planted_anomalies(std::size_t n, std::size_t dims, double rate, std::uint64_t seed,
                                std::size_t clusters = 3);

}  // namespace irithyll
