// The forecaster registry: one row per forecasting model, the only place a
// front end (`irithyll forecast`, `irithyll models`, Python) learns which
// forecasters exist, their settings (a config field table: name, type,
// default, range, help) and how to build or decode them.
//
//   auto f = make_forecaster("holt_winters", {{"seasonality", "12"}});
//   if (!f) report(f.status());   // "holt_winters: alpha = 2 is out of range: ..."
//
// Adding a forecaster = one config struct with its field table, one class,
// and one row in src/timeseries/forecasters.cpp. (A catalogue regressor on
// lagged targets, lag_forecaster.hpp, is built by the front ends, since the
// catalogue sits above this area.)
//
// Checkpoints: encode_forecaster writes the name, then the model's state;
// decode_forecaster reads both back into a fresh instance.
//
// Thread safety: the registry is immutable; factories may run concurrently.
#pragma once

#include <memory>
#include <span>
#include <string>
#include <string_view>

#include "irithyll/core/config_fields.hpp"
#include "irithyll/selection/member_factory.hpp"
#include "irithyll/timeseries/forecaster.hpp"

namespace irithyll::timeseries {

struct ForecasterEntry {
  std::string_view name;         // --model NAME; the checkpoint's kind
  std::string_view description;  // one line
  std::string_view period_field; // the setting that holds the season length ("seasonality", "m")
  std::span<const FieldInfo> (*fields)();
  // factory: how a forecaster that holds a catalogue model (SNARIMAX's
  // regressor) builds and decodes it; front ends pass the catalogue's.
  Result<std::unique_ptr<Forecaster>> (*make)(const ModelSettings& settings, const MemberFactory& factory);
  std::unique_ptr<Forecaster> (*make_blank)(const MemberFactory& factory);
  ModelSettings (*settings_of)(const Forecaster& model);  // current settings of a model of this kind
};

std::span<const ForecasterEntry> forecasters();
const ForecasterEntry* find_forecaster(std::string_view name);

// Checks the settings against the model's table and builds it.
Result<std::unique_ptr<Forecaster>> make_forecaster(std::string_view name, const ModelSettings& settings,
                                                   const MemberFactory& factory = {});

void encode_forecaster(const Forecaster& model, ByteWriter& out);
Result<std::unique_ptr<Forecaster>> decode_forecaster(ByteReader& in, const MemberFactory& factory = {});

// Every forecaster with every setting, as a JSON array (the value of the
// "forecasters" key of `irithyll models --json`).
std::string forecasters_json();

}  // namespace irithyll::timeseries
