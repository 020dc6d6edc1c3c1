#include "irithyll/model_file.hpp"

#include "irithyll/catalogue.hpp"

#include "irithyll/core/crc32.hpp"
#include "irithyll/core/file_io.hpp"

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

std::vector<std::uint8_t> encode_learner(const Learner& learner) {
  ByteWriter w;
  w.str(learner.name());
  learner.encode(w);
  return seal_checkpoint(w.data());
}

Result<std::unique_ptr<Learner>> decode_learner(std::span<const std::uint8_t> bytes) {
  auto payload = open_checkpoint(bytes);
  if (!payload) return payload.status();
  ByteReader r(*payload);
  const std::string kind = r.str("learner name");
  if (!r.ok()) return r.status();
  std::unique_ptr<Learner> learner = make_blank_learner(kind);
  if (learner == nullptr) return Status::not_supported("unknown learner kind '" + kind + "'");
  IRITHYLL_RETURN_IF_ERROR(learner->decode(r));
  if (!r.ok()) return r.status();
  if (!r.at_end())
    return Status::corruption(std::to_string(r.remaining()) + " unexpected trailing bytes after the '" + kind +
                              "' state");
  return learner;
}

Status save_learner(const std::string& path, const Learner& learner) {
  return write_file_atomic(path, encode_learner(learner));
}

Result<std::unique_ptr<Learner>> load_learner(const std::string& path) {
  auto bytes = read_file_bytes(path);
  if (!bytes) return bytes.status();
  auto learner = decode_learner(*bytes);
  if (!learner) return learner.status().with_context(path);
  return learner;
}

}  // namespace irithyll
