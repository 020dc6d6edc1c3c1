// A one-line progress bar for stderr: samples done, rate, ETA when the total is
// known. Draws only when stderr is a terminal, at most ~10 times a second, so
// it costs nothing measurable inside the prequential loop.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>

#include "irithyll/eval/prequential.hpp"

namespace irithyll::cli {

class ProgressBar {
 public:
  // enabled=false makes every call a no-op (not a terminal, or --quiet).
  ProgressBar(bool enabled, std::optional<std::uint64_t> total);
  // Without a known total, a callback giving the share of the input read
  // (a file's bytes) lets the bar show a percentage and an ETA anyway.
  void set_fraction_source(std::function<std::optional<double>()> fraction) { fraction_ = std::move(fraction); }
  void update(std::uint64_t done);
  // Clears the line.
  void finish();

 private:
  void draw(std::uint64_t done);
  bool enabled_;
  std::optional<std::uint64_t> total_;
  std::function<std::optional<double>()> fraction_;
  std::chrono::steady_clock::time_point start_, last_;
  std::uint64_t next_check_ = 0;
};

// Feeds a prequential run's progress ticks to a bar.
class ProgressObserver final : public PrequentialObserver {
 public:
  explicit ProgressObserver(ProgressBar& bar) : bar_(bar) {}
  void on_progress(std::uint64_t done, std::optional<std::uint64_t>) override { bar_.update(done); }

 private:
  ProgressBar& bar_;
};

}  // namespace irithyll::cli
