// Stream: an unbounded (or file-backed) source of labelled samples, one at a
// time. CSV files and the seeded synthetic generators implement it.
//
// A stream knows its schema before the first sample: feature names, the
// task, and for classification the class labels (index i of class_names is
// the class id the learner sees).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "irithyll/core/status.hpp"
#include "irithyll/learner.hpp"

namespace irithyll {

struct Schema {
  std::vector<std::string> feature_names;
  std::string target_name;
  Task task = Task::kRegression;
  std::vector<std::string> class_names;  // classification only; size = n_classes
  // Feature indices whose values are category codes 0, 1, 2, ... (a table
  // reader's string columns and --categorical ones), ascending; models with
  // category-set splits can be told to use them (categorical-features).
  std::vector<std::size_t> categorical_features = {};
  // Several regression targets (multi-target streams): every target's name in
  // delivery order, target_name being the first. Empty for one target.
  std::vector<std::string> target_names{};
  // Per feature (empty, or size n_features): a categorical feature's values in
  // code order (value i was given code i), as the table reader has met them
  // so far. Checkpoints store it so that a model meets its codes again.
  std::vector<std::vector<std::string>> category_values{};
  std::size_t n_features() const { return feature_names.size(); }
  std::size_t n_targets() const { return target_names.empty() ? 1 : target_names.size(); }
  std::size_t n_classes() const { return class_names.size(); }
};

class Stream {
 public:
  virtual ~Stream() = default;
  virtual const Schema& schema() const = 0;
  // Writes the next sample into x (size schema().n_features()) and y. Returns
  // false at the end of the stream or on error; then status() tells which.
  // Missing feature values are NaN.
  virtual bool next(std::span<double> x, double& y) = 0;
  // Every target of the next sample: y.size() == schema().n_targets(). The
  // default serves one-target streams through next().
  virtual bool next_multi(std::span<double> x, std::span<double> y) {
    double first = 0.0;
    const bool got = next(x, first);
    if (got && !y.empty()) y[0] = first;
    return got;
  }
  virtual const Status& status() const = 0;
  // Total number of samples when known in advance (files, bounded generators).
  virtual std::optional<std::uint64_t> size_hint() const { return std::nullopt; }
  // The stream this one reads its rows from when it wraps another (a sample
  // of a file, say); nullptr for a source. Why: what a report says about the
  // source, such as the malformed rows it skipped, must reach it through a
  // wrapper.
  virtual const Stream* wrapped() const { return nullptr; }
};

}  // namespace irithyll
