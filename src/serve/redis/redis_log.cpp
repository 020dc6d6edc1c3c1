// RedisLog: see redis_log.hpp. Every command goes through redisCommandArgv /
// redisAppendCommandArgv with explicit lengths, except XADD, which is framed
// here (RESP bulk strings, lengths included): keys, fields and checkpoint
// bytes are binary-safe either way. A reply is freed by the Reply guard on
// every path.
#include <hiredis/hiredis.h>

#include <algorithm>
#include <charconv>
#include <initializer_list>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <cstring>
#include <string_view>
#include <vector>

#include "serve/redis_log.hpp"

namespace irithyll::serve {
namespace {

struct Reply {
  redisReply* r = nullptr;
  explicit Reply(void* p) : r(static_cast<redisReply*>(p)) {}
  Reply(const Reply&) = delete;
  Reply& operator=(const Reply&) = delete;
  ~Reply() {
    if (r != nullptr) freeReplyObject(r);
  }
};

// Argument vectors for the Argv calls, built from string views.
class Args {
 public:
  Args& add(std::string_view s) {
    ptrs_.push_back(s.data());
    lens_.push_back(s.size());
    return *this;
  }
  Args& own(std::string s) {
    owned_.push_back(std::make_unique<std::string>(std::move(s)));
    return add(*owned_.back());
  }
  int argc() const { return static_cast<int>(ptrs_.size()); }
  const char** argv() { return ptrs_.data(); }
  const size_t* lens() const { return lens_.data(); }

 private:
  std::vector<const char*> ptrs_;
  std::vector<size_t> lens_;
  std::vector<std::unique_ptr<std::string>> owned_;
};

std::string text_of(const redisReply* r) {
  if (r == nullptr) return {};
  if (r->type == REDIS_REPLY_STRING || r->type == REDIS_REPLY_STATUS || r->type == REDIS_REPLY_ERROR)
    return std::string(r->str, r->len);
  if (r->type == REDIS_REPLY_INTEGER) return std::to_string(r->integer);
  return {};
}

// Extends the lease only while ARGV[1] holds it; 1 = renewed.
constexpr std::string_view kRenewScript =
    "if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('PEXPIRE', KEYS[1], ARGV[2]) return 1 end "
    "return 0";
constexpr std::string_view kReleaseScript =
    "if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('DEL', KEYS[1]) end return 1";

class RedisLog final : public Log {
 public:
  RedisLog(redisContext* c, int timeout_ms) : c_(c), timeout_ms_(timeout_ms) {}
  ~RedisLog() override { redisFree(c_); }

  Status create_group(std::string_view stream, std::string_view group) override {
    Args a;
    a.add("XGROUP").add("CREATE").add(stream).add(group).add("0").add("MKSTREAM");
    auto r = call(a, "XGROUP CREATE");
    if (!r) return r.status();
    return Status::ok();
  }

  Result<std::vector<LogEntry>> read_group(std::string_view stream, std::string_view group, std::string_view consumer,
                                           std::string_view start, std::size_t count, int block_ms) override {
    Args a;
    a.add("XREADGROUP").add("GROUP").add(group).add(consumer).add("COUNT").own(std::to_string(count));
    if (block_ms > 0) a.add("BLOCK").own(std::to_string(block_ms));
    a.add("STREAMS").add(stream).add(start);
    IRITHYLL_RETURN_IF_ERROR(settle());
    Reply reply(redisCommandArgv(c_, a.argc(), a.argv(), a.lens()));
    IRITHYLL_RETURN_IF_ERROR(check(reply.r, "XREADGROUP"));
    return entries_of(reply.r);
  }

