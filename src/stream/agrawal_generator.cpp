#include "irithyll/stream/generators/agrawal.hpp"

#include <algorithm>
#include <cmath>

namespace irithyll {
namespace {

enum Attr { kSalary, kCommission, kAge, kElevel, kCar, kZipcode, kHvalue, kHyears, kLoan };

bool in(double v, double lo, double hi) { return v >= lo && v <= hi; }

// Group A (class 0) when the predicate holds.
bool group_a(int function, std::span<const double> x) {
  const double salary = x[kSalary], commission = x[kCommission], age = x[kAge], elevel = x[kElevel],
               hvalue = x[kHvalue], hyears = x[kHyears], loan = x[kLoan];
  const bool young = age < 40, middle = age >= 40 && age < 60;
  switch (function) {
    case 1:
      return young || age >= 60;
    case 2:
      return young ? in(salary, 50000, 100000) : middle ? in(salary, 75000, 125000) : in(salary, 25000, 75000);
    case 3:
      return young ? elevel <= 1 : middle ? in(elevel, 1, 3) : elevel >= 2;
    case 4:
      if (young) return elevel <= 1 ? in(salary, 25000, 75000) : in(salary, 50000, 100000);
      if (middle) return in(elevel, 1, 3) ? in(salary, 50000, 100000) : in(salary, 75000, 125000);
      return elevel >= 2 ? in(salary, 50000, 100000) : in(salary, 25000, 75000);
    case 5:
      if (young) return in(salary, 50000, 100000) ? in(loan, 100000, 300000) : in(loan, 200000, 400000);
      if (middle) return in(salary, 75000, 125000) ? in(loan, 200000, 400000) : in(loan, 300000, 500000);
      return in(salary, 25000, 75000) ? in(loan, 300000, 500000) : in(loan, 100000, 300000);
    case 6: {
      const double total = salary + commission;
      return young ? in(total, 50000, 100000) : middle ? in(total, 75000, 125000) : in(total, 25000, 75000);
    }
    case 7:
      return 0.67 * (salary + commission) - 0.2 * loan - 20000 > 0;
    case 8:
      return 0.67 * (salary + commission) - 5000 * elevel - 20000 > 0;
    case 9:
      return 0.67 * (salary + commission) - 5000 * elevel - 0.2 * loan - 10000 > 0;
    default: {
      const double equity = hyears >= 20 ? 0.1 * hvalue * (hyears - 20) : 0.0;
      return 0.67 * (salary + commission) - 5000 * elevel + 0.2 * equity - 10000 > 0;
    }
  }
}

}  // namespace

Status AgrawalGenerator::validate(const AgrawalConfig& config) {
  auto bad_function = [](int f) { return f < 1 || f > 10; };
  if (bad_function(config.function)) return Status::invalid_argument("agrawal: function must be in 1..10");
  for (std::size_t i = 0; i < config.drifts.size(); ++i) {
    if (bad_function(config.drifts[i].second)) return Status::invalid_argument("agrawal: drift function must be in 1..10");
    if (i > 0 && config.drifts[i].first <= config.drifts[i - 1].first)
      return Status::invalid_argument("agrawal: drift positions must be strictly increasing");
  }
  if (!(config.perturbation >= 0.0 && config.perturbation <= 1.0))
    return Status::invalid_argument("agrawal: perturbation must be in [0, 1]");
  return Status::ok();
}

AgrawalGenerator::AgrawalGenerator(const AgrawalConfig& config, std::uint64_t seed)
    : GeneratorStream(Schema{{"salary", "commission", "age", "elevel", "car", "zipcode", "hvalue", "hyears", "loan"},
                             "class",
                             Task::kClassification,
                             numbered_class_names(2)},
                      seed, config.n_samples),
      config_(config) {}

int AgrawalGenerator::classify(int function, std::span<const double> x) { return group_a(function, x) ? 0 : 1; }

int AgrawalGenerator::function_at(std::uint64_t t) const {
  int f = config_.function;
  for (const auto& [position, function] : config_.drifts) {
    if (t < position) break;
    f = function;
  }
  return f;
}

void AgrawalGenerator::generate(std::span<double> x, double& y) {
  auto integer = [this](int lo, int hi) {
    return static_cast<double>(lo + static_cast<int>(rng_.below(static_cast<std::uint64_t>(hi - lo + 1))));
  };
  x[kSalary] = rng_.uniform(20000.0, 150000.0);
  x[kCommission] = x[kSalary] >= 75000.0 ? 0.0 : rng_.uniform(10000.0, 75000.0);
  x[kAge] = integer(20, 80);
  x[kElevel] = integer(0, 4);
  x[kCar] = integer(1, 20);
  x[kZipcode] = integer(0, 8);
  x[kHvalue] = (9.0 - x[kZipcode]) * 100000.0 * rng_.uniform(0.5, 1.5);
  x[kHyears] = integer(1, 30);
  x[kLoan] = rng_.uniform(0.0, 500000.0);
  y = static_cast<double>(classify(function_at(position()), x));
  if (config_.perturbation > 0.0) {
    auto perturb = [this](double v, double lo, double hi, bool round) {
      double p = v + (hi - lo) * config_.perturbation * rng_.uniform(-1.0, 1.0);
      if (round) p = std::round(p);
      return std::clamp(p, lo, hi);
    };
    x[kSalary] = perturb(x[kSalary], 20000.0, 150000.0, false);
    if (x[kCommission] > 0.0) x[kCommission] = perturb(x[kCommission], 10000.0, 75000.0, false);
    x[kAge] = perturb(x[kAge], 20.0, 80.0, true);
    x[kHvalue] = perturb(x[kHvalue], 0.0, 1350000.0, false);
    x[kHyears] = perturb(x[kHyears], 1.0, 30.0, true);
    x[kLoan] = perturb(x[kLoan], 0.0, 500000.0, false);
  }
}

}  // namespace irithyll
