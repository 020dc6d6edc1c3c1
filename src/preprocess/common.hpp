// Shared pieces of the transformers: column lists resolved against the
// input's names, and the checkpoint header every transformer writes
// (version, settings by name, input width, resolved columns).
#pragma once

#include <cmath>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "irithyll/core/bytes.hpp"
#include "irithyll/core/config_codec.hpp"
#include "irithyll/core/config_fields.hpp"
#include "irithyll/preprocess/registry.hpp"

namespace irithyll::preprocess_detail {

// Inputs wider than this are refused (a checkpoint claiming more is corrupt).
inline constexpr std::size_t kMaxInputWidth = std::size_t{1} << 24;
// Outputs wider than this are refused at build time (a polynomial of 2,000
// features would already need 2 million).
inline constexpr std::size_t kMaxOutputWidth = std::size_t{1} << 22;

// "colour,3,day" -> input indices, sorted and deduplicated: each item is a
// column name of the input or a 0-based index. Empty text: the context's
// categorical columns.
Result<std::vector<std::uint32_t>> resolve_columns(std::string_view who, std::string_view text,
                                                   const TransformerContext& context);

// The name of input column i ("f3" when the input has no names).
std::string column_name(const TransformerContext& context, std::size_t i);

Status check_input_width(std::string_view who, std::size_t n);

template <class Config>
void encode_header(std::uint8_t version, std::span<const ConfigField<Config>> fields, const Config& config,
                   std::size_t n_in, std::span<const std::uint32_t> columns, ByteWriter& out) {
  out.u8(version);
  encode_config(fields, config, out);
  out.u64(n_in);
  out.u64(columns.size());
  for (const std::uint32_t c : columns) out.u32(c);
}

// Reads what encode_header wrote; checks the version, every setting, the
// width and that the columns are strictly increasing indices below it.
template <class Config>
Status decode_header(std::string_view who, std::uint8_t version, std::span<const ConfigField<Config>> fields,
                     ByteReader& in, Config& config, std::size_t& n_in, std::vector<std::uint32_t>& columns) {
  const std::uint8_t v = in.u8("transformer version");
  if (!in.ok()) return in.status();
  if (v != version)
    return Status::not_supported(std::string(who) + ": checkpoint version " + std::to_string(v) + " (this build reads " +
                                 std::to_string(version) + ")");
  Config c;
  IRITHYLL_RETURN_IF_ERROR(decode_config(who, fields, in, c));
  IRITHYLL_RETURN_IF_ERROR(validate_fields(who, fields, c));
  const std::uint64_t n = in.u64("input width");
  const std::size_t n_cols = in.read_count(4, "column count");
  if (!in.ok()) return in.status();
  if (n == 0 || n > kMaxInputWidth)
    return Status::corruption(std::string(who) + ": input width " + std::to_string(n) + " out of range");
  std::vector<std::uint32_t> cols(n_cols);
  for (std::size_t i = 0; i < n_cols; ++i) {
    cols[i] = in.u32("column");
    if (in.ok() && (cols[i] >= n || (i > 0 && cols[i] <= cols[i - 1])))
      return Status::corruption(std::string(who) + ": column list is not increasing indices below the width");
  }
  if (!in.ok()) return in.status();
  config = c;
  n_in = static_cast<std::size_t>(n);
  columns = std::move(cols);
  return Status::ok();
}

// Reads exactly `n` doubles, refusing a stored array of another length.
inline bool read_exact(ByteReader& in, std::size_t n, std::vector<double>& out, const char* what) {
  out = in.f64s(what);
  if (in.ok() && out.size() != n) in.fail(std::string(what) + ": length " + std::to_string(out.size()) +
                                          ", expected " + std::to_string(n));
  return in.ok();
}

// The settings -> config -> make() path every catalogue row shares.
template <class T>
Result<std::unique_ptr<Transformer>> make_from_settings(const ModelSettings& settings,
                                                        const TransformerContext& context) {
  typename T::Config config;
  IRITHYLL_RETURN_IF_ERROR(apply_settings(T::kName, T::config_fields(), settings, config));
  auto made = T::make(config, context);
  if (!made) return made.status();
  return std::unique_ptr<Transformer>(std::move(made).value());
}

template <class T>
std::span<const FieldInfo> transformer_field_infos() {
  static const std::vector<FieldInfo> infos = [] {
    std::vector<FieldInfo> v;
    for (const auto& f : T::config_fields()) v.push_back(f.info);
    return v;
  }();
  return infos;
}

// A class index from a classification target, or -1 when y is not one.
inline long class_of(double y, std::size_t n_classes) {
  if (!(y >= 0.0) || y >= static_cast<double>(n_classes) || y != std::floor(y)) return -1;
  return static_cast<long>(y);
}

}  // namespace irithyll::preprocess_detail
