// Runs build/irithyll from end-to-end tests and captures exit code, stdout
// and stderr. Arguments are passed through /bin/sh, so quote paths with
// spaces. Each call gets its own stderr file, so tests may run in parallel.
#pragma once

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <atomic>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace irithyll::testing {

struct CliRun {
  int code = -1;
  std::string out;
  std::string err;
};

inline std::string temp_path(const std::string& name) {
  return ::testing::TempDir() + "irithyll_" + std::to_string(::getpid()) + "_" + name;
}

inline CliRun run_cli(const std::string& args) {
  static std::atomic<int> counter{0};
  const std::string err_path = temp_path("stderr_" + std::to_string(counter++) + ".txt");
  const std::string cmd = std::string(IRITHYLL_BINARY_DIR) + "/irithyll " + args + " 2>" + err_path;
  CliRun r;
  FILE* p = popen(cmd.c_str(), "r");
  if (p == nullptr) return r;
  std::array<char, 65536> buf;
  std::size_t n;
  while ((n = std::fread(buf.data(), 1, buf.size(), p)) > 0) r.out.append(buf.data(), n);
  const int status = pclose(p);
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  std::ifstream e(err_path);
  std::stringstream ss;
  ss << e.rdbuf();
  r.err = ss.str();
  std::remove(err_path.c_str());
  return r;
}

inline std::string write_temp_file(const std::string& name, const std::string& text) {
  const std::string path = temp_path(name);
  std::ofstream(path, std::ios::binary) << text;
  return path;
}

inline std::string read_text_file(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

inline std::vector<std::string> split_lines(const std::string& s) {
  std::vector<std::string> v;
  std::stringstream ss(s);
  for (std::string l; std::getline(ss, l);) v.push_back(l);
  return v;
}

// The number after `"key":` in a JSON line, or -1e300 when the key is absent.
inline double json_number(const std::string& json, const std::string& key) {
  const auto pos = json.find("\"" + key + "\":");
  if (pos == std::string::npos) return -1e300;
  return std::stod(json.substr(pos + key.size() + 3));
}

// The number after the first "accuracy" in eval's output, or -1 when absent.
inline double accuracy_in(const std::string& out) {
  const auto at = out.find("accuracy");
  return at == std::string::npos ? -1.0 : std::stod(out.substr(at + 8));
}

}  // namespace irithyll::testing
