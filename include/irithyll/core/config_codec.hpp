// Settings in a checkpoint, written from the config's field table: one
// tagged record per row (its name and its value as the row prints it), so a
// new setting needs one member and one table row and no record-version bump.
// LightGBM and XGBoost save their parameters the same way, from the one
// declaration that also drives their command lines.
//
//   encode_config(fields, config, out);                 // u32 count, then (name, text) pairs
//   IRITHYLL_RETURN_IF_ERROR(decode_config("knn", fields, in, config));
//
// Decoding starts from whatever `config` holds (a blank config: the defaults),
// so a record an older build did not write keeps its default. A name this
// build does not know (a newer build's setting) is refused by name rather than
// dropped, because a model trained under a setting we cannot honour would
// predict differently from the one that was saved. Every value passes the
// row's range check, so hostile bytes cannot smuggle in an out-of-range
// setting; the model's own validate() still runs after decoding.
#pragma once

#include <span>
#include <string>
#include <string_view>

#include "irithyll/core/bytes.hpp"
#include "irithyll/core/config_fields.hpp"
#include "irithyll/core/status.hpp"

namespace irithyll {

template <class Config>
void encode_config(std::span<const ConfigField<Config>> fields, const Config& config, ByteWriter& out) {
  out.u32(static_cast<std::uint32_t>(fields.size()));
  for (const auto& f : fields) {
    out.str(f.info.name);
    out.str(f.get(config));
  }
}

template <class Config>
Status decode_config(std::string_view model, std::span<const ConfigField<Config>> fields, ByteReader& in,
                     Config& config) {
  const std::uint32_t n = in.u32("settings count");
  // Each record is at least two length prefixes; a larger count is corrupt.
  if (in.ok() && static_cast<std::size_t>(n) * 16 > in.remaining())
    in.fail(std::string(model) + ": settings count " + std::to_string(n) + " exceeds the record");
  for (std::uint32_t i = 0; i < n && in.ok(); ++i) {
    const std::string name = in.str("setting name");
    const std::string value = in.str("setting value");
    if (!in.ok()) break;
    const ConfigField<Config>* row = nullptr;
    for (const auto& f : fields)
      if (f.info.name == name || (!f.info.alias.empty() && f.info.alias == name)) row = &f;
    if (row == nullptr)
      return Status::invalid_argument(std::string(model) + ": the checkpoint sets '" + name +
                                      "', which this build does not know (written by a newer build?)");
    Status s = check_field(row->info, value);
    if (s) s = row->set(config, value);
    if (!s) return s.with_context(std::string(model) + ": checkpoint setting");
  }
  return in.status();
}

}  // namespace irithyll