  // Fenced by WATCH on the lease, not by a script: a Lua script copies the
  // whole XREADGROUP reply into Lua and back, about 3 us of server CPU per
  // entry (a third of redis-server's time per sample served). WATCH + GET,
  // then MULTI / XREADGROUP / EXEC: two round trips, no conversion, and the
  // read still happens only while the lease is ours (EXEC is refused when the
  // lease key changed or expired after WATCH).
  Result<std::optional<std::vector<LogEntry>>> read_owned(std::string_view lease_key, std::string_view token,
                                                          std::string_view stream, std::string_view group,
                                                          std::string_view consumer, std::string_view start,
                                                          std::size_t count) override {
    Args read, newest;
    read.add("XREADGROUP").add("GROUP").add(group).add(consumer).add("COUNT").own(std::to_string(count));
    read.add("STREAMS").add(stream).add(start);
    // A read of new entries also takes the stream's newest id in the same
    // transaction: when the read comes back empty, every entry up to that id
    // was delivered, so wait_for_entries can block on what comes after it.
    const bool fresh = start == ">";
    newest.add("XREVRANGE").add(stream).add("+").add("-").add("COUNT").add("1");
    auto done = fresh ? fenced(lease_key, token, {&read, &newest}, "owned XREADGROUP")
                      : fenced(lease_key, token, {&read}, "owned XREADGROUP");
    if (!done) return done.status();
    if (!*done) return std::optional<std::vector<LogEntry>>{};  // not the holder
    auto entries = entries_of((*done)->get()->element[0]);
    if (!entries) return entries.status();
    if (fresh) {
      std::string& tip = tips_[std::string(stream)];
      if (!entries->empty()) {
        tip = entries->back().id;  // what follows it was not delivered
      } else {
        const redisReply* last = (*done)->get()->element[1];
        tip = last->type == REDIS_REPLY_ARRAY && last->elements > 0 && last->element[0]->type == REDIS_REPLY_ARRAY &&
                      last->element[0]->elements == 2
                  ? text_of(last->element[0]->element[0])
                  : std::string("0-0");
      }
    }
    return std::optional<std::vector<LogEntry>>{std::move(*entries)};
  }

  // XREAD BLOCK after each stream's tip (the newest id its last fresh read
  // saw delivered). No tip yet: answer at once, the caller reads first.
  Result<bool> wait_for_entries(std::span<const std::string> streams, std::string_view /*group*/,
                                int timeout_ms) override {
    if (streams.empty()) return LogSource::wait_for_entries(streams, "", timeout_ms);
    Args a;
    // The block must end well inside the connection's timeout.
    const int block = std::clamp(timeout_ms, 1, std::max(1, timeout_ms_ / 2));
    a.add("XREAD").add("COUNT").add("1").add("BLOCK").own(std::to_string(block)).add("STREAMS");
    for (const auto& s : streams) a.add(s);
    for (const auto& s : streams) {
      auto it = tips_.find(s);
      if (it == tips_.end()) return true;
      a.add(it->second);
    }
    auto r = call(a, "XREAD BLOCK");
    if (!r) return r.status();
    return r->get()->type == REDIS_REPLY_ARRAY && r->get()->elements > 0;  // nil: the time ran out
  }

  // The same fence as read_owned, around one HGET.
  Result<OwnedValue> hash_get_owned(std::string_view lease_key, std::string_view token, std::string_view hash,
                                    std::string_view field) override {
    Args get;
    get.add("HGET").add(hash).add(field);
    auto done = fenced(lease_key, token, {&get}, "owned HGET");
    if (!done) return done.status();
    OwnedValue out;
    if (!*done) return out;  // not the holder
    out.held = true;
    const redisReply* value = (*done)->get()->element[0];
    if (value->type == REDIS_REPLY_STRING) out.value = text_of(value);
    return out;
  }

  // The reply of XREADGROUP: nil, or [[stream, [[id, [f, v, ...]], ...]]].
  static Result<std::vector<LogEntry>> entries_of(const redisReply* r) {
    std::vector<LogEntry> out;
    if (r->type != REDIS_REPLY_ARRAY || r->elements == 0) return out;  // nil: nothing within the block time
    const redisReply* s = r->element[0];
    if (s->type != REDIS_REPLY_ARRAY || s->elements != 2 || s->element[1]->type != REDIS_REPLY_ARRAY)
      return Status::io_error("XREADGROUP: unexpected reply shape");
    const redisReply* list = s->element[1];
    out.reserve(list->elements);
    for (std::size_t i = 0; i < list->elements; ++i) {
      const redisReply* e = list->element[i];
      if (e->type != REDIS_REPLY_ARRAY || e->elements != 2) return Status::io_error("XREADGROUP: bad entry");
      LogEntry entry;
      entry.id = text_of(e->element[0]);
      const redisReply* f = e->element[1];
      // A pending entry deleted from the stream comes back with nil fields.
      if (f->type == REDIS_REPLY_ARRAY) {
        entry.fields.reserve(f->elements / 2);
        for (std::size_t j = 0; j + 1 < f->elements; j += 2)
          entry.fields.emplace_back(text_of(f->element[j]), text_of(f->element[j + 1]));
      }
      out.push_back(std::move(entry));
    }
    return out;
  }

