// Electricity round trip: an SGBT trained here on elec.csv (binary, logistic
// raw margin), exported to both packed formats. For every one of the 45,312
// rows the f32 file must equal the trained model's own raw margin to f32
// rounding, and the int16 file must stay within the derived quantisation
// bound (docs/format-i16.md) for every row whose path quantisation leaves
// unchanged, with such rows the overwhelming majority.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "irithyll/ensemble/sgbt_learner.hpp"
#include "irithyll/packed/exporter.hpp"
#include "irithyll/packed/packed_model.hpp"
#include "support/shared_data.hpp"

namespace irithyll {
namespace {

TEST(PackedElectricity, TrainedSgbtRoundTripsThroughBothFormats) {
  IRITHYLL_REQUIRE_SHARED("datasets/elec.csv");
  std::ifstream in(testing::shared_path("datasets/elec.csv"));
  std::string line, cell;
  std::getline(in, line);
  std::vector<float> rows;
  std::vector<double> labels;
  while (std::getline(in, line)) {
    std::stringstream ss(line);
    for (int i = 0; i < 6; ++i) {
      std::getline(ss, cell, ',');
      rows.push_back(std::strtof(cell.c_str(), nullptr));  // the packed formats read f32 features
    }
    std::getline(ss, cell, ',');
    labels.push_back(std::strtod(cell.c_str(), nullptr));
  }
  const std::size_t n = labels.size();
  ASSERT_EQ(n, 45312u);

  SGBTConfig config;
  config.n_steps = 50;
  config.learning_rate = 0.1;
  auto made = SGBTLearner::make(config, {.task = Task::kClassification, .n_classes = 2, .seed = config.seed});
  ASSERT_TRUE(made.is_ok()) << made.status().to_string();
  SGBTLearner& model = **made;
  std::vector<double> x(6);
  for (std::size_t r = 0; r < n; ++r) {
    for (int f = 0; f < 6; ++f) x[f] = rows[r * 6 + f];
    model.learn_one(x, labels[r]);
  }
  ASSERT_EQ(model.n_committees(), 1u);
  const ExportModel em = model.export_model(0);
  auto f32 = packed::PackedModel::from_bytes(packed::export_f32(em).value());
  auto i16 = packed::PackedModel::from_bytes(packed::export_i16(em).value());
  ASSERT_TRUE(f32.is_ok() && i16.is_ok());
  ASSERT_GT(f32->info().total_nodes, f32->info().n_trees) << "expected trees with splits";

  const double leaf_scale = packed::i16_leaf_scale(em);
  const double leaf_bound = static_cast<double>(em.trees.size()) / leaf_scale;
  std::vector<float> pf(n), pi(n);
  ASSERT_TRUE(f32->predict_batch(rows, 6, pf).is_ok());
  ASSERT_TRUE(i16->predict_batch(rows, 6, pi).is_ok());
  double raw[1];
  double max_f32_err = 0.0, max_i16_err_same_path = 0.0;
  std::size_t rerouted = 0;
  for (std::size_t r = 0; r < n; ++r) {
    for (int f = 0; f < 6; ++f) x[f] = rows[r * 6 + f];
    model.predict_raw(x, raw);
    // f32 rounding only: 50 leaf additions and the base, each within half an
    // ulp of a running sum of magnitude < 8 (51 * 2^-24 * 8 < 2.5e-5).
    const double e = std::fabs(pf[r] - raw[0]);
    max_f32_err = std::fmax(max_f32_err, e);
    const double ei = std::fabs(static_cast<double>(pi[r]) - pf[r]);
    if (ei > leaf_bound + 1e-4)
      ++rerouted;
    else
      max_i16_err_same_path = std::fmax(max_i16_err_same_path, ei);
  }
  EXPECT_LT(max_f32_err, 1e-5);  // the Rust library's export tolerance (DEFAULT_TOLERANCE)
  EXPECT_LE(max_i16_err_same_path, leaf_bound + 1e-4);
  EXPECT_LT(static_cast<double>(rerouted) / static_cast<double>(n), 0.02) << rerouted << " rows rerouted";
  std::printf("[ info ] f32 max |err| %.3g; int16 bound %.3g, max same-path err %.3g, rerouted rows %zu of %zu\n",
              max_f32_err, leaf_bound, max_i16_err_same_path, rerouted, n);
}

}  // namespace
}  // namespace irithyll
