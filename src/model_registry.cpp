// The table of learner kinds a model file may hold (style.md #8: one row per
// kind). Keep rows sorted by name.
#include <array>

#include "irithyll/model_file.hpp"
#include "irithyll/pipeline.hpp"

namespace irithyll {

namespace {
template <class T>
std::unique_ptr<Learner> make_blank() {
  return std::make_unique<T>();
}

constexpr std::array kKinds = {
    LearnerKind{"pipeline", &make_blank<Pipeline>},
};
}  // namespace

std::span<const LearnerKind> learner_kinds() { return kKinds; }

}  // namespace irithyll
