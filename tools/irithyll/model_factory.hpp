// Model registry for `irithyll eval --model NAME`: one file per model family
// (model_sgbt.cpp, model_attention.cpp, ...), each registering a row with a
// static ModelRegistration. A row declares its options on the eval parser
// (options shared by several models, such as --seed, are declared once) and
// builds a learner from the parsed options and the stream's schema.
#pragma once

#include <memory>
#include <string_view>
#include <vector>

#include "args.hpp"
#include "irithyll/learner.hpp"

namespace irithyll::cli {

struct ModelContext {
  Task task = Task::kRegression;
  std::size_t n_classes = 0;   // classification only
  std::size_t n_features = 0;
  std::uint64_t seed = 42;     // --seed
};

struct ModelFactory {
  std::string_view name;
  std::string_view summary;
  void (*declare_options)(ArgParser& parser);
  Result<std::unique_ptr<Learner>> (*make)(const ArgParser& args, const ModelContext& context);
};

std::vector<ModelFactory>& model_table();

struct ModelRegistration {
  explicit ModelRegistration(ModelFactory factory) { model_table().push_back(factory); }
};

}  // namespace irithyll::cli
