// SGBTPipeline: SGBT's multi-thread training mode (config.threads = N >= 2).
//
// Why it is exact. Step s of a sample trains on the gradient at
//   F_s(x) = base + lr * sum_{t<s} tree_t(x),
// each tree_t(x) taken before tree t learns x. So for one sample the steps
// form a chain that only looks back at earlier steps' predictions of that
// same sample, and a tree sees the samples in arrival order. Cut the steps
// into N contiguous stages [b_0, b_1), [b_1, b_2), ..., [b_{N-1}, n): the
// caller's thread runs stage 0 on sample t and hands F_{b_1}(x_t) over;
// worker j runs stage j on a sample once worker j-1 has handed it
// F_{b_j}(x), while the earlier stages already take later samples. Every
// tree still learns the samples in order with the gradient sequential SGBT
// gives it, and F_n is accumulated in the same order, so the trees, their
// detectors and every prediction are bit-identical to threads = 1.
//
// Hand-over. One ring of kCapacity sample slots, written once by the caller
// (x, y, w, offset, the learning rate, the drift monitor's scale and, for
// the Skip variant, the workers' draws, drawn by the caller in step order
// from the committee's one stream as sequential SGBT draws them) and one
// cursor per stage: cursor j counts the samples stage j has finished. Stage
// j consumes what cursor j-1 releases and releases it to stage j+1, so each
// pair of neighbours is a single-producer single-consumer queue over the
// same slots; only the running score `current` is rewritten in place, by
// the one stage that holds the slot. Nothing is copied between stages and
// nothing is allocated per sample. The caller reuses a slot once the last
// cursor has passed it.
// Committee options that couple all steps after each sample (adaptive
// max-tree-samples, pruning, error weighting) are not pipelined: such a
// committee trains sequentially whatever `threads` says.
//
// Readers drain first: SGBT calls wait_idle() before anything that reads or
// changes the trees (predict, encode, export, reset, ...), so a prediction
// sees every sample learned so far. Memory: kCapacity slots of
// 64 + 8 d + 4 (worker steps) bytes, plus one cursor and thread per worker.
// Thread safety: one owner thread (the SGBT's) plus the workers it starts.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
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
    double current = 0.0;        // F at the stage's first step
    double monitor_scale = 1.0;  // divides |g| for the drift detectors
    std::span<const std::uint32_t> counts;  // Skip variant: one per worker step (all workers), else empty
  };
  // Trains one worker stage's steps on a sample; returns F after its last step.
  using Stage = std::function<double(const Sample&)>;

  // Starts one worker per stage (stages.size() >= 1; stage i runs on worker
  // i, which is pipeline stage i + 1). Returns null when the system refuses
  // a thread: the owner then trains sequentially, with the same results.
  static std::unique_ptr<SGBTPipeline> make(std::size_t n_features, std::size_t n_counts, std::vector<Stage> stages);
  ~SGBTPipeline();
  SGBTPipeline(const SGBTPipeline&) = delete;
  SGBTPipeline& operator=(const SGBTPipeline&) = delete;

  // Queues one sample after stage 0 (waits while the ring is full).
  // counts.size() must be the n_counts given at construction or 0.
  void push(std::span<const double> x, double y, double w, double offset, double learning_rate, double current,
            double monitor_scale, std::span<const std::uint32_t> counts);
  // Returns once every worker has trained every queued sample.
  void wait_idle() const;
  // True when every queued sample has passed every stage (caller's thread).
  bool idle() const noexcept { return done().load(std::memory_order_acquire) == pushed().load(std::memory_order_relaxed); }
  std::size_t n_features() const { return d_; }
  std::size_t memory_bytes() const;

  static constexpr std::uint64_t kCapacity = 64;

 private:
  // One cache line per slot's scalars and per cursor: neighbouring stages
  // write neighbouring slots' `current` and their own cursors concurrently.
  struct alignas(64) Slot {
    double y, w, offset, learning_rate, current, monitor_scale;
    bool has_counts;
  };
  struct alignas(64) Cursor {
    std::atomic<std::uint64_t> n{0};
  };

  SGBTPipeline(std::size_t n_features, std::size_t n_counts, std::vector<Stage> stages);
  void run(std::size_t worker);
  void stop();
  // Cursor 0: samples pushed; cursor j: samples stage j has finished.
  std::atomic<std::uint64_t>& pushed() noexcept { return cursors_[0].n; }
  const std::atomic<std::uint64_t>& pushed() const noexcept { return cursors_[0].n; }
  const std::atomic<std::uint64_t>& done() const noexcept { return cursors_[stages_.size()].n; }

  std::size_t d_, n_counts_;
  std::vector<Stage> stages_;
  std::vector<Slot> slots_;            // kCapacity
  std::vector<double> x_;              // kCapacity x d
  std::vector<std::uint32_t> counts_;  // kCapacity x n_counts
  std::unique_ptr<Cursor[]> cursors_;  // stages_.size() + 1; each written by one thread
  std::atomic<bool> stop_{false};
  std::vector<std::thread> workers_;
};

}  // namespace irithyll
