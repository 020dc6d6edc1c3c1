// RdKafkaClient: KafkaClient over librdkafka, and connect_kafka(). One
// consumer (manual assignment; each assigned partition read through its own
// queue, unforwarded from the consumer queue, so the worker reads partition
// by partition) and one idempotent producer whose delivery reports latch the
// first failure for flush(). Every librdkafka error becomes an IOError naming
// the operation, the topic partition and librdkafka's text.
#include <librdkafka/rdkafka.h>

#include <algorithm>
#include <deque>
#include <map>
#include <memory>

#include "serve/kafka_log.hpp"
#include "kafka_log_impl.hpp"
#include "kafka_mapping.hpp"

namespace irithyll::serve {
namespace detail {
namespace {

Status kafka_error(const std::string& what, rd_kafka_resp_err_t err) {
  return Status::io_error("kafka: " + what + ": " + rd_kafka_err2str(err));
}

std::string where(const std::string& topic, std::int32_t partition) {
  return topic + "[" + std::to_string(partition) + "]";
}

struct Handle {
  rd_kafka_t* rk = nullptr;
  ~Handle() {
    if (rk != nullptr) rd_kafka_destroy(rk);
  }
};

struct PartitionList {
  rd_kafka_topic_partition_list_t* list;
  explicit PartitionList(int n = 1) : list(rd_kafka_topic_partition_list_new(n)) {}
  ~PartitionList() { rd_kafka_topic_partition_list_destroy(list); }
  PartitionList(const PartitionList&) = delete;
  PartitionList& operator=(const PartitionList&) = delete;
};

Result<rd_kafka_t*> make_handle(rd_kafka_type_t type, const KafkaConfig& config, void* opaque,
                                void (*dr)(rd_kafka_t*, const rd_kafka_message_t*, void*)) {
  rd_kafka_conf_t* conf = rd_kafka_conf_new();
  char err[512];
  for (const auto& [name, value] : config) {
    if (rd_kafka_conf_set(conf, name.c_str(), value.c_str(), err, sizeof err) != RD_KAFKA_CONF_OK) {
      rd_kafka_conf_destroy(conf);
      return Status::invalid_argument("kafka: property '" + name + "': " + err);
    }
  }
  rd_kafka_conf_set_opaque(conf, opaque);
  if (dr != nullptr) rd_kafka_conf_set_dr_msg_cb(conf, dr);
  rd_kafka_t* rk = rd_kafka_new(type, conf, err, sizeof err);  // owns conf on success
  if (rk == nullptr) {
    rd_kafka_conf_destroy(conf);
    return Status::io_error(std::string("kafka: cannot create the client: ") + err);
  }
  return rk;
}

class RdKafkaClient final : public KafkaClient {
 public:
  RdKafkaClient(int timeout_ms) : timeout_ms_(timeout_ms) {}
  ~RdKafkaClient() override {
    for (auto& [tp, q] : queues_) rd_kafka_queue_destroy(q);
    if (consumer_.rk != nullptr) rd_kafka_consumer_close(consumer_.rk);
  }

  Status open(const KafkaConfig& consumer, const KafkaConfig& producer) {
    auto c = make_handle(RD_KAFKA_CONSUMER, consumer, this, nullptr);
    if (!c) return c.status();
    consumer_.rk = *c;
    auto p = make_handle(RD_KAFKA_PRODUCER, producer, this, &on_delivery);
    if (!p) return p.status();
    producer_.rk = *p;
    return Status::ok();
  }

