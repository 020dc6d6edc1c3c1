// Runs one forecaster over a series given by tests/reference/timeseries_ref.py
// and writes what it forecast, for that script's statsmodels and NumPy
// comparisons. Skipped unless IRITHYLL_TS_JOB (the job file) and
// IRITHYLL_TS_DUMP (the output) are set.
//
// Job file, one record per line:
//   model NAME            set KEY VALUE (a table setting)
//   series v1 v2 ...      exo K then x v1 v2 ... (K values per step, flattened)
//   init L B s1 .. sm     (Holt-Winters: known time-0 states)   horizon H
// Dump (refdump.py's format): fitted = forecast(1) before each learn_one,
// forecast = the H steps after the series, init = Holt-Winters' time-0
// states, weights and intercept = SNARIMAX's regressor.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "irithyll/timeseries/forecasters.hpp"
#include "irithyll/timeseries/holt_winters.hpp"
#include "irithyll/timeseries/snarimax.hpp"

namespace irithyll::timeseries {
namespace {

void write(std::FILE* f, const char* key, const std::vector<double>& v) {
  std::fprintf(f, "%s %zu", key, v.size());
  for (double x : v) std::fprintf(f, " %.17g", x);
  std::fprintf(f, "\n");
}

TEST(ReferenceDump, RunJob) {
  const char* job = std::getenv("IRITHYLL_TS_JOB");
  const char* dump = std::getenv("IRITHYLL_TS_DUMP");
  if (job == nullptr || dump == nullptr) GTEST_SKIP() << "set IRITHYLL_TS_JOB and IRITHYLL_TS_DUMP to run a reference job";
  std::ifstream in(job);
  ASSERT_TRUE(in.good());
  std::string line, model;
  ModelSettings settings;
  std::vector<double> series, xs, init;
  std::size_t k = 0, horizon = 1;
  bool has_init = false;
  while (std::getline(in, line)) {
    std::istringstream ls(line);
    std::string key;
    ls >> key;
    double v = 0;
    if (key == "model") ls >> model;
    if (key == "set") {
      std::string name, value;
      ls >> name >> value;
      settings.set(name, value);
    }
    if (key == "series") while (ls >> v) series.push_back(v);
    if (key == "x") while (ls >> v) xs.push_back(v);
    if (key == "exo") ls >> k;
    if (key == "horizon") ls >> horizon;
    if (key == "init") {
      has_init = true;
      while (ls >> v) init.push_back(v);
    }
  }
  auto made = make_forecaster(model, settings);
  ASSERT_TRUE(made.is_ok()) << made.status().message();
  Forecaster& f = **made;
  std::FILE* out = std::fopen(dump, "w");
  ASSERT_NE(out, nullptr);
  if (auto* hw = dynamic_cast<HoltWinters*>(&f)) {
    HoltWintersStates st;
    if (has_init) {
      st.level = init.at(0);
      st.trend = init.at(1);
      st.seasonals.assign(init.begin() + 2, init.end());
      ASSERT_TRUE(hw->set_initial_states(st).is_ok());
    } else {
      const std::size_t w = holt_winters_warmup(hw->config());
      st = holt_winters_initial_states(hw->config(), std::span<const double>(series.data(), w));
    }
    std::vector<double> s0 = {st.level, st.trend};
    s0.insert(s0.end(), st.seasonals.begin(), st.seasonals.end());
    write(out, "init", s0);
  }
  std::vector<double> fitted(series.size());
  for (std::size_t t = 0; t < series.size(); ++t) {
    const std::span<const double> x = k ? std::span<const double>(xs.data() + t * k, k) : std::span<const double>{};
    ASSERT_TRUE(f.forecast(x, std::span<double>(&fitted[t], 1)).is_ok());
    ASSERT_TRUE(f.learn_one(series[t], x).is_ok());
  }
  write(out, "fitted", fitted);
  std::vector<double> ahead(horizon);
  const std::span<const double> future = k ? std::span<const double>(xs.data() + series.size() * k, horizon * k)
                                           : std::span<const double>{};
  ASSERT_TRUE(f.forecast(future, ahead).is_ok());
  write(out, "forecast", ahead);
  if (auto* sn = dynamic_cast<Snarimax*>(&f)) {
    write(out, "weights", std::vector<double>(sn->weights().begin(), sn->weights().end()));
    write(out, "intercept", {sn->intercept()});
  }
  std::fclose(out);
}

}  // namespace
}  // namespace irithyll::timeseries
