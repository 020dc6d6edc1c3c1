// Threaded: a learner whose training can be spread over threads after it was
// built, beside its Learner interface. The thread count is a run-time
// setting (never written to checkpoints: every count gives the same bytes),
// so a decoded model starts on one thread and `irithyll eval --load CKPT
// --threads N` reaches it through this interface by dynamic_cast.
//
// set_threads(n) takes effect from the next sample; the results stay
// bit-identical to one thread. A count outside [1, 256] is refused by name.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "irithyll/core/status.hpp"

namespace irithyll {

class Threaded {
 public:
  virtual ~Threaded() = default;
  virtual Status set_threads(std::uint32_t threads) = 0;
  virtual std::uint32_t threads() const = 0;
};

// The shared range check: "<model>: threads = 0 is out of range: must be in [1, 256]".
inline Status check_threads(std::string_view model, std::uint64_t threads) {
  if (threads >= 1 && threads <= 256) return Status::ok();
  return Status::invalid_argument(std::string(model) + ": threads = " + std::to_string(threads) +
                                  " is out of range: must be in [1, 256]");
}

}  // namespace irithyll
