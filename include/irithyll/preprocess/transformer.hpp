// Transformer: an online preprocessor that maps a feature vector to another of
// fixed width, learning its own statistics as the stream goes by. Composed
// with a Learner through Pipeline (pipeline.hpp).
//
// transform_one must not learn: a pipeline transforms with the statistics of
// the past, then learns, so prediction stays honest (test-then-train). It may
// count x's own values in on the fly (standard_scaler does, to bound z), but
// never a target.
#pragma once

#include <cstddef>
#include <span>
#include <string>
#include <string_view>
#include <vector>

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
  // Learning with the sample's target, for supervised transformers (target
  // encoding, feature selection); the others ignore y. `y` is the learner's
  // target: a class index for classification.
  virtual void learn_supervised(std::span<const double> x, double y) {
    (void)y;
    learn_one(x);
  }
  // The input width the transformer was built for, or 0 when it takes any
  // width (and keeps it).
  virtual std::size_t input_size() const { return 0; }
  // REQUIRES: out.size() == output_size(x.size()).
  virtual void transform_one(std::span<const double> x, std::span<double> out) const = 0;
  // Names of the output columns given the input's: the same names when the
  // width is kept, else "<transformer>0", "<transformer>1", ... Pipelines use
  // them to find later steps' columns by name.
  virtual std::vector<std::string> output_names(std::span<const std::string> in) const {
    const std::size_t n = output_size(in.size());
    if (n == in.size()) return std::vector<std::string>(in.begin(), in.end());
    std::vector<std::string> out;
    for (std::size_t i = 0; i < n; ++i) out.push_back(std::string(name()) + std::to_string(i));
    return out;
  }
  virtual void reset() = 0;
  virtual std::size_t memory_bytes() const = 0;
  virtual void encode(ByteWriter& out) const = 0;
  virtual Status decode(ByteReader& in) = 0;
};

}  // namespace irithyll
