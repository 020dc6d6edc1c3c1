#include "irithyll/pipeline.hpp"

#include <cmath>

#include "irithyll/catalogue.hpp"

#include "irithyll/model_file.hpp"
#include "irithyll/preprocess/registry.hpp"

namespace irithyll {

std::unique_ptr<Transformer> make_transformer(std::string_view name) {
  const TransformerEntry* e = find_transformer(name);
  return e == nullptr ? nullptr : e->make_blank();
}

std::size_t Pipeline::n_features() const {
  // Width-keeping steps of any width (standard_scaler) report 0: the
  // learner's width is then the pipeline's.
  for (const auto& s : steps_)
    if (s->input_size() > 0) return s->input_size();
  return learner_->n_features();
}

Pipeline::Pipeline(std::vector<std::unique_ptr<Transformer>> steps, std::unique_ptr<Learner> learner)
    : steps_(std::move(steps)), learner_(std::move(learner)) {}

std::span<const double> Pipeline::transform(std::span<const double> x) const {
  outputs_.resize(steps_.size());
  std::span<const double> cur = x;
  for (std::size_t i = 0; i < steps_.size(); ++i) {
    outputs_[i].resize(steps_[i]->output_size(cur.size()));
    steps_[i]->transform_one(cur, outputs_[i]);
    cur = outputs_[i];
  }
  return cur;
}

void Pipeline::learn_one(std::span<const double> x, double y, double weight) {
  // A sample the learner would refuse teaches the transformers nothing either.
  const std::size_t width = n_features();
  if (!width_admissible(x, width) || !weight_admissible(weight) || !std::isfinite(y)) {
    if (width > 0 && x.size() != width) {
      ++n_refused_;
      return;
    }
    learner_->learn_one(transform(x), y, weight);  // counts it in its own n_skipped()
    return;
  }
  learner_->learn_one(transform(x), y, weight);
  // Each step learns from its own input only after the sample was transformed
  // with the stored statistics of the past (test-then-train inside the
  // pipeline); learning first would count the sample twice in a scaler.
  for (std::size_t i = 0; i < steps_.size(); ++i)
    steps_[i]->learn_supervised(i == 0 ? x : std::span<const double>(outputs_[i - 1]), y);
}

double Pipeline::predict_one(std::span<const double> x) const { return learner_->predict_one(transform(x)); }

void Pipeline::predict_proba_one(std::span<const double> x, std::span<double> proba) const {
  learner_->predict_proba_one(transform(x), proba);
}

void Pipeline::reset() {
  n_refused_ = 0;
  for (auto& s : steps_) s->reset();
  learner_->reset();
}

std::size_t Pipeline::memory_bytes() const {
  std::size_t total = sizeof(*this) + learner_->memory_bytes();
  for (const auto& o : outputs_) total += o.capacity() * sizeof(double);
  for (const auto& s : steps_) total += s->memory_bytes();
  return total;
}

void Pipeline::encode(ByteWriter& out) const {
  out.u64(steps_.size());
  for (const auto& s : steps_) {
    out.str(s->name());
    s->encode(out);
  }
  out.str(learner_->name());
  learner_->encode(out);
}

Status Pipeline::decode(ByteReader& in) {
  const std::size_t n = in.read_count(1, "pipeline step count");
  std::vector<std::unique_ptr<Transformer>> steps;
  for (std::size_t i = 0; i < n && in.ok(); ++i) {
    const std::string name = in.str("transformer name");
    if (!in.ok()) break;
    auto step = make_transformer(name);
    if (!step) return Status::not_supported("pipeline: unknown transformer '" + name + "'");
    IRITHYLL_RETURN_IF_ERROR(step->decode(in));
    steps.push_back(std::move(step));
  }
  const std::string learner_name = in.str("pipeline learner name");
  if (!in.ok()) return in.status();
  auto learner = make_blank_learner(learner_name);
  if (learner == nullptr) return Status::not_supported("pipeline: unknown learner kind '" + learner_name + "'");
  IRITHYLL_RETURN_IF_ERROR(learner->decode(in));
  // The widths must chain: each step's input is the step before's output and
  // the learner takes the last (steps of any width report 0 and keep it).
  std::size_t width = 0;
  for (const auto& s : steps) {
    const std::size_t w_in = s->input_size();
    if (w_in > 0 && width > 0 && w_in != width)
      return Status::corruption("pipeline: step '" + std::string(s->name()) + "' takes " + std::to_string(w_in) +
                                " features, the step before gives " + std::to_string(width));
    if (w_in > 0) width = w_in;
    if (width > 0) width = s->output_size(width);
  }
  if (width > 0 && learner->n_features() > 0 && learner->n_features() != width)
    return Status::corruption("pipeline: the learner takes " + std::to_string(learner->n_features()) +
                              " features, the steps give " + std::to_string(width));
  steps_ = std::move(steps);
  learner_ = std::move(learner);
  return Status::ok();
}

}  // namespace irithyll
