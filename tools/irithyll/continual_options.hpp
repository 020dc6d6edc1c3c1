// The continual-learning options shared by the neural rows of `irithyll eval`
// (slstm, mgrade, mamba, loglinear): --continual none|ewc|mask|regen and its knobs,
// parsed into an nn::ContinualConfig (nn/continual/continual_config.hpp).
// Each row declares them (the parser keeps the first declaration) and parses
// them into its learner's config; the learner's validate() says which
// strategies it accepts.
#pragma once

#include <cstdint>

#include "args.hpp"
#include "irithyll/nn/continual/continual_config.hpp"

namespace irithyll::cli {

void declare_continual_options(ArgParser& parser);
Result<nn::ContinualConfig> parse_continual_options(const ArgParser& args, std::uint64_t seed);

}  // namespace irithyll::cli
