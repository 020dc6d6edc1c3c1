// Cost of encoding one SGBT checkpoint (encode_learner: the state, then the
// CRC-32-sealed container), as `irithyll serve` does for every key it saves.
//
//   bench_checkpoint_encode [N ...]   (samples learned first; default 500 2000)
//
// One JSON line per N: checkpoint bytes, thread CPU ms per encode (median of
// 9), and the learner's CPU µs per sample (predict + learn) for scale.
#include <time.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "irithyll/catalogue.hpp"
#include "irithyll/model_file.hpp"
#include "irithyll/stream/generators.hpp"

namespace {
double thread_ms() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return 1e3 * static_cast<double>(ts.tv_sec) + 1e-6 * static_cast<double>(ts.tv_nsec);
}
}  // namespace

int main(int argc, char** argv) {
  using namespace irithyll;
  std::vector<long> sizes;
  for (int i = 1; i < argc; ++i) sizes.push_back(std::strtol(argv[i], nullptr, 10));
  if (sizes.empty()) sizes = {500, 2000};
  for (const long n : sizes) {
    auto learner = make_learner("sgbt", {}, LearnerContext{Task::kRegression, 0, 10, 42});
    auto stream = make_generator("friedman", 42, static_cast<std::uint64_t>(n));
    if (!learner || !stream) return 1;
    std::vector<double> x(10);
    double y = 0.0, sink = 0.0;
    const double t0 = thread_ms();
    long seen = 0;
    for (; (*stream)->next(x, y); ++seen) {
      sink += (*learner)->predict_one(x);
      (*learner)->learn_one(x, y);
    }
    const double learn_ms = thread_ms() - t0;
    std::vector<double> ms;
    std::size_t bytes = 0;
    for (int r = 0; r < 9; ++r) {
      const double a = thread_ms();
      bytes = encode_learner(**learner).size();
      ms.push_back(thread_ms() - a);
    }
    std::nth_element(ms.begin(), ms.begin() + 4, ms.end());
    std::printf("{\"model\":\"sgbt\",\"samples\":%ld,\"bytes\":%zu,\"encode_ms\":%.3f,\"learn_us_per_sample\":%.2f,"
                "\"checksum\":%.6g}\n",
                seen, bytes, ms[4], 1e3 * learn_ms / static_cast<double>(std::max(seen, 1L)), sink);
  }
  return 0;
}
