// Checks, before the first row is read, that every file a command will write
// can be written: a long run that fails at its end on a typo in --save loses
// the whole run.
#pragma once

#include <string>
#include <vector>

#include "args.hpp"

namespace irithyll::cli {

// For each of `options` the user gave: its directory exists and is writable,
// and the path is not a directory (nor an existing read-only file). The error
// names the option and the path.
Status check_output_paths(const ArgParser& args, const std::vector<std::string>& options);

}  // namespace irithyll::cli
