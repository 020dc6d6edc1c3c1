// WorkerPool: a fixed set of threads that run one job split into n parts,
// many times a second. Built for ensembles that train their members in
// parallel on every sample (ARF, SRP, leveraging bagging with threads > 1):
// each sample is a job of a few microseconds per member, so the threads are
// started once, a job is handed over through an atomic generation counter
// (no lock, no allocation), and idle threads spin briefly before sleeping on
// the counter (a futex on Linux), so back-to-back samples rarely pay a wake-up.
//
//   WorkerPool pool(4);                   // 3 threads; the caller is part 0
//   auto part = [&](std::size_t p) { ... part_range(n, 4, p) ... };
//   pool.run(part);                       // returns when all 4 parts are done
//
// Parts are numbered, not scheduled: part p always runs the same work, so
// results never depend on timing. The caller's thread runs part 0 itself.
// Cost per run(): one atomic increment and notify, one atomic decrement per
// worker, and the wait for the slowest part. Memory: n - 1 threads.
// Thread safety: run() from one thread at a time; parts must not throw.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <thread>
#include <utility>
#include <vector>

namespace irithyll::detail {

// Items [first, last) of part p when n items are split into `parts`
// contiguous groups whose sizes differ by at most one.
constexpr std::pair<std::size_t, std::size_t> part_range(std::size_t n, std::size_t parts, std::size_t p) noexcept {
  return {n * p / parts, n * (p + 1) / parts};
}

class WorkerPool {
 public:
  // REQUIRES: n_parts >= 1 (1 starts no thread; run() then calls part(0)).
  // Where the system refuses a thread, the pool keeps the ones it started
  // and n_parts() is smaller than asked: split the work by n_parts().
  explicit WorkerPool(std::size_t n_parts);
  ~WorkerPool();  // wakes and joins the threads; no job may be running
  WorkerPool(const WorkerPool&) = delete;
  WorkerPool& operator=(const WorkerPool&) = delete;

  std::size_t n_parts() const noexcept { return threads_.size() + 1; }

  // Calls part(p) once for every p in [0, n_parts()), part 0 on this thread,
  // and returns when every call has returned (their writes are then visible).
  template <class Part>
  void run(Part& part) {
    run_raw(&call<Part>, &part);
  }

 private:
  using Fn = void (*)(void*, std::size_t);
  template <class Part>
  static void call(void* part, std::size_t p) {
    (*static_cast<Part*>(part))(p);
  }
  void run_raw(Fn fn, void* ctx);
  void work(std::size_t p);

  std::vector<std::thread> threads_;
  // The job: written by run() before the generation moves (release), read by
  // the workers after they see it move (acquire).
  Fn fn_ = nullptr;
  void* ctx_ = nullptr;
  bool stop_ = false;
  // Separate cache lines: the workers poll one and decrement the other.
  alignas(64) std::atomic<std::uint32_t> generation_{0};
  alignas(64) std::atomic<std::uint32_t> pending_{0};
};

// Keeps `pool` fit for `threads` threads over `members` members: one part
// per thread, never more parts than members (an empty part would only add a
// hand-over), and no pool at all for one part. Returns the pool's number of
// parts (0 without a pool).
std::size_t fit_pool(std::unique_ptr<WorkerPool>& pool, std::size_t threads, std::size_t members);

}  // namespace irithyll::detail
