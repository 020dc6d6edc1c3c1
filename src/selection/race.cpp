#include "irithyll/selection/race.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

namespace irithyll {

double bernstein_radius(std::size_t n, double variance, double range, double delta) {
  if (n < 2) return std::numeric_limits<double>::infinity();
  const double log_term = std::log(2.0 / delta);
  const double nd = static_cast<double>(n);
  return std::sqrt(2.0 * std::max(variance, 0.0) * log_term / nd) + 7.0 * range * log_term / (3.0 * (nd - 1.0));
}

double race_check_delta(double delta, std::size_t members, std::uint64_t check) {
  const double pairs = members > 1 ? static_cast<double>(members - 1) : 1.0;
  const double k = static_cast<double>(std::max<std::uint64_t>(check, 1));
  return delta / (pairs * k * (k + 1.0));
}

void RewardWindow::push(double reward) {
  if (buf_.empty()) return;
  buf_[head_] = reward;
  head_ = (head_ + 1) % buf_.size();
  count_ = std::min(count_ + 1, buf_.size());
}

void RewardWindow::encode(ByteWriter& out) const {
  out.u64(head_);
  out.u64(count_);
  out.f64s(buf_);
}

Status RewardWindow::decode(ByteReader& in, std::size_t capacity) {
  const std::uint64_t head = in.u64("reward window head");
  const std::uint64_t count = in.u64("reward window count");
  std::vector<double> buf = in.f64s("reward window");
  if (!in.ok()) return in.status();
  if (buf.size() != capacity || head >= std::max<std::size_t>(capacity, 1) || count > capacity)
    return Status::corruption("reward window: size " + std::to_string(buf.size()) + ", head " + std::to_string(head) +
                              ", count " + std::to_string(count) + " do not fit capacity " + std::to_string(capacity));
  for (double r : buf)
    if (!(r >= 0.0 && r <= 1.0)) return Status::corruption("reward window: a reward outside [0, 1]");
  buf_ = std::move(buf);
  head_ = head, count_ = count;
  return Status::ok();
}

PairedStats paired_difference(const RewardWindow& leader, const RewardWindow& member) {
  PairedStats s;
  s.n = std::min(leader.count(), member.count());
  if (s.n == 0) return s;
  // Two passes (mean, then squared deviations): exact enough for n of a few
  // thousand differences in [-1, 1], and the same bits every run.
  double sum = 0.0;
  for (std::size_t i = 0; i < s.n; ++i) sum += leader.recent(i) - member.recent(i);
  s.mean = sum / static_cast<double>(s.n);
  double ss = 0.0;
  for (std::size_t i = 0; i < s.n; ++i) {
    const double dev = leader.recent(i) - member.recent(i) - s.mean;
    ss += dev * dev;
  }
  s.variance = s.n > 1 ? ss / static_cast<double>(s.n - 1) : 0.0;
  return s;
}

bool race_drops(const PairedStats& d, double delta_check) {
  return d.n >= 2 && d.mean - bernstein_radius(d.n, d.variance, 2.0, delta_check) > 0.0;
}

}  // namespace irithyll
