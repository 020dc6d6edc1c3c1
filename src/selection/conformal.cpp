#include "irithyll/selection/conformal.hpp"

#include <algorithm>
#include <array>
#include <cmath>

#include "core/field_rows.hpp"
#include "irithyll/core/config_codec.hpp"

namespace irithyll {
namespace {

constexpr std::uint8_t kConformalVersion = 1;

using ConformalRow = ConfigField<ConformalConfig>;
const std::array kConformalFields = {
    ConformalRow{FieldInfo::text("base", "sgbt", "the wrapped model: a catalogue name with optional :key=value,key=value settings"),
        [](ConformalConfig& c, std::string_view v) {
          c.model = std::string(v);
          return Status::ok();
        },
        [](const ConformalConfig& c) { return c.model; }},
    ConformalRow{FieldInfo::real("level", "0.9", "target coverage of the intervals or sets").in(0, 1, true, true),
        IRITHYLL_FIELD_REAL(ConformalConfig, level)},
    ConformalRow{FieldInfo::real("gamma", "0.005", "adaptive conformal step: how fast the level reacts to misses (0: fixed)")
            .in(0, 0.5),
        IRITHYLL_FIELD_REAL(ConformalConfig, gamma)},
    ConformalRow{FieldInfo::integer("window", "1000", "recent scores the quantile is taken over").in(10, 1000000),
        IRITHYLL_FIELD_UINT(ConformalConfig, window)},
};

}  // namespace

void ScoreWindow::push(double score) {
  if (ring_.empty()) return;
  if (sorted_.size() == ring_.size()) {
    // Full: the oldest score (at head_) leaves the sorted copy.
    const auto old = std::lower_bound(sorted_.begin(), sorted_.end(), ring_[head_]);
    sorted_.erase(old);
  }
  ring_[head_] = score;
  head_ = (head_ + 1) % ring_.size();
  sorted_.insert(std::upper_bound(sorted_.begin(), sorted_.end(), score), score);
}

double ScoreWindow::quantile(double alpha) const {
  const std::size_t n = sorted_.size();
  if (n == 0) return 0.0;
  const double rank = std::ceil((static_cast<double>(n) + 1.0) * (1.0 - alpha));
  if (rank > static_cast<double>(n)) return sorted_.back();
  if (rank < 1.0) return -1.0;
  return sorted_[static_cast<std::size_t>(rank) - 1];
}

void ScoreWindow::encode(ByteWriter& out) const {
  out.u64(head_);
  out.u64(sorted_.size());
  out.f64s(ring_);
}

Status ScoreWindow::decode(ByteReader& in, std::size_t capacity) {
  const std::uint64_t head = in.u64("score window head");
  const std::uint64_t count = in.u64("score window count");
  std::vector<double> ring = in.f64s("score window");
  if (!in.ok()) return in.status();
  if (ring.size() != capacity || count > capacity || head >= std::max<std::size_t>(capacity, 1) ||
      (count < capacity && head != count))
    return Status::corruption("score window: sizes do not fit capacity " + std::to_string(capacity));
  for (double s : ring)
    if (!(s >= 0.0 && s <= 1.7976931348623157e308)) return Status::corruption("score window: a score out of range");
  ring_ = std::move(ring);
  head_ = head;
  sorted_.clear();
  sorted_.reserve(capacity);
  sorted_.assign(ring_.begin(), ring_.begin() + static_cast<std::ptrdiff_t>(count));
  std::sort(sorted_.begin(), sorted_.end());
  return Status::ok();
}

std::span<const ConfigField<ConformalConfig>> ConformalLearner::config_fields() { return kConformalFields; }

Status ConformalLearner::init(const Config& config, const LearnerContext& context, std::unique_ptr<Learner> model) {
  config_ = config;
  context_ = context;
  model_ = std::move(model);
  scores_ = ScoreWindow(config.window);
  alpha_t_ = 1.0 - config.level;
  seen_ = skipped_ = 0;
  proba_.assign(n_classes(), 0.0);
  return Status::ok();
}

Result<std::unique_ptr<ConformalLearner>> ConformalLearner::make(const Config& config, const LearnerContext& context,
                                                                 const MemberFactory& factory) {
  IRITHYLL_RETURN_IF_ERROR(validate_fields<Config>(kName, kConformalFields, config));
  if (!factory.complete()) return Status::invalid_argument("conformal: no model factory");
  if (context.n_targets != 1) return Status::invalid_argument("conformal: one target only");
  auto spec = parse_member_spec(config.model);
  if (!spec) return spec.status().with_context("conformal: model");
  if (spec->name == kName) return Status::invalid_argument("conformal: cannot wrap 'conformal' itself");
  if (!factory.available(spec->name, context.task))
    return Status::invalid_argument("conformal: '" + spec->name + "' is not a model for " +
                                    (context.task == Task::kClassification ? "classification" : "regression"));
  auto model = factory.make(spec->name, spec->settings, context);
  if (!model) return model.status().with_context("conformal");
  auto out = std::make_unique<ConformalLearner>(factory);
  IRITHYLL_RETURN_IF_ERROR(out->init(config, context, std::move(model).value()));
  return out;
}

Result<std::unique_ptr<ConformalLearner>> ConformalLearner::wrap(std::unique_ptr<Learner> model, Config config,
                                                                 const MemberFactory& factory) {
  if (model == nullptr) return Status::invalid_argument("conformal: no model to wrap");
  config.model = std::string(model->name());
  IRITHYLL_RETURN_IF_ERROR(validate_fields<Config>(kName, kConformalFields, config));
  if (model->n_outputs() != 1) return Status::invalid_argument("conformal: one target only");
  LearnerContext context;
  context.task = model->task();
  context.n_classes = model->n_classes();
  context.n_features = model->n_features();
  auto out = std::make_unique<ConformalLearner>(factory);
  IRITHYLL_RETURN_IF_ERROR(out->init(config, context, std::move(model)));
  return out;
}

double ConformalLearner::score(std::span<const double> x, double y) const {
  if (context_.task == Task::kClassification) {
    model_->predict_proba_one(x, proba_);
    const double p = proba_[static_cast<std::size_t>(y)];
    return std::isfinite(p) ? std::clamp(1.0 - p, 0.0, 1.0) : 1.0;
  }
  const double e = std::fabs(y - model_->predict_one(x));
  return std::isfinite(e) ? e : 1.7976931348623157e308;
}

void ConformalLearner::learn_one(std::span<const double> x, double y, double weight) {
  ++seen_;
  if (!model_ || !sample_admissible(x, y, weight, model_->n_features(), context_.task, context_.n_classes)) {
    ++skipped_;
    return;
  }
  const double s = score(x, y);
  const double err = s > scores_.quantile(alpha_t_) ? 1.0 : 0.0;
  alpha_t_ = std::clamp(alpha_t_ + config_.gamma * ((1.0 - config_.level) - err), -1.0, 2.0);
  scores_.push(s);
  model_->learn_one(x, y, weight);
}

double ConformalLearner::predict_one(std::span<const double> x) const { return model_ ? model_->predict_one(x) : 0.0; }

void ConformalLearner::predict_proba_one(std::span<const double> x, std::span<double> proba) const {
  if (model_) model_->predict_proba_one(x, proba);
}

double ConformalLearner::alpha_for(double level) const {
  return level == config_.level ? alpha_t_ : 1.0 - level;
}

Interval ConformalLearner::predict_interval(std::span<const double> x, double level) const {
  const double p = predict_one(x);
  const double q = std::max(scores_.quantile(alpha_for(level)), 0.0);
  return Interval{p - q, p + q};
}

std::size_t ConformalLearner::predict_set(std::span<const double> x, double level, std::span<std::uint8_t> in_set) const {
  if (context_.task != Task::kClassification || in_set.size() != context_.n_classes) return 0;
  model_->predict_proba_one(x, proba_);
  const double q = scores_.quantile(alpha_for(level));
  std::size_t size = 0;
  for (std::size_t k = 0; k < in_set.size(); ++k) {
    in_set[k] = 1.0 - proba_[k] <= q ? 1 : 0;
    size += in_set[k];
  }
  return size;
}

void ConformalLearner::reset() {
  if (model_) model_->reset();
  scores_.clear();
  alpha_t_ = 1.0 - config_.level;
  seen_ = skipped_ = 0;
}

std::size_t ConformalLearner::memory_bytes() const {
  return sizeof(*this) + 2 * scores_.capacity() * sizeof(double) + proba_.capacity() * sizeof(double) +
         config_.model.capacity() + (model_ ? model_->memory_bytes() : 0);
}

void ConformalLearner::encode(ByteWriter& out) const {
  out.u8(kConformalVersion);
  encode_config(config_fields(), config_, out);
  encode_context(context_, out);
  out.f64(alpha_t_);
  out.u64(seen_);
  out.u64(skipped_);
  scores_.encode(out);
  encode_member_record(model_.get(), out);
}

Status ConformalLearner::decode(ByteReader& in) {
  if (!factory_.complete()) return Status::invalid_argument("conformal: this instance has no model factory to decode with");
  const std::uint8_t version = in.u8("conformal version");
  if (in.ok() && version != kConformalVersion)
    return Status::corruption("conformal: unknown record version " + std::to_string(version));
  Config config;
  IRITHYLL_RETURN_IF_ERROR(decode_config(kName, config_fields(), in, config));
  LearnerContext context;
  IRITHYLL_RETURN_IF_ERROR(decode_context(in, context));
  IRITHYLL_RETURN_IF_ERROR(validate_fields<Config>(kName, kConformalFields, config));
  const double alpha = in.f64("conformal alpha");
  const std::uint64_t seen = in.u64("conformal seen");
  const std::uint64_t skipped = in.u64("conformal skipped");
  if (!in.ok()) return in.status();
  if (!(alpha >= -1.0 && alpha <= 2.0)) return Status::corruption("conformal: alpha out of range");
  ScoreWindow scores;
  IRITHYLL_RETURN_IF_ERROR(scores.decode(in, config.window).with_context("conformal"));
  auto model = decode_member_record(in, factory_, kName, context);
  if (!model) return model.status();
  IRITHYLL_RETURN_IF_ERROR(init(config, context, std::move(model).value()));
  scores_ = std::move(scores);
  alpha_t_ = alpha;
  seen_ = seen, skipped_ = skipped;
  return Status::ok();
}

}  // namespace irithyll
