// The prequential loop's default target guard: one mistyped target (1e6, or
// 1e308) in a Friedman #1 stream leaves no catalogue regressor worse than a
// fresh model that learned only the 1,000 rows after the typo, and never
// NaN. Deterministic (fixed seeds): no false failures.
#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "irithyll/catalogue.hpp"
#include "irithyll/eval/prequential.hpp"
#include "irithyll/stream/generators.hpp"

namespace irithyll {
namespace {

// Friedman #1 with one target replaced at row `at`.
class TypoStream : public Stream {
 public:
  TypoStream(std::unique_ptr<Stream> inner, std::uint64_t at, double value)
      : inner_(std::move(inner)), at_(at), value_(value) {}
  const Schema& schema() const override { return inner_->schema(); }
  bool next(std::span<double> x, double& y) override {
    if (!inner_->next(x, y)) return false;
    if (row_++ == at_) y = value_;
    return true;
  }
  const Status& status() const override { return inner_->status(); }

 private:
  std::unique_ptr<Stream> inner_;
  std::uint64_t at_, row_ = 0;
  double value_;
};

constexpr std::uint64_t kTypoAt = 500, kAfter = 1000;

std::unique_ptr<Learner> fresh(const std::string& name) {
  LearnerContext ctx{Task::kRegression, 0, 10, 7};
  auto m = make_learner(name, {}, ctx);
  return m.is_ok() ? std::move(m).value() : nullptr;
}

// Mean squared error on 300 rows of a Friedman stream the model never saw.
double held_out_mse(const Learner& l) {
  auto s = make_generator("friedman", 99, 300);
  std::vector<double> x(10);
  double y = 0.0, sum = 0.0;
  int n = 0;
  while ((*s)->next(x, y)) {
    const double e = l.predict_one(x) - y;
    sum += e * e;
    ++n;
  }
  return sum / n;
}

class TypoCase : public ::testing::TestWithParam<std::string> {};

TEST_P(TypoCase, OneExtremeTargetDoesNotOutlastAThousandRows) {
  auto baseline = fresh(GetParam());
  ASSERT_NE(baseline, nullptr);
  {  // a fresh model that learned only the rows after the typo
    auto gen = make_generator("friedman", 5, kTypoAt + 1 + kAfter);
    ASSERT_TRUE(gen.is_ok());
    std::vector<double> x(10);
    double y = 0.0;
    for (std::uint64_t r = 0; (*gen)->next(x, y); ++r)
      if (r > kTypoAt) baseline->learn_one(x, y);
  }
  const double fresh_mse = held_out_mse(*baseline);
  for (const double typo : {1e6, 1e308}) {
    auto model = fresh(GetParam());
    auto gen = make_generator("friedman", 5, kTypoAt + 1 + kAfter);
    ASSERT_TRUE(gen.is_ok());
    TypoStream stream(std::move(gen).value(), kTypoAt, typo);
    PrequentialOptions opt;
    opt.curve_every = 0;
    opt.progress_every = 0;
    auto report = run_prequential(*model, stream, opt);
    ASSERT_TRUE(report.is_ok()) << report.status().to_string();
    const double mse = held_out_mse(*model);
    EXPECT_TRUE(std::isfinite(mse)) << GetParam() << " typo " << typo;
    // "Not worse than fresh", with room for the 500 extra clean rows to
    // count either way and for models whose fresh error is near zero.
    EXPECT_LE(mse, 1.25 * fresh_mse + 0.5) << GetParam() << " typo " << typo << ": fresh " << fresh_mse;
  }
}

std::vector<std::string> regressors() {
  std::vector<std::string> out;
  for (const CatalogueEntry& e : catalogue())
    if (e.listed && e.regression && fresh(std::string(e.name)) != nullptr) out.emplace_back(e.name);
  return out;
}

std::string typo_case_name(const ::testing::TestParamInfo<std::string>& p) { return p.param; }

INSTANTIATE_TEST_SUITE_P(CatalogueRegressors, TypoCase, ::testing::ValuesIn(regressors()), typo_case_name);

}  // namespace
}  // namespace irithyll
