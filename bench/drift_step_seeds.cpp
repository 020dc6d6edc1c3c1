// bench_drift_step_seeds: how often each drift detector is right on the
// README's drift example, over many seeds (a statistical measurement, not a
// timing). The step stream: 0/1 errors at rate 0.1 for 5000 rows, then 0.4
// for 5000 (Xorshift64, seeds 1..N, the generator tests/drift/step_stream_test.cpp
// uses). Per detector it prints the share of seeds with a drift before the
// change, with none within 1000 rows after it, with the first one 300 or more
// rows late, with two or more within 1000 rows after it, with a warning
// before the change, and the mean delay;
// then false drifts per 10,000 rows on stationary streams at error rates
// 0.05, 0.1, 0.2 and 0.4 (M seeds of 100k rows each).
//
// Usage: bench_drift_step_seeds [N=1000] [M=50] [detector ...]  (default: ddm eddm)
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "irithyll/core/rng.hpp"
#include "irithyll/drift/drift_detector.hpp"

namespace {

using irithyll::DriftKind;
using irithyll::DriftSignal;

std::unique_ptr<irithyll::DriftDetector> make(DriftKind kind) {
  return std::move(irithyll::make_drift_detector(irithyll::default_drift_config(kind))).value();
}

void step_stream(DriftKind kind, int seeds) {
  constexpr int kChange = 5000;
  int before = 0, missed = 0, late = 0, twice = 0, found = 0, warned = 0;
  double delay_sum = 0.0;
  for (int s = 1; s <= seeds; ++s) {
    auto d = make(kind);
    irithyll::Xorshift64 rng(0xD81F7ull + static_cast<std::uint64_t>(s) * 7919ull);
    int early = 0, first = -1, near = 0;
    bool warning = false;
    for (int i = 0; i < 2 * kChange; ++i) {
      const bool after = i >= kChange;
      const DriftSignal sig = d->update(rng.uniform() < (after ? 0.4 : 0.1) ? 1.0 : 0.0);
      warning = warning || (!after && sig == DriftSignal::kWarning);
      if (sig != DriftSignal::kDrift) continue;
      if (!after) {
        ++early;
        continue;
      }
      if (first < 0) first = i;
      near += i < kChange + 1000 ? 1 : 0;
    }
    before += early > 0;
    warned += warning;
    if (first < 0 || first >= kChange + 1000) {
      ++missed;
    } else {
      ++found;
      delay_sum += first - kChange;
    }
    late += first < 0 || first >= kChange + 300;
    twice += near > 1;
  }
  const double n = seeds;
  std::printf("%-7s step 0.1->0.4, %d seeds: before %.1f%%  none within 1000 %.1f%%  >=300 late %.1f%%  "
              "two within 1000 %.1f%%  warning before %.1f%%  mean delay %.0f rows\n",
              std::string(irithyll::drift_kind_name(kind)).c_str(), seeds, 100.0 * before / n, 100.0 * missed / n,
              100.0 * late / n, 100.0 * twice / n, 100.0 * warned / n, found > 0 ? delay_sum / found : -1.0);
}

void stationary(DriftKind kind, int seeds) {
  constexpr int kRows = 100000;
  std::printf("%-7s stationary, %d x 100k rows, false drifts per 10k rows:",
              std::string(irithyll::drift_kind_name(kind)).c_str(), seeds);
  for (const double rate : {0.05, 0.1, 0.2, 0.4}) {
    std::uint64_t alarms = 0;
    for (int s = 1; s <= seeds; ++s) {
      auto d = make(kind);
      irithyll::Xorshift64 rng(0x57A7ull + static_cast<std::uint64_t>(s) * 104729ull);
      for (int i = 0; i < kRows; ++i) alarms += d->update(rng.uniform() < rate ? 1.0 : 0.0) == DriftSignal::kDrift;
    }
    std::printf("  %.2f: %.4f (%llu)", rate, static_cast<double>(alarms) * 10000.0 / (static_cast<double>(seeds) * kRows),
                static_cast<unsigned long long>(alarms));
  }
  std::printf("\n");
}

}  // namespace

int main(int argc, char** argv) {
  const int seeds = argc > 1 ? std::atoi(argv[1]) : 1000;
  const int stationary_seeds = argc > 2 ? std::atoi(argv[2]) : 50;
  std::vector<DriftKind> kinds;
  for (int i = 3; i < argc; ++i) {
    const auto k = irithyll::parse_drift_kind(argv[i]);
    if (!k.is_ok() || *k == DriftKind::kNone) {
      std::fprintf(stderr, "unknown detector %s\n", argv[i]);
      return 2;
    }
    kinds.push_back(*k);
  }
  if (kinds.empty()) kinds = {DriftKind::kDdm, DriftKind::kEddm};
  if (seeds <= 0 || stationary_seeds <= 0) {
    std::fprintf(stderr, "seed counts must be > 0\n");
    return 2;
  }
  for (const DriftKind k : kinds) {
    step_stream(k, seeds);
    stationary(k, stationary_seeds);
  }
  return 0;
}
