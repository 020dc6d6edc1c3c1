// A small declarative option parser for the CLI: every option is declared once
// with its help text and default, and that one table drives parsing, --help and
// validation (style.md #12). Accepts "--name value" and "--name=value".
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "irithyll/core/status.hpp"

namespace irithyll::cli {

class ArgParser {
 public:
  ArgParser(std::string usage, std::string summary) : usage_(std::move(usage)), summary_(std::move(summary)) {}

  // An option taking a value. An empty default means "not set unless given".
  ArgParser& option(std::string name, std::string metavar, std::string help, std::string default_value = "");
  // Another accepted spelling of a declared option (older names).
  ArgParser& alias(const std::string& name, std::string old_name);
  // A boolean switch.
  ArgParser& flag(std::string name, std::string help);
  // Positional arguments are collected in order; `name` is for help only.
  ArgParser& positional(std::string name, std::string help);

  // Parses; "--help" sets help_requested() and returns OK.
  Status parse(std::span<char* const> args);
  bool help_requested() const { return help_; }
  std::string help() const;

  bool has(const std::string& name) const;  // given on the command line, or has a default
  bool given(const std::string& name) const;
  std::string get(const std::string& name) const;
  Result<double> get_double(const std::string& name) const;
  Result<std::int64_t> get_int(const std::string& name) const;
  const std::vector<std::string>& positionals() const { return positional_values_; }
  // Every declared option's name, in declaration order.
  std::vector<std::string> option_names() const {
    std::vector<std::string> names;
    for (const Opt& o : opts_) names.push_back(o.name);
    return names;
  }

 private:
  struct Opt {
    std::string name, metavar, help, default_value;
    bool is_flag = false;
    std::optional<std::string> value;
    std::vector<std::string> aliases;
  };
  const Opt* find(const std::string& name) const;
  Opt* find(const std::string& name);

  std::string usage_, summary_;
  std::vector<Opt> opts_;
  std::vector<std::pair<std::string, std::string>> positional_help_;
  std::vector<std::string> positional_values_;
  bool help_ = false;
};

// Prints "irithyll: <message>" to stderr and returns exit code 2 (usage) or 1.
int fail(const Status& status);

}  // namespace irithyll::cli
