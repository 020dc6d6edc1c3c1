// Histogram subtraction for the sibling of a split, measured on the
// streaming pattern of GradientTree: after a leaf splits, each arriving
// sample is accumulated, and every grace period samples a child scans its
// histogram for a split. Two ways to keep the children's histograms:
//   own:      each child accumulates its own samples (what GradientTree does:
//             one slab write per sample);
//   subtract: the parent keeps accumulating every sample and only the left
//             child its own; the right child's histogram is parent - left,
//             formed before each of its split scans (the batch trick of
//             LightGBM and XGBoost, where the parent's histogram is free).
// In a batch learner the parent's histogram already exists and the sibling
// costs one subtraction instead of a pass over its rows. In a stream the
// parent's histogram is not free: every sample must still be added to it,
// so `subtract` writes 1 + P(left) slabs per sample instead of 1 and adds a
// subtraction per scan. This program measures both on the same rows.
//
//   bench_histogram_sibling [samples] [features] [bins] [grace]
// prints thread CPU ns per sample (median of 7 interleaved runs) and the
// slab writes per sample of each scheme, and checks that both give the same
// right-child histogram.
#include <time.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "irithyll/core/rng.hpp"

namespace {

struct Bin {
  double g = 0.0, h = 0.0;
  std::uint64_t count = 0;
};

double thread_seconds() {
  timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

struct Rows {
  std::size_t n = 0, d = 0, bins = 0;
  std::vector<std::uint16_t> bin;  // n x d bin indices
  std::vector<double> g;
  std::vector<std::uint8_t> left;  // the split's side of each row
};

Rows make_rows(std::size_t n, std::size_t d, std::size_t bins) {
  Rows r{n, d, bins, std::vector<std::uint16_t>(n * d), std::vector<double>(n), std::vector<std::uint8_t>(n)};
  irithyll::Xorshift64 rng(7);
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t f = 0; f < d; ++f)
      r.bin[i * d + f] = static_cast<std::uint16_t>(std::min<double>(rng.uniform() * bins, bins - 1));
    r.g[i] = rng.uniform() - 0.5;
    r.left[i] = r.bin[i * d] < bins / 2;  // split on feature 0 at its middle bin
  }
  return r;
}

inline void add(Bin* slab, const Rows& r, std::size_t i) {
  const std::uint16_t* b = &r.bin[i * r.d];
  for (std::size_t f = 0; f < r.d; ++f) {
    Bin& x = slab[f * r.bins + b[f]];
    x.g += r.g[i];
    x.h += 1.0;
    ++x.count;
  }
}

// A split scan's reads: the best prefix of each feature (the work a split
// attempt does on a slab, without the gain formula's details).
double scan(const Bin* slab, const Rows& r) {
  double best = 0.0;
  for (std::size_t f = 0; f < r.d; ++f) {
    double gl = 0.0, hl = 0.0;
    for (std::size_t k = 0; k < r.bins; ++k) {
      gl += slab[f * r.bins + k].g;
      hl += slab[f * r.bins + k].h;
      best = std::max(best, gl * gl / (hl + 1.0));
    }
  }
  return best;
}

struct Result {
  double seconds = 0.0, checksum = 0.0;
  std::vector<Bin> right;
};

Result run_own(const Rows& r, std::size_t grace) {
  std::vector<Bin> left(r.d * r.bins), right(r.d * r.bins);
  std::uint64_t nl = 0, nr = 0;
  double sink = 0.0;
  const double t0 = thread_seconds();
  for (std::size_t i = 0; i < r.n; ++i) {
    if (r.left[i]) {
      add(left.data(), r, i);
      if (++nl % grace == 0) sink += scan(left.data(), r);
    } else {
      add(right.data(), r, i);
      if (++nr % grace == 0) sink += scan(right.data(), r);
    }
  }
  return {thread_seconds() - t0, sink, right};
}

Result run_subtract(const Rows& r, std::size_t grace) {
  std::vector<Bin> parent(r.d * r.bins), left(r.d * r.bins), right(r.d * r.bins);
  std::uint64_t nl = 0, nr = 0;
  double sink = 0.0;
  const double t0 = thread_seconds();
  for (std::size_t i = 0; i < r.n; ++i) {
    add(parent.data(), r, i);
    if (r.left[i]) {
      add(left.data(), r, i);
      if (++nl % grace == 0) sink += scan(left.data(), r);
    } else if (++nr % grace == 0) {
      for (std::size_t k = 0; k < parent.size(); ++k)
        right[k] = Bin{parent[k].g - left[k].g, parent[k].h - left[k].h, parent[k].count - left[k].count};
      sink += scan(right.data(), r);
    }
  }
  for (std::size_t k = 0; k < parent.size(); ++k)
    right[k] = Bin{parent[k].g - left[k].g, parent[k].h - left[k].h, parent[k].count - left[k].count};
  return {thread_seconds() - t0, sink, right};
}

}  // namespace

int main(int argc, char** argv) {
  const std::size_t n = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 2000000;
  const std::size_t d = argc > 2 ? std::strtoull(argv[2], nullptr, 10) : 8;
  const std::size_t bins = argc > 3 ? std::strtoull(argv[3], nullptr, 10) : 32;
  const std::size_t grace = argc > 4 ? std::strtoull(argv[4], nullptr, 10) : 200;
  if (n == 0 || d == 0 || bins < 2 || bins > 65535 || grace == 0) {
    std::fprintf(stderr, "usage: bench_histogram_sibling [samples] [features] [bins 2..65535] [grace]\n");
    return 2;
  }
  const Rows rows = make_rows(n, d, bins);
  std::vector<double> own, sub;
  double left_share = 0.0;
  for (std::uint8_t l : rows.left) left_share += l;
  left_share /= static_cast<double>(n);
  bool same = true;
  for (int rep = 0; rep < 7; ++rep) {
    const Result a = run_own(rows, grace);
    const Result b = run_subtract(rows, grace);
    own.push_back(a.seconds);
    sub.push_back(b.seconds);
    // The counts are exact; the sums agree to rounding.
    for (std::size_t k = 0; k < a.right.size(); ++k)
      same = same && a.right[k].count == b.right[k].count &&
             std::abs(a.right[k].g - b.right[k].g) <= 1e-9 * (1.0 + std::abs(a.right[k].g));
  }
  std::sort(own.begin(), own.end());
  std::sort(sub.begin(), sub.end());
  const double ns = 1e9 / static_cast<double>(n);
  std::printf("samples %zu, features %zu, bins %zu, grace %zu, left share %.3f\n", n, d, bins, grace, left_share);
  std::printf("own:      %.2f ns/sample, 1.000 slab writes/sample\n", own[3] * ns);
  std::printf("subtract: %.2f ns/sample, %.3f slab writes/sample (ratio %.2fx)\n", sub[3] * ns, 1.0 + left_share,
              sub[3] / own[3]);
  std::printf("right-child histograms %s\n", same ? "equal" : "DIFFER");
  return same ? 0 : 1;
}
