// The field table is the one source of a setting's default: for every row of
// every registry that `irithyll models --json` prints (learners, forecasters,
// anomaly detectors), the printed "default" equals the value a blank model
// (a default-constructed config) reports for that setting. A default edited
// in the struct but not in the table, or the reverse, fails here.
#include <gtest/gtest.h>

#include <map>
#include <string>

#include "irithyll/anomaly/registry.hpp"
#include "irithyll/catalogue.hpp"
#include "irithyll/timeseries/forecasters.hpp"

namespace irithyll {
namespace {

// The part of `json` that holds the parameters of the entry named `name`.
std::string parameters_of(const std::string& json, std::string_view name) {
  const std::string head = "{\"name\":\"" + std::string(name) + "\",\"description\":";
  const std::size_t at = json.find(head);
  if (at == std::string::npos) return {};
  const std::size_t params = json.find("\"parameters\":[", at);
  if (params == std::string::npos) return {};
  const std::size_t next = json.find(",\"description\":", params);  // the next entry's; fields have none
  return json.substr(params, next == std::string::npos ? std::string::npos : next - params);
}

// The JSON string at `at` ("..." with \" and \\ escapes), unescaped.
std::string json_string_at(const std::string& json, std::size_t at) {
  std::string out;
  if (at >= json.size() || json[at] != '"') return out;
  for (std::size_t i = at + 1; i < json.size() && json[i] != '"'; ++i) {
    if (json[i] == '\\' && i + 1 < json.size()) ++i;
    out += json[i];
  }
  return out;
}

// Checks each printed default of one entry against the blank model's value:
// the same number for a real ("0.0001" prints the value "1e-04" reads back
// as), the same text for every other type.
void expect_printed_defaults(const std::string& json, std::string_view name, std::span<const FieldInfo> fields,
                             const ModelSettings& blank) {
  SCOPED_TRACE(std::string(name));
  const std::string block = parameters_of(json, name);
  ASSERT_FALSE(block.empty()) << "no parameters printed";
  std::map<std::string, std::string, std::less<>> value(blank.items().begin(), blank.items().end());
  EXPECT_EQ(value.size(), fields.size()) << "the blank model reports another set of settings than its table";
  for (const FieldInfo& f : fields) {
    const auto it = value.find(f.name);
    ASSERT_NE(it, value.end()) << "the blank model does not report --" << f.name;
    const std::string key = "{\"name\":\"" + std::string(f.name) + "\",\"python_name\":\"" + f.python_name() +
                            "\",\"type\":\"" + std::string(field_type_name(f.type)) + "\",\"default\":";
    const std::size_t at = block.find(key);
    ASSERT_NE(at, std::string::npos) << "--" << f.name << " is not printed";
    const std::string printed = json_string_at(block, at + key.size());
    if (f.type == FieldType::kReal) {
      const auto a = parse_field_real(f.name, printed), b = parse_field_real(f.name, it->second);
      ASSERT_TRUE(a.is_ok() && b.is_ok()) << "--" << f.name << ": '" << printed << "', '" << it->second << "'";
      EXPECT_EQ(*a, *b) << "--" << f.name << ": printed default " << printed << ", a blank config holds "
                        << it->second;
    } else {
      EXPECT_EQ(printed, it->second) << "--" << f.name;
    }
  }
}

TEST(PrintedDefaults, EveryLearnerSettingIsTheBlankConfigsValue) {
  const std::string json = catalogue_json();
  int rows = 0;
  for (const CatalogueEntry& e : catalogue()) {
    if (!e.listed) continue;
    auto blank = e.make_blank();
    ASSERT_NE(blank, nullptr) << e.name;
    expect_printed_defaults(json, e.name, e.fields(), e.settings_of(*blank));
    ++rows;
  }
  EXPECT_GT(rows, 30);
}

TEST(PrintedDefaults, EveryForecasterSettingIsTheBlankConfigsValue) {
  const std::string json = timeseries::forecasters_json();
  for (const timeseries::ForecasterEntry& e : timeseries::forecasters()) {
    auto blank = e.make_blank({});
    ASSERT_NE(blank, nullptr) << e.name;
    expect_printed_defaults(json, e.name, e.fields(), e.settings_of(*blank));
  }
}

TEST(PrintedDefaults, EveryAnomalyDetectorSettingIsTheBlankConfigsValue) {
  const std::string json = anomaly_catalogue_json();
  for (const AnomalyEntry& e : anomaly_catalogue()) {
    auto blank = e.make_blank();
    ASSERT_NE(blank, nullptr) << e.name;
    expect_printed_defaults(json, e.name, e.fields(), e.settings_of(*blank));
  }
}

}  // namespace
}  // namespace irithyll
