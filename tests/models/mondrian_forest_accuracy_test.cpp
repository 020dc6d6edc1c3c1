// The aggregated Mondrian forest against a single Hoeffding tree, both from
// the catalogue with their default settings, on a stream where local
// partitions should win: the RBF generator (10 features, 2 classes, 50
// moving Gaussian centroids), 20,000 samples, prequential accuracy.
#include <gtest/gtest.h>

#include <vector>

#include "irithyll/catalogue.hpp"
#include "irithyll/stream/generators.hpp"

namespace irithyll {
namespace {

double prequential_accuracy(std::string_view model, std::uint64_t seed) {
  auto stream = make_generator("rbf", seed, 20000);
  EXPECT_TRUE(stream.is_ok()) << stream.status().to_string();
  if (!stream.is_ok()) return 0.0;
  const Schema& schema = (*stream)->schema();
  LearnerContext ctx{Task::kClassification, schema.n_classes(), schema.n_features(), seed};
  auto m = make_learner(model, {}, ctx);
  EXPECT_TRUE(m.is_ok()) << m.status().to_string();
  if (!m.is_ok()) return 0.0;
  std::vector<double> x(schema.n_features());
  double y = 0.0;
  std::size_t right = 0, n = 0;
  while ((*stream)->next(x, y)) {
    right += (*m)->predict_one(x) == y;
    (*m)->learn_one(x, y);
    ++n;
  }
  return n == 0 ? 0.0 : static_cast<double>(right) / static_cast<double>(n);
}

// Measured on seeds 1-5: mondrian_forest 0.885-0.931, hoeffding_tree
// 0.736-0.812, a gap of 0.09 to 0.15 on every seed. The test asks for a win
// on each seed and a mean gap of 0.05: the prequential accuracy over 20,000
// samples varies by about 0.003 (binomial) around its expectation, so a
// false failure needs a > 10-sigma draw (rate far below 1e-9).
TEST(MondrianForestAccuracy, BeatsAHoeffdingTreeOnMovingGaussianClusters) {
  double amf = 0.0, ht = 0.0;
  for (std::uint64_t seed = 1; seed <= 5; ++seed) {
    const double a = prequential_accuracy("mondrian_forest", seed);
    const double h = prequential_accuracy("hoeffding_tree", seed);
    EXPECT_GT(a, h) << "seed " << seed << ": mondrian_forest " << a << ", hoeffding_tree " << h;
    amf += a / 5.0;
    ht += h / 5.0;
  }
  EXPECT_GT(amf, ht + 0.05) << "mean accuracy: mondrian_forest " << amf << ", hoeffding_tree " << ht;
}

}  // namespace
}  // namespace irithyll