  // A broker answers within the timeout, and `topic` has at least `partitions` partitions.
  Status check(const std::string& brokers, const std::string& topic, std::uint32_t partitions) {
    const rd_kafka_metadata_t* md = nullptr;
    const rd_kafka_resp_err_t err = rd_kafka_metadata(producer_.rk, 1, nullptr, &md, timeout_ms_);
    if (err != RD_KAFKA_RESP_ERR_NO_ERROR)
      return kafka_error("no broker at '" + brokers + "' answered within " + std::to_string(timeout_ms_) + " ms", err);
    Status s = Status::invalid_argument("kafka: topic '" + topic + "' does not exist (create it with " +
                                        std::to_string(partitions) + " partitions)");
    for (int i = 0; i < md->topic_cnt; ++i) {
      if (topic != md->topics[i].topic) continue;
      const int n = md->topics[i].partition_cnt;
      s = n >= static_cast<int>(partitions)
              ? Status::ok()
              : Status::invalid_argument("kafka: topic '" + topic + "' has " + std::to_string(n) +
                                         " partitions, fewer than --partitions " + std::to_string(partitions));
    }
    rd_kafka_metadata_destroy(md);
    return s;
  }

  Status assign(const std::string& topic, std::int32_t partition) override {
    const TopicPartition tp{topic, partition};
    // Dropping it first makes a re-assignment restart at the committed offset.
    stash_.erase(tp);
    if (assigned_.erase(tp) > 0) IRITHYLL_RETURN_IF_ERROR(apply_assignment());
    assigned_.insert(tp);
    IRITHYLL_RETURN_IF_ERROR(apply_assignment());
    if (queues_.find(tp) == queues_.end()) {
      rd_kafka_queue_t* q = rd_kafka_queue_get_partition(consumer_.rk, topic.c_str(), partition);
      if (q == nullptr) return Status::io_error("kafka: no queue for " + where(topic, partition));
      queues_.emplace(tp, q);
    }
    rd_kafka_queue_forward(queues_.at(tp), nullptr);  // read this partition alone
    return Status::ok();
  }

  Status unassign(const std::string& topic, std::int32_t partition) override {
    stash_.erase(TopicPartition{topic, partition});
    if (assigned_.erase(TopicPartition{topic, partition}) == 0) return Status::ok();
    return apply_assignment();
  }

