#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "irithyll/packed/class_bundle.hpp"
#include "irithyll/packed/exportable.hpp"
#include "irithyll/packed/exporter.hpp"
#include "irithyll/packed/metadata.hpp"

namespace irithyll::packed {
namespace {

// The packed formats hold threshold nodes only. A model that splits features
// by category sets (what text columns and --categorical ones get by default)
// is refused with every such feature named, by its column name when the
// metadata carries names, and the way out.
Status refuse_category_sets(std::vector<std::uint32_t> features, const PackedMetadata* meta) {
  std::sort(features.begin(), features.end());
  std::string named;
  for (const std::uint32_t f : features) {
    const bool has_name = meta != nullptr && f < meta->feature_names.size();
    named += (named.empty() ? "'" : ", '") + (has_name ? meta->feature_names[f] : "feature " + std::to_string(f)) + "'";
  }
  return Status::invalid_argument("export: the model splits " + named +
                                  " by category sets, which the packed formats cannot hold; retrain with "
                                  "--categorical-features \"\" (the setting categorical-features empty: the category "
                                  "codes then split by thresholds) to export it");
}

}  // namespace

Result<std::vector<std::uint8_t>> export_packed(const Exportable& model, PackedFormat format,
                                                const PackedMetadata* meta) {
  const std::size_t n = model.n_export_models();
  if (n == 0) return Status::invalid_argument("export: the model has no ensemble to write");
  std::vector<std::vector<std::uint8_t>> members;
  members.reserve(n);
  std::vector<std::uint32_t> set_split;  // features split by category sets, in any member
  for (std::size_t k = 0; k < n; ++k) {
    const ExportModel em = model.export_model(k);
    for (const ExportTree& tree : em.trees)
      for (const ExportNode& node : tree.nodes)
        if (!node.is_leaf && node.categorical &&
            std::find(set_split.begin(), set_split.end(), node.feature) == set_split.end())
          set_split.push_back(node.feature);
    if (!set_split.empty()) continue;  // refused below, once every member is scanned
    auto bytes = format == PackedFormat::kF32 ? export_f32(em) : export_i16(em);
    if (!bytes) return n > 1 ? bytes.status().with_context("class " + std::to_string(k)) : bytes.status();
    members.push_back(std::move(bytes).value());
  }
  if (!set_split.empty()) return refuse_category_sets(std::move(set_split), meta);
  // The trailer goes after member 0's last node: the one place that both the
  // version-1 readers and the bundle reader (which refuses bytes after the
  // last member) already accept.
  if (meta != nullptr)
    if (Status s = append_metadata(members.front(), *meta); !s) return s;
  if (n == 1) return std::move(members.front());
  return pack_class_bundle(members);
}

}  // namespace irithyll::packed
