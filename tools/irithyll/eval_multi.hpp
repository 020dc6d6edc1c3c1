// `irithyll eval` on several targets (--target a,b,c with a multi-output
// model): the prequential run, per-target summary or JSON, one prediction
// column per target, --save. cmd_eval.cpp builds or loads the model and
// checks the options first.
#pragma once

#include <string>

#include "args.hpp"
#include "irithyll/eval/prequential.hpp"

namespace irithyll::cli {

int run_multi_target_eval(const ArgParser& args, Learner& learner, Stream& stream, const PrequentialOptions& options,
                          const std::string& source, PrequentialObserver* progress);

}  // namespace irithyll::cli
