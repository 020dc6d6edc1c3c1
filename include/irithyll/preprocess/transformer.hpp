// Transformer: an online preprocessor that maps a feature vector to another of
// fixed width, learning its own statistics as the stream goes by. Composed
// with a Learner through Pipeline (pipeline.hpp).
//
// transform_one must not learn: a pipeline transforms with the statistics of
// the past, then learns, so prediction stays honest (test-then-train).
#pragma once

#include <cstddef>
#include <span>
#include <string_view>

#include "irithyll/core/bytes.hpp"
#include "irithyll/core/status.hpp"

namespace irithyll {

class Transformer {
 public:
  virtual ~Transformer() = default;
  virtual std::string_view name() const = 0;
  // Width of transform_one's output for an input of n_in features.
  virtual std::size_t output_size(std::size_t n_in) const = 0;
  virtual void learn_one(std::span<const double> x) = 0;
  // REQUIRES: out.size() == output_size(x.size()).
  virtual void transform_one(std::span<const double> x, std::span<double> out) const = 0;
  virtual void reset() = 0;
  virtual std::size_t memory_bytes() const = 0;
  virtual void encode(ByteWriter& out) const = 0;
  virtual Status decode(ByteReader& in) = 0;
};

}  // namespace irithyll
