#include <string>
#include <utility>
#include <vector>

#include "irithyll/packed/class_bundle.hpp"
#include "irithyll/packed/exportable.hpp"
#include "irithyll/packed/exporter.hpp"
#include "irithyll/packed/metadata.hpp"

namespace irithyll::packed {

Result<std::vector<std::uint8_t>> export_packed(const Exportable& model, PackedFormat format,
                                                const PackedMetadata* meta) {
  const std::size_t n = model.n_export_models();
  if (n == 0) return Status::invalid_argument("export: the model has no ensemble to write");
  std::vector<std::vector<std::uint8_t>> members;
  members.reserve(n);
  for (std::size_t k = 0; k < n; ++k) {
    const ExportModel em = model.export_model(k);
    auto bytes = format == PackedFormat::kF32 ? export_f32(em) : export_i16(em);
    if (!bytes) return n > 1 ? bytes.status().with_context("class " + std::to_string(k)) : bytes.status();
    members.push_back(std::move(bytes).value());
  }
  // The trailer goes after member 0's last node: the one place that both the
  // version-1 readers and the bundle reader (which refuses bytes after the
  // last member) already accept.
  if (meta != nullptr)
    if (Status s = append_metadata(members.front(), *meta); !s) return s;
  if (n == 1) return std::move(members.front());
  return pack_class_bundle(members);
}

}  // namespace irithyll::packed
