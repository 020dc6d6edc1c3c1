#include "sgbt_pipeline.hpp"

#include <algorithm>
#include <utility>

namespace irithyll {

namespace {
constexpr std::size_t kScalars = 6;

// Waits until `a` no longer holds `old` (libstdc++ spins briefly, then
// sleeps on a futex). A longer spin of our own was measured: on this
// oversubscribed 2-core machine it cost 4x in prequential wall time.
void wait_change(const std::atomic<std::uint64_t>& a, std::uint64_t old) { a.wait(old, std::memory_order_acquire); }
}  // namespace

SGBTPipeline::SGBTPipeline(std::size_t n_features, std::size_t n_counts, std::function<void(const Sample&)> second_group)
    : d_(n_features),
      n_counts_(n_counts),
      second_group_(std::move(second_group)),
      x_(kCapacity * n_features),
      scalars_(kCapacity * kScalars),
      counts_(kCapacity * n_counts),
      has_counts_(kCapacity, 0) {
  worker_ = std::thread([this] { run(); });
}

SGBTPipeline::~SGBTPipeline() {
  wait_idle();
  // A phantom sample wakes the worker, which sees stop_ and leaves without
  // reading it (it checks stop_ whenever head_ moves).
  stop_.store(true, std::memory_order_release);
  head_.store(head_.load(std::memory_order_relaxed) + 1, std::memory_order_release);
  head_.notify_one();
  worker_.join();
}

void SGBTPipeline::push(std::span<const double> x, double y, double w, double offset, double learning_rate,
                        double current, double monitor_scale, std::span<const std::uint32_t> counts) {
  const std::uint64_t h = head_.load(std::memory_order_relaxed);
  // Full ring: wait for the worker to free a slot.
  for (std::uint64_t t = tail_.load(std::memory_order_acquire); h - t >= kCapacity; t = tail_.load(std::memory_order_acquire))
    wait_change(tail_, t);
  const std::size_t slot = static_cast<std::size_t>(h % kCapacity);
  std::copy(x.begin(), x.end(), x_.begin() + static_cast<std::ptrdiff_t>(slot * d_));
  double* s = scalars_.data() + slot * kScalars;
  s[0] = y;
  s[1] = w;
  s[2] = offset;
  s[3] = learning_rate;
  s[4] = current;
  s[5] = monitor_scale;
  has_counts_[slot] = counts.empty() ? 0 : 1;
  if (!counts.empty()) std::copy(counts.begin(), counts.end(), counts_.begin() + static_cast<std::ptrdiff_t>(slot * n_counts_));
  head_.store(h + 1, std::memory_order_release);
  head_.notify_one();
}

void SGBTPipeline::wait_idle() const {
  const std::uint64_t h = head_.load(std::memory_order_relaxed);
  for (std::uint64_t t = tail_.load(std::memory_order_acquire); t != h; t = tail_.load(std::memory_order_acquire))
    wait_change(tail_, t);
}

void SGBTPipeline::run() {
  std::uint64_t t = 0;
  for (;;) {
    std::uint64_t h = head_.load(std::memory_order_acquire);
    while (h == t) {
      if (stop_.load(std::memory_order_acquire)) return;
      wait_change(head_, h);
      h = head_.load(std::memory_order_acquire);
    }
    if (stop_.load(std::memory_order_acquire)) return;  // only the destructor's bump is left
    for (; t != h; ++t) {
      const std::size_t slot = static_cast<std::size_t>(t % kCapacity);
      const double* s = scalars_.data() + slot * kScalars;
      Sample sample;
      sample.x = std::span<const double>(x_).subspan(slot * d_, d_);
      sample.y = s[0];
      sample.w = s[1];
      sample.offset = s[2];
      sample.learning_rate = s[3];
      sample.current = s[4];
      sample.monitor_scale = s[5];
      if (has_counts_[slot]) sample.counts = std::span<const std::uint32_t>(counts_).subspan(slot * n_counts_, n_counts_);
      second_group_(sample);
      tail_.store(t + 1, std::memory_order_release);
      tail_.notify_one();
    }
  }
}

std::size_t SGBTPipeline::memory_bytes() const {
  return sizeof(*this) + (x_.capacity() + scalars_.capacity()) * sizeof(double) + counts_.capacity() * sizeof(std::uint32_t) +
         has_counts_.capacity();
}

}  // namespace irithyll
