// KafkaLog: the serve Log over a KafkaClient (source and sink) and another
// Log used as the StateStore (leases, checkpoints). kafka_log.hpp has the
// mapping; this is its bookkeeping, independent of librdkafka so tests drive
// it through a fake client. Internal to src/serve.
#pragma once

#include <map>
#include <memory>
#include <set>

#include "serve/log.hpp"
#include "kafka_client.hpp"
#include "kafka_mapping.hpp"

namespace irithyll::serve::detail {

class KafkaLog final : public Log {
 public:
  KafkaLog(std::unique_ptr<KafkaClient> client, std::shared_ptr<Log> state, const StreamNames& names,
           std::uint32_t partitions);

  // (Re)opens the partition at the group's committed offset: the worker calls
  // this when it takes a partition, so entries after its checkpoint are
  // delivered again even when this process read them before.
  Status create_group(std::string_view stream, std::string_view group) override;
  // start ">": the next records of the partition; any other start (the
  // worker's replay of a consumer's pending list): none, since Kafka keeps no
  // such list and create_group already rewound to the committed offset.
  Result<std::vector<LogEntry>> read_group(std::string_view stream, std::string_view group, std::string_view consumer,
                                           std::string_view start, std::size_t count, int block_ms) override;
  // Commits one past the highest id (the worker acknowledges only a prefix of
  // what it read, after the checkpoint that covers it). Never moves backwards.
  Status ack(std::string_view stream, std::string_view group, std::span<const std::string> ids) override;
  Result<std::uint64_t> lag(std::string_view stream, std::string_view group) override;

  void append(std::string_view stream, const Fields& fields) override;
  Status flush() override;
  Result<std::vector<LogEntry>> range(std::string_view stream, std::size_t count) override;
  Result<std::uint64_t> length(std::string_view stream) override;

  Result<bool> acquire_lease(std::string_view key, std::string_view token, int ttl_ms) override;
  Result<bool> renew_lease(std::string_view key, std::string_view token, int ttl_ms) override;
  Status release_lease(std::string_view key, std::string_view token) override;
  Result<bool> commit(std::string_view lease_key, std::string_view token, int ttl_ms, std::string_view hash,
                      const Fields& values) override;
  Result<std::optional<std::string>> hash_get(std::string_view hash, std::string_view field) override;
  Result<Fields> hash_get_all(std::string_view hash) override;

  // The lease check and the read are not atomic here (two systems), and need
  // not be: a Kafka read changes nothing another consumer sees (only commits
  // do, and those follow a fenced checkpoint). A lost lease unassigns.
  Result<std::optional<std::vector<LogEntry>>> read_owned(std::string_view lease_key, std::string_view token,
                                                          std::string_view stream, std::string_view group,
                                                          std::string_view consumer, std::string_view start,
                                                          std::size_t count) override;
  Result<OwnedValue> hash_get_owned(std::string_view lease_key, std::string_view token, std::string_view hash,
                                    std::string_view field) override;

 private:
  Status check_group(std::string_view group) const;
  Result<Log*> state();

  std::unique_ptr<KafkaClient> client_;
  std::shared_ptr<Log> state_;
  StreamNames names_;
  KafkaTopics topics_;
  std::map<TopicPartition, std::int64_t> position_;   // assigned: next offset to read
  std::map<TopicPartition, std::int64_t> committed_;  // the highest offset this log committed
  Status append_error_;
};

}  // namespace irithyll::serve::detail
