// Subcommand registry for the `irithyll` tool: one file per command
// (cmd_eval.cpp, cmd_drift.cpp, ...), each registering itself with a static
// CommandRegistration. main() dispatches on the first argument.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

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

}  // namespace irithyll::cli
