// What a result came from, for `eval --json`: the program's version, the
// data (file path or generator), the model with every setting it ran with
// (defaults included, read back from the built learner), the seed, the
// row window and the reservoir sample drawn from it. A JSON report with it can be reproduced from itself alone.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "irithyll/learner.hpp"

namespace irithyll::cli {

struct Provenance {
  std::string data;         // path, "<stdin>", or the generator's name
  bool data_is_file = false;
  std::string loaded;       // --load path, empty for a new model
  std::uint64_t seed = 0;
  std::uint64_t skip = 0;
  std::optional<std::uint64_t> max_samples;
  std::optional<std::uint64_t> subsample;  // --subsample N: N rows of the window, drawn from the seed
};

// ,"provenance":{...} as a JSON member to append inside an object.
std::string provenance_json_member(const Provenance& p, const Learner& learner);

}  // namespace irithyll::cli
