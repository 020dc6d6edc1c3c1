// The thin seam between KafkaLog and librdkafka: the few broker operations
// the log needs, so that KafkaLog's bookkeeping (names, ids, offsets, commit
// order, errors) is unit-tested against a fake without a broker
// (tests/serve/kafka_test.cpp). RdKafkaClient (rdkafka_client.cpp) is the
// real one. Internal to src/serve.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "irithyll/core/status.hpp"
#include "serve/log.hpp"

namespace irithyll::serve::detail {

struct KafkaRecord {
  std::int64_t offset = 0;
  std::string key;
  Fields headers;  // in record order
};

class KafkaClient {
 public:
  virtual ~KafkaClient() = default;
  // Starts consuming topic/partition at the group's committed offset (the
  // earliest offset when the group has none); re-assigning an assigned
  // partition rewinds it there.
  virtual Status assign(const std::string& topic, std::int32_t partition) = 0;
  virtual Status unassign(const std::string& topic, std::int32_t partition) = 0;
  // Up to `max` records of an assigned partition, waiting up to timeout_ms
  // when none is ready.
  virtual Result<std::vector<KafkaRecord>> poll(const std::string& topic, std::int32_t partition, std::size_t max,
                                                int timeout_ms) = 0;
  // Queued; flush() waits for every delivery and reports the first failure.
  virtual Status produce(const std::string& topic, std::int32_t partition, const std::string& key,
                         const Fields& headers) = 0;
  virtual Status flush() = 0;
  // Synchronous commit of the group's next offset to read.
  virtual Status commit(const std::string& topic, std::int32_t partition, std::int64_t next_offset) = 0;
  // The group's committed next offset; -1 when it has none.
  virtual Result<std::int64_t> committed(const std::string& topic, std::int32_t partition) = 0;
  // Low and high watermarks (first offset, offset after the last record).
  virtual Result<std::pair<std::int64_t, std::int64_t>> watermarks(const std::string& topic,
                                                                   std::int32_t partition) = 0;
};

}  // namespace irithyll::serve::detail
