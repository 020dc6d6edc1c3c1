// Built instead of rdkafka_client.cpp when librdkafka is absent: the CLI
// still builds and says why `serve --log kafka` cannot run.
#include "serve/kafka_log.hpp"

namespace irithyll::serve {

Result<std::unique_ptr<Log>> connect_kafka(const KafkaOptions& /*options*/, const StreamNames& /*names*/,
                                           std::uint32_t /*partitions*/, std::shared_ptr<Log> /*state*/) {
  return Status::not_supported("this build has no Kafka support (install librdkafka-dev and reconfigure)");
}

bool kafka_available() { return false; }

}  // namespace irithyll::serve
