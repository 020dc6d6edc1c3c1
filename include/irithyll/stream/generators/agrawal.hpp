// Agrawal loan-applicant stream (Agrawal, Imielinski & Swami, "Database
// mining: a performance perspective", IEEE TKDE 1993): nine attributes of a
// person and ten classification functions that decide group A (class 0) or
// group B (class 1). Drift = switching to another function at given
// positions (abrupt), as in MOA's concept-drift streams built on it.
//
// Attributes, in order (integers stored as doubles):
//   salary     uniform [20000, 150000]
//   commission 0 if salary >= 75000, else uniform [10000, 75000]
//   age        integer uniform [20, 80]
//   elevel     integer uniform [0, 4]        (education level)
//   car        integer uniform [1, 20]       (make of car)
//   zipcode    integer uniform [0, 8]
//   hvalue     (9 - zipcode) * 100000 * uniform [0.5, 1.5]
//   hyears     integer uniform [1, 30]
//   loan       uniform [0, 500000]
// The functions follow the paper's table (its 0.67 for two thirds in
// functions 7-10 included). As defined there, functions 8 and 10 put only a
// few percent of samples in group B; this generator does not rebalance. Perturbation p > 0 adds, after the label is
// decided, uniform noise of +-p times each numeric attribute's range to
// salary, commission (when non-zero), age, hvalue, hyears and loan, clipped
// to the range (integers rounded): the label then no longer follows exactly.
//
// Cost per sample: ~10 uniform draws. Not thread-safe.
#pragma once

#include <utility>
#include <vector>

#include "irithyll/stream/generators/generator.hpp"

namespace irithyll {

struct AgrawalConfig {
  int function = 1;  // 1..10, in force from sample 0
  // (position, function): from that sample on, use that function. Positions
  // strictly increasing.
  std::vector<std::pair<std::uint64_t, int>> drifts;
  double perturbation = 0.0;  // [0, 1]
  std::optional<std::uint64_t> n_samples;
};

class AgrawalGenerator final : public GeneratorStream {
 public:
  static constexpr std::size_t kFeatures = 9;
  static Status validate(const AgrawalConfig& config);
  // REQUIRES: validate(config) is OK.
  AgrawalGenerator(const AgrawalConfig& config, std::uint64_t seed);

  // Function `function` (1..10) applied to an unperturbed attribute vector.
  static int classify(int function, std::span<const double> x);
  // Function in force for sample number t.
  int function_at(std::uint64_t t) const;

 private:
  void generate(std::span<double> x, double& y) override;
  AgrawalConfig config_;
};

}  // namespace irithyll