  Result<std::vector<KafkaRecord>> poll(const std::string& topic, std::int32_t partition, std::size_t max,
                                        int timeout_ms) override {
    auto q = queues_.find(TopicPartition{topic, partition});
    if (q == queues_.end()) return Status::invalid_argument("kafka: " + where(topic, partition) + " is not assigned");
    // librdkafka forwards a partition's queue to the consumer queue when its
    // fetch starts, asynchronously after assign(): undo that each time, and
    // take what already went there (errors of the consumer itself, such as
    // an unknown topic, arrive there too). Those records precede the ones
    // still in the partition queue, so they are handed out first.
    rd_kafka_queue_forward(q->second, nullptr);
    while (rd_kafka_message_t* m = rd_kafka_consumer_poll(consumer_.rk, 0)) {
      const rd_kafka_resp_err_t err = m->err;
      if (err == RD_KAFKA_RESP_ERR_NO_ERROR) {
        const TopicPartition at{rd_kafka_topic_name(m->rkt), m->partition};
        if (assigned_.count(at) > 0) stash_[at].push_back(record_from(*m));
      }
      rd_kafka_message_destroy(m);
      if (err != RD_KAFKA_RESP_ERR_NO_ERROR && err != RD_KAFKA_RESP_ERR__PARTITION_EOF)
        return kafka_error("consumer", err);
    }
    std::vector<KafkaRecord> out;
    auto& early = stash_[q->first];
    while (!early.empty() && out.size() < max) {
      out.push_back(std::move(early.front()));
      early.pop_front();
    }
    if (out.size() >= max) return out;
    std::vector<rd_kafka_message_t*> batch(max - out.size());
    const ssize_t n = rd_kafka_consume_batch_queue(q->second, out.empty() ? timeout_ms : 0, batch.data(), batch.size());
    if (n < 0) return kafka_error("read " + where(topic, partition), rd_kafka_last_error());
    Status failed;
    for (ssize_t i = 0; i < n; ++i) {
      rd_kafka_message_t* m = batch[static_cast<std::size_t>(i)];
      if (m->err == RD_KAFKA_RESP_ERR_NO_ERROR && failed.is_ok()) {
        out.push_back(record_from(*m));
      } else if (m->err != RD_KAFKA_RESP_ERR__PARTITION_EOF && failed.is_ok()) {
        failed = kafka_error("read " + where(topic, partition), m->err);
      }
      rd_kafka_message_destroy(m);
    }
    if (!failed.is_ok()) return failed;
    return out;
  }

// librdkafka's RD_KAFKA_V_* macros type-check their arguments with GNU
// statement expressions, which clang's -Wpedantic reports at every use.
#if defined(__clang__)
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wgnu-statement-expression"
#endif
  Status produce(const std::string& topic, std::int32_t partition, const std::string& key,
                 const Fields& headers) override {
    rd_kafka_headers_t* h = rd_kafka_headers_new(headers.size());
    for (const auto& [name, value] : headers)
      rd_kafka_header_add(h, name.data(), static_cast<ssize_t>(name.size()), value.data(),
                          static_cast<ssize_t>(value.size()));
    rd_kafka_resp_err_t err = rd_kafka_producev(
        producer_.rk, RD_KAFKA_V_TOPIC(topic.c_str()), RD_KAFKA_V_PARTITION(partition),
        RD_KAFKA_V_KEY(key.data(), key.size()), RD_KAFKA_V_HEADERS(h), RD_KAFKA_V_MSGFLAGS(RD_KAFKA_MSG_F_COPY),
        RD_KAFKA_V_END);
    if (err == RD_KAFKA_RESP_ERR__QUEUE_FULL) {  // wait for deliveries once, then retry
      rd_kafka_poll(producer_.rk, timeout_ms_);
      err = rd_kafka_producev(producer_.rk, RD_KAFKA_V_TOPIC(topic.c_str()), RD_KAFKA_V_PARTITION(partition),
                              RD_KAFKA_V_KEY(key.data(), key.size()), RD_KAFKA_V_HEADERS(h),
                              RD_KAFKA_V_MSGFLAGS(RD_KAFKA_MSG_F_COPY), RD_KAFKA_V_END);
    }
    if (err != RD_KAFKA_RESP_ERR_NO_ERROR) {
      rd_kafka_headers_destroy(h);  // owned by the message only on success
      return kafka_error("produce to " + where(topic, partition), err);
    }
    return Status::ok();
  }
#if defined(__clang__)
#pragma clang diagnostic pop
#endif

  Status flush() override {
    const rd_kafka_resp_err_t err = rd_kafka_flush(producer_.rk, timeout_ms_);
    Status s = delivery_;
    delivery_ = Status::ok();
    if (!s.is_ok()) return s;
    if (err != RD_KAFKA_RESP_ERR_NO_ERROR) return kafka_error("flush", err);
    return Status::ok();
  }

  Status commit(const std::string& topic, std::int32_t partition, std::int64_t next_offset) override {
    PartitionList l;
    rd_kafka_topic_partition_list_add(l.list, topic.c_str(), partition)->offset = next_offset;
    const rd_kafka_resp_err_t err = rd_kafka_commit(consumer_.rk, l.list, 0);
    if (err != RD_KAFKA_RESP_ERR_NO_ERROR) return kafka_error("commit " + where(topic, partition), err);
    return Status::ok();
  }

  Result<std::int64_t> committed(const std::string& topic, std::int32_t partition) override {
    PartitionList l;
    rd_kafka_topic_partition_t* tp = rd_kafka_topic_partition_list_add(l.list, topic.c_str(), partition);
    const rd_kafka_resp_err_t err = rd_kafka_committed(consumer_.rk, l.list, timeout_ms_);
    if (err != RD_KAFKA_RESP_ERR_NO_ERROR) return kafka_error("committed offset of " + where(topic, partition), err);
    if (tp->err != RD_KAFKA_RESP_ERR_NO_ERROR) return kafka_error("committed offset of " + where(topic, partition), tp->err);
    return tp->offset < 0 ? std::int64_t{-1} : tp->offset;
  }

