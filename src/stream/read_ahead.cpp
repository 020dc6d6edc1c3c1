#include "irithyll/stream/read_ahead.hpp"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <mutex>
#include <system_error>
#include <thread>
#include <vector>

namespace irithyll {
namespace {

// Batches in flight between the threads, and the values one batch holds:
// large enough that a hand-over (a lock and a wake-up) costs nothing per
// row, small enough that wide rows stay within a few MiB.
constexpr std::size_t kReadAheadBatches = 4;
constexpr std::size_t kReadAheadBatchValues = std::size_t{1} << 16;
constexpr std::size_t kReadAheadMaxRows = 1024;

class ReadAheadStream final : public TableStream {
 public:
  explicit ReadAheadStream(std::unique_ptr<TableStream> inner)
      : inner_(std::move(inner)),
        width_(inner_->schema().n_features()),
        rows_per_batch_(std::clamp<std::size_t>(kReadAheadBatchValues / (width_ + 1), 1, kReadAheadMaxRows)),
        has_fraction_(inner_->fraction_read().has_value()) {}
  ~ReadAheadStream() override { finish(); }

  const Schema& schema() const override { return inner_->schema(); }
  const Status& status() const override { return ended_ ? inner_->status() : ok_; }
  std::optional<std::uint64_t> size_hint() const override { return inner_->size_hint(); }
  bool next(std::span<double> x, double& y) override;
  std::uint64_t ignored_keys() const override { return settled() ? inner_->ignored_keys() : ignored_; }
  std::uint64_t current_line() const override { return line_; }
  std::optional<double> fraction_read() const override {
    if (!has_fraction_) return std::nullopt;
    return settled() ? inner_->fraction_read() : std::optional<double>(fraction_.load(std::memory_order_relaxed));
  }
  std::uint64_t skipped_rows() const override { return settled() ? inner_->skipped_rows() : skipped_; }
  const std::vector<std::string>& skipped_examples() const override {
    if (settled()) return inner_->skipped_examples();
    // Stopped early: the examples of the rows skipped before the last row
    // delivered (the reader records them in order).
    finish();
    const auto& all = inner_->skipped_examples();
    examples_.assign(all.begin(), all.begin() + static_cast<std::ptrdiff_t>(std::min<std::uint64_t>(skipped_, all.size())));
    return examples_;
  }
  const std::vector<std::string>& column_notes() const override { return inner_->column_notes(); }

 public:
  // Stops the reader thread and waits for it (idempotent): the inner
  // stream, its schema included, is quiet afterwards.
  void finish() const;

 private:
  struct Batch {
    std::vector<double> x, y;
    std::vector<std::uint64_t> line, skipped, ignored;
    std::size_t rows = 0;
    bool last = false;  // the inner stream ended after these rows
  };

  // The inner stream is quiet (ended, or read on this thread): its counts
  // are the answer.
  bool settled() const { return ended_ || !threaded_; }
  void start();
  void work();
  bool next_direct(std::span<double> x, double& y);

  std::unique_ptr<TableStream> inner_;
  const std::size_t width_;
  const std::size_t rows_per_batch_;
  const bool has_fraction_;
  const Status ok_ = Status::ok();

  mutable std::mutex mu_;
  mutable std::condition_variable cv_;
  std::deque<Batch> full_;     // read, waiting for the consumer (guarded by mu_)
  std::vector<Batch> empty_;   // to be filled by the reader (guarded by mu_)
  mutable bool stop_ = false;  // guarded by mu_
  mutable std::thread worker_;
  std::atomic<double> fraction_{0.0};

  // Consumer side.
  bool started_ = false, threaded_ = false, ended_ = false;
  Batch current_;
  std::size_t pos_ = 0;
  std::uint64_t line_ = 0, skipped_ = 0, ignored_ = 0;
  mutable std::vector<std::string> examples_;
};

void ReadAheadStream::start() {
  started_ = true;
  for (std::size_t i = 0; i < kReadAheadBatches; ++i) {
    Batch b;
    b.x.resize(rows_per_batch_ * width_);
    b.y.resize(rows_per_batch_);
    b.line.resize(rows_per_batch_);
    b.skipped.resize(rows_per_batch_);
    b.ignored.resize(rows_per_batch_);
    empty_.push_back(std::move(b));
  }
  try {
    worker_ = std::thread([this] { work(); });
    threaded_ = true;
  } catch (const std::system_error&) {
    threaded_ = false;  // no thread to be had: read here
  }
}

void ReadAheadStream::work() {
  for (;;) {
    Batch b;
    {
      std::unique_lock lock(mu_);
      cv_.wait(lock, [&] { return stop_ || !empty_.empty(); });
      if (stop_) return;
      b = std::move(empty_.back());
      empty_.pop_back();
    }
    b.rows = 0;
    b.last = false;
    while (b.rows < rows_per_batch_) {
      const std::size_t r = b.rows;
      if (!inner_->next(std::span<double>(b.x.data() + r * width_, width_), b.y[r])) {
        b.last = true;
        break;
      }
      b.line[r] = inner_->current_line();
      b.skipped[r] = inner_->skipped_rows();
      b.ignored[r] = inner_->ignored_keys();
      ++b.rows;
    }
    if (has_fraction_) fraction_.store(inner_->fraction_read().value_or(0.0), std::memory_order_relaxed);
    const bool last = b.last;
    {
      std::lock_guard lock(mu_);
      full_.push_back(std::move(b));
    }
    cv_.notify_all();
    if (last) return;
  }
}

void ReadAheadStream::finish() const {
  {
    std::lock_guard lock(mu_);
    stop_ = true;
  }
  cv_.notify_all();
  if (worker_.joinable()) worker_.join();
}

bool ReadAheadStream::next_direct(std::span<double> x, double& y) {
  const bool got = inner_->next(x, y);
  line_ = inner_->current_line();
  if (!got) ended_ = true;
  return got;
}

bool ReadAheadStream::next(std::span<double> x, double& y) {
  if (ended_) return false;
  if (!started_) start();
  if (!threaded_) return next_direct(x, y);
  while (pos_ == current_.rows) {
    if (current_.last) {
      finish();
      ended_ = true;
      return false;
    }
    std::unique_lock lock(mu_);
    if (current_.x.size() == rows_per_batch_ * width_ && !current_.y.empty()) empty_.push_back(std::move(current_));
    cv_.notify_all();
    cv_.wait(lock, [&] { return !full_.empty(); });
    current_ = std::move(full_.front());
    full_.pop_front();
    pos_ = 0;
  }
  std::copy_n(current_.x.data() + pos_ * width_, std::min(width_, x.size()), x.begin());
  y = current_.y[pos_];
  line_ = current_.line[pos_];
  skipped_ = current_.skipped[pos_];
  ignored_ = current_.ignored[pos_];
  ++pos_;
  return true;
}

}  // namespace

void stop_read_ahead(const TableStream& stream) {
  if (const auto* r = dynamic_cast<const ReadAheadStream*>(&stream); r != nullptr) r->finish();
}

std::unique_ptr<TableStream> read_ahead(std::unique_ptr<TableStream> inner) {
  if (inner == nullptr || inner->schema().n_targets() != 1) return inner;
  return std::make_unique<ReadAheadStream>(std::move(inner));
}

}  // namespace irithyll
