#include "progress.hpp"

#include <cstdio>

namespace irithyll::cli {

ProgressBar::ProgressBar(bool enabled, std::optional<std::uint64_t> total)
    : enabled_(enabled), total_(total), start_(std::chrono::steady_clock::now()), last_(start_) {}

void ProgressBar::update(std::uint64_t done) {
  if (!enabled_ || done < next_check_) return;
  next_check_ = done + 16;  // look at the clock every 16 samples only
  const auto now = std::chrono::steady_clock::now();
  if (now - last_ < std::chrono::milliseconds(100)) return;
  last_ = now;
  draw(done);
}

void ProgressBar::draw(std::uint64_t done) {
  const double secs = std::chrono::duration<double>(last_ - start_).count();
  const double rate = secs > 0 ? static_cast<double>(done) / secs : 0.0;
  std::optional<double> share;
  if (!(total_ && *total_ > 0) && fraction_) share = fraction_();
  if (share && *share > 0.0) {
    constexpr int kWidth = 30;
    const int filled = static_cast<int>(*share * kWidth);
    char bar[kWidth + 1];
    for (int i = 0; i < kWidth; ++i) bar[i] = i < filled ? '#' : '.';
    bar[kWidth] = '\0';
    const double eta = secs * (1.0 - *share) / *share;
    std::fprintf(stderr, "\r[%s] %5.1f%% %llu samples  %.0f samples/s  ETA %.0fs ", bar, 100.0 * *share,
                 static_cast<unsigned long long>(done), rate, eta);
  } else if (total_ && *total_ > 0) {
    const double frac = static_cast<double>(done) / static_cast<double>(*total_);
    constexpr int kWidth = 30;
    const int filled = static_cast<int>(frac * kWidth);
    char bar[kWidth + 1];
    for (int i = 0; i < kWidth; ++i) bar[i] = i < filled ? '#' : '.';
    bar[kWidth] = '\0';
    const double eta = rate > 0 ? static_cast<double>(*total_ - done) / rate : 0.0;
    std::fprintf(stderr, "\r[%s] %5.1f%% %llu/%llu  %.0f samples/s  ETA %.0fs ", bar, 100.0 * frac,
                 static_cast<unsigned long long>(done), static_cast<unsigned long long>(*total_), rate, eta);
  } else {
    std::fprintf(stderr, "\r%llu samples  %.0f samples/s ", static_cast<unsigned long long>(done), rate);
  }
  std::fflush(stderr);
}

void ProgressBar::finish() {
  if (!enabled_) return;
  std::fprintf(stderr, "\r%*s\r", 90, "");
  std::fflush(stderr);
}

}  // namespace irithyll::cli
