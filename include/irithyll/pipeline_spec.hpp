// Pipelines written as text, as `--model` takes them:
//
//   one_hot(columns=colour;max-categories=8)|standard_scaler|logistic_regression(l2=0.001)
//
// Steps are separated by '|'; every step but the last is a transformer
// (preprocess/registry.hpp), the last is a catalogue learner. Each step may
// carry settings in parentheses, key=value separated by ';' (commas belong
// to values: columns=colour,day), the same form `compare --models` and
// `stacked` use for one model. Spaces around names, keys and values are
// ignored.
//
// Building: each transformer is made for the width and column names coming
// out of the step before it (so a later step names columns as the earlier one
// printed them: one_hot's "colour=1", target_encoder's "colour:mean"), the
// stream's categorical columns follow their names through the steps, and
// the learner is made for the last step's width.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "irithyll/learner.hpp"
#include "irithyll/stacked.hpp"

namespace irithyll {

// True when `text` has a '|' outside parentheses (a pipeline, not one model).
bool is_pipeline_spec(std::string_view text);

// The steps of "a(k=v)|b|c", each a name with its settings. Refuses an empty
// step, unbalanced parentheses, a setting without '=' and more than 32 steps.
Result<std::vector<ModelSpec>> parse_pipeline_spec(std::string_view text);

// Builds the pipeline: `extra` settings apply to the learner after its own
// (parenthesised) ones, `categorical` lists the input's category-code columns.
// REQUIRES: context.n_features > 0 (the input width is known).
Result<std::unique_ptr<Learner>> make_pipeline(std::string_view text, const ModelSettings& extra,
                                               const LearnerContext& context,
                                               std::span<const std::uint32_t> categorical);

}  // namespace irithyll
