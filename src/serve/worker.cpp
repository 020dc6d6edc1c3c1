// Worker: see worker.hpp for the contract and docs/serve.md for the design.
//
// One poll() round, in order: take free partitions (at most max_partitions),
// renew leases every lease_ms / 3 (a refused renewal drops the partition's
// state unsaved: its new owner replays from the last checkpoint), then per
// owned partition read one batch, process it, flush the predictions, and
// checkpoint when due. Every step is bounded: one read of at most `batch`
// entries per partition per round.
#include "serve/worker.hpp"

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <chrono>
#include <cstdio>
#include <map>
#include <random>
#include <thread>

#include "irithyll/core/bytes.hpp"
#include "irithyll/model_file.hpp"
#include "irithyll/pipeline_spec.hpp"
#include "partition.hpp"
#include "serve/anomaly_model.hpp"

namespace irithyll::serve {

using Clock = std::chrono::steady_clock;
using detail::KeySlot;
using detail::Partition;

namespace {

constexpr std::string_view kLastField = "__last";
constexpr std::string_view kWindowField = "__window";
// Entries processed between sends of the buffered predictions: often enough
// that the log works beside the worker, seldom enough that a send (one write
// call) stays a small share of the entries' cost.
constexpr std::size_t kSendEvery = 64;
std::string key_field(std::string_view key) { return "k:" + std::string(key); }

double ms_since(Clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

// Nonce: random_device where it is random, mixed with a process-wide
// counter, the clock and an address (random_device may be a fixed sequence
// on some platforms); the counter alone keeps two Workers of one process apart.
std::string unique_token(const std::string& token) {
  static std::atomic<std::uint64_t> made{0};
  std::random_device rd;
  std::uint64_t nonce = (static_cast<std::uint64_t>(rd()) << 32) ^ rd();
  nonce ^= static_cast<std::uint64_t>(Clock::now().time_since_epoch().count()) * 0x9e3779b97f4a7c15ull;
  nonce ^= static_cast<std::uint64_t>(reinterpret_cast<std::uintptr_t>(&made)) >> 4;
  nonce += made.fetch_add(1) * 0xbf58476d1ce4e5b9ull;
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(nonce));
  return token + "#" + hex;
}

}  // namespace

namespace {
constexpr std::string_view kRecordTag = "IRK2";
constexpr std::size_t kRecordHeader = 4 + 3 * 8;
}  // namespace

std::string encode_key_record(std::uint64_t learned, EntryId position, std::span<const std::uint8_t> model) {
  ByteWriter w;
  w.bytes(std::span(reinterpret_cast<const std::uint8_t*>(kRecordTag.data()), kRecordTag.size()));
  w.u64(learned);
  w.u64(position.ms);
  w.u64(position.seq);
  std::string out;
  out.reserve(kRecordHeader + model.size());
  out.append(reinterpret_cast<const char*>(w.data().data()), w.size());
  out.append(reinterpret_cast<const char*>(model.data()), model.size());
  return out;
}

Result<KeyRecord> decode_key_record(std::string_view bytes) {
  const auto* data = reinterpret_cast<const std::uint8_t*>(bytes.data());
  KeyRecord rec;
  // The first layout: u64 count, then the IRCK container.
  if (bytes.size() >= 12 && bytes.substr(8, 4) == "IRCK") {
    rec.learned = ByteReader(std::span(data, 8)).u64();
    rec.model.assign(data + 8, data + bytes.size());
    return rec;
  }
  if (bytes.size() < kRecordHeader || bytes.substr(0, 4) != kRecordTag)
    return Status::corruption("key record: no 'IRK2' header (" + std::to_string(bytes.size()) + " bytes)");
  ByteReader r(std::span(data + 4, kRecordHeader - 4));
  rec.learned = r.u64("learned count");
  EntryId position;
  position.ms = r.u64("position ms");
  position.seq = r.u64("position seq");
  rec.position = position;
  rec.model.assign(data + kRecordHeader, data + bytes.size());
  return rec;
}

struct Worker::Rep {
  Log& log;
  WorkerConfig config;
  MessageShape shape;
  std::map<std::uint32_t, std::unique_ptr<Partition>> owned;
  WorkerMetrics m;
  Clock::time_point last_acquire{};
  bool acquired_once = false;

  Rep(Log& l, WorkerConfig c) : log(l), config(std::move(c)) {}