  Status ack(std::string_view stream, std::string_view group, std::span<const std::string> ids) override {
    constexpr std::size_t kChunk = 10000;  // keeps one command's size bounded
    IRITHYLL_RETURN_IF_ERROR(settle());
    std::size_t sent = 0;
    for (std::size_t i = 0; i < ids.size(); i += kChunk) {
      Args a;
      a.add("XACK").add(stream).add(group);
      for (std::size_t j = i; j < std::min(ids.size(), i + kChunk); ++j) a.add(ids[j]);
      if (redisAppendCommandArgv(c_, a.argc(), a.argv(), a.lens()) != REDIS_OK) return io("XACK");
      ++sent;
    }
    return drain(sent, "XACK");
  }

  // The group's "lag" from XINFO GROUPS when Redis knows it. Redis derives
  // it from a per-group count of entries read, which it does not keep across
  // a restart from its append-only file (nor after deletions in the stream's
  // middle): XINFO then answers nil, until the group has read up to the
  // stream's last entry. In that case the entries after the group's
  // last-delivered-id are counted (XRANGE pages of kLagPage ids): a cost in
  // proportion to the lag, paid only in that state, instead of a lag of 0.
  Result<std::uint64_t> lag(std::string_view stream, std::string_view group) override {
    Args a;
    a.add("XINFO").add("GROUPS").add(stream);
    auto r = call(a, "XINFO GROUPS");
    if (!r) return r.status();
    const redisReply* groups = r->get();
    if (groups->type != REDIS_REPLY_ARRAY) return std::uint64_t{0};
    for (std::size_t i = 0; i < groups->elements; ++i) {
      const redisReply* g = groups->element[i];
      if (g->type != REDIS_REPLY_ARRAY) continue;
      std::string name, delivered = "0-0";
      std::optional<long long> lag;
      for (std::size_t j = 0; j + 1 < g->elements; j += 2) {
        const std::string field = text_of(g->element[j]);
        if (field == "name") name = text_of(g->element[j + 1]);
        if (field == "last-delivered-id") delivered = text_of(g->element[j + 1]);
        if (field == "lag" && g->element[j + 1]->type == REDIS_REPLY_INTEGER) lag = g->element[j + 1]->integer;
      }
      if (name != group) continue;
      if (lag) return static_cast<std::uint64_t>(*lag < 0 ? 0 : *lag);
      return count_after(stream, delivered);
    }
    return std::uint64_t{0};
  }

  // Entries of `stream` with ids after `after`.
  Result<std::uint64_t> count_after(std::string_view stream, std::string after) {
    static constexpr std::size_t kLagPage = 10000;
    std::uint64_t count = 0;
    for (;;) {
      Args a;
      a.add("XRANGE").add(stream).own("(" + after).add("+").add("COUNT").own(std::to_string(kLagPage));
      auto r = call(a, "XRANGE (lag)");
      if (!r) return r.status();
      const redisReply* page = r->get();
      if (page->type != REDIS_REPLY_ARRAY || page->elements == 0) return count;
      count += page->elements;
      const redisReply* last = page->element[page->elements - 1];
      if (last->type != REDIS_REPLY_ARRAY || last->elements < 1) return Status::io_error("XRANGE (lag): bad reply");
      after = text_of(last->element[0]);
      if (page->elements < kLagPage) return count;
    }
  }

  void append(std::string_view stream, const Fields& fields) override { xadd(stream, fields); }
  void append_borrowed(std::string_view stream, std::span<const FieldView> fields) override { xadd(stream, fields); }

  Status flush() override {
    const std::size_t n = buffered_;
    buffered_ = 0;
    if (append_failed_) {
      append_failed_ = false;
      return io("XADD (buffering)");
    }
    return drain(n, "XADD");
  }

