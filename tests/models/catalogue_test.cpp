// The catalogue's contract, walked row by row: every listed model builds with
// its defaults and learns; every numeric setting is accepted at both ends of
// its declared range and refused one step past each end, with a message that
// names the setting; choices accept each option and refuse others; the
// printed defaults read back; checkpoints decode through the catalogue.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <map>
#include <string>

#include "irithyll/catalogue.hpp"
#include "irithyll/model_file.hpp"

namespace irithyll {
namespace {

LearnerContext context_for(Task task) {
  // n_features 0: the learners size themselves on the first sample, so a
  // setting at the top of its range costs nothing until a sample arrives.
  return LearnerContext{task, task == Task::kClassification ? 3u : 0u, 0, 7};
}

Task first_task(const CatalogueEntry& e) { return e.regression ? Task::kRegression : Task::kClassification; }

// Settings whose range end only makes sense with a companion setting (a
// divisor rule across two rows): the test gives the companion too.
ModelSettings with_companions(std::string_view model, const FieldInfo& f, const std::string& value) {
  ModelSettings s{{std::string(f.name), value}};
  if (model == "slstm" && f.name == "heads") s.set("hidden", "1024");  // both ends divide 1024
  if (model == "slstm" && f.name == "hidden") s.set("heads", "1");
  return s;
}

std::string text(double v, bool integer) {
  return integer ? std::to_string(static_cast<long long>(v)) : format_field_real(v);
}

std::string past(double bound, bool open, bool integer, double direction) {
  if (open) return text(bound, integer);
  if (integer) return text(bound + direction, true);
  return format_field_real(std::nextafter(bound, direction * std::numeric_limits<double>::infinity()));
}

TEST(Catalogue, EveryModelBuildsWithDefaultsAndLearns) {
  for (const CatalogueEntry& e : catalogue()) {
    if (!e.listed) continue;
    for (Task task : {Task::kRegression, Task::kClassification}) {
      if (!e.supports(task)) continue;
      LearnerContext ctx{task, task == Task::kClassification ? 2u : 0u, 4, 11};
      auto m = make_learner(e.name, {}, ctx);
      ASSERT_TRUE(m.is_ok()) << e.name << ": " << m.status().to_string();
      EXPECT_EQ((*m)->name(), e.name);
      std::vector<double> x(4);
      for (int i = 0; i < 300; ++i) {
        for (std::size_t j = 0; j < x.size(); ++j) x[j] = std::sin(0.1 * i + static_cast<double>(j));
        (*m)->learn_one(x, task == Task::kClassification ? (x[0] > 0 ? 1.0 : 0.0) : x[0] + x[1]);
      }
      EXPECT_TRUE(std::isfinite((*m)->predict_one(x))) << e.name;
      EXPECT_EQ((*m)->n_samples_seen(), 300u) << e.name;
      // Checkpoints decode through the catalogue's blank instance and keep predicting alike.
      auto back = decode_learner(encode_learner(**m));
      ASSERT_TRUE(back.is_ok()) << e.name << ": " << back.status().to_string();
      EXPECT_EQ((*back)->predict_one(x), (*m)->predict_one(x)) << e.name;
      // The learner reports the settings it was built with, and they rebuild it.
      const ModelSettings settings = e.settings_of(**m);
      EXPECT_EQ(settings.items().size(), e.fields().size()) << e.name;
      EXPECT_TRUE(make_learner(e.name, settings, ctx).is_ok()) << e.name;
    }
  }
}

TEST(Catalogue, EverySettingAtItsEndsAndOnePast) {
  int checked = 0;
  for (const CatalogueEntry& e : catalogue()) {
    if (!e.listed) continue;
    const Task task = first_task(e);
    const LearnerContext ctx = context_for(task);
    for (const FieldInfo& f : e.fields()) {
      SCOPED_TRACE(std::string(e.name) + " --" + std::string(f.name));
      // The printed default is accepted.
      EXPECT_TRUE(make_learner(e.name, {{std::string(f.name), std::string(f.default_value)}}, ctx).is_ok());
      if (f.type == FieldType::kChoice) {
        std::string_view rest = f.choices;
        while (!rest.empty()) {
          const std::size_t bar = rest.find('|');
          const std::string option(rest.substr(0, bar));
          // Every choice `models --json` lists builds with the other settings
          // at their defaults: a row lists only the values it accepts.
          auto m = make_learner(e.name, {{std::string(f.name), option}}, ctx);
          EXPECT_TRUE(m.is_ok()) << option << ": " << m.status().message();
          if (bar == std::string_view::npos) break;
          rest.remove_prefix(bar + 1);
        }
        auto bad = make_learner(e.name, {{std::string(f.name), "no-such-choice"}}, ctx);
        ASSERT_FALSE(bad.is_ok());
        EXPECT_NE(bad.status().message().find(std::string(f.name)), std::string::npos) << bad.status().message();
        ++checked;
        continue;
      }
      if (f.type != FieldType::kInt && f.type != FieldType::kReal) continue;
      const bool integer = f.type == FieldType::kInt;
      for (const double direction : {-1.0, 1.0}) {
        const double bound = direction < 0 ? f.lo : f.hi;
        const bool open = direction < 0 ? f.lo_open : f.hi_open;
        if (!std::isfinite(bound)) continue;
        if (!open) {
          const std::string at = text(bound, integer);
          auto m = make_learner(e.name, with_companions(e.name, f, at), ctx);
          EXPECT_TRUE(m.is_ok()) << "at " << at << ": " << m.status().to_string();
        }
        const std::string beyond = past(bound, open, integer, direction);
        if (f.zero_is_off && std::stod(beyond) == 0.0) continue;  // 0 means off, and is allowed
        auto m = make_learner(e.name, with_companions(e.name, f, beyond), ctx);
        ASSERT_FALSE(m.is_ok()) << "accepted " << beyond;
        const std::string& msg = m.status().message();
        EXPECT_NE(msg.find(std::string(f.name) + " = " + beyond), std::string::npos) << msg;
        EXPECT_NE(msg.find("out of range"), std::string::npos) << msg;
        ++checked;
      }
    }
  }
  EXPECT_GT(checked, 100);
}

TEST(Catalogue, UnknownModelsAndSettingsAreNamed) {
  auto m = make_learner("no-such-model", {}, {});
  ASSERT_FALSE(m.is_ok());
  EXPECT_NE(m.status().message().find("sgbt"), std::string::npos);
  auto s = make_learner("sgbt", {{"learning_rat", "0.1"}}, {});
  ASSERT_FALSE(s.is_ok());
  EXPECT_NE(s.status().message().find("learning_rat"), std::string::npos);
  EXPECT_NE(s.status().message().find("learning-rate"), std::string::npos);  // the known names are listed
  auto nan = make_learner("sgbt", {{"learning-rate", "nan"}}, {});
  EXPECT_FALSE(nan.is_ok());
  auto cls = make_learner("sgbt", {}, LearnerContext{Task::kClassification, 1, 2, 1});
  EXPECT_FALSE(cls.is_ok());  // one class is not a classification problem
}

TEST(Catalogue, PythonSpellingAndTableOrder) {
  // Underscores name the same setting; "drift" applies before "drift-delta"
  // whatever order they are given in.
  auto m = make_learner("sgbt", {{"drift_delta", "0.01"}, {"drift", "adwin"}}, {});
  ASSERT_TRUE(m.is_ok()) << m.status().to_string();
  const ModelSettings s = find_model("sgbt")->settings_of(**m);
  std::map<std::string, std::string> by_name(s.items().begin(), s.items().end());
  EXPECT_EQ(by_name["drift"], "adwin");
  EXPECT_EQ(by_name["drift-delta"], "0.01");
}

TEST(Catalogue, JsonListsEveryModelAndSetting) {
  const std::string json = catalogue_json();
  for (const CatalogueEntry& e : catalogue()) {
    if (!e.listed) {
      EXPECT_EQ(json.find("\"name\":\"" + std::string(e.name) + "\""), std::string::npos);
      continue;
    }
    EXPECT_NE(json.find("\"name\":\"" + std::string(e.name) + "\""), std::string::npos) << e.name;
    for (const FieldInfo& f : e.fields())
      EXPECT_NE(json.find("\"python_name\":\"" + f.python_name() + "\""), std::string::npos) << f.name;
  }
}

TEST(Catalogue, DecodesEveryKindByName) {
  for (const CatalogueEntry& e : catalogue()) EXPECT_NE(make_blank_learner(e.name), nullptr) << e.name;
  EXPECT_EQ(make_blank_learner("nope"), nullptr);
}

}  // namespace
}  // namespace irithyll
