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

// The widest vector extension the kernels can use on this CPU (they dispatch
// at run time), and the one the build assumes everywhere.
const char* simd_level() {
#if defined(__x86_64__) || defined(__i386__)
  if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512vl"))
    return "avx512";
  if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) return "avx2+fma";
  return "sse2";
#elif defined(__aarch64__)
  return "neon";
#else
  return "scalar";
#endif
}

const char* build_simd() {
#if defined(__AVX512F__)
  return "avx512";
#elif defined(__AVX2__)
  return "avx2";
#elif defined(__x86_64__)
  return "sse2";
#elif defined(__aarch64__)
  return "neon";
#else
  return "scalar";
#endif
}

void print_usage() {
  std::fprintf(stderr, "usage: irithyll <command> [options]\n\ncommands:\n");
  auto table = irithyll::cli::command_table();
  std::sort(table.begin(), table.end(), [](const auto& a, const auto& b) { return a.name < b.name; });
  for (const auto& c : table)
    std::fprintf(stderr, "  %-10.*s %.*s\n", static_cast<int>(c.name.size()), c.name.data(),
                 static_cast<int>(c.summary.size()), c.summary.data());
  std::fprintf(stderr, "\n'irithyll <command> --help' describes a command's options; 'irithyll --version'.\n");
}
}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    print_usage();
    return 2;
  }
  const std::string_view name = argv[1];
  if (name == "--version" || name == "-V" || name == "version") {
    std::printf("irithyll %s\nsimd: %s on this CPU (runtime dispatch; build baseline %s)\n", IRITHYLL_VERSION,
                simd_level(), build_simd());
    return 0;
  }
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
