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
// so a record an older build did not write keeps its default, or the row's
// absent_value where the model behaved otherwise before the row existed (a
// new setting whose default changes what older models did). A name this
// build does not know (a newer build's setting) is refused by name rather than
// dropped, because a model trained under a setting we cannot honour would
// predict differently from the one that was saved. Every value passes the
// row's range check, so hostile bytes cannot smuggle in an out-of-range
// setting; the model's own validate() still runs after decoding.
//
// Lengths: a name or value is prefixed by its length, a u64 by default. The
// compact form (ConfigLengths::kVarint, bit 31 of the count set) writes each
// length as a LEB128 varint instead, one byte below 128, so a 45-setting
// record takes about 450 bytes rather than 1,100; decode_config reads both.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "irithyll/core/bytes.hpp"
#include "irithyll/core/config_fields.hpp"
#include "irithyll/core/status.hpp"

namespace irithyll {

enum class ConfigLengths { kU64, kVarint };

namespace config_codec_detail {

inline constexpr std::uint32_t kCompactFlag = 0x80000000u;

inline void put_text(ByteWriter& out, std::string_view s, ConfigLengths lengths) {
  if (lengths == ConfigLengths::kU64) return out.str(s);
  std::size_t n = s.size();
  do {
    out.u8(static_cast<std::uint8_t>((n & 0x7F) | (n > 0x7F ? 0x80 : 0)));
    n >>= 7;
  } while (n != 0);
  out.bytes(std::span<const std::uint8_t>(reinterpret_cast<const std::uint8_t*>(s.data()), s.size()));
}

// At most four varint bytes (lengths below 2^28); the bytes themselves are
// checked against what is left by ByteReader::bytes.
inline std::string get_text(ByteReader& in, ConfigLengths lengths, const char* what) {
  if (lengths == ConfigLengths::kU64) return in.str(what);
  std::size_t n = 0;
  for (int shift = 0;; shift += 7) {
    const std::uint8_t b = in.u8(what);
    if (!in.ok()) return {};
    n |= static_cast<std::size_t>(b & 0x7F) << shift;
    if ((b & 0x80) == 0) break;
    if (shift == 21) {
      in.fail(std::string(what) + ": length longer than four bytes");
      return {};
    }
  }
  const auto bytes = in.bytes(n, what);
  if (!in.ok()) return {};
  return std::string(reinterpret_cast<const char*>(bytes.data()), bytes.size());
}

}  // namespace config_codec_detail

template <class Config>
void encode_config(std::span<const ConfigField<Config>> fields, const Config& config, ByteWriter& out,
                   ConfigLengths lengths = ConfigLengths::kU64) {
  const auto n = static_cast<std::uint32_t>(fields.size());
  out.u32(lengths == ConfigLengths::kVarint ? (n | config_codec_detail::kCompactFlag) : n);
  for (const auto& f : fields) {
    config_codec_detail::put_text(out, f.info.name, lengths);
    config_codec_detail::put_text(out, f.get(config), lengths);
  }
}

template <class Config>
Status decode_config(std::string_view model, std::span<const ConfigField<Config>> fields, ByteReader& in,
                     Config& config) {
  const std::uint32_t raw = in.u32("settings count");
  const ConfigLengths lengths =
      (raw & config_codec_detail::kCompactFlag) != 0 ? ConfigLengths::kVarint : ConfigLengths::kU64;
  const std::uint32_t n = raw & ~config_codec_detail::kCompactFlag;
  // Each record is at least two length prefixes; a larger count is corrupt.
  const std::size_t min_record = lengths == ConfigLengths::kVarint ? 2 : 16;
  if (in.ok() && static_cast<std::size_t>(n) * min_record > in.remaining())
    in.fail(std::string(model) + ": settings count " + std::to_string(n) + " exceeds the record");
  std::vector<bool> seen(fields.size(), false);
  for (std::uint32_t i = 0; i < n && in.ok(); ++i) {
    const std::string name = config_codec_detail::get_text(in, lengths, "setting name");
    const std::string value = config_codec_detail::get_text(in, lengths, "setting value");
    if (!in.ok()) break;
    std::size_t row = fields.size();
    for (std::size_t r = 0; r < fields.size(); ++r)
      if (fields[r].info.name == name || (!fields[r].info.alias.empty() && fields[r].info.alias == name)) row = r;
    if (row == fields.size())
      return Status::invalid_argument(std::string(model) + ": the checkpoint sets '" + name +
                                      "', which this build does not know (written by a newer build?)");
    seen[row] = true;
    Status s = check_field(fields[row].info, value);
    if (s) s = fields[row].set(config, value);
    if (!s) return s.with_context(std::string(model) + ": checkpoint setting");
  }
  if (!in.ok()) return in.status();
  for (std::size_t r = 0; r < fields.size(); ++r) {
    if (seen[r] || fields[r].info.absent_value.empty()) continue;
    Status s = fields[r].set(config, fields[r].info.absent_value);
    if (!s) return s.with_context(std::string(model) + ": setting absent from the checkpoint");
  }
  return Status::ok();
}

}  // namespace irithyll
