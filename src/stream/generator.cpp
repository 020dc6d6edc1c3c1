#include "irithyll/stream/generators/generator.hpp"

#include <charconv>
#include <string>

namespace irithyll {

bool GeneratorStream::next(std::span<double> x, double& y) {
  if (!status_.is_ok()) return false;
  if (x.size() != schema_.n_features()) {
    status_ = Status::invalid_argument("generator: next() given " + std::to_string(x.size()) +
                                       " feature slots, the schema has " + std::to_string(schema_.n_features()));
    return false;
  }
  if (n_samples_.has_value() && t_ >= *n_samples_) return false;
  generate(x, y);
  ++t_;
  return true;
}

bool GeneratorStream::next_multi(std::span<double> x, std::span<double> y) {
  if (!status_.is_ok()) return false;
  if (y.size() != schema_.n_targets()) {
    status_ = Status::invalid_argument("generator: next_multi() given " + std::to_string(y.size()) +
                                       " target slots, the schema has " + std::to_string(schema_.n_targets()));
    return false;
  }
  if (!next(x, y[0])) return false;
  extra_targets(y.subspan(1));
  return true;
}

std::vector<std::string> numbered_class_names(std::size_t n_classes) {
  std::vector<std::string> names;
  for (std::size_t k = 0; k < n_classes; ++k) names.push_back(std::to_string(k));
  return names;
}

}  // namespace irithyll

namespace irithyll {

std::vector<std::string> numbered_feature_names(std::size_t n_features) {
  std::vector<std::string> names(n_features);
  // Built in a char buffer: "x" + std::to_string(...) trips GCC 12's
  // -Wrestrict false positive at -O2.
  char buf[32] = {'x'};
  for (std::size_t i = 0; i < n_features; ++i) {
    const auto end = std::to_chars(buf + 1, buf + sizeof buf, i + 1).ptr;
    names[i].assign(buf, end);
  }
  return names;
}

}  // namespace irithyll
