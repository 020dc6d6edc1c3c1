// produce(): see produce.hpp.
#include "serve/produce.hpp"

#include <deque>
#include <vector>

namespace irithyll::serve {
namespace {

std::uint64_t splitmix64(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

struct Label {
  std::string key, id;
  double y;
};

}  // namespace

std::string sample_key(std::uint64_t index, std::uint64_t keys, std::uint64_t seed) {
  return "k" + std::to_string(splitmix64(seed * 0x100000001b3ull ^ index) % (keys == 0 ? 1 : keys));
}

Result<ProduceReport> produce(LogSink& sink, Stream& stream, const ProduceOptions& options,
                              std::optional<std::uint64_t> max_samples, KeySource* keys) {
  if (options.partitions == 0) return Status::invalid_argument("partitions must be >= 1");
  if (options.keys == 0) return Status::invalid_argument("keys must be >= 1");
  ProduceReport report;
  std::vector<double> x(stream.schema().n_features());
  std::deque<Label> labels;
  std::size_t since_flush = 0;
  auto send_label = [&]() {
    const Label& l = labels.front();
    sink.append(options.names.input(partition_of(l.key, options.partitions)), label_fields(l.key, l.id, l.y));
    labels.pop_front();
    ++report.labels;
    ++since_flush;
  };
  double y = 0.0;
  while (!max_samples || report.samples < *max_samples) {
    if (!stream.next(x, y)) {
      if (!stream.status().is_ok()) return stream.status();
      break;
    }
    const std::uint64_t index = options.first_index + report.samples;
    std::string key;
    if (keys != nullptr) {
      auto k = keys->next_key();
      if (!k) return k.status();
      key = std::move(*k);
    } else {
      key = sample_key(index, options.keys, options.seed);
    }
    const std::string id = "s" + std::to_string(index);
    const std::string target = options.names.input(partition_of(key, options.partitions));
    if (options.label_delay == 0) {
      sink.append(target, sample_fields(id, key, x, y));
    } else {
      sink.append(target, sample_fields(id, key, x, std::nullopt));
      labels.push_back(Label{key, id, y});
      if (labels.size() > options.label_delay) send_label();
    }
    ++report.samples;
    if (++since_flush >= options.flush_every) {
      IRITHYLL_RETURN_IF_ERROR(sink.flush());
      since_flush = 0;
    }
  }
  while (!labels.empty()) send_label();
  IRITHYLL_RETURN_IF_ERROR(sink.flush());
  return report;
}

}  // namespace irithyll::serve
