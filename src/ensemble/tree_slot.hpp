// TreeSlot: one boosting step of SGBT: the active tree, an optional alternate
// grown in the background, and a drift detector watching |gradient|
// (Gunasekara et al. 2024, section 4; the ARF-style background tree of Gomes
// et al. 2017).
//
// Lifecycle per trained sample: the active tree's pre-training prediction is
// returned; the active tree (and the alternate, if any) learn (g, h); the
// detector sees |g|. Warning -> start an alternate if none. Drift -> the
// alternate (or a fresh tree) becomes active, the detector restarts, the
// replacement counter grows. Optionally a tree is also replaced once it has
// learned max_tree_samples samples. The alternate is kept when the detector
// goes back to stable (as the Rust library does): it keeps learning and is ready
// for the next drift.
//
// Both trees are kept as values; replacement swaps them and the retired tree
// gives its storage back (an idle alternate costs only its object), so a new
// alternate allocates as it grows. No allocation in steady state; splits,
// warnings and replacements are the structural events that may allocate.
// Cost: one or two tree updates + one detector update per sample.
// Thread safety: one owner.
#pragma once

#include <cstdint>
#include <memory>
#include <span>

#include "irithyll/drift/drift_detector.hpp"
#include "tree/gradient_tree.hpp"

namespace irithyll {

class TreeSlot {
 public:
  TreeSlot(const GradientTreeConfig& tree, std::unique_ptr<DriftDetector> detector, std::uint64_t max_tree_samples);

  // Trains `repeats` times with (g, h); the detector sees `monitor` (|g|
  // before sample weighting) once per repeat. Returns the active tree's
  // prediction before training. repeats == 0 only predicts.
  double learn_one(std::span<const double> x, double g, double h, double monitor, std::uint32_t repeats);
  double predict(std::span<const double> x) const noexcept { return active_.predict(x); }
  // predict for committees whose trees have no category splits or linear
  // leaves (SGBT knows it from its config).
  double predict_plain(std::span<const double> x) const noexcept { return active_.predict_plain(x); }

  // learn_one in two halves so SGBT can overlap one tree's histogram memory
  // traffic with the next tree's routing: begin() routes the active tree,
  // prefetches its bins (when it will train) and returns the pre-training
  // prediction; finish() trains. Nothing else may touch this slot in between.
  double begin(std::span<const double> x, std::uint32_t repeats, std::uint32_t& leaf) const noexcept {
    leaf = active_.leaf_index(x);
    if (repeats > 0) active_.prefetch(leaf, x);
    return active_.leaf_predict(leaf, x);
  }
  void finish(std::span<const double> x, std::uint32_t leaf, double g, double h, double monitor, std::uint32_t repeats);

  const GradientTree& active() const { return active_; }
  const GradientTree* alternate() const { return has_alternate_ ? &alternate_ : nullptr; }
  const DriftDetector* detector() const { return detector_.get(); }
  std::uint64_t n_replacements() const { return replacements_; }
  std::uint64_t n_warnings() const { return warnings_; }
  std::uint64_t max_tree_samples() const { return max_tree_samples_; }
  // Adaptive max-tree-samples moves the age limit every sample.
  void set_max_tree_samples(std::uint64_t n) { max_tree_samples_ = n; }
  // GradientTree::set_limits on every tree of the slot (active, alternate,
  // retiring), so trees grown later inherit them too.
  void set_limits(double lambda, std::uint32_t max_depth);
  // Pruning: the same swap as a drift (the alternate if one grows, else a
  // fresh tree), counted as a replacement.
  void prune() { replace_active(); }

  // Graduated handoff (SGBTConfig::handoff_window; 0 = abrupt, the default).
  // A replacement that promotes the alternate keeps the retired tree, frozen,
  // for `window` samples: the slot's output is a r + (1 - a) active with
  // a = left / window, left counting down from window by tick_handoff() once
  // per committee sample, so a falls linearly to 0 (tree_slot.cpp).
  void set_handoff_window(std::uint32_t window) { handoff_window_ = window; }
  const GradientTree* retiring() const { return handoff_left_ > 0 ? retiring_.get() : nullptr; }
  double retiring_weight() const { return static_cast<double>(handoff_left_) / static_cast<double>(handoff_window_); }
  std::uint32_t handoff_left() const { return handoff_left_; }
  void tick_handoff() {
    if (handoff_left_ > 0 && --handoff_left_ == 0) retiring_.reset();
  }

  void reset();
  std::size_t memory_bytes() const;
  // The trees are written without their settings (the owner built this slot
  // from them); records from before that carry each tree's binary config.
  void encode(ByteWriter& out) const;
  Status decode(ByteReader& in, TreeSettings settings);

 private:
  void replace_active();

  GradientTree active_;
  GradientTree alternate_;
  bool has_alternate_ = false;
  std::unique_ptr<DriftDetector> detector_;
  std::uint64_t max_tree_samples_ = 0;
  std::uint64_t replacements_ = 0;
  std::uint64_t warnings_ = 0;
  std::unique_ptr<GradientTree> retiring_;  // allocated by a handoff, freed when it ends
  std::uint32_t handoff_window_ = 0, handoff_left_ = 0;
};

}  // namespace irithyll
