#include "irithyll/stream/generators.hpp"

#include <string>

#include "irithyll/stream/generators/agrawal.hpp"
#include "irithyll/stream/generators/friedman.hpp"
#include "irithyll/stream/generators/friedman_multi.hpp"
#include "irithyll/stream/generators/hetero.hpp"
#include "irithyll/stream/generators/hyperplane.hpp"
#include "irithyll/stream/generators/rbf.hpp"
#include "irithyll/stream/generators/sea.hpp"

namespace irithyll {
namespace {

template <class Generator, class Config>
Result<std::unique_ptr<Stream>> build(Config config, std::uint64_t seed, std::optional<std::uint64_t> n_samples) {
  config.n_samples = n_samples;
  IRITHYLL_RETURN_IF_ERROR(Generator::validate(config));
  return std::unique_ptr<Stream>(std::make_unique<Generator>(config, seed));
}

Result<std::unique_ptr<Stream>> make_sea(std::uint64_t seed, std::optional<std::uint64_t> n) {
  return build<SeaGenerator>(SeaConfig{}, seed, n);
}

// Functions 1 -> 2 -> 3 -> 4 at 25k, 50k and 75k rows.
Result<std::unique_ptr<Stream>> drifting_agrawal(double perturbation, std::uint64_t seed,
                                                 std::optional<std::uint64_t> n) {
  AgrawalConfig c;
  c.function = 1;
  c.drifts = {{25000, 2}, {50000, 3}, {75000, 4}};
  c.perturbation = perturbation;
  return build<AgrawalGenerator>(c, seed, n);
}

Result<std::unique_ptr<Stream>> make_agrawal(std::uint64_t seed, std::optional<std::uint64_t> n) {
  return drifting_agrawal(0.05, seed, n);
}

// The same concepts and drift points without perturbation: every label is
// the function of the attributes it is drawn with (a ceiling of 1.0), for
// comparisons with figures measured on noise-free Agrawal.
Result<std::unique_ptr<Stream>> make_agrawal_clean(std::uint64_t seed, std::optional<std::uint64_t> n) {
  return drifting_agrawal(0.0, seed, n);
}

Result<std::unique_ptr<Stream>> make_hyperplane(std::uint64_t seed, std::optional<std::uint64_t> n) {
  return build<HyperplaneGenerator>(HyperplaneConfig{}, seed, n);
}

Result<std::unique_ptr<Stream>> make_rbf(std::uint64_t seed, std::optional<std::uint64_t> n) {
  return build<RbfGenerator>(RbfConfig{}, seed, n);
}

Result<std::unique_ptr<Stream>> make_rbf4(std::uint64_t seed, std::optional<std::uint64_t> n) {
  RbfConfig c;
  c.n_classes = 4;
  return build<RbfGenerator>(c, seed, n);
}

Result<std::unique_ptr<Stream>> make_friedman(std::uint64_t seed, std::optional<std::uint64_t> n) {
  return build<FriedmanGenerator>(FriedmanConfig{}, seed, n);
}

Result<std::unique_ptr<Stream>> make_friedman3(std::uint64_t seed, std::optional<std::uint64_t> n) {
  return build<FriedmanMultiGenerator>(FriedmanMultiConfig{}, seed, n);
}

Result<std::unique_ptr<Stream>> make_hetero(std::uint64_t seed, std::optional<std::uint64_t> n) {
  return build<HeteroGenerator>(HeteroConfig{}, seed, n);
}

constexpr GeneratorInfo kGenerators[] = {
    {"sea", "SEA concepts: 3 features, threshold on f1+f2 jumping 8/9/7/9.5 every 25k samples, 10% noise",
     &make_sea},
    {"agrawal", "Agrawal loan applicants: 9 attributes, function 1->2->3->4 at 25k/50k/75k, 5% perturbation",
     &make_agrawal},
    {"agrawal_clean", "Agrawal as above without perturbation: labels exact (ceiling 1.0)", &make_agrawal_clean},
    {"hyperplane", "Rotating hyperplane: 10 features, 2 weights drifting 0.001 per sample, 5% noise",
     &make_hyperplane},
    {"rbf", "Random RBF: 10 features, 2 classes, 50 centroids moving 0.0001 per sample", &make_rbf},
    {"rbf4", "Random RBF: 10 features, 4 classes, 50 centroids moving 0.0001 per sample", &make_rbf4},
    {"friedman", "Friedman #1 regression: 10 features (5 relevant), N(0,1) noise", &make_friedman},
    {"hetero", "Friedman #1 mean with noise sd 0.5 + 3 x6; at 50k the mean and the noise (0.5 + 6 x7) change",
     &make_hetero},
    {"friedman3", "three regression targets on the Friedman #1 features (multi_target_sgbt): y1 = friedman, y2, y3",
     &make_friedman3},
};

}  // namespace

std::span<const GeneratorInfo> generator_table() { return kGenerators; }

Result<std::unique_ptr<Stream>> make_generator(std::string_view name, std::uint64_t seed,
                                               std::optional<std::uint64_t> n_samples) {
  std::string known;
  for (const GeneratorInfo& g : kGenerators) {
    if (g.name == name) return g.make(seed, n_samples);
    if (!known.empty()) known += ", ";
    known += g.name;
  }
  std::string msg = "unknown generator '";
  msg.append(name);
  msg += "' (known: " + known + ")";
  return Status::invalid_argument(std::move(msg));
}

}  // namespace irithyll
