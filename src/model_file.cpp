#include "irithyll/model_file.hpp"

#include <new>

#include "irithyll/catalogue.hpp"

#include "core/crc32.hpp"
#include "core/file_io.hpp"

namespace irithyll {

std::vector<std::uint8_t> seal_checkpoint(std::span<const std::uint8_t> payload) {
  ByteWriter w;
  w.u32(kCheckpointMagic);
  w.u32(kCheckpointVersion);
  w.u64(payload.size());
  w.u32(crc32(payload));
  w.u32(0);
  w.bytes(payload);
  return w.take();
}

Result<std::span<const std::uint8_t>> open_checkpoint(std::span<const std::uint8_t> bytes) {
  if (bytes.size() < kCheckpointHeaderBytes)
    return Status::corruption("truncated header: " + std::to_string(bytes.size()) + " bytes, need " +
                              std::to_string(kCheckpointHeaderBytes));
  ByteReader r(bytes);
  const std::uint32_t magic = r.u32();
  if (magic != kCheckpointMagic) return Status::corruption("bad magic: not an irithyll checkpoint (expected \"IRCK\")");
  const std::uint32_t version = r.u32();
  if (version != kCheckpointVersion)
    return Status::not_supported("checkpoint version " + std::to_string(version) + " (this build reads version " +
                                 std::to_string(kCheckpointVersion) + ")");
  const std::uint64_t length = r.u64();
  const std::uint32_t crc = r.u32();
  r.u32();
  if (length != bytes.size() - kCheckpointHeaderBytes)
    return Status::corruption("payload length " + std::to_string(length) + " but file holds " +
                              std::to_string(bytes.size() - kCheckpointHeaderBytes) + " bytes (truncated?)");
  auto payload = bytes.subspan(kCheckpointHeaderBytes);
  if (crc32(payload) != crc) return Status::corruption("checksum mismatch: the file is corrupted");
  return payload;
}

namespace {

// Version 2 adds the category dictionaries; a schema without any is still
// written as version 1, so older builds read such files as before.
constexpr std::uint32_t kSchemaVersion = 2;

void encode_schema(ByteWriter& w, const Schema& schema) {
  std::uint64_t dictionaries = 0;
  for (const auto& values : schema.category_values) dictionaries += !values.empty();
  w.u32(kSchemaTag);
  w.u32(dictionaries == 0 ? 1 : kSchemaVersion);
  w.u8(static_cast<std::uint8_t>(schema.task));
  w.str(schema.target_name);
  w.u64(schema.feature_names.size());
  for (const std::string& n : schema.feature_names) w.str(n);
  w.u64(schema.class_names.size());
  for (const std::string& n : schema.class_names) w.str(n);
  if (dictionaries == 0) return;
  // [u64 count] then per dictionary [u64 feature index][u64 n][n strings].
  w.u64(dictionaries);
  for (std::size_t f = 0; f < schema.category_values.size(); ++f) {
    if (schema.category_values[f].empty()) continue;
    w.u64(f);
    w.u64(schema.category_values[f].size());
    for (const std::string& v : schema.category_values[f]) w.str(v);
  }
}

Status decode_names(ByteReader& r, std::vector<std::string>& names) {
  const std::uint64_t n = r.u64("name count");
  if (!r.ok()) return r.status();
  if (n > r.remaining()) return Status::corruption("schema: name count larger than the bytes left");
  names.clear();
  for (std::uint64_t i = 0; i < n && r.ok(); ++i) names.push_back(r.str("name"));
  return r.ok() ? Status::ok() : r.status();
}

Status decode_schema(ByteReader& r, Schema& schema) {
  if (r.u32("schema tag") != kSchemaTag) return Status::corruption("unexpected trailing bytes after the learner state");
  const std::uint32_t version = r.u32("schema version");
  if (r.ok() && (version < 1 || version > kSchemaVersion))
    return Status::not_supported("schema record version " + std::to_string(version) + " (this build reads 1-2)");
  const std::uint8_t task = r.u8("schema task");
  if (r.ok() && task > 1) return Status::corruption("schema: bad task " + std::to_string(task));
  schema.task = static_cast<Task>(task);
  schema.target_name = r.str("target name");
  for (std::vector<std::string>* names : {&schema.feature_names, &schema.class_names})
    IRITHYLL_RETURN_IF_ERROR(decode_names(r, *names));
  schema.category_values.clear();
  if (version < 2) return Status::ok();
  const std::uint64_t dictionaries = r.u64("dictionary count");
  if (!r.ok()) return r.status();
  if (dictionaries == 0 || dictionaries > schema.feature_names.size())
    return Status::corruption("schema: " + std::to_string(dictionaries) + " category dictionaries for " +
                              std::to_string(schema.feature_names.size()) + " features");
  schema.category_values.assign(schema.feature_names.size(), {});
  for (std::uint64_t d = 0; d < dictionaries; ++d) {
    const std::uint64_t f = r.u64("dictionary feature");
    if (!r.ok()) return r.status();
    if (f >= schema.feature_names.size() || !schema.category_values[f].empty())
      return Status::corruption("schema: category dictionary for feature " + std::to_string(f) +
                                " (out of range or repeated)");
    IRITHYLL_RETURN_IF_ERROR(decode_names(r, schema.category_values[f]));
    if (schema.category_values[f].empty()) return Status::corruption("schema: empty category dictionary");
  }
  return Status::ok();
}

}  // namespace

std::vector<std::uint8_t> encode_learner(const Learner& learner, const Schema* schema) {
  ByteWriter w;
  w.str(learner.name());
  learner.encode(w);
  if (schema != nullptr) encode_schema(w, *schema);
  return seal_checkpoint(w.data());
}

Result<std::unique_ptr<Learner>> decode_learner(std::span<const std::uint8_t> bytes, Schema* schema) {
  auto payload = open_checkpoint(bytes);
  if (!payload) return payload.status();
  ByteReader r(*payload);
  const std::string kind = r.str("learner name");
  if (!r.ok()) return r.status();
  std::unique_ptr<Learner> learner = make_blank_learner(kind);
  if (learner == nullptr) return Status::not_supported("unknown learner kind '" + kind + "'");
  // A record's settings can ask for a model larger than memory allows (a
  // few bytes can name 64 experts of 10,000 trees): a failed allocation
  // while decoding is an error like any other bad record.
  try {
    IRITHYLL_RETURN_IF_ERROR(learner->decode(r));
  } catch (const std::bad_alloc&) {
    return Status::corruption("'" + kind + "' checkpoint: its settings need more memory than this process can allocate");
  }
  if (!r.ok()) return r.status();
  Schema stored;
  if (!r.at_end()) {
    const auto rest = payload->subspan(payload->size() - r.remaining());
    const bool tagged = rest.size() >= 8 && (std::uint32_t{rest[0]} | std::uint32_t{rest[1]} << 8 |
                                             std::uint32_t{rest[2]} << 16 | std::uint32_t{rest[3]} << 24) == kSchemaTag;
    if (!tagged)
      return Status::corruption(std::to_string(r.remaining()) + " unexpected trailing bytes after the '" + kind +
                                "' state");
    IRITHYLL_RETURN_IF_ERROR(decode_schema(r, stored));
    if (!r.at_end())
      return Status::corruption(std::to_string(r.remaining()) + " unexpected trailing bytes after the schema");
  }
  if (schema != nullptr) *schema = std::move(stored);
  return learner;
}

Status save_learner(const std::string& path, const Learner& learner, const Schema* schema) {
  return write_file_atomic(path, encode_learner(learner, schema));
}

Result<std::unique_ptr<Learner>> load_learner(const std::string& path, Schema* schema) {
  auto bytes = read_file_bytes(path);
  if (!bytes) return bytes.status();
  auto learner = decode_learner(*bytes, schema);
  if (!learner) return learner.status().with_context(path);
  return learner;
}

}  // namespace irithyll
