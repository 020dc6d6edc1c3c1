#include "sgbt_pipeline.hpp"

#include <algorithm>
#include <system_error>
#include <utility>

namespace irithyll {

namespace {
// Waits until `a` no longer holds `old` (libstdc++ spins briefly, then
// sleeps on a futex). A longer spin of our own was measured: on this
// oversubscribed 2-core machine it cost 4x in prequential wall time.
void wait_change(const std::atomic<std::uint64_t>& a, std::uint64_t old) { a.wait(old, std::memory_order_acquire); }
}  // namespace

SGBTPipeline::SGBTPipeline(std::size_t n_features, std::size_t n_counts, std::vector<Stage> stages)
    : d_(n_features),
      n_counts_(n_counts),
      stages_(std::move(stages)),
      slots_(kCapacity),
      x_(kCapacity * n_features),
      counts_(kCapacity * n_counts),
      cursors_(std::make_unique<Cursor[]>(stages_.size() + 1)) {}

std::unique_ptr<SGBTPipeline> SGBTPipeline::make(std::size_t n_features, std::size_t n_counts,
                                                 std::vector<Stage> stages) {
  std::unique_ptr<SGBTPipeline> p(new SGBTPipeline(n_features, n_counts, std::move(stages)));
  p->workers_.reserve(p->stages_.size());
  // std::thread reports a refused thread by throwing; no exception may leave
  // the library, and training on fewer threads gives the same results.
  try {
    for (std::size_t i = 0; i < p->stages_.size(); ++i) p->workers_.emplace_back([q = p.get(), i] { q->run(i); });
  } catch (const std::system_error&) {
    p->stop();
    return nullptr;
  }
  return p;
}

SGBTPipeline::~SGBTPipeline() {
  if (workers_.empty()) return;  // make() stopped the ones it started
  wait_idle();
  stop();
}

void SGBTPipeline::stop() {
  // A phantom sample on each worker's input cursor wakes it; it sees stop_
  // and leaves without reading the slot (it checks stop_ whenever its input
  // moves). Every worker is idle here, so no cursor has another writer.
  stop_.store(true, std::memory_order_release);
  for (std::size_t i = 0; i < workers_.size(); ++i) {
    std::atomic<std::uint64_t>& in = cursors_[i].n;
    in.store(in.load(std::memory_order_relaxed) + 1, std::memory_order_release);
    in.notify_one();
  }
  for (std::thread& w : workers_) w.join();
  workers_.clear();
}

void SGBTPipeline::push(std::span<const double> x, double y, double w, double offset, double learning_rate,
                        double current, double monitor_scale, std::span<const std::uint32_t> counts) {
  std::atomic<std::uint64_t>& head = pushed();
  const std::uint64_t h = head.load(std::memory_order_relaxed);
  // Full ring: wait for the last stage to free a slot.
  for (std::uint64_t t = done().load(std::memory_order_acquire); h - t >= kCapacity;
       t = done().load(std::memory_order_acquire))
    wait_change(done(), t);
  const std::size_t slot = static_cast<std::size_t>(h % kCapacity);
  std::copy(x.begin(), x.end(), x_.begin() + static_cast<std::ptrdiff_t>(slot * d_));
  slots_[slot] = Slot{y, w, offset, learning_rate, current, monitor_scale, !counts.empty()};
  if (!counts.empty()) std::copy(counts.begin(), counts.end(), counts_.begin() + static_cast<std::ptrdiff_t>(slot * n_counts_));
  head.store(h + 1, std::memory_order_release);
  head.notify_one();
}

void SGBTPipeline::wait_idle() const {
  const std::uint64_t h = pushed().load(std::memory_order_relaxed);
  for (std::uint64_t t = done().load(std::memory_order_acquire); t != h; t = done().load(std::memory_order_acquire))
    wait_change(done(), t);
}

void SGBTPipeline::run(std::size_t worker) {
  const std::atomic<std::uint64_t>& in = cursors_[worker].n;
  std::atomic<std::uint64_t>& out = cursors_[worker + 1].n;
  const Stage& stage = stages_[worker];
  std::uint64_t t = 0;
  for (;;) {
    std::uint64_t h = in.load(std::memory_order_acquire);
    while (h == t) {
      if (stop_.load(std::memory_order_acquire)) return;
      wait_change(in, h);
      h = in.load(std::memory_order_acquire);
    }
    if (stop_.load(std::memory_order_acquire)) return;  // only the phantom sample is left
    for (; t != h; ++t) {
      const std::size_t i = static_cast<std::size_t>(t % kCapacity);
      Slot& s = slots_[i];
      Sample sample;
      sample.x = std::span<const double>(x_).subspan(i * d_, d_);
      sample.y = s.y;
      sample.w = s.w;
      sample.offset = s.offset;
      sample.learning_rate = s.learning_rate;
      sample.current = s.current;
      sample.monitor_scale = s.monitor_scale;
      if (s.has_counts) sample.counts = std::span<const std::uint32_t>(counts_).subspan(i * n_counts_, n_counts_);
      // This stage holds the slot until `out` moves: the next stage reads
      // the score it leaves here.
      s.current = stage(sample);
      out.store(t + 1, std::memory_order_release);
      out.notify_one();
    }
  }
}

std::size_t SGBTPipeline::memory_bytes() const {
  return sizeof(*this) + slots_.capacity() * sizeof(Slot) + x_.capacity() * sizeof(double) +
         counts_.capacity() * sizeof(std::uint32_t) + (stages_.size() + 1) * sizeof(Cursor) +
         stages_.capacity() * sizeof(Stage) + workers_.capacity() * sizeof(std::thread);
}

}  // namespace irithyll
