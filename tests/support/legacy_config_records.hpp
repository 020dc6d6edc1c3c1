// The binary config layouts that checkpoints wrote before settings were
// saved by name. The library only reads them now (SGBTConfig::decode,
// GradientTreeConfig::decode, HoeffdingTreeConfig::decode and the attention
// layer's AttentionConfig::decode, for old record versions); these writers let the tests build such records and check that
// every options block and flag still decodes.
#pragma once

#include <cstdint>

#include "irithyll/core/bytes.hpp"
#include "irithyll/ensemble/sgbt_config.hpp"
#include "irithyll/nn/attention/config.hpp"
#include "irithyll/tree/gradient_tree_config.hpp"
#include "irithyll/tree/vfdt_config.hpp"

namespace irithyll::testing {

inline void encode_legacy(const GradientTreeConfig& c, ByteWriter& out) {
  out.u32(c.max_depth);
  out.u32(c.n_bins);
  out.f64(c.lambda);
  out.f64(c.gamma);
  out.u32(c.grace_period);
  out.f64(c.delta);
  out.f64(c.feature_subsample);
  out.u64(c.seed);
  out.f64(c.leaf_decay_alpha);
  out.f64(c.hoeffding_r);
  out.f64(c.tie_threshold);
  out.f64(c.min_child_hessian);
  out.u32(c.min_samples_leaf);
  // Bit 7 of the bin-strategy byte flags the options block that follows;
  // without options the record is byte-identical to the one before them.
  const bool extensions = c.has_extensions();
  const bool options = c.has_options() || extensions;
  out.u8(static_cast<std::uint8_t>(static_cast<std::uint8_t>(c.bin_strategy) | (options ? 0x80 : 0)));
  if (!options) return;
  // Options block version: 1 = leaf controls; 2 = those, then the model and
  // structure options and the categorical feature list; 3 = those, then
  // warm_start; 4 = those, then categorical_penalty (written only when it
  // applies: a category list and a non-zero penalty). The lowest version
  // that holds the settings is written, so records without the later ones
  // stay byte-identical to the ones before.
  const bool v4 = !c.categorical.empty() && c.categorical_penalty != 0.0;
  const bool v3 = v4 || c.warm_start != 0;
  const bool v2 = v3 || extensions || !c.categorical.empty();
  out.u8(v4 ? 4 : v3 ? 3 : v2 ? 2 : 1);
  out.f64(c.max_leaf_output);
  out.f64(c.min_hessian_sum);
  out.f64(c.gradient_clip_sigma);
  out.f64(c.adaptive_leaf_bound);
  out.u64(c.monotone.size());
  for (std::int8_t m : c.monotone) out.u8(static_cast<std::uint8_t>(m + 1));
  if (!v2) return;
  out.u8(static_cast<std::uint8_t>(c.leaf_model));
  out.f64(c.linear_learning_rate);
  out.u32(c.split_reeval_interval);
  out.f64(c.adaptive_depth);
  out.u64(c.categorical.size());
  for (std::uint32_t f : c.categorical) out.u32(f);
  if (v3) out.u32(c.warm_start);
  if (v4) out.f64(c.categorical_penalty);
}

inline void encode_legacy(const SGBTConfig& c, ByteWriter& out) {
  out.u32(c.n_steps);
  out.f64(c.learning_rate);
  out.f64(c.tree.feature_subsample);
  out.u32(c.tree.max_depth);
  out.u32(c.tree.n_bins);
  out.f64(c.tree.lambda);
  out.f64(c.tree.gamma);
  out.u32(c.tree.grace_period);
  out.f64(c.tree.delta);
  out.u8(static_cast<std::uint8_t>(c.drift.kind));
  out.f64(c.drift.delta);
  out.f64(c.drift.lambda);
  out.f64(c.drift.warning_level);
  out.f64(c.drift.drift_level);
  out.u32(c.drift.min_instances);
  out.u8(static_cast<std::uint8_t>(c.variant));
  out.u32(c.skip_k);
  out.f64(c.mi_multiplier);
  out.u64(c.seed);
  out.u32(c.initial_target_count);
  out.f64(c.leaf_half_life);
  out.u64(c.max_tree_samples);
  out.u8(static_cast<std::uint8_t>(c.loss));
  out.f64(c.loss_param);
  // Bit 7 of the bin-strategy byte flags the options block at the end; a
  // config without the leaf controls encodes exactly as before them.
  const bool options = c.has_options();
  out.u8(static_cast<std::uint8_t>(static_cast<std::uint8_t>(c.tree.bin_strategy) | (options ? 0x80 : 0)));
  out.f64(c.tree.hoeffding_r);
  out.u32(c.tree.min_samples_leaf);
  if (!options) return;
  // Options block version 2 appends the routing options, the tree's model
  // and structure options and the tree.categorical feature list; version 3 then
  // the tree.categorical penalty. Each is written only when one of its settings
  // is on, so records without them stay byte-identical to the version
  // before. A record below 3 reads the penalty as 0 when it lists category
  // features (what it was trained with) and as the default when it lists
  // none (where the penalty has nothing to act on), so version 3 is written
  // exactly when the penalty differs from that reading.
  const bool v3 = c.tree.categorical_penalty != (c.tree.categorical.empty() ? SGBTConfig::kDefaultCategoricalPenalty : 0.0);
  const bool v2 = v3 || c.has_routing_options() || c.tree.has_extensions() || !c.tree.categorical.empty();
  out.u8(v3 ? 3 : v2 ? 2 : 1);
  out.f64(c.tree.max_leaf_output);
  out.f64(c.tree.min_hessian_sum);
  out.f64(c.tree.gradient_clip_sigma);
  out.f64(c.tree.adaptive_leaf_bound);
  out.u64(c.tree.monotone.size());
  for (std::int8_t m : c.tree.monotone) out.u8(static_cast<std::uint8_t>(m + 1));
  out.f64(c.error_weight_alpha);
  out.f64(c.adaptive_mts_k);
  out.f64(c.adaptive_mts_floor);
  out.f64(c.quality_prune_alpha);
  out.f64(c.quality_prune_threshold);
  out.u32(c.quality_prune_patience);
  out.u64(c.proactive_prune_interval);
  if (!v2) return;
  out.boolean(c.soft_routing);
  out.f64(c.soft_bandwidth);
  out.u32(c.handoff_window);
  out.u8(static_cast<std::uint8_t>(c.tree.leaf_model));
  out.f64(c.tree.linear_learning_rate);
  out.u32(c.tree.split_reeval_interval);
  out.f64(c.tree.adaptive_depth);
  out.u64(c.tree.categorical.size());
  for (std::uint32_t f : c.tree.categorical) out.u32(f);
  if (v3) out.f64(c.tree.categorical_penalty);
}

inline void encode_legacy(const HoeffdingTreeConfig& c, ByteWriter& out) {
  out.u32(c.grace_period);
  out.f64(c.delta);
  out.f64(c.tie_threshold);
  // Bit 7 of the criterion byte flags the nominal attribute list at the end,
  // bit 6 count_observations (the leaf records then carry their observation
  // count), bit 5 binary_nominal, bit 4 a non-zero nominal_penalty and bit
  // 3 a non-zero nominal_nb_prior (each an f64 after the list, in that
  // order); with none the record is byte-identical to the one before them,
  // and a record written before those settings existed reads them as 0, the
  // plain merit and add-one estimate it was trained with.
  out.u8(static_cast<std::uint8_t>(static_cast<std::uint8_t>(c.criterion) | (c.categorical.empty() ? 0 : 0x80) |
                                   (c.count_observations ? 0x40 : 0) | (c.binary_nominal ? 0x20 : 0) |
                                   (c.nominal_penalty != 0.0 ? 0x10 : 0) | (c.nominal_nb_prior != 0.0 ? 0x08 : 0)));
  out.u8(static_cast<std::uint8_t>(c.leaf_model));
  out.u8(static_cast<std::uint8_t>(c.numeric));
  out.u32(c.n_split_points);
  out.u32(c.n_bins);
  out.u32(c.max_depth);
  out.f64(c.min_branch_fraction);
  out.f64(c.learning_rate);
  if (!c.categorical.empty()) {
    out.u64(c.categorical.size());
    for (std::uint32_t f : c.categorical) out.u32(f);
  }
  if (c.nominal_penalty != 0.0) out.f64(c.nominal_penalty);
  if (c.nominal_nb_prior != 0.0) out.f64(c.nominal_nb_prior);
}

inline void encode_legacy(const nn::AttentionMode& c, ByteWriter& out) {
  // Bit 7 of the kind byte: the RWKV-7 upstream order (see config.hpp).
  out.u8(static_cast<std::uint8_t>(static_cast<std::uint8_t>(c.kind) | (c.rwkv7_upstream_order ? 0x80u : 0u)));
  out.f64(c.gamma);
  out.f64(c.beta_scale);
  out.boolean(c.beta_per_token);
  out.f64(c.initial_decay);
  out.u32(c.n_compositions);
  out.boolean(c.reflections);
  out.f64(c.lower_bound);
  out.u8(static_cast<std::uint8_t>(c.inner));
  out.u32(c.max_levels);
  out.f64(c.lambda_init);
  out.f64(c.rwkv7_removal);
}

inline void encode_legacy(const nn::AttentionConfig& c, ByteWriter& out) {
  out.u64(c.d_model);
  out.u64(c.n_heads);
  out.u64(c.d_key);
  out.u64(c.d_value);
  encode_legacy(c.mode, out);
  out.u64(c.seed);
  out.f64(c.init_scale);
}

}  // namespace irithyll::testing
