// SGBTPipeline: SGBT's two-thread training mode (config.threads = 2).
//
// Why it is exact. Step s of a sample trains on the gradient at
//   F_s(x) = base + lr * sum_{t<s} tree_t(x),
// each tree_t(x) taken before tree t learns x. So for one sample the steps
// form a chain that only looks back at earlier steps' predictions of that
// same sample, and a tree sees the samples in arrival order. Split the steps
// into [0, k) and [k, n): the caller's thread runs the first group on sample
// t and hands F_k(x_t) over; this worker runs the second group on it while
// the caller already runs the first group on sample t+1. Every tree still
// learns the samples in order with the gradient sequential SGBT gives it,
// and F_n is accumulated in the same order, so the trees, their detectors
// and every prediction are bit-identical to threads = 1.
//
// What crosses over, per sample, in a single-producer single-consumer ring:
// x (copied), y, w, offset, the learning rate, F_k(x), the drift monitor's scale and, for the
// Skip variant, the second group's draws (drawn by the caller in step order
// from the committee's one stream, as sequential SGBT draws them).
// Committee options that couple all steps after each sample (adaptive
// max-tree-samples, pruning, error weighting) are not pipelined: such a
// committee trains sequentially whatever `threads` says.
//
// Readers drain first: SGBT calls wait_idle() before anything that reads or
// changes the trees (predict, encode, export, reset, ...), so a prediction
// sees every sample learned so far. Memory: ring of kCapacity samples.
// Thread safety: one owner thread (the SGBT's) plus the worker it starts.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <span>
#include <thread>
#include <vector>

namespace irithyll {

class SGBTPipeline {
 public:
  struct Sample {
    std::span<const double> x;
    double y = 0.0, w = 1.0, offset = 0.0;
    double learning_rate = 0.1;  // the committee's at push time (AdaptiveSGBT moves it every sample)
    double current = 0.0;        // F_k(x): the score after the first group
    double monitor_scale = 1.0;  // divides |g| for the drift detectors
    std::span<const std::uint32_t> counts;  // Skip variant: one per second-group step, else empty
  };
  // `second_group(sample)` trains steps [k, n) on one sample; it runs on the
  // worker thread only.
  SGBTPipeline(std::size_t n_features, std::size_t n_counts, std::function<void(const Sample&)> second_group);
  ~SGBTPipeline();
  SGBTPipeline(const SGBTPipeline&) = delete;
  SGBTPipeline& operator=(const SGBTPipeline&) = delete;

  // Queues one sample (waits while the ring is full). counts.size() must be
  // the n_counts given at construction or 0.
  void push(std::span<const double> x, double y, double w, double offset, double learning_rate, double current,
            double monitor_scale, std::span<const std::uint32_t> counts);
  // Returns once the worker has trained every queued sample.
  void wait_idle() const;
  // True when the worker has trained every queued sample (caller's thread).
  bool idle() const noexcept { return tail_.load(std::memory_order_acquire) == head_.load(std::memory_order_relaxed); }
  std::size_t n_features() const { return d_; }
  std::size_t memory_bytes() const;

  static constexpr std::uint64_t kCapacity = 64;

 private:
  void run();

  std::size_t d_, n_counts_;
  std::function<void(const Sample&)> second_group_;
  std::vector<double> x_;            // kCapacity x d
  std::vector<double> scalars_;      // kCapacity x 6: y, w, offset, learning rate, current, monitor scale
  std::vector<std::uint32_t> counts_;  // kCapacity x n_counts
  std::vector<std::uint8_t> has_counts_;
  // head_: samples pushed; tail_: samples trained. Each written by one side.
  alignas(64) std::atomic<std::uint64_t> head_{0};
  alignas(64) std::atomic<std::uint64_t> tail_{0};
  std::atomic<bool> stop_{false};
  std::thread worker_;
};

}  // namespace irithyll
