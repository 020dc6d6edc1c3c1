#include "irithyll/preprocess/one_hot.hpp"

#include <array>
#include <cmath>
#include <limits>

#include "common.hpp"
#include "core/field_rows.hpp"

namespace irithyll {
namespace {

using OneHotRow = ConfigField<OneHotConfig>;
constexpr std::uint8_t kOneHotVersion = 1;

const std::array kOneHotFields = {
    OneHotRow{FieldInfo::text("columns", "", "columns to encode, by name or 0-based index (a,b,3); empty: the text and "
                                        "--categorical columns"),
        [](OneHotConfig& c, std::string_view v) {
          c.columns = std::string(v);
          return Status::ok();
        },
        [](const OneHotConfig& c) { return c.columns; }},
    OneHotRow{FieldInfo::integer("max-categories", "16", "indicator slots per column; later categories share one more "
                                                   "'other' slot")
            .in(1, 4096),
        IRITHYLL_FIELD_UINT(OneHotConfig, max_categories)},
};

}  // namespace

std::span<const ConfigField<OneHotConfig>> OneHotEncoder::config_fields() { return kOneHotFields; }

Result<std::unique_ptr<OneHotEncoder>> OneHotEncoder::make(const Config& config, const TransformerContext& context) {
  IRITHYLL_RETURN_IF_ERROR(validate_fields(kName, config_fields(), config));
  IRITHYLL_RETURN_IF_ERROR(preprocess_detail::check_input_width(kName, context.n_features));
  auto cols = preprocess_detail::resolve_columns(kName, config.columns, context);
  if (!cols) return cols.status();
  if (cols->empty())
    return Status::invalid_argument("one_hot: no column to encode (the stream has no text or --categorical "
                                    "column; name them with one_hot(columns=a,b))");
  const std::size_t width = context.n_features - cols->size() + cols->size() * (config.max_categories + 1);
  if (width > preprocess_detail::kMaxOutputWidth)
    return Status::invalid_argument("one_hot: output width " + std::to_string(width) + " is too large");
  auto t = std::make_unique<OneHotEncoder>();
  t->config_ = config;
  t->n_in_ = context.n_features;
  t->columns_ = std::move(cols).value();
  t->reset();
  return t;
}

std::size_t OneHotEncoder::output_size(std::size_t) const {
  return n_in_ - columns_.size() + columns_.size() * (static_cast<std::size_t>(config_.max_categories) + 1);
}

long OneHotEncoder::slot_of(std::size_t k, double v) const {
  const auto& vals = values_[k];
  for (std::size_t s = 0; s < vals.size(); ++s)
    if (vals[s] == v) return static_cast<long>(s);
  return -1;
}

void OneHotEncoder::learn_one(std::span<const double> x) {
  for (std::size_t k = 0; k < columns_.size(); ++k) {
    const std::uint32_t c = columns_[k];
    if (c >= x.size() || !std::isfinite(x[c]) || slot_of(k, x[c]) >= 0) continue;
    if (values_[k].size() < config_.max_categories)
      values_[k].push_back(x[c] == 0.0 ? 0.0 : x[c]);  // -0 stored as +0
    else
      overflow_[k] = 1;
  }
}

void OneHotEncoder::transform_one(std::span<const double> x, std::span<double> out) const {
  std::size_t o = 0;
  for (std::size_t i = 0; i < n_in_ && o < out.size(); ++i)
    if (!is_encoded_[i]) out[o++] = i < x.size() ? x[i] : std::numeric_limits<double>::quiet_NaN();
  const std::size_t slots = static_cast<std::size_t>(config_.max_categories) + 1;
  for (std::size_t k = 0; k < columns_.size() && o + slots <= out.size(); ++k, o += slots) {
    for (std::size_t s = 0; s < slots; ++s) out[o + s] = 0.0;
    const std::uint32_t c = columns_[k];
    if (c >= x.size() || !std::isfinite(x[c])) continue;
    const long s = slot_of(k, x[c]);
    if (s >= 0)
      out[o + static_cast<std::size_t>(s)] = 1.0;
    else if (values_[k].size() == config_.max_categories && overflow_[k])
      out[o + slots - 1] = 1.0;  // a category beyond the slots, as learned ones beyond them were
  }
}

std::vector<std::string> OneHotEncoder::output_names(std::span<const std::string> in) const {
  std::vector<std::string> out;
  auto name = [&](std::size_t i) { return i < in.size() ? in[i] : "f" + std::to_string(i); };
  for (std::size_t i = 0; i < n_in_; ++i)
    if (!is_encoded_[i]) out.push_back(name(i));
  for (const std::uint32_t c : columns_) {
    for (std::size_t s = 0; s < config_.max_categories; ++s) out.push_back(name(c) + "=" + std::to_string(s + 1));
    out.push_back(name(c) + "=other");
  }
  return out;
}

void OneHotEncoder::reset() {
  is_encoded_.assign(n_in_, 0);
  for (const std::uint32_t c : columns_) is_encoded_[c] = 1;
  values_.assign(columns_.size(), {});
  for (auto& v : values_) v.reserve(config_.max_categories);
  overflow_.assign(columns_.size(), 0);
}

std::size_t OneHotEncoder::memory_bytes() const {
  std::size_t b = sizeof(*this) + columns_.capacity() * 4 + is_encoded_.capacity() + overflow_.capacity();
  for (const auto& v : values_) b += sizeof(v) + v.capacity() * sizeof(double);
  return b;
}

void OneHotEncoder::encode(ByteWriter& out) const {
  preprocess_detail::encode_header(kOneHotVersion, config_fields(), config_, n_in_, columns_, out);
  for (std::size_t k = 0; k < columns_.size(); ++k) {
    out.f64s(values_[k]);
    out.u8(overflow_[k]);
  }
}

Status OneHotEncoder::decode(ByteReader& in) {
  OneHotEncoder t;
  IRITHYLL_RETURN_IF_ERROR(
      preprocess_detail::decode_header(kName, kOneHotVersion, config_fields(), in, t.config_, t.n_in_, t.columns_));
  t.reset();
  for (std::size_t k = 0; k < t.columns_.size() && in.ok(); ++k) {
    std::vector<double> vals = in.f64s("one_hot categories");
    const std::uint8_t over = in.u8("one_hot overflow");
    if (!in.ok()) break;
    if (vals.size() > t.config_.max_categories || over > 1)
      return Status::corruption("one_hot: column " + std::to_string(k) + " holds more categories than slots");
    for (std::size_t s = 0; s < vals.size(); ++s) {
      if (!std::isfinite(vals[s])) return Status::corruption("one_hot: a stored category is not finite");
      for (std::size_t r = 0; r < s; ++r)
        if (vals[r] == vals[s]) return Status::corruption("one_hot: a category is stored twice");
    }
    t.values_[k] = std::move(vals);
    t.values_[k].reserve(t.config_.max_categories);
    t.overflow_[k] = over;
  }
  if (!in.ok()) return in.status();
  if (t.output_size(t.n_in_) > preprocess_detail::kMaxOutputWidth)
    return Status::corruption("one_hot: output width out of range");
  *this = std::move(t);
  return Status::ok();
}

}  // namespace irithyll
