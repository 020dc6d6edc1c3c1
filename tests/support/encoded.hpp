// The checkpoint bytes of anything with encode(ByteWriter&) (learners,
// detectors, transformers), for tests that compare or truncate them.
#pragma once

#include <cstdint>
#include <vector>

#include "irithyll/core/bytes.hpp"

namespace irithyll::testing {

template <class T>
std::vector<std::uint8_t> encoded(const T& m) {
  ByteWriter w;
  m.encode(w);
  return w.take();
}

}  // namespace irithyll::testing
