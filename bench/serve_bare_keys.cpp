// The bare-learner baseline of bench/serve_throughput.sh, keyed: the samples
// `irithyll produce --stream friedman --keys KEYS` sends (same generator, seed
// and key assignment), each predicted then learned by its key's own learner,
// in one process with no log. This is the work one `irithyll serve` worker
// does for those samples minus the serving (parsing, Redis, checkpoints).
//
//   bench_serve_bare_keys N KEYS [--name value ...]   (catalogue settings of sgbt)
//
// Prints one JSON line: wall and process CPU seconds, and samples per second of each.
#include <time.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "irithyll/catalogue.hpp"
#include "serve/produce.hpp"
#include "irithyll/stream/generators.hpp"

namespace {
double cpu_seconds() {
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}
}  // namespace

int main(int argc, char** argv) {
  using namespace irithyll;
  const std::uint64_t n = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 100000;
  const std::uint64_t keys = argc > 2 ? std::strtoull(argv[2], nullptr, 10) : 64;
  ModelSettings settings;
  for (int i = 3; i + 1 < argc; i += 2) settings.set(std::string(argv[i]).substr(2), argv[i + 1]);
  const std::uint64_t seed = 42;  // produce's and serve's default --seed
  auto stream = make_generator("friedman", seed, n);
  if (!stream) {
    std::fprintf(stderr, "%s\n", stream.status().to_string().c_str());
    return 1;
  }
  const LearnerContext context{Task::kRegression, 0, 10, seed};
  if (auto probe = make_learner("sgbt", settings, context); !probe) {
    std::fprintf(stderr, "%s\n", probe.status().to_string().c_str());
    return 1;
  }
  std::map<std::string, std::unique_ptr<Learner>> learners;
  std::vector<double> x(10);
  double y = 0.0, sink = 0.0;
  const auto t0 = std::chrono::steady_clock::now();
  const double c0 = cpu_seconds();
  std::uint64_t i = 0;
  for (; i < n && (*stream)->next(x, y); ++i) {
    auto& l = learners[serve::sample_key(i, keys, seed)];
    if (!l) l = std::move(make_learner("sgbt", settings, context)).value();
    sink += l->predict_one(x);
    l->learn_one(x, y);
  }
  const double cpu = cpu_seconds() - c0;
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf("{\"samples\":%llu,\"keys\":%zu,\"wall_s\":%.3f,\"cpu_s\":%.3f,\"samples_per_second\":%.1f,"
              "\"cpu_samples_per_second\":%.1f,\"checksum\":%.6g}\n",
              static_cast<unsigned long long>(i), learners.size(), wall, cpu, static_cast<double>(i) / wall,
              static_cast<double>(i) / cpu, sink);
  return 0;
}
