#include "irithyll/timeseries/forecasters.hpp"

#include <cmath>
#include <vector>

#include "irithyll/timeseries/holt_winters.hpp"
#include "irithyll/timeseries/snarimax.hpp"

namespace irithyll::timeseries {

namespace {

template <class Model, class Config, std::span<const ConfigField<Config>> (*Fields)()>
struct Row {
  static std::span<const FieldInfo> fields() {
    static const std::vector<FieldInfo> infos = field_infos<Config>(Fields());
    return infos;
  }
  static Result<std::unique_ptr<Forecaster>> make(const ModelSettings& settings) {
    Config c;
    const std::string name(Model().name());
    IRITHYLL_RETURN_IF_ERROR(apply_settings<Config>(name, Fields(), settings, c));
    IRITHYLL_RETURN_IF_ERROR(c.validate());
    return std::unique_ptr<Forecaster>(std::make_unique<Model>(c));
  }
  static std::unique_ptr<Forecaster> blank() { return std::make_unique<Model>(); }
  static ModelSettings settings(const Forecaster& model) {
    return settings_of<Config>(Fields(), static_cast<const Model&>(model).config());
  }
  static ForecasterEntry entry(std::string_view name, std::string_view description, std::string_view period) {
    return ForecasterEntry{name, description, period, &fields, &make, &blank, &settings};
  }
};

using HoltWintersRow = Row<HoltWinters, HoltWintersConfig, &holt_winters_fields>;
using SnarimaxRow = Row<Snarimax, SnarimaxConfig, &snarimax_fields>;

const std::vector<ForecasterEntry>& table() {
  static const std::vector<ForecasterEntry> rows = {
      HoltWintersRow::entry("holt_winters",
                            "Holt-Winters exponential smoothing: level, damped trend, additive or multiplicative season",
                            "seasonality"),
      SnarimaxRow::entry("snarimax",
                         "seasonal ARIMA with exogenous inputs, a linear recurrence trained online (SGD/NLMS)", "m"),
  };
  return rows;
}

void json_string(std::string& out, std::string_view s) {
  out += '"';
  for (const char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      out += ' ';
    } else {
      out += c;
    }
  }
  out += '"';
}

void json_number(std::string& out, double v) {
  if (std::isfinite(v)) out += format_field_real(v);
  else out += "null";  // an unbounded end
}

void json_field(std::string& out, const FieldInfo& f) {
  out += "{\"name\":";
  json_string(out, f.name);
  out += ",\"python_name\":";
  json_string(out, f.python_name());
  out += ",\"type\":";
  json_string(out, field_type_name(f.type));
  out += ",\"default\":";
  json_string(out, f.default_value);
  if (f.type == FieldType::kInt || f.type == FieldType::kReal) {
    out += ",\"min\":";
    json_number(out, f.lo);
    out += ",\"max\":";
    json_number(out, f.hi);
    out += std::string(",\"min_open\":") + (f.lo_open ? "true" : "false");
    out += std::string(",\"max_open\":") + (f.hi_open ? "true" : "false");
    out += std::string(",\"zero_is_off\":") + (f.zero_is_off ? "true" : "false");
  }
  if (f.type == FieldType::kChoice) {
    out += ",\"choices\":[";
    bool first = true;
    for (std::string_view choice : split_list_items(f.choices, '|')) {
      if (!first) out += ',';
      first = false;
      json_string(out, choice);
    }
    out += ']';
  }
  out += ",\"range\":";
  json_string(out, f.range_text());
  out += ",\"help\":";
  json_string(out, f.help);
  out += '}';
}

}  // namespace

std::span<const ForecasterEntry> forecasters() { return table(); }

const ForecasterEntry* find_forecaster(std::string_view name) {
  for (const auto& e : table())
    if (e.name == name) return &e;
  return nullptr;
}

Result<std::unique_ptr<Forecaster>> make_forecaster(std::string_view name, const ModelSettings& settings) {
  const ForecasterEntry* e = find_forecaster(name);
  if (e == nullptr) {
    std::string names;
    for (const auto& row : table()) names += (names.empty() ? "" : ", ") + std::string(row.name);
    return Status::invalid_argument("unknown forecaster '" + std::string(name) + "' (forecasters: " + names + ")");
  }
  return e->make(settings);
}

void encode_forecaster(const Forecaster& model, ByteWriter& out) {
  out.str(model.name());
  model.encode(out);
}

Result<std::unique_ptr<Forecaster>> decode_forecaster(ByteReader& in) {
  const std::string name = in.str("forecaster name");
  if (!in.ok()) return in.status();
  const ForecasterEntry* e = find_forecaster(name);
  if (e == nullptr) return Status::corruption("unknown forecaster kind '" + name.substr(0, 64) + "' in checkpoint");
  std::unique_ptr<Forecaster> model = e->make_blank();
  IRITHYLL_RETURN_IF_ERROR(model->decode(in));
  return model;
}

std::string forecasters_json() {
  std::string out = "[";
  bool first_model = true;
  for (const auto& e : table()) {
    if (!first_model) out += ',';
    first_model = false;
    out += "{\"name\":";
    json_string(out, e.name);
    out += ",\"description\":";
    json_string(out, e.description);
    out += ",\"period_parameter\":";
    json_string(out, e.period_field);
    out += ",\"parameters\":[";
    bool first_field = true;
    for (const FieldInfo& f : e.fields()) {
      if (!first_field) out += ',';
      first_field = false;
      json_field(out, f);
    }
    out += "]}";
  }
  out += "]";
  return out;
}

}  // namespace irithyll::timeseries
