// Empirical-Bernstein racing on paired rewards (Maurer & Pontil 2009, Thm 4;
// Audibert, Munos & Szepesvari 2009): the statistics behind `auto`.
//
// Every member of a race scores every sample, so two members' rewards are
// paired in time. The race compares the leader with each other member on
// the difference d_t = r_leader,t - r_member,t over the samples both have
// seen (the last min(n_leader, n_member) of a shared window). With n i.i.d.
// differences in [-1, 1] (range R = 2) and sample variance V, with
// probability at least 1 - delta
//
//   E[d] >= mean(d) - sqrt(2 V ln(2/delta) / n) - 7 R ln(2/delta) / (3 (n - 1)),
//
// so a member whose difference has a positive lower bound is worse than the
// leader with that confidence, and the race drops it. Pairing makes the
// bound tight when the members agree on most samples (their rewards are
// strongly correlated); comparing two separate intervals, as unpaired
// racing does, would need a gap several times larger.
//
// Anytime confidence: the race checks at most K - 1 pairs at each check k
// (k = 1, 2, ...) and gives each one delta_k = delta / ((K - 1) k (k + 1)),
// so over the whole stream the chance of ever dropping a member that is at
// least as good as the leader is at most sum_k delta / (k (k + 1)) = delta,
// for i.i.d. reward pairs (a stationary stream). Windows overlap between
// checks; the union bound needs no independence between them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "irithyll/core/bytes.hpp"
#include "irithyll/core/status.hpp"

namespace irithyll {

// Maurer & Pontil's one-sided radius for n samples of range `range` with
// sample variance `variance` (divisor n - 1), at confidence 1 - delta.
// +inf for n < 2.
double bernstein_radius(std::size_t n, double variance, double range, double delta);

// delta_k for check k >= 1 of a race among `members` (see the header).
double race_check_delta(double delta, std::size_t members, std::uint64_t check);

// The last `capacity` rewards of one member, oldest first when read with
// at(); fixed storage after construction.
class RewardWindow {
 public:
  RewardWindow() = default;
  explicit RewardWindow(std::size_t capacity) : buf_(capacity, 0.0) {}
  void push(double reward);
  void clear() { head_ = 0, count_ = 0; }
  std::size_t capacity() const { return buf_.size(); }
  std::size_t count() const { return count_; }
  // The i-th most recent reward, i < count() (0 = the newest).
  double recent(std::size_t i) const { return buf_[(head_ + buf_.size() - 1 - i) % buf_.size()]; }

  void encode(ByteWriter& out) const;
  // Refuses a capacity other than `capacity` and a count past it.
  Status decode(ByteReader& in, std::size_t capacity);

 private:
  std::vector<double> buf_;
  std::size_t head_ = 0;   // where the next reward goes
  std::size_t count_ = 0;
};

// The paired comparison of a leader and a member over their last
// min(count) rewards: mean and sample variance of the differences.
struct PairedStats {
  std::size_t n = 0;
  double mean = 0.0;
  double variance = 0.0;
};
PairedStats paired_difference(const RewardWindow& leader, const RewardWindow& member);

// True when the leader beats the member with confidence 1 - delta_check:
// the lower Bernstein bound on E[leader - member] is above zero.
bool race_drops(const PairedStats& d, double delta_check);

}  // namespace irithyll
