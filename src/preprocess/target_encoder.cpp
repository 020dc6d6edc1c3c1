#include "irithyll/preprocess/target_encoder.hpp"

#include <array>
#include <bit>
#include <cmath>
#include <limits>

#include "common.hpp"
#include "core/field_rows.hpp"

namespace irithyll {
namespace {

using TargetEncoderRow = ConfigField<TargetEncoderConfig>;
constexpr std::uint8_t kTargetEncoderVersion = 1;
constexpr std::size_t kTargetEncoderMaxClasses = std::size_t{1} << 16;

const std::array kTargetEncoderFields = {
    TargetEncoderRow{FieldInfo::text("columns", "", "columns to encode, by name or 0-based index; empty: the text and "
                                       "--categorical columns"),
        [](TargetEncoderConfig& c, std::string_view v) {
          c.columns = std::string(v);
          return Status::ok();
        },
        [](const TargetEncoderConfig& c) { return c.columns; }},
    TargetEncoderRow{FieldInfo::real("smoothing", "10", "weight m of the prior (the mean of all targets) in each category's mean")
            .at_least(0),
        IRITHYLL_FIELD_REAL(TargetEncoderConfig, smoothing)},
    TargetEncoderRow{FieldInfo::integer("max-categories", "100000", "categories tracked per column; later ones encode as the prior")
            .in(1, 1 << 24),
        IRITHYLL_FIELD_UINT(TargetEncoderConfig, max_categories)},
};

std::uint64_t key_of(double v) { return std::bit_cast<std::uint64_t>(v == 0.0 ? 0.0 : v); }

}  // namespace

std::span<const ConfigField<TargetEncoderConfig>> TargetEncoder::config_fields() { return kTargetEncoderFields; }

Result<std::unique_ptr<TargetEncoder>> TargetEncoder::make(const Config& config, const TransformerContext& context) {
  IRITHYLL_RETURN_IF_ERROR(validate_fields(kName, config_fields(), config));
  IRITHYLL_RETURN_IF_ERROR(preprocess_detail::check_input_width(kName, context.n_features));
  if (context.task == Task::kClassification && (context.n_classes < 2 || context.n_classes > kTargetEncoderMaxClasses))
    return Status::invalid_argument("target_encoder: classification needs 2 to 65536 classes");
  auto cols = preprocess_detail::resolve_columns(kName, config.columns, context);
  if (!cols) return cols.status();
  if (cols->empty())
    return Status::invalid_argument("target_encoder: no column to encode (the stream has no text or --categorical "
                                    "column; name them with target_encoder(columns=a,b))");
  auto t = std::make_unique<TargetEncoder>();
  t->config_ = config;
  t->task_ = context.task;
  t->n_classes_ = context.task == Task::kClassification ? context.n_classes : 0;
  t->q_ = context.task == Task::kClassification ? context.n_classes - 1 : 1;
  t->n_in_ = context.n_features;
  t->columns_ = std::move(cols).value();
  if (t->output_size(t->n_in_) > preprocess_detail::kMaxOutputWidth)
    return Status::invalid_argument("target_encoder: output width too large");
  t->reset();
  return t;
}

std::vector<std::string> TargetEncoder::output_names(std::span<const std::string> in) const {
  std::vector<std::string> out;
  auto name = [&](std::size_t i) { return i < in.size() ? in[i] : "f" + std::to_string(i); };
  for (std::size_t i = 0; i < n_in_; ++i)
    if (!is_encoded_[i]) out.push_back(name(i));
  for (const std::uint32_t c : columns_)
    for (std::size_t j = 0; j < q_; ++j)
      out.push_back(name(c) + (task_ == Task::kClassification ? ":p" + std::to_string(j + 1) : std::string(":mean")));
  return out;
}

void TargetEncoder::reset() {
  is_encoded_.assign(n_in_, 0);
  for (const std::uint32_t c : columns_) is_encoded_[c] = 1;
  n_total_ = 0.0;
  sum_total_.assign(q_, 0.0);
  keys_.assign(columns_.size(), {});
  stats_.assign(columns_.size(), {});
  index_.assign(columns_.size(), {});
}

void TargetEncoder::rebuild_index() {
  index_.assign(columns_.size(), {});
  for (std::size_t k = 0; k < columns_.size(); ++k)
    for (std::size_t c = 0; c < keys_[k].size(); ++c) index_[k].emplace(key_of(keys_[k][c]), static_cast<std::uint32_t>(c));
}

void TargetEncoder::learn_supervised(std::span<const double> x, double y) {
  if (!std::isfinite(y)) return;
  long cls = 0;
  if (task_ == Task::kClassification) {
    cls = preprocess_detail::class_of(y, n_classes_);
    if (cls < 0) return;
  }
  // Adds the target to a [count, q sums] record.
  auto add = [&](double* rec) {
    rec[0] += 1.0;
    if (task_ == Task::kClassification) {
      if (cls > 0) rec[cls] += 1.0;  // class 0 is the remainder
    } else {
      rec[1] += y;
    }
  };
  n_total_ += 1.0;
  if (task_ == Task::kClassification) {
    if (cls > 0) sum_total_[static_cast<std::size_t>(cls - 1)] += 1.0;
  } else {
    sum_total_[0] += y;
  }
  for (std::size_t k = 0; k < columns_.size(); ++k) {
    const std::uint32_t c = columns_[k];
    if (c >= x.size() || !std::isfinite(x[c])) continue;
    const std::uint64_t key = key_of(x[c]);
    auto it = index_[k].find(key);
    std::size_t cat;
    if (it != index_[k].end()) {
      cat = it->second;
    } else {
      if (keys_[k].size() >= config_.max_categories) continue;
      cat = keys_[k].size();
      keys_[k].push_back(x[c] == 0.0 ? 0.0 : x[c]);
      stats_[k].resize(stats_[k].size() + 1 + q_, 0.0);
      index_[k].emplace(key, static_cast<std::uint32_t>(cat));
    }
    add(&stats_[k][cat * (1 + q_)]);
  }
}

void TargetEncoder::encode_value(std::size_t k, double v, double* out) const {
  const double m = config_.smoothing;
  const double* rec = nullptr;
  if (std::isfinite(v)) {
    auto it = index_[k].find(key_of(v));
    if (it != index_[k].end()) rec = &stats_[k][it->second * (1 + q_)];
  }
  for (std::size_t j = 0; j < q_; ++j) {
    const double prior = n_total_ > 0.0 ? sum_total_[j] / n_total_ : 0.0;
    const double n = rec != nullptr ? rec[0] : 0.0;
    out[j] = n + m > 0.0 ? ((rec != nullptr ? rec[1 + j] : 0.0) + m * prior) / (n + m) : prior;
  }
}

void TargetEncoder::transform_one(std::span<const double> x, std::span<double> out) const {
  if (out.size() != output_size(n_in_)) {
    for (double& o : out) o = std::numeric_limits<double>::quiet_NaN();
    return;
  }
  std::size_t o = 0;
  for (std::size_t i = 0; i < n_in_; ++i)
    if (!is_encoded_[i]) out[o++] = i < x.size() ? x[i] : std::numeric_limits<double>::quiet_NaN();
  for (std::size_t k = 0; k < columns_.size(); ++k, o += q_) {
    const std::uint32_t c = columns_[k];
    encode_value(k, c < x.size() ? x[c] : std::numeric_limits<double>::quiet_NaN(), &out[o]);
  }
}

std::size_t TargetEncoder::memory_bytes() const {
  std::size_t b = sizeof(*this) + columns_.capacity() * 4 + is_encoded_.capacity() + sum_total_.capacity() * 8;
  for (std::size_t k = 0; k < keys_.size(); ++k)
    b += (keys_[k].capacity() + stats_[k].capacity()) * 8 + index_[k].size() * 32 + index_[k].bucket_count() * 8;
  return b;
}

void TargetEncoder::encode(ByteWriter& out) const {
  preprocess_detail::encode_header(kTargetEncoderVersion, config_fields(), config_, n_in_, columns_, out);
  out.u8(task_ == Task::kClassification ? 1 : 0);
  out.u64(n_classes_);
  out.f64(n_total_);
  out.f64s(sum_total_);
  for (std::size_t k = 0; k < columns_.size(); ++k) {
    out.f64s(keys_[k]);
    out.f64s(stats_[k]);
  }
}

Status TargetEncoder::decode(ByteReader& in) {
  TargetEncoder t;
  IRITHYLL_RETURN_IF_ERROR(
      preprocess_detail::decode_header(kName, kTargetEncoderVersion, config_fields(), in, t.config_, t.n_in_, t.columns_));
  const std::uint8_t cls = in.u8("target_encoder task");
  const std::uint64_t k_classes = in.u64("target_encoder classes");
  t.n_total_ = in.f64("target_encoder count");
  if (!in.ok()) return in.status();
  if (cls > 1 || (cls == 1 && (k_classes < 2 || k_classes > kTargetEncoderMaxClasses)) || (cls == 0 && k_classes != 0) ||
      !(t.n_total_ >= 0.0) || !std::isfinite(t.n_total_))
    return Status::corruption("target_encoder: task, classes or count out of range");
  t.task_ = cls == 1 ? Task::kClassification : Task::kRegression;
  t.n_classes_ = static_cast<std::size_t>(k_classes);
  t.q_ = cls == 1 ? t.n_classes_ - 1 : 1;
  const double n_total = t.n_total_;
  t.reset();
  t.n_total_ = n_total;
  if (!preprocess_detail::read_exact(in, t.q_, t.sum_total_, "target_encoder sums")) return in.status();
  for (std::size_t k = 0; k < t.columns_.size(); ++k) {
    t.keys_[k] = in.f64s("target_encoder categories");
    if (!in.ok()) return in.status();
    if (t.keys_[k].size() > t.config_.max_categories)
      return Status::corruption("target_encoder: more categories than allowed");
    if (!preprocess_detail::read_exact(in, t.keys_[k].size() * (1 + t.q_), t.stats_[k], "target_encoder statistics"))
      return in.status();
    for (const double v : t.keys_[k])
      if (!std::isfinite(v)) return Status::corruption("target_encoder: a stored category is not finite");
  }
  t.rebuild_index();
  for (std::size_t k = 0; k < t.columns_.size(); ++k)
    if (t.index_[k].size() != t.keys_[k].size()) return Status::corruption("target_encoder: a category is stored twice");
  if (t.output_size(t.n_in_) > preprocess_detail::kMaxOutputWidth)
    return Status::corruption("target_encoder: output width out of range");
  *this = std::move(t);
  return Status::ok();
}

}  // namespace irithyll
