// The clusterer registry: one row per clustering model, and the one place the
// CLI (`irithyll cluster`, `irithyll models`), checkpoints and Python learn
// which clusterers exist, what settings they take (a config_fields.hpp table:
// name, type, default, range, help) and how to build or decode them.
//
//   auto model = make_clusterer("dbstream", {{"clustering-threshold", "0.5"}}, 42);
//   if (!model) report(model.status());  // "dbstream: clustering-threshold = 0 is out of range: ..."
//
// Thread safety: the registry is immutable.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>

#include "irithyll/cluster/clusterer.hpp"
#include "irithyll/core/config_fields.hpp"
#include "irithyll/core/status.hpp"

namespace irithyll {

struct ClustererEntry {
  std::string_view name;         // "kmeans": --model NAME, the checkpoint's name
  std::string_view description;  // one line
  std::span<const FieldInfo> (*fields)();
  Result<std::unique_ptr<Clusterer>> (*make)(const ModelSettings& settings, std::uint64_t seed);
  std::unique_ptr<Clusterer> (*make_blank)();  // default instance that decode() fills
};

std::span<const ClustererEntry> clusterers();
const ClustererEntry* find_clusterer(std::string_view name);

// Looks the model up, applies and checks the settings, and builds it.
Result<std::unique_ptr<Clusterer>> make_clusterer(std::string_view name, const ModelSettings& settings,
                                                  std::uint64_t seed = 42);

// Every clusterer with every setting, as a JSON array in the layout of
// catalogue_json()'s "models" entries (name, description, parameters).
std::string clusterers_json();

}  // namespace irithyll
