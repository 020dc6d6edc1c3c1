// The class-count memory guard: a classification model whose size grows with
// the number of classes (one ensemble per class) can need gigabytes for an
// id-like target. Before the model is built, its size is projected from two
// probe models with 2 and 3 classes, and a projection over the budget stops
// the run with the estimate and the target column's name.
#pragma once

#include <cstdint>
#include <string_view>

#include "args.hpp"
#include "irithyll/catalogue.hpp"
#include "irithyll/core/status.hpp"
#include "irithyll/learner.hpp"

namespace irithyll::cli {

// Declares --memory-budget (bytes, with an optional K/M/G suffix; default 1G).
void declare_memory_budget(ArgParser& p);

// Parses "512M", "1G", "2.5G", "100000" into bytes.
Result<std::uint64_t> parse_byte_size(std::string_view text);

// OK when the model `name` with `settings` and `context` (classification
// with many classes) is projected to fit in the budget given by --memory-budget.
// `target` names the class column in the message.
Status check_class_memory(const ArgParser& args, std::string_view name, const ModelSettings& settings,
                          const LearnerContext& context, std::string_view target);

}  // namespace irithyll::cli