  Status open(std::uint32_t p);
  // A fresh model for a key, its checkpoint bytes, and those bytes read back:
  // a catalogue learner, or under config.anomaly a detector (AnomalyModel).
  Result<std::unique_ptr<Learner>> new_model() const;
  std::vector<std::uint8_t> encode_model(const Learner& model) const;
  Result<std::unique_ptr<Learner>> decode_model(std::span<const std::uint8_t> bytes) const;
  Result<KeySlot*> slot(Partition& part, const std::string& key);
  void learn(const EntryId& entry, KeySlot& s, std::span<const double> x, double y, bool joined) {
    s.model->learn_one(x, y);
    ++s.learned;
    if (!s.unsaved.dirty) s.unsaved = {true, entry, Clock::now(), false};
    s.unsaved.joined = s.unsaved.joined || joined;
    ++m.learned;
  }
  // One prediction (or anomaly score) on the partition's output stream, from
  // borrowed text: no strings or field lists are built per sample.
  void publish(const Partition& part, const Message& msg, double value) {
    NumberText text;
    const FieldView fields[] = {{"id", msg.id}, {"key", msg.key}, {"p", format_number(value, text)}};
    log.append_borrowed(part.output, fields);
    ++m.predictions;
  }
  bool key_due(const std::string& key, const KeySlot& s, Clock::time_point now) const;
  void dead_letter(std::uint32_t p, const LogEntry& e, const std::string& reason);
  Status process(Partition& part, const LogEntry& e);
  // False: the lease is lost and the partition dropped. `all`: write every
  // changed key, due or not (shutdown, replay bound).
  Result<bool> checkpoint(Partition& part, bool all);
  Status renew_due();
  Status acquire_and_renew();
};

Result<std::unique_ptr<Worker>> Worker::make(Log& log, WorkerConfig config) {
  if (config.partitions == 0) return Status::invalid_argument("partitions must be >= 1");
  if (config.context.n_features == 0) return Status::invalid_argument("the feature count must be >= 1");
  if (config.max_keys == 0) return Status::invalid_argument("max-keys must be >= 1");
  if (config.batch == 0) return Status::invalid_argument("batch must be >= 1");
  if (config.lease_ms < 30) return Status::invalid_argument("lease-ms must be >= 30");
  if (config.token.empty()) return Status::invalid_argument("a worker needs a lease token");
  // The lease token is made unique per Worker by construction: the given
  // token, then '#' and a random 64-bit nonce. Why: the token is the fence.
  // Two workers holding one token (an operator's copied command line) each
  // pass the other's lease checks: the one whose lease lapsed keeps renewing
  // and committing a lease its twin re-took, both learn the same partition,
  // and entries are learned twice or skipped. Why not refuse a live token at
  // start instead: that needs a registry with its own lease, and a worker
  // killed and restarted with the same --token would be refused until the
  // registration lapsed, while a per-instance nonce costs nothing and cannot
  // collide. The given token stays the prefix, so the lease's value still
  // names the host or operator that holds it.
  config.token = unique_token(config.token);
  auto rep = std::make_unique<Rep>(log, std::move(config));
  auto probe = rep->new_model();
  if (!probe) return probe.status();
  rep->shape = MessageShape{rep->config.context.n_features, rep->config.context.task, rep->config.context.n_classes};
  if (rep->config.max_partitions == 0) rep->config.max_partitions = rep->config.partitions;
  return std::unique_ptr<Worker>(new Worker(std::move(rep)));
}

Result<std::unique_ptr<Learner>> Worker::Rep::new_model() const {
  // A pipeline spec ("standard_scaler|linear_regression") builds its steps for
  // the message width; its checkpoint is the catalogue's "pipeline" record.
  if (!config.anomaly && is_pipeline_spec(config.model)) return make_pipeline(config.model, config.settings, config.context, {});
  if (!config.anomaly) return make_learner(config.model, config.settings, config.context);
  auto detector = make_anomaly_detector(config.model, config.settings,
                                        AnomalyContext{config.context.n_features, config.context.seed});
  if (!detector) return detector.status();
  return std::unique_ptr<Learner>(std::make_unique<AnomalyModel>(std::move(detector).value()));
}

std::vector<std::uint8_t> Worker::Rep::encode_model(const Learner& model) const {
  if (!config.anomaly) return encode_learner(model);
  ByteWriter out;
  model.encode(out);
  return out.take();
}

Result<std::unique_ptr<Learner>> Worker::Rep::decode_model(std::span<const std::uint8_t> bytes) const {
  return config.anomaly ? decode_anomaly_model(bytes) : decode_learner(bytes);
}

Worker::Worker(std::unique_ptr<Rep> rep) : rep_(std::move(rep)) {}
Worker::~Worker() = default;

Status Worker::Rep::open(std::uint32_t p) {
  const auto& n = config.names;
  IRITHYLL_RETURN_IF_ERROR(log.create_group(n.input(p), n.group()));
  auto part = std::make_unique<Partition>(p, config.label_window);
  part->output = n.output(p);
  auto last = log.hash_get(n.checkpoint(p), kLastField);
  if (!last) return last.status();
  if (last->has_value()) {
    const auto id = EntryId::parse(**last);
    if (!id) return Status::corruption("partition " + std::to_string(p) + ": bad checkpoint id '" + **last + "'");
    part->committed = *id;
  }
  auto window = log.hash_get(n.checkpoint(p), kWindowField);
  if (!window) return window.status();
  if (window->has_value())
    IRITHYLL_RETURN_IF_ERROR(part->window.decode(**window).with_context("partition " + std::to_string(p) + " window"));
  part->last_commit = part->last_renew = Clock::now();
  owned.emplace(p, std::move(part));
  ++m.takeovers;
  return Status::ok();
}

Result<KeySlot*> Worker::Rep::slot(Partition& part, const std::string& key) {
  auto it = part.keys.find(key);
  if (it != part.keys.end()) {
    part.lru.splice(part.lru.begin(), part.lru, it->second.lru);
    return &it->second;
  }
  KeySlot s;
  std::optional<std::string> record;
  if (auto ev = part.evicted.find(key); ev != part.evicted.end()) {
    record = std::move(ev->second.record);
    s.unsaved = ev->second.unsaved;  // its changes are not checkpointed yet
    part.evicted.erase(ev);
  } else {
    auto stored = log.hash_get_owned(config.names.lease(part.index), config.token,
                                     config.names.checkpoint(part.index), key_field(key));
    if (!stored) return stored.status();
    if (!stored->held) {
      part.lost = true;
      return static_cast<KeySlot*>(nullptr);
    }
    record = std::move(stored->value);
  }
  if (record) {
    auto rec = decode_key_record(*record);
    if (!rec) return rec.status().with_context("key '" + printable(key) + "'");
    auto model = decode_model(rec->model);
    if (!model) return model.status().with_context("key '" + printable(key) + "'");
    s.model = std::move(*model);
    s.learned = rec->learned;
    // A first-layout record is current up to the hash's "__last".
    s.saved = rec->position.value_or(part.committed);
  } else {
    auto model = new_model();
    if (!model) return model.status();
    s.model = std::move(*model);
  }
  part.lru.push_front(key);
  s.lru = part.lru.begin();
  KeySlot* out = &part.keys.emplace(key, std::move(s)).first->second;
  // Evict least recently used keys beyond the bound; the new key is at the front.
  while (part.keys.size() > config.max_keys) {
    const std::string victim = part.lru.back();
    auto v = part.keys.find(victim);
    if (v->second.unsaved.dirty)
      part.evicted[victim] = detail::EvictedKey{
          encode_key_record(v->second.learned, part.last, encode_model(*v->second.model)), v->second.unsaved};
    part.keys.erase(v);
    part.lru.pop_back();
  }
  return out;
}

void Worker::Rep::dead_letter(std::uint32_t p, const LogEntry& e, const std::string& reason) {
  Fields f{{"entry", e.id}, {"partition", std::to_string(p)}, {"reason", reason}};
  for (const auto& kv : e.fields) f.push_back(kv);
  log.append(config.names.dead(), f);
  ++m.dead_letters;
}

Status Worker::Rep::process(Partition& part, const LogEntry& e) {
  const auto id = EntryId::parse(e.id);
  if (!id) return Status::corruption("log returned a bad entry id '" + printable(e.id) + "'");
  part.unacked.push_back(e.id);
  // Replay after a takeover: the window is current up to `committed`, each
  // key up to its own `saved`; an entry is applied only where it is not yet.
  const bool window_has_it = *id <= part.committed;
  part.last = *id;  // replay, then new entries: ids only grow
  auto msg = parse_message(e.fields, shape);
  if (!msg) {
    // Its dead letter went out before the checkpoint that passed it.
    if (!window_has_it) {
      ++m.entries;
      dead_letter(part.index, e, msg.status().message());
    }
    return Status::ok();
  }
  auto s = slot(part, msg->key);
  if (!s) return s.status();
  if (*s == nullptr) return Status::ok();  // lease lost: the caller drops the partition
  const bool key_has_it = *id <= (*s)->saved;
  if (window_has_it && key_has_it) return Status::ok();  // in the checkpoint: acknowledge only
  ++m.entries;
  if (config.anomaly) {
    // Score, publish, learn: no label is awaited, so the window is not used.
    if (msg->is_label) {
      if (!window_has_it) dead_letter(part.index, e, "a label message, but an anomaly model takes no labels");
      return Status::ok();
    }
    if (!key_has_it) {
      publish(part, *msg, (*s)->model->predict_one(msg->x));
      learn(*id, **s, msg->x, 0.0, false);
    }
    return Status::ok();
  }
  if (msg->is_label) {
    if (window_has_it) {
      // The window gave this sample away before its checkpoint, and a key that
      // learns from the window is saved in that same commit: key_has_it must hold.
      return Status::corruption("partition " + std::to_string(part.index) + ": label entry " + e.id + " of key '" +
                                printable(msg->key) +
                                "' is behind the window's checkpoint but not in the key's record");
    }
    std::vector<double> x;
    if (!part.window.take(msg->key, msg->id, x)) {
      dead_letter(part.index, e, "label for sample '" + printable(msg->id) + "' of key '" + printable(msg->key) +
                                     "', which is not in the join window");
      return Status::ok();
    }
    part.window_dirty = true;
    if (!key_has_it) learn(*id, **s, x, *msg->y, true);
    return Status::ok();
  }
  // When the key's record holds this sample, its prediction went out before
  // that record was written: only the window may still need the sample.
  if (!key_has_it) {
    publish(part, *msg, (*s)->model->predict_one(msg->x));
    if (msg->y) learn(*id, **s, msg->x, *msg->y, false);
  }
  if (!msg->y && !window_has_it) {
    m.window_expired += part.window.add(msg->key, msg->id, std::move(msg->x));
    part.window_dirty = true;
  }
  return Status::ok();
}

// A key is rewritten key_checkpoint_ms after its first unsaved change, scaled
// by a factor in [0.5, 1) fixed per key (its hash), so keys that all changed in
// the same round are not all encoded in the same commit.
bool Worker::Rep::key_due(const std::string& key, const KeySlot& s, Clock::time_point now) const {
  if (s.unsaved.joined || config.key_checkpoint_ms <= 0) return true;
  const double phase = 0.5 + 0.5 * static_cast<double>(key_hash(key) % 1024) / 1024.0;
  return std::chrono::duration<double, std::milli>(now - s.unsaved.since).count() >=
         phase * static_cast<double>(config.key_checkpoint_ms);
}

Result<bool> Worker::Rep::checkpoint(Partition& part, bool all) {
  const auto t0 = Clock::now();
  const auto& n = config.names;
  // Predictions (and dead letters) go out before the records that pass their
  // entries are written, so replay never has to publish them again.
  IRITHYLL_RETURN_IF_ERROR(log.flush());
  Fields values;
  std::vector<KeySlot*> saving;
  // Entries from `floor` on changed a key that stays unsaved: not acknowledged.
  std::optional<EntryId> floor;
  for (auto& [key, s] : part.keys) {
    if (!s.unsaved.dirty) continue;
    if (all || key_due(key, s, t0)) {
      values.emplace_back(key_field(key), encode_key_record(s.learned, part.last, encode_model(*s.model)));
      saving.push_back(&s);
    } else if (!floor || s.unsaved.first < *floor) {
      floor = s.unsaved.first;
    }
  }
  for (auto& [key, ev] : part.evicted) values.emplace_back(key_field(key), std::move(ev.record));
  // The window skipped entries up to `committed` during replay: it is current
  // up to the later of the two.
  const EntryId window_at = std::max(part.committed, part.last);
  if (part.window_dirty) values.emplace_back(std::string(kWindowField), part.window.encode());
  values.emplace_back(std::string(kLastField), window_at.to_string());
  auto ok = log.commit(n.lease(part.index), config.token, config.lease_ms, n.checkpoint(part.index), values);
  if (!ok) return ok.status();
  if (!*ok) return false;
  m.key_writes += saving.size() + part.evicted.size();
  for (KeySlot* s : saving) {
    s->unsaved = {};
    s->saved = part.last;
  }
  part.evicted.clear();
  part.window_dirty = false;
  part.committed = window_at;
  part.last_commit = part.last_renew = Clock::now();
  // unacked is in id order: acknowledge the prefix below the floor.
  std::size_t cut = part.unacked.size();
  if (floor) {
    cut = 0;
    while (cut < part.unacked.size() && *EntryId::parse(part.unacked[cut]) < *floor) ++cut;
  }
  IRITHYLL_RETURN_IF_ERROR(log.ack(n.input(part.index), n.group(), std::span(part.unacked).first(cut)));
  part.unacked.erase(part.unacked.begin(), part.unacked.begin() + static_cast<std::ptrdiff_t>(cut));
  ++m.checkpoints;
  m.last_checkpoint_ms = ms_since(t0);
  m.max_checkpoint_ms = std::max(m.max_checkpoint_ms, m.last_checkpoint_ms);
  return true;
}

// Renews every lease older than lease_ms / 3; runs before each partition's
// batch, so one slow round cannot outlast the leases of the partitions after it.
Status Worker::Rep::renew_due() {
  const auto now = Clock::now();
  const auto third = std::chrono::milliseconds(std::max(1, config.lease_ms / 3));
  for (auto it = owned.begin(); it != owned.end();) {
    Partition& part = *it->second;
    if (now - part.last_renew < third) {
      ++it;
      continue;
    }
    auto held = log.renew_lease(config.names.lease(part.index), config.token, config.lease_ms);
    if (!held) return held.status();
    if (!*held) {
      it = owned.erase(it);
      ++m.lost;
      continue;
    }
    part.last_renew = now;
    ++it;
  }
  return Status::ok();
}

Status Worker::Rep::acquire_and_renew() {
  IRITHYLL_RETURN_IF_ERROR(renew_due());
  const auto now = Clock::now();
  const auto third = std::chrono::milliseconds(std::max(1, config.lease_ms / 3));
  if (owned.size() >= config.max_partitions || (acquired_once && now - last_acquire < third)) return Status::ok();
  acquired_once = true;
  last_acquire = now;
  for (std::uint32_t p = 0; p < config.partitions && owned.size() < config.max_partitions; ++p) {
    if (owned.count(p)) continue;
    auto got = log.acquire_lease(config.names.lease(p), config.token, config.lease_ms);
    if (!got) return got.status();
    if (*got) IRITHYLL_RETURN_IF_ERROR(open(p));
  }
  return Status::ok();
}

Result<std::size_t> Worker::poll() {
  Rep& r = *rep_;
  const std::uint64_t moves_before = r.m.takeovers + r.m.lost;
  IRITHYLL_RETURN_IF_ERROR(r.acquire_and_renew());
  const auto& n = r.config.names;
  std::size_t done = 0;
  std::vector<std::uint32_t> order;
  for (const auto& [p, part] : r.owned) order.push_back(p);
  for (const std::uint32_t p : order) {
    IRITHYLL_RETURN_IF_ERROR(r.renew_due());
    auto it = r.owned.find(p);
    if (it == r.owned.end()) continue;  // its lease was lost just now
    Partition& part = *it->second;
    auto read = [&](std::string_view start) {
      return r.log.read_owned(n.lease(p), r.config.token, n.input(p), n.group(), n.consumer(p), start, r.config.batch);
    };
    auto batch = read(part.replaying ? std::string_view(part.cursor) : std::string_view(">"));
    if (batch && *batch && part.replaying) {
      if ((*batch)->empty()) {
        part.replaying = false;
        batch = read(">");
      } else {
        part.cursor = (*batch)->back().id;
      }
    }
    if (!batch) return batch.status();
    if (!*batch) {  // the lease lapsed and moved on: drop the state unsaved
      r.owned.erase(it);
      ++r.m.lost;
      continue;
    }
    std::size_t since_send = 0;
    for (const auto& e : **batch) {
      IRITHYLL_RETURN_IF_ERROR(r.process(part, e));
      if (part.lost) break;
      if (++since_send == kSendEvery) {
        r.log.send_buffered();
        since_send = 0;
      }
    }
    if (part.lost) {
      r.owned.erase(it);
      ++r.m.lost;
      continue;
    }
    done += (*batch)->size();
    IRITHYLL_RETURN_IF_ERROR(r.log.flush());
    const bool full = part.unacked.size() >= r.config.checkpoint_entries;
    const bool due = full || ms_since(part.last_commit) >= static_cast<double>(r.config.checkpoint_ms);
    if (due && !part.unacked.empty()) {
      auto kept = r.checkpoint(part, full);
      if (!kept) return kept.status();
      if (!*kept) {
        r.owned.erase(it);
        ++r.m.lost;
        continue;
      }
    }
  }
  // A partition that changed hands is activity too: its entries come next round.
  if (done == 0 && r.m.takeovers + r.m.lost != moves_before) done = 1;
  return done;
}

Result<bool> Worker::wait_for_input(int max_ms) {
  Rep& r = *rep_;
  const int ms = std::clamp(max_ms, 1, std::max(1, r.config.lease_ms / 3));
  std::vector<std::string> streams;
  for (const auto& [p, part] : r.owned) {
    if (part->replaying) return true;  // the pending list comes first, no wait
    streams.push_back(r.config.names.input(p));
  }
  if (streams.empty()) {
    std::this_thread::sleep_for(std::chrono::milliseconds(ms));
    return false;
  }
  return r.log.wait_for_entries(streams, r.config.names.group(), ms);
}

Status Worker::shutdown() {
  Rep& r = *rep_;
  Status first;
  for (auto& [p, part] : r.owned) {
    auto kept = r.checkpoint(*part, true);
    if (!kept && first.is_ok()) first = kept.status();
    if (kept && *kept) {
      Status s = r.log.release_lease(r.config.names.lease(p), r.config.token);
      if (!s.is_ok() && first.is_ok()) first = s;
    }
  }
  r.owned.clear();
  return first;
}

WorkerMetrics Worker::metrics() {
  Rep& r = *rep_;
  WorkerMetrics out = r.m;
  out.owned.clear();
  for (const auto& [p, part] : r.owned) {
    PartitionMetrics pm;
    pm.partition = p;
    pm.keys_held = part->keys.size();
    for (const auto& [key, slot] : part->keys) pm.model_bytes += slot.model->memory_bytes();
    auto lag = r.log.lag(r.config.names.input(p), r.config.names.group());
    pm.lag = lag ? *lag : 0;
    out.owned.push_back(pm);
  }
  return out;
}

std::string Worker::metrics_json(double samples_per_second) {
  const WorkerMetrics m = metrics();
  char buf[512];
  std::size_t keys = 0, bytes = 0;
  std::string lags;
  for (const auto& pm : m.owned) {
    keys += pm.keys_held;
    bytes += pm.model_bytes;
    lags += (lags.empty() ? "" : ",") + std::string("\"") + std::to_string(pm.partition) + "\":" + std::to_string(pm.lag);
  }
  std::snprintf(buf, sizeof buf,
                "{\"samples_per_s\":%.1f,\"entries\":%llu,\"learned\":%llu,\"predictions\":%llu,\"dead_letters\":%llu,"
                "\"window_expired\":%llu,\"keys_held\":%zu,\"model_bytes\":%zu,\"checkpoints\":%llu,\"key_writes\":%llu,"
                "\"checkpoint_ms\":%.3f,"
                "\"checkpoint_ms_max\":%.3f,\"takeovers\":%llu,\"lost\":%llu,\"lag\":{",
                samples_per_second, static_cast<unsigned long long>(m.entries),
                static_cast<unsigned long long>(m.learned), static_cast<unsigned long long>(m.predictions),
                static_cast<unsigned long long>(m.dead_letters), static_cast<unsigned long long>(m.window_expired), keys, bytes,
                static_cast<unsigned long long>(m.checkpoints), static_cast<unsigned long long>(m.key_writes),
                m.last_checkpoint_ms, m.max_checkpoint_ms,
                static_cast<unsigned long long>(m.takeovers), static_cast<unsigned long long>(m.lost));
  return std::string(buf) + lags + "}}";
}

}  // namespace irithyll::serve
