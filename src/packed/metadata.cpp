#include "irithyll/packed/metadata.hpp"

#include <algorithm>

#include "irithyll/packed/format.hpp"
#include "packed/le_bytes.hpp"

namespace irithyll::packed {
namespace {

using packed_detail::put_u16;
using packed_detail::put_u32;
Status put_string(std::vector<std::uint8_t>& out, const std::string& s) {
  if (s.size() > 0xFFFFu) return Status::invalid_argument("packed metadata: a name longer than 65535 bytes");
  put_u16(out, static_cast<std::uint16_t>(s.size()));
  out.insert(out.end(), s.begin(), s.end());
  return Status::ok();
}
Status put_strings(std::vector<std::uint8_t>& out, const std::vector<std::string>& v) {
  if (v.size() > 0xFFFFFFFFu) return Status::invalid_argument("packed metadata: too many names");
  put_u32(out, static_cast<std::uint32_t>(v.size()));
  for (const std::string& s : v)
    if (Status st = put_string(out, s); !st) return st;
  return Status::ok();
}

Status damaged(const std::string& why) { return Status::corruption("packed metadata trailer: " + why); }

// Bounds-checked cursor over the trailer body.
struct Cursor {
  const std::uint8_t* p;
  std::size_t left;
  bool u16(std::uint16_t& v) {
    if (left < 2) return false;
    v = load_u16(p);
    p += 2;
    left -= 2;
    return true;
  }
  bool u32(std::uint32_t& v) {
    if (left < 4) return false;
    v = load_u32(p);
    p += 4;
    left -= 4;
    return true;
  }
  bool str(std::string& s) {
    std::uint16_t n = 0;
    if (!u16(n) || left < n) return false;
    s.assign(reinterpret_cast<const char*>(p), n);
    p += n;
    left -= n;
    return true;
  }
  bool strs(std::vector<std::string>& v) {
    std::uint32_t n = 0;
    if (!u32(n) || n > left / 2) return false;  // each string takes >= 2 bytes
    v.resize(n);
    for (std::string& s : v)
      if (!str(s)) return false;
    return true;
  }
};

// One past the last node byte of a validated version-1 file.
std::size_t nodes_end(const PackedModel& m) {
  const std::uint8_t* d = m.bytes().data();
  const bool i16 = m.format() == PackedFormat::kI16;
  const std::uint16_t nt = load_u16(d + 6), nf = load_u16(d + 8);
  const std::size_t table = i16 ? kHeaderBytes + 4 + 4 * std::size_t{nf} : kHeaderBytes;
  const std::size_t node = i16 ? kNodeBytesI16 : kNodeBytesF32;
  const std::size_t area = table + kTreeEntryBytes * std::size_t{nt};
  std::size_t end = area;
  for (std::uint32_t t = 0; t < nt; ++t) {
    const std::uint8_t* e = d + table + kTreeEntryBytes * t;
    end = std::max(end, area + load_u32(e + 4) + std::size_t{load_u32(e)} * node);
  }
  return end;
}

}  // namespace

Status append_metadata(std::vector<std::uint8_t>& file, const PackedMetadata& meta) {
  std::vector<std::uint8_t> body;
  if (Status s = put_strings(body, meta.feature_names); !s) return s;
  if (Status s = put_string(body, meta.target_name); !s) return s;
  if (Status s = put_strings(body, meta.class_names); !s) return s;
  if (body.size() > 0xFFFFFFFFu) return Status::invalid_argument("packed metadata: names larger than 4 GiB");
  put_u32(file, kMagicMetadata);
  put_u16(file, kMetadataVersion);
  put_u16(file, meta.classification ? 1 : 0);
  put_u32(file, static_cast<std::uint32_t>(body.size()));
  file.insert(file.end(), body.begin(), body.end());
  return Status::ok();
}

Result<std::optional<PackedMetadata>> read_metadata(const PackedModel& model) {
  const std::vector<std::uint8_t>& b = model.bytes();
  const std::size_t start = nodes_end(model);
  if (start >= b.size()) return std::optional<PackedMetadata>{};
  Cursor c{b.data() + start, b.size() - start};
  std::uint32_t magic = 0, body = 0;
  std::uint16_t version = 0, task = 0;
  if (!c.u32(magic) || magic != kMagicMetadata) return damaged("bytes after the last node are not a trailer");
  if (!c.u16(version) || version != kMetadataVersion)
    return Status::not_supported("packed metadata trailer: version " + std::to_string(version) +
                                 " (this build reads 1)");
  if (!c.u16(task) || task > 1) return damaged("task is neither regression (0) nor classification (1)");
  if (!c.u32(body) || body != c.left) return damaged("length does not reach the end of the file");
  PackedMetadata m;
  m.classification = task == 1;
  if (!c.strs(m.feature_names) || !c.str(m.target_name) || !c.strs(m.class_names))
    return damaged("a name runs past the end");
  if (c.left != 0) return damaged(std::to_string(c.left) + " bytes after the class names");
  if (m.classification != !m.class_names.empty()) return damaged("class names do not match the task");
  return std::optional<PackedMetadata>{std::move(m)};
}

}  // namespace irithyll::packed
