// How the serve Log's names map onto Kafka (kafka_log.hpp has the table):
// streams to topic partitions, entry ids to offsets, fields to record
// headers, and the client configuration. Pure functions, built and tested
// with or without librdkafka. Internal to src/serve.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "irithyll/core/status.hpp"
#include "serve/kafka_log.hpp"
#include "kafka_client.hpp"

namespace irithyll::serve::detail {

struct TopicPartition {
  std::string topic;
  std::int32_t partition = 0;
  auto operator<=>(const TopicPartition&) const = default;
};

// Stream names of a prefix and partition count, and their topic partitions.
class KafkaTopics {
 public:
  KafkaTopics(const StreamNames& names, std::uint32_t partitions);
  std::optional<TopicPartition> find(std::string_view stream) const;
  Result<TopicPartition> of(std::string_view stream) const;  // InvalidArgument naming the stream
  const std::string& input_topic() const { return input_; }

 private:
  std::string input_;
  std::map<std::string, TopicPartition, std::less<>> by_stream_;
};

// Entry id "<offset + 1>-0" and back; the reverse refuses ids that are not of that form.
std::string entry_id(std::int64_t offset);
Result<std::int64_t> offset_of(std::string_view id);

// A log entry from a record (headers are the fields) and a record from fields
// (the key is the "key" field, empty when there is none).
LogEntry entry_of(const KafkaRecord& record);
KafkaRecord record_of(const Fields& fields);

// The next offset to commit after acknowledging `ids` (one past the highest);
// nullopt when ids is empty. A bad id is an InvalidArgument.
Result<std::optional<std::int64_t>> commit_offset(std::span<const std::string> ids);

// librdkafka properties of the consumer and the producer. The consumer never
// commits by itself (offsets move only after a checkpoint) and starts at the
// earliest offset of a group with none; the producer is idempotent (a retry
// never duplicates or reorders a prediction). Properties that would break
// that are refused with an InvalidArgument naming them.
using KafkaConfig = std::vector<std::pair<std::string, std::string>>;
Result<KafkaConfig> consumer_config(const KafkaOptions& options, const std::string& group);
Result<KafkaConfig> producer_config(const KafkaOptions& options);

}  // namespace irithyll::serve::detail
