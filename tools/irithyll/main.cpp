// irithyll: run streaming models over streams and report what the field
// expects (prequential accuracy, kappa, error, throughput, learning curves).
#include <algorithm>
#include <cstdio>
#include <string_view>

#include "command.hpp"

namespace irithyll::cli {
std::vector<Command>& command_table() {
  static std::vector<Command> table;
  return table;
}
}  // namespace irithyll::cli

namespace {
void print_usage() {
  std::fprintf(stderr, "usage: irithyll <command> [options]\n\ncommands:\n");
  auto table = irithyll::cli::command_table();
  std::sort(table.begin(), table.end(), [](const auto& a, const auto& b) { return a.name < b.name; });
  for (const auto& c : table)
    std::fprintf(stderr, "  %-10.*s %.*s\n", static_cast<int>(c.name.size()), c.name.data(),
                 static_cast<int>(c.summary.size()), c.summary.data());
  std::fprintf(stderr, "\n'irithyll <command> --help' describes a command's options.\n");
}
}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    print_usage();
    return 2;
  }
  const std::string_view name = argv[1];
  if (name == "--help" || name == "-h" || name == "help") {
    print_usage();
    return 0;
  }
  for (const auto& c : irithyll::cli::command_table())
    if (c.name == name) return c.run(std::span<char* const>(argv + 2, static_cast<std::size_t>(argc - 2)));
  std::fprintf(stderr, "irithyll: unknown command '%.*s'\n\n", static_cast<int>(name.size()), name.data());
  print_usage();
  return 2;
}
