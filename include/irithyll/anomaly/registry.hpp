// The anomaly detectors by name: `irithyll eval --task anomaly --model NAME`,
// `irithyll models` (its own section), checkpoints and Python
// (irithyll.anomaly) read this one table, as the learner catalogue serves
// the learners. Each row carries the detector's settings table
// (ConfigField/FieldInfo), a factory and a blank instance to decode into.
//
//   auto hst = make_anomaly_detector("half_space_trees", {{"n-trees", "25"}}, AnomalyContext{0, 7});
#pragma once

#include <memory>
#include <span>
#include <string>
#include <string_view>

#include "irithyll/anomaly/detector.hpp"
#include "irithyll/core/config_fields.hpp"

namespace irithyll {

struct AnomalyEntry {
  std::string_view name;         // --model NAME, the checkpoint's detector name
  std::string_view description;  // one line
  std::span<const FieldInfo> (*fields)();
  Result<std::unique_ptr<AnomalyDetector>> (*make)(const ModelSettings& settings, const AnomalyContext& context);
  std::unique_ptr<AnomalyDetector> (*make_blank)();
  ModelSettings (*settings_of)(const AnomalyDetector& detector);
  std::string_view python_module;  // River's module: "anomaly"
  std::string_view python_class;   // River's class: "HalfSpaceTrees"
};

std::span<const AnomalyEntry> anomaly_catalogue();
const AnomalyEntry* find_anomaly_detector(std::string_view name);
// Looks the detector up, checks its settings and builds it; an unknown name
// lists the known ones.
Result<std::unique_ptr<AnomalyDetector>> make_anomaly_detector(std::string_view name, const ModelSettings& settings,
                                                               const AnomalyContext& context);
// "half_space_trees, ..." for messages and --help.
std::string anomaly_detector_names();
// The rows as a JSON array: [{"name", "description", "python_module",
// "python_class", "parameters": [{name, python_name, type, default, range,
// choices?, help}]}].
std::string anomaly_catalogue_json();

// A checkpoint of any detector: its name, then its own record. decode
// refuses an unknown name, hostile bytes and trailing bytes.
void encode_anomaly_detector(const AnomalyDetector& detector, ByteWriter& out);
Result<std::unique_ptr<AnomalyDetector>> decode_anomaly_detector(std::span<const std::uint8_t> bytes);

}  // namespace irithyll
