#include "args.hpp"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <algorithm>

namespace irithyll::cli {

ArgParser& ArgParser::option(std::string name, std::string metavar, std::string help, std::string default_value) {
  if (find(name) != nullptr) return *this;  // shared by several models: first declaration wins
  opts_.push_back(Opt{std::move(name), std::move(metavar), std::move(help), std::move(default_value), false, {}, {}});
  return *this;
}

ArgParser& ArgParser::alias(const std::string& name, std::string old_name) {
  if (Opt* o = find(name); o != nullptr && find(old_name) == nullptr) o->aliases.push_back(std::move(old_name));
  return *this;
}

ArgParser& ArgParser::flag(std::string name, std::string help) {
  if (find(name) != nullptr) return *this;
  opts_.push_back(Opt{std::move(name), "", std::move(help), "", true, {}, {}});
  return *this;
}

ArgParser& ArgParser::positional(std::string name, std::string help) {
  positional_help_.emplace_back(std::move(name), std::move(help));
  return *this;
}

const ArgParser::Opt* ArgParser::find(const std::string& name) const {
  for (const auto& o : opts_)
    if (o.name == name || std::find(o.aliases.begin(), o.aliases.end(), name) != o.aliases.end()) return &o;
  return nullptr;
}

ArgParser::Opt* ArgParser::find(const std::string& name) {
  return const_cast<Opt*>(static_cast<const ArgParser*>(this)->find(name));
}

Status ArgParser::parse(std::span<char* const> args) {
  for (std::size_t i = 0; i < args.size(); ++i) {
    std::string arg = args[i];
    if (arg == "--help" || arg == "-h") {
      help_ = true;
      return Status::ok();
    }
    if (arg.rfind("--", 0) != 0 || arg.size() == 2) {
      if (positional_values_.size() >= positional_help_.size())
        return Status::invalid_argument("unexpected argument '" + arg + "' (see --help)");
      positional_values_.push_back(arg);
      continue;
    }
    std::string name = arg.substr(2), value;
    bool inline_value = false;
    if (auto eq = name.find('='); eq != std::string::npos) {
      value = name.substr(eq + 1);
      name = name.substr(0, eq);
      inline_value = true;
    }
    Opt* o = find(name);
    if (o == nullptr) return Status::invalid_argument("unknown option '--" + name + "' (see --help)");
    if (o->is_flag) {
      if (inline_value) return Status::invalid_argument("option '--" + name + "' takes no value");
      o->value.emplace(1, '1');
      continue;
    }
    if (!inline_value) {
      if (i + 1 >= args.size()) return Status::invalid_argument("option '--" + name + "' needs a value");
      value = args[++i];
    }
    // A file option given twice would silently keep the last one (--data A
    // --data B reading only B): refused so the user sees which was meant.
    // Settings may be repeated (the last wins), so that a base command line
    // can be extended with overrides.
    static constexpr std::string_view kFileOptions[] = {"data", "checkpoint", "load", "save", "out",
                                                        "predictions", "plot", "curve", "background"};
    bool file_option = false;
    for (std::string_view f : kFileOptions) file_option = file_option || o->name == f;
    if (o->value && file_option)
      return Status::invalid_argument("option '--" + o->name + "' given twice ('" + *o->value + "' and '" + value +
                                      "'); give it once");
    o->value = value;
  }
  return Status::ok();
}

bool ArgParser::given(const std::string& name) const {
  const Opt* o = find(name);
  return o != nullptr && o->value.has_value();
}

bool ArgParser::has(const std::string& name) const {
  const Opt* o = find(name);
  return o != nullptr && (o->value.has_value() || !o->default_value.empty());
}

std::string ArgParser::get(const std::string& name) const {
  const Opt* o = find(name);
  if (o == nullptr) return "";
  return o->value ? *o->value : o->default_value;
}

Result<double> ArgParser::get_double(const std::string& name) const {
  const std::string s = get(name);
  char* end = nullptr;
  errno = 0;
  const double v = std::strtod(s.c_str(), &end);
  if (s.empty() || end != s.c_str() + s.size() || errno == ERANGE || !std::isfinite(v))
    return Status::invalid_argument("option '--" + name + "' expects a finite number, got '" + s + "'");
  return v;
}

Result<std::int64_t> ArgParser::get_int(const std::string& name) const {
  const std::string s = get(name);
  char* end = nullptr;
  errno = 0;
  const long long v = std::strtoll(s.c_str(), &end, 10);
  if (s.empty() || end != s.c_str() + s.size() || errno == ERANGE)
    return Status::invalid_argument("option '--" + name + "' expects an integer, got '" + s + "'");
  return static_cast<std::int64_t>(v);
}

std::string ArgParser::help() const {
  std::string out = "usage: " + usage_ + "\n\n" + summary_ + "\n";
  if (!positional_help_.empty()) {
    out += "\narguments:\n";
    for (const auto& [n, h] : positional_help_) {
      std::string line = "  ";
      line += n;
      line.resize(std::max<std::size_t>(line.size() + 1, 28), ' ');
      out += line;
      out += h;
      out += '\n';
    }
  }
  out += "\noptions:\n";
  for (const auto& o : opts_) {
    std::string left = "  --";
    left += o.name;
    if (!o.is_flag) {
      left += ' ';
      left += o.metavar;
    }
    if (left.size() < 28) left.resize(28, ' ');
    else left += "  ";
    out += left + o.help;
    if (!o.default_value.empty()) out += " (default " + o.default_value + ")";
    out += "\n";
  }
  out += "  --help                    show this help\n";
  return out;
}

int fail(const Status& status) {
  std::fprintf(stderr, "irithyll: %s\n", status.to_string().c_str());
  return status.code() == StatusCode::kInvalidArgument ? 2 : 1;
}

}  // namespace irithyll::cli
