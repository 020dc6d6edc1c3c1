// KafkaLog: see kafka_log_impl.hpp and kafka_log.hpp.
#include "kafka_log_impl.hpp"

namespace irithyll::serve::detail {

KafkaLog::KafkaLog(std::unique_ptr<KafkaClient> client, std::shared_ptr<Log> state, const StreamNames& names,
                   std::uint32_t partitions)
    : client_(std::move(client)), state_(std::move(state)), names_(names), topics_(names, partitions) {}

Status KafkaLog::check_group(std::string_view group) const {
  if (group != names_.group())
    return Status::invalid_argument("kafka: this log consumes as group '" + names_.group() + "', not '" +
                                    std::string(group) + "'");
  return Status::ok();
}

Result<Log*> KafkaLog::state() {
  if (state_ == nullptr) return Status::not_supported("kafka: this log has no state store (leases, checkpoints)");
  return state_.get();
}

Status KafkaLog::create_group(std::string_view stream, std::string_view group) {
  IRITHYLL_RETURN_IF_ERROR(check_group(group));
  auto tp = topics_.of(stream);
  if (!tp) return tp.status();
  IRITHYLL_RETURN_IF_ERROR(client_->assign(tp->topic, tp->partition));
  auto committed = client_->committed(tp->topic, tp->partition);
  if (!committed) return committed.status();
  std::int64_t start = *committed;
  if (start < 0) {  // no committed offset: the earliest record
    auto marks = client_->watermarks(tp->topic, tp->partition);
    if (!marks) return marks.status();
    start = marks->first;
  }
  position_[*tp] = start;
  return Status::ok();
}

Result<std::vector<LogEntry>> KafkaLog::read_group(std::string_view stream, std::string_view group,
                                                   std::string_view /*consumer*/, std::string_view start,
                                                   std::size_t count, int block_ms) {
  IRITHYLL_RETURN_IF_ERROR(check_group(group));
  auto tp = topics_.of(stream);
  if (!tp) return tp.status();
  if (start != ">") return std::vector<LogEntry>{};
  auto pos = position_.find(*tp);
  if (pos == position_.end())
    return Status::invalid_argument("kafka: read of '" + std::string(stream) + "' before create_group assigned it");
  auto records = client_->poll(tp->topic, tp->partition, count, block_ms);
  if (!records) return records.status();
  std::vector<LogEntry> out;
  out.reserve(records->size());
  for (const auto& r : *records) {
    // A record below the position is a redelivery the client should not
    // make; never hand the worker an entry twice or out of order.
    if (r.offset < pos->second) continue;
    pos->second = r.offset + 1;
    out.push_back(entry_of(r));
  }
  return out;
}

Status KafkaLog::ack(std::string_view stream, std::string_view group, std::span<const std::string> ids) {
  IRITHYLL_RETURN_IF_ERROR(check_group(group));
  auto tp = topics_.of(stream);
  if (!tp) return tp.status();
  auto next = commit_offset(ids);
  if (!next) return next.status();
  if (!*next) return Status::ok();
  auto it = committed_.find(*tp);
  if (it != committed_.end() && it->second >= **next) return Status::ok();
  IRITHYLL_RETURN_IF_ERROR(client_->commit(tp->topic, tp->partition, **next));
  committed_[*tp] = **next;
  return Status::ok();
}

Result<std::uint64_t> KafkaLog::lag(std::string_view stream, std::string_view group) {
  IRITHYLL_RETURN_IF_ERROR(check_group(group));
  auto tp = topics_.of(stream);
  if (!tp) return tp.status();
  auto marks = client_->watermarks(tp->topic, tp->partition);
  if (!marks) return marks.status();
  std::int64_t from = marks->first;
  if (auto pos = position_.find(*tp); pos != position_.end()) {
    from = pos->second;
  } else {
    auto committed = client_->committed(tp->topic, tp->partition);
    if (!committed) return committed.status();
    if (*committed >= 0) from = *committed;
  }
  return static_cast<std::uint64_t>(std::max<std::int64_t>(0, marks->second - from));
}

void KafkaLog::append(std::string_view stream, const Fields& fields) {
  auto tp = topics_.of(stream);
  Status s = tp ? Status::ok() : tp.status();
  if (s.is_ok()) {
    const KafkaRecord r = record_of(fields);
    s = client_->produce(tp->topic, tp->partition, r.key, r.headers);
  }
  if (!s.is_ok() && append_error_.is_ok()) append_error_ = s;
}

Status KafkaLog::flush() {
  Status s = client_->flush();
  if (!append_error_.is_ok()) {
    s = append_error_;
    append_error_ = Status::ok();
  }
  return s;
}

Result<std::vector<LogEntry>> KafkaLog::range(std::string_view stream, std::size_t /*count*/) {
  return Status::not_supported("kafka: range of '" + std::string(stream) +
                               "' is not offered; read the topic with any Kafka consumer");
}

Result<std::uint64_t> KafkaLog::length(std::string_view stream) {
  auto tp = topics_.of(stream);
  if (!tp) return tp.status();
  auto marks = client_->watermarks(tp->topic, tp->partition);
  if (!marks) return marks.status();
  return static_cast<std::uint64_t>(std::max<std::int64_t>(0, marks->second - marks->first));
}

Result<bool> KafkaLog::acquire_lease(std::string_view key, std::string_view token, int ttl_ms) {
  auto s = state();
  if (!s) return s.status();
  return (*s)->acquire_lease(key, token, ttl_ms);
}

Result<bool> KafkaLog::renew_lease(std::string_view key, std::string_view token, int ttl_ms) {
  auto s = state();
  if (!s) return s.status();
  return (*s)->renew_lease(key, token, ttl_ms);
}

Status KafkaLog::release_lease(std::string_view key, std::string_view token) {
  auto s = state();
  if (!s) return s.status();
  return (*s)->release_lease(key, token);
}

Result<bool> KafkaLog::commit(std::string_view lease_key, std::string_view token, int ttl_ms, std::string_view hash,
                              const Fields& values) {
  auto s = state();
  if (!s) return s.status();
  return (*s)->commit(lease_key, token, ttl_ms, hash, values);
}

Result<std::optional<std::string>> KafkaLog::hash_get(std::string_view hash, std::string_view field) {
  auto s = state();
  if (!s) return s.status();
  return (*s)->hash_get(hash, field);
}

Result<Fields> KafkaLog::hash_get_all(std::string_view hash) {
  auto s = state();
  if (!s) return s.status();
  return (*s)->hash_get_all(hash);
}

Result<std::optional<std::vector<LogEntry>>> KafkaLog::read_owned(std::string_view lease_key, std::string_view token,
                                                                  std::string_view stream, std::string_view group,
                                                                  std::string_view consumer, std::string_view start,
                                                                  std::size_t count) {
  auto s = state();
  if (!s) return s.status();
  auto tp = topics_.of(stream);
  if (!tp) return tp.status();
  // The fenced read of the partition's "__last": only its lease check matters here.
  auto held = (*s)->hash_get_owned(lease_key, token, names_.checkpoint(static_cast<std::uint32_t>(tp->partition)),
                                   "__last");
  if (!held) return held.status();
  if (!held->held) {
    if (position_.erase(*tp) > 0) IRITHYLL_RETURN_IF_ERROR(client_->unassign(tp->topic, tp->partition));
    return std::optional<std::vector<LogEntry>>{};
  }
  auto read = read_group(stream, group, consumer, start, count, 0);
  if (!read) return read.status();
  return std::optional<std::vector<LogEntry>>{std::move(*read)};
}

Result<Log::OwnedValue> KafkaLog::hash_get_owned(std::string_view lease_key, std::string_view token,
                                                 std::string_view hash, std::string_view field) {
  auto s = state();
  if (!s) return s.status();
  return (*s)->hash_get_owned(lease_key, token, hash, field);
}

}  // namespace irithyll::serve::detail
