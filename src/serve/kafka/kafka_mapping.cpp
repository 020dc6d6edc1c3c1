// Kafka name, id, record and configuration mapping: see kafka_mapping.hpp.
#include "kafka_mapping.hpp"

#include <algorithm>

namespace irithyll::serve::detail {

KafkaTopics::KafkaTopics(const StreamNames& names, std::uint32_t partitions) : input_(names.prefix + ".in") {
  const std::string output = names.prefix + ".out";
  for (std::uint32_t p = 0; p < partitions; ++p) {
    by_stream_.emplace(names.input(p), TopicPartition{input_, static_cast<std::int32_t>(p)});
    by_stream_.emplace(names.output(p), TopicPartition{output, static_cast<std::int32_t>(p)});
  }
  by_stream_.emplace(names.dead(), TopicPartition{names.prefix + ".dead", 0});
}

std::optional<TopicPartition> KafkaTopics::find(std::string_view stream) const {
  auto it = by_stream_.find(stream);
  if (it == by_stream_.end()) return std::nullopt;
  return it->second;
}

Result<TopicPartition> KafkaTopics::of(std::string_view stream) const {
  auto tp = find(stream);
  if (!tp) return Status::invalid_argument("kafka: stream '" + std::string(stream) + "' maps to no topic partition");
  return *tp;
}

std::string entry_id(std::int64_t offset) { return EntryId{static_cast<std::uint64_t>(offset) + 1, 0}.to_string(); }

Result<std::int64_t> offset_of(std::string_view id) {
  const auto parsed = EntryId::parse(id);
  if (!parsed || parsed->ms == 0 || parsed->seq != 0 || parsed->ms > static_cast<std::uint64_t>(INT64_MAX))
    return Status::invalid_argument("kafka: '" + std::string(id) + "' is not an entry id of the form <offset+1>-0");
  return static_cast<std::int64_t>(parsed->ms - 1);
}

LogEntry entry_of(const KafkaRecord& record) { return LogEntry{entry_id(record.offset), record.headers}; }

KafkaRecord record_of(const Fields& fields) {
  KafkaRecord r;
  r.headers = fields;
  for (const auto& [name, value] : fields)
    if (name == "key") {
      r.key = value;
      break;
    }
  return r;
}

Result<std::optional<std::int64_t>> commit_offset(std::span<const std::string> ids) {
  std::optional<std::int64_t> next;
  for (const auto& id : ids) {
    auto offset = offset_of(id);
    if (!offset) return offset.status();
    next = std::max(next.value_or(0), *offset + 1);
  }
  return next;
}

namespace {

Result<KafkaConfig> with_extras(KafkaConfig base, const KafkaOptions& options,
                                std::initializer_list<std::string_view> fixed) {
  if (options.brokers.empty()) return Status::invalid_argument("kafka: no brokers given (--brokers HOST:PORT)");
  if (options.timeout_ms <= 0) return Status::invalid_argument("kafka: the timeout must be > 0 ms");
  for (const auto& [name, value] : options.properties) {
    if (std::find(fixed.begin(), fixed.end(), name) != fixed.end() || name == "bootstrap.servers")
      return Status::invalid_argument("kafka: property '" + name + "' is set by irithyll serve (exactly-once "
                                      "depends on it) and cannot be overridden");
    base.emplace_back(name, value);
  }
  return base;
}

}  // namespace

Result<KafkaConfig> consumer_config(const KafkaOptions& options, const std::string& group) {
  const std::string timeout = std::to_string(options.timeout_ms);
  return with_extras({{"bootstrap.servers", options.brokers},
                      {"group.id", group},
                      {"enable.auto.commit", "false"},
                      {"enable.auto.offset.store", "false"},
                      {"auto.offset.reset", "earliest"},
                      {"enable.partition.eof", "false"},
                      {"socket.timeout.ms", timeout}},
                     options, {"group.id", "enable.auto.commit", "enable.auto.offset.store", "auto.offset.reset",
                               "isolation.level"});
}

Result<KafkaConfig> producer_config(const KafkaOptions& options) {
  return with_extras({{"bootstrap.servers", options.brokers},
                      {"enable.idempotence", "true"},
                      {"acks", "all"},
                      {"message.timeout.ms", std::to_string(std::max(options.timeout_ms, 1000))},
                      {"socket.timeout.ms", std::to_string(options.timeout_ms)}},
                     options, {"enable.idempotence", "acks", "max.in.flight.requests.per.connection"});
}

}  // namespace irithyll::serve::detail
