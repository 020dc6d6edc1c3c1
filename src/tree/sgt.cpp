#include "irithyll/tree/sgt.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <string>

#include "core/field_rows.hpp"
#include "irithyll/core/config_codec.hpp"
#include "tree/gradient_tree.hpp"

namespace irithyll {

namespace {

using SgtRow = ConfigField<SGTConfig>;

// The deepest tree GradientTree supports (GradientTreeConfig::validate).
constexpr std::uint32_t kDeepest = 30;

const std::array kSgtFields = {
    SgtRow{FieldInfo::real("delta", "1e-07", "confidence of the split test (smaller = more evidence per split)")
            .in(0, 1, true, true),
        IRITHYLL_FIELD_REAL(SGTConfig, delta)},
    SgtRow{FieldInfo::integer("grace-period", "200", "samples a leaf sees between split attempts").in(1, 1e9),
        IRITHYLL_FIELD_UINT(SGTConfig, grace_period)},
    SgtRow{FieldInfo::real("init-pred", "0", "raw prediction before any sample (classification: log-odds)")
            .in(-1e9, 1e9),
        IRITHYLL_FIELD_REAL(SGTConfig, init_pred)},
    SgtRow{FieldInfo::integer("max-depth", "0", "deepest level a leaf may split to; 0 = 30, the deepest supported")
            .in(1, kDeepest)
            .or_off(),
        IRITHYLL_FIELD_UINT(SGTConfig, max_depth)},
    SgtRow{FieldInfo::real("lambda-value", "0.1", "L2 shrinkage of the leaf values -G/(H + lambda)").in(0, 1e9),
        IRITHYLL_FIELD_REAL(SGTConfig, lambda_value)},
    SgtRow{FieldInfo::real("gamma", "1", "loss reduction a split must pay").in(0, 1e9),
        IRITHYLL_FIELD_REAL(SGTConfig, gamma)},
    SgtRow{FieldInfo::integer("n-bins", "64", "equal-width bins per numeric feature, over the range of the warm-start rows")
            .in(2, 1024),
        IRITHYLL_FIELD_UINT(SGTConfig, n_bins)},
    SgtRow{FieldInfo::integer("warm-start", "200", "first rows whose range fixes the bins, at most grace-period (River's StaticQuantizer warm_start)")
            .in(1, 1e9),
        IRITHYLL_FIELD_UINT(SGTConfig, warm_start)},
    SgtRow{FieldInfo::text("categorical-features", "",
                        "feature indices read as category codes 0..63 and split by category sets, e.g. 0,3 (the CLI "
                        "fills it from --categorical and string columns; River's nominal_attributes)"),
        [](SGTConfig& c, std::string_view v) -> Status {
          auto items = parse_index_list("categorical-features", v);
          if (!items) return items.status();
          c.nominal_attributes = std::move(items).value();
          return Status::ok();
        },
        [](const SGTConfig& c) { return format_index_list(c.nominal_attributes); }},
};

GradientTreeConfig tree_config(const SGTConfig& c, std::uint64_t seed) {
  GradientTreeConfig t;
  t.max_depth = c.max_depth == 0 ? kDeepest : c.max_depth;
  t.n_bins = c.n_bins;
  t.lambda = c.lambda_value;
  t.gamma = c.gamma;
  t.grace_period = c.grace_period;
  t.warm_start = c.warm_start;
  t.delta = c.delta;
  t.seed = seed;
  // A leaf value is a Newton step, not a boosting increment: a split only
  // needs both children to hold some curvature.
  t.min_child_hessian = 0.0;
  t.categorical = c.nominal_attributes;
  return t;
}

double sigmoid(double z) { return 1.0 / (1.0 + std::exp(-z)); }

}  // namespace

std::span<const ConfigField<SGTConfig>> SGTLearner::config_fields() { return kSgtFields; }

SGTLearner::SGTLearner() { (void)init(Config{}, LearnerContext{Task::kClassification, 2}); }
SGTLearner::~SGTLearner() = default;
SGTLearner::SGTLearner(SGTLearner&&) noexcept = default;
SGTLearner& SGTLearner::operator=(SGTLearner&&) noexcept = default;

Status SGTLearner::init(const Config& config, const LearnerContext& context) {
  IRITHYLL_RETURN_IF_ERROR(validate_fields<Config>(kName, config_fields(), config));
  if (context.task == Task::kClassification && (context.n_classes < 2 || context.n_classes > 1024))
    return Status::invalid_argument("sgt: classification needs 2..1024 classes (one tree per class past 2), got " +
                                    std::to_string(context.n_classes));
  if (context.n_features > (1u << 20)) return Status::invalid_argument("sgt: too many features (at most 2^20)");
  IRITHYLL_RETURN_IF_ERROR(tree_config(config, context.seed).validate().with_context("sgt"));
  config_ = config;
  context_ = context;
  reset();
  return Status::ok();
}

Result<std::unique_ptr<SGTLearner>> SGTLearner::make(const Config& config, const LearnerContext& context) {
  auto out = std::make_unique<SGTLearner>();
  IRITHYLL_RETURN_IF_ERROR(out->init(config, context));
  return out;
}

std::size_t SGTLearner::expected_trees() const {
  return context_.task == Task::kClassification && context_.n_classes > 2 ? context_.n_classes : 1;
}

void SGTLearner::reset() {
  width_ = context_.n_features;
  trees_.clear();
  const GradientTreeConfig tc = tree_config(config_, context_.seed);
  for (std::size_t i = 0; i < expected_trees(); ++i) trees_.push_back(std::make_unique<GradientTree>(tc));
  raw_.assign(trees_.size(), 0.0);
  proba_.assign(context_.task == Task::kClassification ? context_.n_classes : 0, 0.0);
  seen_ = skipped_ = 0;
}

std::size_t SGTLearner::n_nodes(std::size_t i) const { return trees_[i]->n_nodes(); }

std::span<const double> SGTLearner::clean(std::span<const double> x) const {
  clean_.resize(x.size());
  for (std::size_t j = 0; j < x.size(); ++j)
    clean_[j] = std::isfinite(x[j]) ? x[j] : std::numeric_limits<double>::quiet_NaN();
  return clean_;
}

void SGTLearner::learn_one(std::span<const double> x, double y, double weight) {
  ++seen_;
  if (!sample_admissible(x, y, weight, width_, context_.task, context_.n_classes) || x.size() > (1u << 20)) {
    ++skipped_;
    return;
  }
  if (width_ == 0) width_ = x.size();
  const std::span<const double> xc = clean(x);
  const double init = config_.init_pred;
  if (context_.task == Task::kRegression) {
    trees_[0]->learn_one(xc, weight * (init - y), weight);
  } else if (trees_.size() == 1) {
    const double p = sigmoid(init);
    trees_[0]->learn_one(xc, weight * (p - y), weight * p * (1.0 - p));
  } else {
    // Softmax at equal raw scores: every class has probability 1/K.
    const double p = 1.0 / static_cast<double>(trees_.size());
    for (std::size_t k = 0; k < trees_.size(); ++k)
      trees_[k]->learn_one(xc, weight * (p - (static_cast<double>(k) == y ? 1.0 : 0.0)), weight * p * (1.0 - p));
  }
}

void SGTLearner::raw_scores(std::span<const double> x) const {
  const std::span<const double> xc = clean(x);
  for (std::size_t k = 0; k < trees_.size(); ++k) {
    const GradientTree& t = *trees_[k];
    // A tree that has not learned has no feature count yet: its leaf value is 0.
    raw_[k] = config_.init_pred + (t.n_features() == xc.size() ? t.predict(xc) : 0.0);
  }
}

void SGTLearner::predict_proba_one(std::span<const double> x, std::span<double> proba) const {
  const std::size_t k = context_.n_classes;
  if (context_.task != Task::kClassification || proba.size() != k) return;
  if (width_ == 0 || x.size() != width_) {
    std::fill(proba.begin(), proba.end(), 1.0 / static_cast<double>(k));
    return;
  }
  raw_scores(x);
  if (trees_.size() == 1) {
    proba[1] = sigmoid(raw_[0]);
    proba[0] = 1.0 - proba[1];
    return;
  }
  const double top = *std::max_element(raw_.begin(), raw_.end());
  double sum = 0.0;
  for (std::size_t c = 0; c < k; ++c) sum += proba[c] = std::exp(raw_[c] - top);
  for (std::size_t c = 0; c < k; ++c) proba[c] /= sum;
}

double SGTLearner::predict_one(std::span<const double> x) const {
  if (context_.task == Task::kRegression) {
    if (width_ == 0 || x.size() != width_) return config_.init_pred;
    raw_scores(x);
    return raw_[0];
  }
  predict_proba_one(x, proba_);
  return static_cast<double>(std::max_element(proba_.begin(), proba_.end()) - proba_.begin());
}

std::size_t SGTLearner::memory_bytes() const {
  std::size_t bytes = sizeof(*this) + trees_.capacity() * sizeof(trees_[0]) +
                      (clean_.capacity() + raw_.capacity() + proba_.capacity()) * sizeof(double);
  for (const auto& t : trees_) bytes += t->memory_bytes();
  return bytes;
}

// Version 1 put every tree's binary config before its state; version 2
// writes the trees' states alone, their settings derived from the named ones.
void SGTLearner::encode(ByteWriter& out) const {
  out.u8(2);  // record version
  encode_config(config_fields(), config_, out);
  encode_context(context_, out);
  out.u64(width_);
  out.u64(seen_);
  out.u64(skipped_);
  out.u64(trees_.size());
  for (const auto& t : trees_) t->encode(out);
}

Status SGTLearner::decode(ByteReader& in) {
  const std::uint8_t version = in.u8("sgt version");
  if (in.ok() && version != 1 && version != 2) return Status::corruption("sgt: unknown record version " + std::to_string(version));
  Config config;
  IRITHYLL_RETURN_IF_ERROR(decode_config(kName, config_fields(), in, config));
  LearnerContext context;
  IRITHYLL_RETURN_IF_ERROR(decode_context(in, context));
  SGTLearner s;
  IRITHYLL_RETURN_IF_ERROR(s.init(config, context).with_context("sgt record"));
  const std::uint64_t width = in.u64("sgt width");
  s.seen_ = in.u64("sgt seen");
  s.skipped_ = in.u64("sgt skipped");
  const std::uint64_t n_trees = in.u64("sgt trees");
  if (!in.ok()) return in.status();
  if (width > (1u << 20) || (context.n_features != 0 && width != context.n_features) || n_trees != s.trees_.size())
    return Status::corruption("sgt: width or tree count out of range");
  s.width_ = width;
  for (auto& t : s.trees_) {
    IRITHYLL_RETURN_IF_ERROR((version == 1 ? t->decode_with_config(in) : t->decode(in)).with_context("sgt tree"));
    // A tree that learned knows the width; it must be the model's.
    if (t->n_features() != 0 && t->n_features() != width) return Status::corruption("sgt: tree width mismatch");
  }
  *this = std::move(s);
  return Status::ok();
}

}  // namespace irithyll
