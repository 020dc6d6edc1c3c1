// The transformer catalogue: one row per transformer kind, read by pipelines
// (pipeline_spec.hpp), `irithyll models`, checkpoints and the Python package,
// as the learner catalogue is for learners.
//
// A transformer is built for a known input width (TransformerContext): its
// output width is fixed from then on, so the learner after it sees one width
// for the whole stream (a one-hot encoder reserves its slots up front; see
// one_hot.hpp).
//
//   auto t = make_transformer("one_hot", {{"columns", "colour"}}, context);
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "irithyll/core/config_fields.hpp"
#include "irithyll/core/status.hpp"
#include "irithyll/learner.hpp"
#include "irithyll/preprocess/transformer.hpp"

namespace irithyll {

// What the data decides about a transformer's input.
struct TransformerContext {
  Task task = Task::kRegression;
  std::size_t n_classes = 0;
  std::size_t n_features = 0;              // input width, >= 1
  std::uint64_t seed = 42;
  std::vector<std::string> feature_names;  // input column names (may be empty)
  // Input columns holding category codes (the CLI's text and --categorical
  // columns): the default columns of one_hot, target_encoder and
  // feature_hasher's name=value hashing.
  std::vector<std::uint32_t> categorical;
};

struct TransformerEntry {
  std::string_view name;         // pipeline step name and checkpoint name
  std::string_view description;  // one line
  std::span<const FieldInfo> (*fields)();
  Result<std::unique_ptr<Transformer>> (*make)(const ModelSettings& settings, const TransformerContext& context);
  std::unique_ptr<Transformer> (*make_blank)();
  // Python placement (River's module and class), empty where Python has none.
  std::string_view python_module = {};
  std::string_view python_class = {};
};

std::span<const TransformerEntry> transformer_catalogue();
const TransformerEntry* find_transformer(std::string_view name);
// Looks the kind up, checks the settings against its table and builds it.
Result<std::unique_ptr<Transformer>> make_transformer(std::string_view name, const ModelSettings& settings,
                                                      const TransformerContext& context);
// Every transformer with every setting, as `irithyll models --json` prints it.
std::string transformers_json();

}  // namespace irithyll
