// The anomaly detector table (irithyll/anomaly/registry.hpp).
#include "irithyll/anomaly/registry.hpp"

#include <cmath>
#include <vector>

#include "irithyll/anomaly/half_space_trees.hpp"

namespace irithyll {

namespace {

template <class T>
std::span<const FieldInfo> infos() {
  static const std::vector<FieldInfo> rows = field_infos<typename T::Config>(T::config_fields());
  return rows;
}

template <class T>
Result<std::unique_ptr<AnomalyDetector>> make_row(const ModelSettings& settings, const AnomalyContext& context) {
  typename T::Config config;
  IRITHYLL_RETURN_IF_ERROR(apply_settings<typename T::Config>(T::kName, T::config_fields(), settings, config));
  auto made = T::make(config, context);
  if (!made) return made.status();
  return std::unique_ptr<AnomalyDetector>(std::move(made).value());
}

template <class T>
std::unique_ptr<AnomalyDetector> blank() {
  return std::make_unique<T>();
}

template <class T>
ModelSettings settings_row(const AnomalyDetector& detector) {
  const auto* typed = dynamic_cast<const T*>(&detector);
  if (typed == nullptr) return {};
  return settings_of<typename T::Config>(T::config_fields(), typed->config());
}

template <class T>
AnomalyEntry row(std::string_view description, std::string_view python_class) {
  return AnomalyEntry{T::kName, description, &infos<T>, &make_row<T>, &blank<T>, &settings_row<T>, "anomaly",
                      python_class};
}

// Sorted by name.
const std::vector<AnomalyEntry>& table() {
  static const std::vector<AnomalyEntry> rows = {
      row<HalfSpaceTrees>("Half-Space Trees (Tan, Ting & Liu 2011): mass of random axis-aligned cells, windowed",
                          "HalfSpaceTrees"),
  };
  return rows;
}


}  // namespace

std::span<const AnomalyEntry> anomaly_catalogue() { return table(); }

const AnomalyEntry* find_anomaly_detector(std::string_view name) {
  for (const auto& e : table())
    if (e.name == name) return &e;
  return nullptr;
}

std::string anomaly_detector_names() {
  std::string names;
  for (const auto& e : table()) names += (names.empty() ? "" : ", ") + std::string(e.name);
  return names;
}

Result<std::unique_ptr<AnomalyDetector>> make_anomaly_detector(std::string_view name, const ModelSettings& settings,
                                                               const AnomalyContext& context) {
  const AnomalyEntry* e = find_anomaly_detector(name);
  if (e == nullptr)
    return Status::invalid_argument("unknown anomaly detector '" + std::string(name) +
                                    "' (anomaly detectors: " + anomaly_detector_names() + ")");
  return e->make(settings, context);
}

std::string anomaly_catalogue_json() {
  std::string out = "[";
  for (const auto& e : table()) {
    if (out.size() > 1) out += ',';
    out += "{\"name\":";
    append_json_string(out, e.name);
    out += ",\"description\":";
    append_json_string(out, e.description);
    out += ",\"python_module\":";
    append_json_string(out, e.python_module);
    out += ",\"python_class\":";
    append_json_string(out, e.python_class);
    out += ',';
    append_parameters_json(out, e.fields());
    out += "}";
  }
  return out + "]";
}

void encode_anomaly_detector(const AnomalyDetector& detector, ByteWriter& out) {
  out.str(detector.name());
  detector.encode(out);
}

Result<std::unique_ptr<AnomalyDetector>> decode_anomaly_detector(std::span<const std::uint8_t> bytes) {
  ByteReader in(bytes);
  const std::string name = in.str("anomaly detector name");
  if (!in.ok()) return in.status();
  const AnomalyEntry* e = find_anomaly_detector(name);
  if (e == nullptr) return Status::corruption("unknown anomaly detector '" + name + "' in the checkpoint");
  auto detector = e->make_blank();
  IRITHYLL_RETURN_IF_ERROR(detector->decode(in));
  if (in.remaining() != 0)
    return Status::corruption(name + ": " + std::to_string(in.remaining()) + " trailing bytes after the checkpoint");
  return detector;
}

}  // namespace irithyll
