// SGBTConfig: every setting of a streaming gradient-boosted tree committee
// (Gunasekara, Pfahringer, Gomes & Bifet, "Gradient boosted trees for evolving
// data streams", Machine Learning 2024), with the original's defaults.
//
// One source of truth: the field table sgbt_config_fields() names each field
// for the CLI (--n-steps ...), Python and `irithyll models`, with its default,
// range and help; validate() checks every row against it, then the rules that
// tie fields together; encode/decode persist it in checkpoints.
// Adding a setting = one member here + one row in the table.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "irithyll/core/bytes.hpp"
#include "irithyll/core/config_fields.hpp"
#include "irithyll/core/status.hpp"
#include "irithyll/drift/drift_detector.hpp"
#include "irithyll/histogram/feature_binner.hpp"
#include "irithyll/loss/loss.hpp"
#include "irithyll/tree/tree_config.hpp"

namespace irithyll {

// Standard: every step trains once per sample. Skip (SGBT-SK): each step
// skips a sample with probability 1/skip_k. Multiple iterations (SGBT-MI):
// a step trains max(1, ceil(|h| * mi_multiplier)) times on the sample.
enum class SGBTVariant : std::uint8_t { kStandard = 0, kSkip = 1, kMultipleIterations = 2 };

struct SGBTConfig {
  std::uint32_t n_steps = 100;               // > 0; boosting steps (one tree slot each)
  double learning_rate = 0.0125;             // (0, 1]; shrinkage of every tree's output
  double feature_subsample = 0.75;           // (0, 1]; features scored per split attempt
  std::uint32_t max_depth = 6;               // [1, 30]
  std::uint32_t n_bins = 64;                 // >= 2; histogram bins per feature
  double lambda = 1.0;                       // >= 0; L2 on leaf weights
  double gamma = 0.0;                        // >= 0; minimum split gain
  std::uint32_t grace_period = 200;          // >= 1; samples between split attempts
  double delta = 1e-7;                       // (0, 1); Hoeffding confidence
  DriftConfig drift{};                       // per tree slot, fed |gradient|; default Page-Hinkley(0.005, 50)
  SGBTVariant variant = SGBTVariant::kStandard;
  std::uint32_t skip_k = 10;                 // >= 1; Skip variant: skip with probability 1/k
  double mi_multiplier = 1.0;                // > 0; MI variant repetition factor
  std::uint64_t seed = 0xDEADBEEFCAFE4242ull;  // tree s uses seed ^ s; the variant stream uses seed
  std::uint32_t initial_target_count = 50;   // > 0; targets averaged into the base prediction
  double leaf_half_life = 0.0;               // 0 = off, else >= 1 samples: alpha = exp(-ln 2 / half_life)
  std::uint64_t max_tree_samples = 0;        // 0 = off, else >= 100: replace a tree after this many samples
  LossKind loss = LossKind::kSquared;        // regression loss (classification picks logistic/softmax)
  double loss_param = 0.0;                   // huber delta / quantile or expectile tau; 0 = the loss's default
  BinStrategy bin_strategy = BinStrategy::kUniform;
  double hoeffding_r = 1.0;                  // > 0; range R in the Hoeffding bound
  std::uint32_t min_samples_leaf = 0;        // 0 = off; a split leaves each child at least this many samples

  Status validate() const;
  // The tree configuration of boosting step `step`.
  TreeConfig tree_config(std::uint32_t step) const;
  Loss make_loss() const;
  void encode(ByteWriter& out) const;
  Status decode(ByteReader& in);
};

// The field table (core/config_fields.hpp): one row per user-visible
// setting. The seed is not a row: it comes from the learner context.
std::span<const ConfigField<SGBTConfig>> sgbt_config_fields();
// Looks the field up by name, checks the value against its row and sets it.
Status set_sgbt_config_field(SGBTConfig& config, std::string_view name, std::string_view value);
Result<SGBTVariant> parse_sgbt_variant(std::string_view name);
std::string_view sgbt_variant_name(SGBTVariant v);

}  // namespace irithyll
