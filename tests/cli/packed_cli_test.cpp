// End-to-end tests of `irithyll predict / export / inspect` on packed models:
// runs build/irithyll through popen and checks stdout, stderr and exit codes.
#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "core/file_io.hpp"
#include "irithyll/ensemble/sgbt_learner.hpp"
#include "irithyll/model_file.hpp"
#include "irithyll/packed/packed_model.hpp"
#include "support/cli_runner.hpp"
#include "support/shared_data.hpp"

namespace {

// The shared runner: per-process stderr and temp files, since ctest runs
// these tests as parallel processes.
struct CliRun {
  int code = -1;
  std::string out;
};

CliRun run_cli(const std::string& args, std::string* err = nullptr) {
  irithyll::testing::CliRun r = irithyll::testing::run_cli(args);
  if (err) *err = r.err;
  return CliRun{r.code, std::move(r.out)};
}

std::string temp_file(const std::string& name, const std::string& text) {
  return irithyll::testing::write_temp_file(name, text);
}

std::vector<std::string> lines(const std::string& s) {
  std::vector<std::string> v;
  std::stringstream ss(s);
  for (std::string l; std::getline(ss, l);) v.push_back(l);
  return v;
}

TEST(PackedCli, PredictReproducesTheOriginalOnElectricity) {
  IRITHYLL_REQUIRE_SHARED("interop/elec_50t_d6_lr0.1.bin");
  IRITHYLL_REQUIRE_SHARED("datasets/elec8.csv");
  const std::string data = irithyll::testing::shared_path("datasets/elec8.csv");
  std::ifstream exp(irithyll::testing::shared_path("interop/elec_50t_d6_lr0.1.expected.csv"));
  std::vector<float> want_f32, want_i16;
  std::string l;
  std::getline(exp, l);
  while (std::getline(exp, l)) {
    std::stringstream ss(l);
    std::string c;
    std::getline(ss, c, ',');
    std::getline(ss, c, ',');
    want_f32.push_back(std::strtof(c.c_str(), nullptr));
    std::getline(ss, c, ',');
    want_i16.push_back(std::strtof(c.c_str(), nullptr));
  }
  for (const auto& [file, want] : {std::pair{"elec_50t_d6_lr0.1.bin", &want_f32}, std::pair{"elec_50t_d6_lr0.1_i16.bin", &want_i16}}) {
    const CliRun r = run_cli("predict --model " + irithyll::testing::shared_path(std::string("interop/") + file) +
                          " --data " + data);
    ASSERT_EQ(r.code, 0) << file;
    const auto got = lines(r.out);
    ASSERT_EQ(got.size(), want->size());
    std::size_t bad = 0;
    for (std::size_t i = 0; i < got.size(); ++i) bad += std::strtof(got[i].c_str(), nullptr) != (*want)[i];
    EXPECT_EQ(bad, 0u) << file;  // %.9g round-trips f32 exactly
  }
}

TEST(PackedCli, InspectDescribesTheModel) {
  IRITHYLL_REQUIRE_SHARED("interop/elec_50t_d6_lr0.1_i16.bin");
  const CliRun r = run_cli("inspect " + irithyll::testing::shared_path("interop/elec_50t_d6_lr0.1_i16.bin"));
  ASSERT_EQ(r.code, 0);
  EXPECT_NE(r.out.find("int16 (IR16)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("trees: 50"), std::string::npos);
  EXPECT_NE(r.out.find("nodes: 2776"), std::string::npos);
  EXPECT_NE(r.out.find("bytes: 22660"), std::string::npos);
  EXPECT_NE(r.out.find("depth histogram"), std::string::npos);
  EXPECT_NE(r.out.find("features used"), std::string::npos);
}

TEST(PackedCli, ErrorsAreOneLineWithLocation) {
  IRITHYLL_REQUIRE_SHARED("interop/elec_50t_d6_lr0.1.bin");
  const std::string model = irithyll::testing::shared_path("interop/elec_50t_d6_lr0.1.bin");
  // A non-numeric cell inside the first 8 columns names file:line:column.
  const std::string bad = temp_file("packed_bad.csv", "a,b,c,d,e,f,g,h,class\n1,2,3,4,5,6,7,8,UP\n1,2,x3,4,5,6,7,8,UP\n");
  std::string err;
  CliRun r = run_cli("predict --model " + model + " --data " + bad, &err);
  EXPECT_NE(r.code, 0);
  EXPECT_NE(err.find(bad + ":3:3: not a number: 'x3'"), std::string::npos) << err;
  EXPECT_EQ(lines(err).size(), 1u);
  // Cells after the features are ignored; a short row is an error.
  const std::string ok = temp_file("packed_ok.csv", "a,b,c,d,e,f,g,h,class,note\n0,0,0,0,0,0,0,0,DOWN,zz\n");
  r = run_cli("predict --model " + model + " --data " + ok);
  EXPECT_EQ(r.code, 0);
  EXPECT_EQ(lines(r.out).size(), 1u);
  const std::string short_row = temp_file("packed_short.csv", "h\n0,0,0\n");
  r = run_cli("predict --model " + model + " --data " + short_row, &err);
  EXPECT_NE(r.code, 0);
  EXPECT_NE(err.find(":2:"), std::string::npos) << err;
  // A corrupt model names the reason.
  const std::string corrupt = temp_file("packed_corrupt.bin", "IRIT\x02");
  r = run_cli("inspect " + corrupt, &err);
  EXPECT_NE(r.code, 0);
  EXPECT_NE(err.find("truncated"), std::string::npos) << err;
  r = run_cli("predict --data " + ok, &err);
  EXPECT_NE(r.code, 0);
  EXPECT_EQ(lines(err).size(), 1u);
}

TEST(PackedCli, BenchPrintsOneJsonObject) {
  IRITHYLL_REQUIRE_SHARED("interop/elec_50t_d6_lr0.1.bin");
  std::string text = "a,b,c,d,e,f,g,h,class\n";
  for (int i = 0; i < 50; ++i) text += "0.1,2,0.3,0.05,0.4,0.003,0.4,0.4,UP\n";
  const std::string data = temp_file("packed_bench.csv", text);
  const CliRun r = run_cli("predict --bench --model " + irithyll::testing::shared_path("interop/elec_50t_d6_lr0.1.bin") +
                        " --data " + data);
  ASSERT_EQ(r.code, 0);
  ASSERT_EQ(lines(r.out).size(), 1u);
  EXPECT_EQ(r.out.front(), '{');
  EXPECT_NE(r.out.find("\"single_ns_per_pred\""), std::string::npos);
  EXPECT_NE(r.out.find("\"batch_ns_per_pred\""), std::string::npos);
}

// A small SGBT trained here, checkpointed, exported through the CLI in both
// formats and predicted three ways: the f32 file must equal the checkpoint's
// raw margin to f32 rounding.
TEST(PackedCli, ExportFromCheckpointRoundTrips) {
  irithyll::SGBTConfig config;
  auto made = irithyll::SGBTLearner::make(config, {.task = irithyll::Task::kRegression, .seed = config.seed});
  ASSERT_TRUE(made.is_ok()) << made.status().to_string();
  irithyll::SGBTLearner& learner = **made;
  irithyll::Xorshift64 rng(11);
  std::string csv = "x0,x1,x2,y\n";
  for (int i = 0; i < 3000; ++i) {
    const double x[3] = {rng.uniform(-1, 1), rng.uniform(-1, 1), rng.uniform(-1, 1)};
    const double y = 3 * x[0] - 2 * x[1] * x[1] + (x[2] > 0 ? 1.0 : -1.0);
    learner.learn_one(x, y);
    if (i % 10 == 0) {
      char row[128];
      std::snprintf(row, sizeof row, "%.9g,%.9g,%.9g,%.9g\n", static_cast<float>(x[0]), static_cast<float>(x[1]),
                    static_cast<float>(x[2]), y);
      csv += row;
    }
  }
  const std::string ckpt = irithyll::testing::temp_path("packed_cli_sgbt.ckpt");
  ASSERT_TRUE(irithyll::save_learner(ckpt, learner).is_ok());
  const std::string data = temp_file("packed_cli_sgbt.csv", csv);
  const std::string f32 = irithyll::testing::temp_path("packed_cli_sgbt.bin");
  const std::string i16 = irithyll::testing::temp_path("packed_cli_sgbt_i16.bin");
  ASSERT_EQ(run_cli("export --checkpoint " + ckpt + " --format f32 --out " + f32).code, 0);
  ASSERT_EQ(run_cli("export --checkpoint " + ckpt + " --format i16 --out " + i16).code, 0);
  const auto full = lines(run_cli("predict --checkpoint " + ckpt + " --data " + data).out);
  const auto pf = lines(run_cli("predict --model " + f32 + " --data " + data).out);
  const auto pi = lines(run_cli("predict --model " + i16 + " --data " + data).out);
  ASSERT_EQ(full.size(), 300u);
  ASSERT_EQ(pf.size(), full.size());
  ASSERT_EQ(pi.size(), full.size());
  for (std::size_t i = 0; i < full.size(); ++i) {
    const double a = std::strtod(full[i].c_str(), nullptr), b = std::strtod(pf[i].c_str(), nullptr);
    EXPECT_NEAR(a, b, 1e-5 * (1 + std::abs(a))) << "row " << i;
  }
  std::string err;
  EXPECT_NE(run_cli("export --checkpoint " + data + " --format f32 --out " + f32, &err).code, 0);
  EXPECT_EQ(lines(err).size(), 1u);
}

}  // namespace
