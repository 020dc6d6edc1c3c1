// Agrawal's three discrete attributes (elevel, car, zipcode) read as text
// columns (nominal: categorical-features 3,4,5, as the CLI sets it for string
// columns) against the same values read as numeric codes, prequential
// accuracy per classification function and seed, for any catalogue model.
//
//   build/bench/bench_text_agrawal MODEL [SEEDS=4] [SAMPLES=30000] [FUNCTIONS=0123456789]
//
// MODEL is a catalogue name with optional settings in the `--model` form,
// e.g. "sgbt(categorical-penalty=0)". Prints one JSON line per function
// (mean text, mean codes, mean and per-seed differences) and a last line
// with the mean over the functions.
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "irithyll/catalogue.hpp"
#include "irithyll/pipeline_spec.hpp"
#include "irithyll/stream/generators/agrawal.hpp"

namespace {

using irithyll::ModelSettings;

double prequential(const std::string& model, ModelSettings settings, int function, std::uint64_t seed, bool text,
                   int samples) {
  if (text) settings.set("categorical-features", "3,4,5");
  auto m = irithyll::make_learner(model, settings, {irithyll::Task::kClassification, 2, 9, seed});
  if (!m.is_ok()) {
    std::fprintf(stderr, "%s\n", m.status().to_string().c_str());
    std::exit(1);
  }
  irithyll::AgrawalConfig config;
  config.function = function;
  irithyll::AgrawalGenerator stream(config, seed);
  std::vector<double> x(irithyll::AgrawalGenerator::kFeatures);
  double y = 0.0;
  int right = 0;
  for (int i = 0; i < samples && stream.next(x, y); ++i) {
    right += (*m)->predict_one(x) == y;
    (*m)->learn_one(x, y);
  }
  return static_cast<double>(right) / samples;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: bench_text_agrawal MODEL[(settings)] [SEEDS] [SAMPLES] [FUNCTIONS]\n");
    return 2;
  }
  auto spec = irithyll::parse_pipeline_spec(argv[1]);
  if (!spec.is_ok() || spec->size() != 1) {
    std::fprintf(stderr, "MODEL: one catalogue model, e.g. sgbt(categorical-penalty=0)\n");
    return 2;
  }
  const std::string model = spec->front().name;
  const ModelSettings& settings = spec->front().settings;
  const int seeds = argc > 2 ? std::atoi(argv[2]) : 4;
  const int samples = argc > 3 ? std::atoi(argv[3]) : 30000;
  const std::string functions = argc > 4 ? argv[4] : "0123456789";
  if (seeds < 1 || samples < 1) return 2;
  double sum = 0.0;
  int n = 0;
  for (const char f : functions) {
    if (f < '0' || f > '9') continue;
    double text = 0.0, codes = 0.0;
    std::string per_seed;
    for (int s = 1; s <= seeds; ++s) {
      const double a = prequential(model, settings, f - '0', static_cast<std::uint64_t>(s), true, samples);
      const double b = prequential(model, settings, f - '0', static_cast<std::uint64_t>(s), false, samples);
      text += a / seeds;
      codes += b / seeds;
      char buf[32];
      std::snprintf(buf, sizeof buf, "%s%.4f", per_seed.empty() ? "" : ",", a - b);
      per_seed += buf;
    }
    std::printf("{\"model\":\"%s\",\"function\":%d,\"text\":%.4f,\"codes\":%.4f,\"diff\":%.4f,\"per_seed\":[%s]}\n",
                model.c_str(), f - '0', text, codes, text - codes, per_seed.c_str());
    std::fflush(stdout);
    sum += text - codes;
    ++n;
  }
  if (n > 0)
    std::printf("{\"model\":\"%s\",\"mean_diff\":%.4f,\"functions\":%d,\"seeds\":%d}\n", model.c_str(), sum / n, n, seeds);
  return 0;
}
