#include "core/worker_pool.hpp"

#include <algorithm>
#include <system_error>
#include <thread>

namespace irithyll::detail {

namespace {

// Polls before sleeping. A job per sample arrives every few to few tens of
// microseconds; a few microseconds of polling keeps a busy stream off the
// futex, and yielding now and then lets the thread being waited for run when
// there are more threads than free cores.
constexpr int kSpins = 1024;
constexpr int kYieldEvery = 64;

inline void cpu_relax() noexcept {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  asm volatile("yield");
#endif
}

// Waits until `a` differs from `old`; returns the new value.
std::uint32_t wait_change(const std::atomic<std::uint32_t>& a, std::uint32_t old) noexcept {
  for (int spin = 0;; ++spin) {
    const std::uint32_t now = a.load(std::memory_order_acquire);
    if (now != old) return now;
    if (spin >= kSpins) {
      a.wait(old, std::memory_order_acquire);
    } else if (spin % kYieldEvery == kYieldEvery - 1) {
      std::this_thread::yield();
    } else {
      cpu_relax();
    }
  }
}

}  // namespace

WorkerPool::WorkerPool(std::size_t n_parts) {
  threads_.reserve(n_parts > 1 ? n_parts - 1 : 0);
  for (std::size_t p = 1; p < n_parts; ++p) {
    try {
      threads_.emplace_back([this, p] { work(p); });
    } catch (const std::system_error&) {
      // The system has no more threads to give: the pool runs with those it
      // has (n_parts() says how many parts), which callers split work by.
      break;
    }
  }
}

WorkerPool::~WorkerPool() {
  stop_ = true;
  generation_.fetch_add(1, std::memory_order_release);
  generation_.notify_all();
  for (std::thread& t : threads_) t.join();
}

void WorkerPool::work(std::size_t p) {
  std::uint32_t seen = 0;
  for (;;) {
    seen = wait_change(generation_, seen);
    if (stop_) return;
    fn_(ctx_, p);
    // The last worker to finish wakes the caller (if it went to sleep).
    if (pending_.fetch_sub(1, std::memory_order_acq_rel) == 1) pending_.notify_one();
  }
}

void WorkerPool::run_raw(Fn fn, void* ctx) {
  if (threads_.empty()) return fn(ctx, 0);
  fn_ = fn;
  ctx_ = ctx;
  pending_.store(static_cast<std::uint32_t>(threads_.size()), std::memory_order_relaxed);
  generation_.fetch_add(1, std::memory_order_release);
  generation_.notify_all();
  fn(ctx, 0);
  for (std::uint32_t left = pending_.load(std::memory_order_acquire); left != 0;) left = wait_change(pending_, left);
}

std::size_t fit_pool(std::unique_ptr<WorkerPool>& pool, std::size_t threads, std::size_t members) {
  const std::size_t parts = std::min(threads, members);
  if (parts <= 1) {
    pool.reset();
    return 0;
  }
  if (!pool || pool->n_parts() != parts) pool = std::make_unique<WorkerPool>(parts);
  return pool->n_parts();
}

}  // namespace irithyll::detail
