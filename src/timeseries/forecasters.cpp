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
  static Result<std::unique_ptr<Forecaster>> make(const ModelSettings& settings, const MemberFactory& factory) {
    Config c;
    const std::string name(Model().name());
    IRITHYLL_RETURN_IF_ERROR(apply_settings<Config>(name, Fields(), settings, c));
    IRITHYLL_RETURN_IF_ERROR(c.validate());
    auto model = std::make_unique<Model>(c);
    if constexpr (requires { model->set_factory(factory); }) IRITHYLL_RETURN_IF_ERROR(model->set_factory(factory));
    return std::unique_ptr<Forecaster>(std::move(model));
  }
  static std::unique_ptr<Forecaster> blank(const MemberFactory& factory) {
    auto model = std::make_unique<Model>();
    if constexpr (requires { model->set_factory(factory); }) (void)model->set_factory(factory);
    return model;
  }
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
                         "seasonal ARIMA with exogenous inputs, a linear recurrence trained online (RLS/NLMS/SGD, or "
                         "any catalogue regressor)", "m"),
  };
  return rows;
}


}  // namespace

std::span<const ForecasterEntry> forecasters() { return table(); }

const ForecasterEntry* find_forecaster(std::string_view name) {
  for (const auto& e : table())
    if (e.name == name) return &e;
  return nullptr;
}

Result<std::unique_ptr<Forecaster>> make_forecaster(std::string_view name, const ModelSettings& settings,
                                                   const MemberFactory& factory) {
  const ForecasterEntry* e = find_forecaster(name);
  if (e == nullptr) {
    std::string names;
    for (const auto& row : table()) names += (names.empty() ? "" : ", ") + std::string(row.name);
    return Status::invalid_argument("unknown forecaster '" + std::string(name) + "' (forecasters: " + names + ")");
  }
  return e->make(settings, factory);
}

void encode_forecaster(const Forecaster& model, ByteWriter& out) {
  out.str(model.name());
  model.encode(out);
}

Result<std::unique_ptr<Forecaster>> decode_forecaster(ByteReader& in, const MemberFactory& factory) {
  const std::string name = in.str("forecaster name");
  if (!in.ok()) return in.status();
  const ForecasterEntry* e = find_forecaster(name);
  if (e == nullptr) return Status::corruption("unknown forecaster kind '" + name.substr(0, 64) + "' in checkpoint");
  std::unique_ptr<Forecaster> model = e->make_blank(factory);
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
    append_json_string(out, e.name);
    out += ",\"description\":";
    append_json_string(out, e.description);
    out += ",\"period_parameter\":";
    append_json_string(out, e.period_field);
    out += ",";
    append_parameters_json(out, e.fields());
    out += "}";
  }
  out += "]";
  return out;
}

}  // namespace irithyll::timeseries