  // Writes hiredis's output buffer to the socket (blocking until the kernel
  // takes it); the replies stay unread until flush() or settle().
  void send_buffered() override {
    int done = 0;
    while (done == 0 && !append_failed_)
      if (redisBufferWrite(c_, &done) != REDIS_OK) append_failed_ = true;
  }

  Result<std::vector<LogEntry>> range(std::string_view stream, std::size_t count) override {
    Args a;
    a.add("XRANGE").add(stream).add("-").add("+").add("COUNT").own(std::to_string(count));
    auto r = call(a, "XRANGE");
    if (!r) return r.status();
    std::vector<LogEntry> out;
    const redisReply* list = r->get();
    for (std::size_t i = 0; list->type == REDIS_REPLY_ARRAY && i < list->elements; ++i) {
      const redisReply* e = list->element[i];
      if (e->type != REDIS_REPLY_ARRAY || e->elements != 2) continue;
      LogEntry entry;
      entry.id = text_of(e->element[0]);
      const redisReply* f = e->element[1];
      for (std::size_t j = 0; f->type == REDIS_REPLY_ARRAY && j + 1 < f->elements; j += 2)
        entry.fields.emplace_back(text_of(f->element[j]), text_of(f->element[j + 1]));
      out.push_back(std::move(entry));
    }
    return out;
  }

  Result<std::uint64_t> length(std::string_view stream) override {
    Args a;
    a.add("XLEN").add(stream);
    auto r = call(a, "XLEN");
    if (!r) return r.status();
    const long long n = r->get()->type == REDIS_REPLY_INTEGER ? r->get()->integer : 0;
    return static_cast<std::uint64_t>(n < 0 ? 0 : n);
  }

  Result<bool> acquire_lease(std::string_view key, std::string_view token, int ttl_ms) override {
    Args a;
    a.add("SET").add(key).add(token).add("NX").add("PX").own(std::to_string(ttl_ms));
    auto r = call(a, "lease SET NX");
    if (!r) return r.status();
    return r->get()->type == REDIS_REPLY_STATUS;  // OK; nil when held
  }

  Result<bool> renew_lease(std::string_view key, std::string_view token, int ttl_ms) override {
    Args a;
    a.add("EVAL").add(kRenewScript).add("1").add(key).add(token).own(std::to_string(ttl_ms));
    auto r = call(a, "lease renewal");
    if (!r) return r.status();
    return r->get()->type == REDIS_REPLY_INTEGER && r->get()->integer == 1;
  }

  Status release_lease(std::string_view key, std::string_view token) override {
    Args a;
    a.add("EVAL").add(kReleaseScript).add("1").add(key).add(token);
    auto r = call(a, "lease release");
    return r ? Status::ok() : r.status();
  }

  Result<bool> commit(std::string_view lease_key, std::string_view token, int ttl_ms, std::string_view hash,
                      const Fields& values) override {
    auto held = watch_holder(lease_key, token);
    if (!held) return held.status();
    if (!*held) return false;
    // MULTI, HSET, PEXPIRE, EXEC in one pipelined round trip.
    Args multi, hset, pexpire, exec;
    multi.add("MULTI");
    hset.add("HSET").add(hash);
    for (const auto& [k, v] : values) hset.add(k).add(v);
    pexpire.add("PEXPIRE").add(lease_key).own(std::to_string(ttl_ms));
    exec.add("EXEC");
    Args* const commands[] = {&multi, &hset, &pexpire, &exec};
    auto done = transact(commands, "checkpoint commit");
    if (!done) return done.status();
    // EXEC: an array of results, or nil when WATCH saw the lease change.
    return done->get()->type == REDIS_REPLY_ARRAY;
  }

  Result<std::optional<std::string>> hash_get(std::string_view hash, std::string_view field) override {
    Args a;
    a.add("HGET").add(hash).add(field);
    auto r = call(a, "HGET");
    if (!r) return r.status();
    if (r->get()->type != REDIS_REPLY_STRING) return std::optional<std::string>{};
    return std::optional<std::string>{text_of(r->get())};
  }

