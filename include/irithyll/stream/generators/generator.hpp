// GeneratorStream: the shared shell of the synthetic streams (SEA, Agrawal,
// Hyperplane, RBF, Friedman). It owns the schema, the sample counter, the
// optional bound on the number of samples and the argument checks, so a
// generator only writes one sample. Every generator draws from its own
// Xorshift64 seeded at construction: same seed, same stream, bit for bit.
//
// Cost: O(d) per sample; memory O(d) plus the generator's concept state.
// Not thread-safe.
#pragma once

#include <cstdint>
#include <optional>
#include <span>

#include "irithyll/core/rng.hpp"
#include "irithyll/stream/stream.hpp"

namespace irithyll {

class GeneratorStream : public Stream {
 public:
  const Schema& schema() const final { return schema_; }
  const Status& status() const final { return status_; }
  std::optional<std::uint64_t> size_hint() const final { return n_samples_; }
  // Ends after n_samples when bounded; a wrong x.size() is an error.
  bool next(std::span<double> x, double& y) final;
  // Every target (y.size() == schema().n_targets()): next() plus extra_targets().
  bool next_multi(std::span<double> x, std::span<double> y) final;
  // Samples produced so far (the 0-based position of the next one).
  std::uint64_t position() const { return t_; }

 protected:
  GeneratorStream(Schema schema, std::uint64_t seed, std::optional<std::uint64_t> n_samples)
      : schema_(std::move(schema)), rng_(seed), n_samples_(n_samples) {}
  // Writes sample number position() (x has n_features() slots).
  virtual void generate(std::span<double> x, double& y) = 0;
  // Multi-target generators: the targets after the first of the sample
  // generate() just wrote (out.size() == n_targets() - 1).
  virtual void extra_targets(std::span<double> out) const { (void)out; }

  Schema schema_;
  Xorshift64 rng_;

 private:
  Status status_;
  std::optional<std::uint64_t> n_samples_;
  std::uint64_t t_ = 0;
};

// "0", "1", ..., as class names for generated labels.
std::vector<std::string> numbered_class_names(std::size_t n_classes);
// "x1", "x2", ..., "x<n>" as feature names.
std::vector<std::string> numbered_feature_names(std::size_t n_features);

}  // namespace irithyll
