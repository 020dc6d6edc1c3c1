// Built instead of redis_log.cpp when hiredis is absent: the CLI still builds
// and says why `serve` and `produce` cannot reach Redis.
#include "serve/redis_log.hpp"

namespace irithyll::serve {

Result<std::unique_ptr<Log>> connect_redis(const std::string& /*address*/, int /*timeout_ms*/) {
  return Status::not_supported("this build has no Redis support (install libhiredis-dev and reconfigure)");
}

bool redis_available() { return false; }

}  // namespace irithyll::serve
