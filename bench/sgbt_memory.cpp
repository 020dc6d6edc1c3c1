// Memory plateau of SGBT on a long stream: the model's reported bytes and the
// process's peak RSS at checkpoints along a 1,000,000-sample generator stream.
// Once the trees have grown, both must stop growing (issue: within 10% between
// sample 200,000 and sample 1,000,000). Prints one JSON line per checkpoint
// and a final verdict line.
//
//   build/bench/bench_sgbt_memory [stream=agrawal] [samples=1000000]
#include <sys/resource.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "irithyll/ensemble/sgbt_learner.hpp"
#include "irithyll/stream/generators.hpp"

namespace {
long peak_rss_kib() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return u.ru_maxrss;
}
}  // namespace

int main(int argc, char** argv) {
  const std::string name = argc > 1 ? argv[1] : "agrawal";
  const std::uint64_t n = argc > 2 ? std::strtoull(argv[2], nullptr, 10) : 1000000;
  auto stream = irithyll::make_generator(name, 42, n);
  if (!stream) {
    std::fprintf(stderr, "%s\n", stream.status().to_string().c_str());
    return 1;
  }
  const auto& schema = (*stream)->schema();
  irithyll::SGBTConfig config;
  config.n_steps = 100;
  config.max_depth = 6;
  config.learning_rate = 0.1;
  config.grace_period = 50;
  config.n_bins = 32;
  auto learner = irithyll::SGBTLearner::make(config, schema.task, schema.n_classes());
  if (!learner) {
    std::fprintf(stderr, "%s\n", learner.status().to_string().c_str());
    return 1;
  }
  std::vector<double> x(schema.n_features());
  std::vector<double> proba(schema.n_classes());
  double y = 0;
  std::uint64_t t = 0, correct = 0;
  std::size_t bytes_at_200k = 0;
  long rss_at_200k = 0;
  while ((*stream)->next(x, y)) {
    if (schema.task == irithyll::Task::kClassification) correct += (*learner)->predict_one(x) == y;
    (*learner)->learn_one(x, y);
    ++t;
    if (t % 100000 == 0) {
      const std::size_t bytes = (*learner)->memory_bytes();
      const long rss = peak_rss_kib();
      if (t == 200000) {
        bytes_at_200k = bytes;
        rss_at_200k = rss;
      }
      std::printf("{\"bench\":\"sgbt_memory\",\"stream\":\"%s\",\"samples\":%llu,\"model_bytes\":%zu,"
                  "\"peak_rss_kib\":%ld,\"accuracy\":%.4f}\n",
                  name.c_str(), static_cast<unsigned long long>(t), bytes, rss,
                  static_cast<double>(correct) / static_cast<double>(t));
      std::fflush(stdout);
    }
  }
  if (bytes_at_200k > 0) {
    const double bytes_growth = static_cast<double>((*learner)->memory_bytes()) / static_cast<double>(bytes_at_200k);
    const double rss_growth = static_cast<double>(peak_rss_kib()) / static_cast<double>(rss_at_200k);
    std::printf("{\"bench\":\"sgbt_memory_verdict\",\"model_bytes_growth_200k_to_end\":%.4f,"
                "\"peak_rss_growth_200k_to_end\":%.4f,\"within_10_percent\":%s}\n",
                bytes_growth, rss_growth, (bytes_growth <= 1.10 && rss_growth <= 1.10) ? "true" : "false");
  }
  return 0;
}