  Result<Fields> hash_get_all(std::string_view hash) override {
    Args a;
    a.add("HGETALL").add(hash);
    auto r = call(a, "HGETALL");
    if (!r) return r.status();
    Fields out;
    const redisReply* list = r->get();
    for (std::size_t j = 0; list->type == REDIS_REPLY_ARRAY && j + 1 < list->elements; j += 2)
      out.emplace_back(text_of(list->element[j]), text_of(list->element[j + 1]));
    return out;
  }

 private:
  // A reply owned by a shared_ptr so Result can carry it.
  using Owned = std::shared_ptr<redisReply>;
  struct Held {
    Owned p;
    const redisReply* get() const { return p.get(); }
  };

  Status io(std::string_view what) const {
    return Status::io_error(std::string(what) + ": " + (c_->err ? std::string(c_->errstr) : "connection failed"));
  }
  Status check(const redisReply* r, std::string_view what) const {
    if (r == nullptr) return io(what);
    if (r->type == REDIS_REPLY_ERROR) {
      const std::string msg = text_of(r);
      // XGROUP CREATE on an existing group is not a failure.
      if (msg.rfind("BUSYGROUP", 0) == 0) return Status::ok();
      return Status::io_error(std::string(what) + ": " + msg);
    }
    return Status::ok();
  }
  // Replies arrive in command order: buffered appends must be read before
  // any other command's reply (else HGET would read an XADD's id).
  Status settle() { return buffered_ == 0 && !append_failed_ ? Status::ok() : flush(); }
  Result<Held> call(Args& a, std::string_view what) {
    IRITHYLL_RETURN_IF_ERROR(settle());
    Owned r(static_cast<redisReply*>(redisCommandArgv(c_, a.argc(), a.argv(), a.lens())),
            [](redisReply* p) { if (p != nullptr) freeReplyObject(p); });
    IRITHYLL_RETURN_IF_ERROR(check(r.get(), what));
    return Held{std::move(r)};
  }
  // WATCH the lease, then read its holder: true while `token` holds it (the
  // watch stays on for the MULTI that follows), false after an UNWATCH.
  Result<bool> watch_holder(std::string_view lease_key, std::string_view token) {
    Args watch, get;
    watch.add("WATCH").add(lease_key);
    get.add("GET").add(lease_key);
    IRITHYLL_RETURN_IF_ERROR(settle());
    for (Args* a : {&watch, &get})
      if (redisAppendCommandArgv(c_, a->argc(), a->argv(), a->lens()) != REDIS_OK) return io("WATCH lease");
    IRITHYLL_RETURN_IF_ERROR(drain(1, "WATCH lease"));
    void* raw = nullptr;
    if (redisGetReply(c_, &raw) != REDIS_OK) return io("GET lease");
    Reply holder(raw);
    IRITHYLL_RETURN_IF_ERROR(check(holder.r, "GET lease"));
    if (holder.r->type == REDIS_REPLY_STRING && text_of(holder.r) == token) return true;
    Args unwatch;
    unwatch.add("UNWATCH");
    auto r = call(unwatch, "UNWATCH");
    if (!r) return r.status();
    return false;
  }
  // Sends MULTI ... EXEC pipelined in one round trip and returns EXEC's reply
  // (nil when a watched key changed); the first error before it wins.
  Result<Held> transact(std::span<Args* const> commands, std::string_view what) {
    for (Args* a : commands)
      if (redisAppendCommandArgv(c_, a->argc(), a->argv(), a->lens()) != REDIS_OK) return io(what);
    Status first;
    Owned last;
    for (std::size_t i = 0; i < commands.size(); ++i) {
      void* raw = nullptr;
      if (redisGetReply(c_, &raw) != REDIS_OK) return io(what);
      Owned reply(static_cast<redisReply*>(raw), [](redisReply* p) { if (p != nullptr) freeReplyObject(p); });
      if (reply->type == REDIS_REPLY_ERROR && first.is_ok()) first = Status::io_error(std::string(what) + ": " + text_of(reply.get()));
      last = std::move(reply);
    }
    if (!first.is_ok()) return first;
    return Held{std::move(last)};
  }
  // Commands run only while `token` holds the lease: WATCH + GET, then
  // MULTI / commands / EXEC. Empty when the lease is not ours or moved before
  // EXEC; else EXEC's reply, whose element[i] is command i's (an error reply
  // there is returned as a status).
  Result<std::optional<Held>> fenced(std::string_view lease_key, std::string_view token,
                                     std::initializer_list<Args*> commands, std::string_view what) {
    auto held = watch_holder(lease_key, token);
    if (!held) return held.status();
    if (!*held) return std::optional<Held>{};
    Args multi, exec;
    multi.add("MULTI");
    exec.add("EXEC");
    std::vector<Args*> all{&multi};
    all.insert(all.end(), commands.begin(), commands.end());
    all.push_back(&exec);
    auto done = transact(all, what);
    if (!done) return done.status();
    const redisReply* reply = done->get();
    if (reply->type != REDIS_REPLY_ARRAY) return std::optional<Held>{};  // the lease moved
    if (reply->elements != commands.size()) return Status::io_error(std::string(what) + ": unexpected EXEC reply");
    for (std::size_t i = 0; i < reply->elements; ++i) IRITHYLL_RETURN_IF_ERROR(check(reply->element[i], what));
    return std::optional<Held>{std::move(*done)};
  }
  // XADD <stream> * <field> <value> ..., written in the protocol's own
  // framing into one reused buffer and handed to hiredis as a formatted
  // command. Why: redisAppendCommandArgv formats every argument through
  // sds calls and needs argument vectors built per call, which cost a cheap
  // model about as much as the model itself.
  template <class Pairs>
  void xadd(std::string_view stream, const Pairs& fields) {
    command_.clear();
    frame('*', 3 + 2 * fields.size());
    bulk("XADD");
    bulk(stream);
    bulk("*");
    for (const auto& [k, v] : fields) {
      bulk(k);
      bulk(v);
    }
    if (redisAppendFormattedCommand(c_, command_.data(), command_.size()) != REDIS_OK) append_failed_ = true;
    ++buffered_;
  }
  void frame(char tag, std::size_t n) {
    char digits[24];
    const auto r = std::to_chars(digits, digits + sizeof digits, n);
    command_ += tag;
    command_.append(digits, r.ptr);
    command_ += "\r\n";
  }
  void bulk(std::string_view s) {
    frame('$', s.size());
    command_.append(s);
    command_ += "\r\n";
  }

