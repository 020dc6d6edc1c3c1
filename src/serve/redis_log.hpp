// The Log on Redis Streams (hiredis), one connection per instance.
//
//   LogSource  XGROUP CREATE ... MKSTREAM, XREADGROUP GROUP g c COUNT n
//              [BLOCK ms] STREAMS s start, XACK, XINFO GROUPS (lag); an
//              idle wait is XREAD BLOCK after each stream's newest delivered
//              id (taken by XREVRANGE in the fenced read's MULTI)
//   LogSink    XADD s * f v ..., buffered and sent pipelined on flush()
//   StateStore leases: one Lua script (SET NX PX, or PEXPIRE when the token
//              already holds it); commits: WATCH lease, GET, MULTI, HSET
//              ckpt f v ..., PEXPIRE lease, EXEC (aborted if the lease moved)
//
// Every call has the connection's timeout; a failure is an IOError naming
// the command. Built only with hiredis (IRITHYLL_HAVE_HIREDIS); without it
// connect_redis() returns NotSupported. Not thread-safe: one per thread.
#pragma once

#include <memory>
#include <string>

#include "serve/log.hpp"

namespace irithyll::serve {

// "HOST:PORT" (default port 6379).
Result<std::unique_ptr<Log>> connect_redis(const std::string& address, int timeout_ms = 5000);

// Whether this build has the Redis log.
bool redis_available();

}  // namespace irithyll::serve
