// SlstmLearner ("slstm"): an sLSTM cell (slstm.hpp) run as a fixed random
// recurrent feature extractor with an RLS readout (readout/rls_head.hpp), the
// streaming form of the original's StreamingsLSTM.
//
// Features for sample t: [h_t (d_hidden), x_t, 1], where h_t is the cell's
// output for x_t; predict_one computes it with forward_predict (read-only).
// Bad input: non-finite features imputed as 0; non-finite target or weight <= 0
// advance the state but skip the readout; wrong width is ignored. The first
// `warmup` samples only fill the state. Cost per sample: one cell step plus
// O(K F^2) RLS for F = d_hidden + d_in + 1. No allocation after the first
// sample. Thread safety: one owner.
#pragma once

#include "irithyll/learner.hpp"
#include "irithyll/nn/rnn/slstm.hpp"
#include "irithyll/readout/rls_head.hpp"

namespace irithyll::nn {

struct SlstmLearnerConfig {
  Task task = Task::kRegression;
  std::size_t n_classes = 0;   // classification: 2..1024
  std::size_t n_features = 0;  // 0 = from the first sample
  std::size_t d_hidden = 32;
  std::size_t n_heads = 4;                              // must divide d_hidden
  double forget_bias_start = 3.0, forget_bias_stop = 6.0;  // linspace over units (Beck et al.: 3..6)
  RlsConfig rls{0.998, 100.0};
  std::size_t warmup = 10;
  std::uint64_t seed = 42;
};

class SlstmLearner final : public Learner {
 public:
  SlstmLearner() = default;
  explicit SlstmLearner(const SlstmLearnerConfig& config);
  static Status validate(const SlstmLearnerConfig& config);

  std::string_view name() const override { return "slstm"; }
  Task task() const override { return cfg_.task; }
  std::size_t n_classes() const override { return cfg_.task == Task::kClassification ? cfg_.n_classes : 0; }
  std::size_t n_features() const override { return cfg_.n_features; }
  void learn_one(std::span<const double> x, double y, double weight = 1.0) override;
  double predict_one(std::span<const double> x) const override;
  void predict_proba_one(std::span<const double> x, std::span<double> proba) const override;
  void reset() override;
  std::uint64_t n_samples_seen() const override { return n_seen_; }
  std::size_t memory_bytes() const override;
  void encode(ByteWriter& out) const override;
  Status decode(ByteReader& in) override;

  const SlstmCell& cell() const noexcept { return cell_; }

 private:
  Status build(std::size_t n_features);
  template <bool kLearn>
  void featurize(std::span<const double> x) const;

  SlstmLearnerConfig cfg_;
  bool built_ = false;
  SlstmCell cell_;
  RlsHead head_;
  std::uint64_t n_seen_ = 0;
  mutable std::vector<double> xin_, features_;
};

}  // namespace irithyll::nn