  // Reads n pipelined replies; all are consumed even after an error.
  Status drain(std::size_t n, std::string_view what) {
    Status first;
    for (std::size_t i = 0; i < n; ++i) {
      void* raw = nullptr;
      if (redisGetReply(c_, &raw) != REDIS_OK) return io(what);
      Reply reply(raw);
      Status s = check(reply.r, what);
      if (!s.is_ok() && first.is_ok()) first = s;
    }
    return first;
  }

  redisContext* c_;
  int timeout_ms_;  // every command's, set on the connection
  // Per stream, the newest id its last fresh read_owned saw delivered.
  std::map<std::string, std::string, std::less<>> tips_;
  std::size_t buffered_ = 0;
  bool append_failed_ = false;
  std::string command_;  // xadd's buffer, kept between calls
};

}  // namespace

Result<std::unique_ptr<Log>> connect_redis(const std::string& address, int timeout_ms) {
  std::string host = address;
  int port = 6379;
  if (const auto colon = address.rfind(':'); colon != std::string::npos) {
    host = address.substr(0, colon);
    const std::string p = address.substr(colon + 1);
    auto r = std::from_chars(p.data(), p.data() + p.size(), port);
    if (p.empty() || r.ec != std::errc() || r.ptr != p.data() + p.size() || port <= 0 || port > 65535)
      return Status::invalid_argument("bad Redis address '" + address + "' (want HOST:PORT)");
  }
  const timeval tv{timeout_ms / 1000, (timeout_ms % 1000) * 1000};
  redisContext* c = redisConnectWithTimeout(host.c_str(), port, tv);
  if (c == nullptr) return Status::io_error("connecting to Redis at " + address + ": out of memory");
  if (c->err) {
    Status s = Status::io_error("connecting to Redis at " + address + ": " + c->errstr);
    redisFree(c);
    return s;
  }
  redisSetTimeout(c, tv);
  return std::unique_ptr<Log>(new RedisLog(c, timeout_ms));
}

bool redis_available() { return true; }

}  // namespace irithyll::serve
