// LabelWindow: see partition.hpp. Encoded as u64 count, then per sample in
// age order its name and features; decode() rebuilds the same order.
#include "irithyll/core/bytes.hpp"
#include "partition.hpp"

namespace irithyll::serve::detail {

std::size_t LabelWindow::add(const std::string& key, const std::string& id, std::vector<double> x) {
  std::string name = key + '\n' + id;
  auto it = by_name_.find(name);
  if (it != by_name_.end()) {  // a repeated id replaces the older sample
    order_.erase(it->second.seq);
    by_name_.erase(it);
  }
  const std::uint64_t seq = next_seq_++;
  order_.emplace(seq, name);
  by_name_.emplace(std::move(name), Item{seq, std::move(x)});
  std::size_t dropped = 0;
  while (by_name_.size() > capacity_) {
    by_name_.erase(order_.begin()->second);
    order_.erase(order_.begin());
    ++dropped;
  }
  return dropped;
}

bool LabelWindow::take(const std::string& key, const std::string& id, std::vector<double>& x) {
  auto it = by_name_.find(key + '\n' + id);
  if (it == by_name_.end()) return false;
  x = std::move(it->second.x);
  order_.erase(it->second.seq);
  by_name_.erase(it);
  return true;
}

std::string LabelWindow::encode() const {
  ByteWriter w;
  w.u64(order_.size());
  for (const auto& [seq, name] : order_) {
    w.str(name);
    w.f64s(by_name_.at(name).x);
  }
  const auto bytes = w.take();
  return std::string(bytes.begin(), bytes.end());
}

Status LabelWindow::decode(std::string_view bytes) {
  ByteReader r(std::span<const std::uint8_t>(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size()));
  const std::size_t n = r.read_count(16, "label window size");
  order_.clear();
  by_name_.clear();
  next_seq_ = 0;
  for (std::size_t i = 0; i < n && r.ok(); ++i) {
    std::string name = r.str("window sample");
    std::vector<double> x = r.f64s("window features");
    if (!r.ok()) break;
    const std::uint64_t seq = next_seq_++;
    order_.emplace(seq, name);
    by_name_.emplace(std::move(name), Item{seq, std::move(x)});
  }
  if (!r.ok()) return r.status();
  return Status::ok();
}

}  // namespace irithyll::serve::detail
