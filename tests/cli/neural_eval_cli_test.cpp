// End-to-end tests of the neural rows of `irithyll eval --model NAME` through
// the built binary, on the built-in Friedman #1 regression stream (10 uniform
// features, y = 10 sin(pi x1 x2) + 20 (x3 - 1/2)^2 + 10 x4 + 5 x5 + N(0, 1)).
//
// Per row: exit 0 with --json, finite metrics, and a prequential error better
// than the trivial baseline. The baseline is the running mean, whose r2 is
// about 0 (slightly below, as it is itself learned online); a linear fit
// reaches r2 ~0.75 on this stream, and every recurrent row carries a linear
// readout, so the budget is r2 > 0.4 over all 3000 samples and > 0.55 over the
// rolling last 1000 (each row measured at 0.55-0.82 / 0.72-0.88 at seed 42;
// the spiking row's own budget is set out beside it). Then --save at 1500 and
// --load --skip 1500 must reproduce the uninterrupted run's predictions file
// byte for byte, and a bad value of one of the row's options must fail with a
// message naming it and a non-zero exit.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <string>

#include "support/cli_runner.hpp"

namespace irithyll::testing {
namespace {

struct Row {
  const char* model;
  const char* options;      // extra options for the learning runs
  double min_r2;            // cumulative over all samples
  double min_rolling_r2;    // last 1000 samples
  const char* bad_option;   // an invalid value of one of the row's options
  const char* bad_message;  // what stderr must mention
};

void PrintTo(const Row& r, std::ostream* os) { *os << r.model; }

// Value of "key": in the JSON text after position `from` (NaN if absent).
double json_number(const std::string& json, const std::string& key, std::size_t from = 0) {
  const std::size_t at = json.find("\"" + key + "\":", from);
  if (at == std::string::npos) return std::nan("");
  return std::strtod(json.c_str() + at + key.size() + 3, nullptr);
}

class NeuralEvalCli : public ::testing::TestWithParam<Row> {
 protected:
  std::string base(int samples) const {
    return std::string("eval --stream friedman --seed 42 --quiet --model ") + GetParam().model + " " + GetParam().options +
           " --max-samples " + std::to_string(samples);
  }
  std::string file(const std::string& what) const { return temp_path(std::string(GetParam().model) + "_" + what); }
};

TEST_P(NeuralEvalCli, JsonRunIsFiniteAndBeatsTheMeanBaseline) {
  const Row& row = GetParam();
  auto r = run_cli(base(3000) + " --json");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find(std::string("\"learner\":\"") + row.model + "\""), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\"samples\":3000"), std::string::npos) << r.out;
  const double mae = json_number(r.out, "mae"), rmse = json_number(r.out, "rmse"), r2 = json_number(r.out, "r2");
  const std::size_t rolling = r.out.find("\"rolling\"");
  ASSERT_NE(rolling, std::string::npos) << r.out;
  const double rolling_r2 = json_number(r.out, "r2", rolling);
  for (double v : {mae, rmse, r2, rolling_r2}) EXPECT_TRUE(std::isfinite(v)) << r.out;
  EXPECT_GT(r2, row.min_r2) << r.out;
  EXPECT_GT(rolling_r2, row.min_rolling_r2) << r.out;
  EXPECT_GT(json_number(r.out, "model_bytes"), 0.0);
}

TEST_P(NeuralEvalCli, SaveThenLoadResumesBitIdentically) {
  const std::string full = file("full.txt"), ckpt = file("half.ckpt"), rest = file("rest.txt");
  auto a = run_cli(base(3000) + " --predictions " + full);
  ASSERT_EQ(a.code, 0) << a.err;
  auto s = run_cli(base(1500) + " --save " + ckpt);
  ASSERT_EQ(s.code, 0) << s.err;
  // The checkpoint carries the model's options; only the stream is re-given.
  auto l = run_cli("eval --stream friedman --seed 42 --quiet --load " + ckpt + " --skip 1500 --max-samples 1500 --predictions " + rest);
  ASSERT_EQ(l.code, 0) << l.err;
  const auto whole = split_lines(read_text_file(full)), tail = split_lines(read_text_file(rest));
  ASSERT_EQ(whole.size(), 3000u);
  ASSERT_EQ(tail.size(), 1500u);
  for (std::size_t i = 0; i < tail.size(); ++i) ASSERT_EQ(whole[1500 + i], tail[i]) << "prediction " << i << " after resuming";
  for (const auto& p : {full, ckpt, rest}) std::remove(p.c_str());
}

TEST_P(NeuralEvalCli, BadOptionValueFailsWithAClearMessage) {
  const Row& row = GetParam();
  auto r = run_cli(std::string("eval --stream friedman --max-samples 100 --quiet --model ") + row.model + " " + row.bad_option);
  EXPECT_NE(r.code, 0);
  EXPECT_NE(r.err.find(row.bad_message), std::string::npos) << r.err;
  EXPECT_TRUE(r.out.empty() || r.out.find("\"samples\"") == std::string::npos) << r.out;
  auto junk = run_cli(std::string("eval --stream friedman --max-samples 100 --quiet --model ") + row.model + " --seed notanumber");
  EXPECT_NE(junk.code, 0);
  EXPECT_NE(junk.err.find("--seed"), std::string::npos) << junk.err;
}

const Row kRows[] = {
    {"attention", "", 0.4, 0.55, "--mode nosuchmode", "nosuchmode"},
    {"loglinear", "", 0.4, 0.55, "--loglinear-levels 0", "levels"},
    {"mamba", "", 0.4, 0.55, "--mamba-version v9", "version = 'v9'"},
    {"slstm", "", 0.4, 0.55, "--slstm-heads 5", "heads"},
    {"lstm", "", 0.4, 0.55, "--hidden 0", "hidden = 0 is out of range"},
    {"mgrade", "", 0.4, 0.55, "--mgrade-taps 0", "taps"},
    {"esn", "", 0.4, 0.55, "--esn-leak 2", "leak"},
    {"ngrc", "", 0.4, 0.55, "--ngrc-degree 7", "degree"},
    {"spikenet", "", 0.4, 0.55, "--spikenet-readout banana", "readout = 'banana'"},
    // The integer e-prop readout is checked for finiteness, resume and option
    // errors but held to no error budget: a delta encoder reports only
    // changes, so on Friedman's independent samples the network cannot see the
    // features' levels and does not beat the mean (r2 -0.1 to -0.3 measured).
    {"spikenet", "--spikenet-readout eprop --spikenet-target-scale 0.05 --spikenet-eta-out 1638", -1e9, -1e9,
     "--spikenet-hidden 0", "hidden = 0 is out of range"},
};

INSTANTIATE_TEST_SUITE_P(Rows, NeuralEvalCli, ::testing::ValuesIn(kRows),
                         [](const ::testing::TestParamInfo<Row>& p) {
                           return std::string(p.param.model) + (p.param.min_r2 < -1.0 ? "_integer_readout" : "");
                         });

}  // namespace
}  // namespace irithyll::testing
