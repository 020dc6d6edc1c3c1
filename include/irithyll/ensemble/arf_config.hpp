// ARFConfig: every setting of the Adaptive Random Forest (Gomes, Bifet, Read,
// Barddal, Enembreck, Pfahringer, Holmes & Abdessalem, "Adaptive random
// forests for evolving data stream classification", Machine Learning 2017),
// with MOA's defaults: 10 trees, Poisson(6) online bagging, round(sqrt(d)) + 1
// attributes per leaf, ADWIN warning at delta 0.01 (starts a background tree)
// and drift at delta 0.001 (swaps it in), accuracy-weighted vote; member trees
// with grace period 50, split confidence 0.01, tie threshold 0.05, adaptive
// naive-Bayes leaves.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>

#include "irithyll/core/bytes.hpp"
#include "irithyll/core/config_fields.hpp"
#include "irithyll/core/status.hpp"
#include "irithyll/tree/vfdt_config.hpp"

namespace irithyll {

enum class ARFVote : std::uint8_t { kWeighted = 0, kMajority = 1 };

struct ARFConfig {
  std::uint32_t n_trees = 10;       // [1, 1000]
  double lambda = 6.0;              // (0, 30]; Poisson rate of each tree's sample weight
  std::uint32_t max_features = 0;   // 0 = round(sqrt(d)) + 1, else attributes per leaf (capped at d)
  double warning_delta = 0.01;      // 0 = off (no background trees), else ADWIN confidence in (0, 1)
  double drift_delta = 0.001;       // 0 = off (no replacement), else ADWIN confidence in (0, 1)
  ARFVote vote = ARFVote::kWeighted;  // classification: accuracy-weighted or majority; regression averages
  // Training threads, [1, 256]: the members are split into min(threads,
  // n_trees) contiguous groups, one per thread, each member drawing from its
  // own random stream, so every result is bit-identical to threads = 1. A
  // run-time setting: not written to checkpoints (a decoded forest has 1).
  std::uint32_t threads = 1;
  HoeffdingTreeConfig tree = default_tree();

  static HoeffdingTreeConfig default_tree() {
    HoeffdingTreeConfig t;
    t.grace_period = 50;
    t.delta = 0.01;
    t.tie_threshold = 0.05;
    // Adaptive leaves: naive Bayes adaptive for classification; for
    // regression, per leaf, the mean or a linear model on all features,
    // whichever has erred less (River's ARFRegressor default). Against mean
    // leaves, R2 over 3 seeds (friedman and hetero 20k rows, Electricity's
    // nswdemand and transfer columns as targets): ARF 0.750 -> 0.821, 0.648
    // -> 0.705, 0.830 -> 0.927, 0.808 -> 0.892; SRP 0.668 -> 0.669, 0.575 ->
    // 0.571, 0.806 -> 0.908, 0.730 -> 0.902. TreeSHAP and packed export need
    // constant leaves: leaf-model mean.
    t.leaf_model = LeafModel::kAdaptive;
    // Nominal splits by the plain merit (a penalty on one-value-against-the-
    // rest splits cost accuracy on Agrawal); naive Bayes shrinks a nominal
    // attribute's per-class frequencies towards its overall ones as
    // hoeffding_tree's leaves do (Agrawal as text, 4 seeds x 10 functions:
    // -0.0015 -> +0.0002 against the same columns as integer codes).
    t.nominal_penalty = 0.0;
    t.nominal_nb_prior = 10.0;
    return t;
  }
  // Attributes each leaf observes for d features.
  std::size_t subspace(std::size_t d) const;
  Status validate() const;
  // Reads the binary layout of the first record version (nothing writes it
  // any more: checkpoints save the settings by name).
  Status decode(ByteReader& in);
};

std::span<const ConfigField<ARFConfig>> arf_config_fields();
Result<ARFVote> parse_arf_vote(std::string_view name);
std::string_view arf_vote_name(ARFVote v);

}  // namespace irithyll
