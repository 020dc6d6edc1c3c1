// The planted-anomaly stream (irithyll/anomaly/planted.hpp).
#include "irithyll/anomaly/planted.hpp"

#include "irithyll/core/rng.hpp"

namespace irithyll {

PlantedStream planted_anomalies(std::size_t n, std::size_t dims, double rate, std::uint64_t seed,
                                std::size_t clusters) {
  Xorshift64 rng(seed);
  if (clusters == 0) clusters = 1;
  std::vector<double> centre(clusters * dims), spread(clusters * dims);
  for (std::size_t i = 0; i < centre.size(); ++i) {
    centre[i] = rng.uniform(-5.0, 5.0);
    spread[i] = rng.uniform(0.5, 1.5);
  }
  PlantedStream out;
  out.dims = dims;
  out.x.resize(n * dims);
  out.label.resize(n);
  for (std::size_t r = 0; r < n; ++r) {
    double* row = out.x.data() + r * dims;
    if (rng.uniform() < rate) {
      out.label[r] = 1;
      for (std::size_t j = 0; j < dims; ++j) row[j] = rng.uniform(-10.0, 10.0);
    } else {
      const std::size_t c = rng.below(clusters);
      for (std::size_t j = 0; j < dims; ++j) row[j] = rng.normal(centre[c * dims + j], spread[c * dims + j]);
    }
  }
  return out;
}

}  // namespace irithyll
