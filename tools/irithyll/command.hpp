// Subcommand registry for the `irithyll` tool: one file per command
// (cmd_eval.cpp, cmd_drift.cpp, ...), each registering itself with a static
// CommandRegistration. main() dispatches on the first argument.
#pragma once

#include <cstdio>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "irithyll/core/status.hpp"

namespace irithyll::cli {

// args excludes the program and command names. Returns the process exit code.
using CommandFn = int (*)(std::span<char* const> args);

struct Command {
  std::string_view name;
  std::string_view summary;
  CommandFn run;
};

std::vector<Command>& command_table();

struct CommandRegistration {
  CommandRegistration(std::string_view name, std::string_view summary, CommandFn run) {
    command_table().push_back(Command{name, summary, run});
  }
};

// Writes a line (with its newline) to standard output; false when the write
// fails (a closed pipe, a full disk), so the caller can stop and say so.
inline bool write_line(std::string_view line) {
  return std::fwrite(line.data(), 1, line.size(), stdout) == line.size();
}

// Prints a data error as "irithyll: FILE:LINE:COL: ..." (the reader's message
// already starts with the location), without the status-code prefix.
inline int fail_data(const Status& status) {
  std::fprintf(stderr, "irithyll: %s\n", status.message().c_str());
  return 1;
}

}  // namespace irithyll::cli
