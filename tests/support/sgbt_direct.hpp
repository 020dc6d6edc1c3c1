// SGBT family learners built directly from a config that carries its own
// seed (as the committee tests set it), for a task: the LearnerContext the
// constructors take, with the config's seed in it.
#pragma once

#include <cstddef>

#include "irithyll/ensemble/moe_sgbt.hpp"
#include "irithyll/ensemble/sgbt_learner.hpp"

namespace irithyll::testing {

inline SGBTLearner sgbt_learner(const SGBTConfig& c, Task task, std::size_t n_classes = 0) {
  return SGBTLearner(c, {.task = task, .n_classes = n_classes, .seed = c.seed});
}

inline MoESGBT moe_sgbt(const MoESGBTConfig& c, Task task, std::size_t n_classes = 0) {
  return MoESGBT(c, {.task = task, .n_classes = n_classes, .seed = c.base.seed});
}

}  // namespace irithyll::testing