  Result<std::pair<std::int64_t, std::int64_t>> watermarks(const std::string& topic, std::int32_t partition) override {
    int64_t lo = 0, hi = 0;
    const rd_kafka_resp_err_t err =
        rd_kafka_query_watermark_offsets(consumer_.rk, topic.c_str(), partition, &lo, &hi, timeout_ms_);
    if (err != RD_KAFKA_RESP_ERR_NO_ERROR) return kafka_error("watermarks of " + where(topic, partition), err);
    return std::pair<std::int64_t, std::int64_t>{lo, hi};
  }

 private:
  static KafkaRecord record_from(const rd_kafka_message_t& m) {
    KafkaRecord r;
    r.offset = m.offset;
    if (m.key != nullptr) r.key.assign(static_cast<const char*>(m.key), m.key_len);
    rd_kafka_headers_t* h = nullptr;
    if (rd_kafka_message_headers(&m, &h) == RD_KAFKA_RESP_ERR_NO_ERROR && h != nullptr) {
      const char* name = nullptr;
      const void* value = nullptr;
      size_t size = 0;
      for (size_t i = 0; rd_kafka_header_get_all(h, i, &name, &value, &size) == RD_KAFKA_RESP_ERR_NO_ERROR; ++i)
        r.headers.emplace_back(name, value == nullptr ? std::string() : std::string(static_cast<const char*>(value), size));
    }
    return r;
  }

  static void on_delivery(rd_kafka_t*, const rd_kafka_message_t* m, void* opaque) {
    auto* self = static_cast<RdKafkaClient*>(opaque);
    if (m->err != RD_KAFKA_RESP_ERR_NO_ERROR && self->delivery_.is_ok())
      self->delivery_ = kafka_error("delivery to " + std::string(rd_kafka_topic_name(m->rkt)) + "[" +
                                        std::to_string(m->partition) + "]",
                                    m->err);
  }

  Status apply_assignment() {
    PartitionList l(static_cast<int>(std::max<std::size_t>(assigned_.size(), 1)));
    for (const auto& tp : assigned_)
      rd_kafka_topic_partition_list_add(l.list, tp.topic.c_str(), tp.partition)->offset = RD_KAFKA_OFFSET_STORED;
    const rd_kafka_resp_err_t err = rd_kafka_assign(consumer_.rk, l.list);
    if (err != RD_KAFKA_RESP_ERR_NO_ERROR) return kafka_error("assign", err);
    for (const auto& tp : assigned_)
      if (auto q = queues_.find(tp); q != queues_.end()) rd_kafka_queue_forward(q->second, nullptr);
    return Status::ok();
  }

  int timeout_ms_;
  Handle consumer_, producer_;
  std::set<TopicPartition> assigned_;
  std::map<TopicPartition, rd_kafka_queue_t*> queues_;
  std::map<TopicPartition, std::deque<KafkaRecord>> stash_;  // records that reached the consumer queue
  Status delivery_;
};

}  // namespace
}  // namespace detail

Result<std::unique_ptr<Log>> connect_kafka(const KafkaOptions& options, const StreamNames& names,
                                           std::uint32_t partitions, std::shared_ptr<Log> state) {
  if (partitions == 0) return Status::invalid_argument("kafka: partitions must be >= 1");
  auto consumer = detail::consumer_config(options, names.group());
  if (!consumer) return consumer.status();
  auto producer = detail::producer_config(options);
  if (!producer) return producer.status();
  auto client = std::make_unique<detail::RdKafkaClient>(options.timeout_ms);
  IRITHYLL_RETURN_IF_ERROR(client->open(*consumer, *producer));
  const detail::KafkaTopics topics(names, partitions);
  IRITHYLL_RETURN_IF_ERROR(client->check(options.brokers, topics.input_topic(), partitions));
  return std::unique_ptr<Log>(
      std::make_unique<detail::KafkaLog>(std::move(client), std::move(state), names, partitions));
}

bool kafka_available() { return true; }

}  // namespace irithyll::serve
