// Locating ../shared (datasets, interop files) from tests. CTest sets
// IRITHYLL_SHARED_DIR; otherwise <source>/../shared is tried. Tests that need it
// call IRITHYLL_REQUIRE_SHARED(path) and are skipped with a clear message when
// the file is absent (a clone without ../shared beside it).
#pragma once

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <string>

namespace irithyll::testing {

inline std::string shared_dir() {
  if (const char* env = std::getenv("IRITHYLL_SHARED_DIR"); env != nullptr && *env != '\0') return env;
  return std::string(IRITHYLL_SOURCE_DIR) + "/../shared";
}

inline std::string shared_path(const std::string& relative) { return shared_dir() + "/" + relative; }

}  // namespace irithyll::testing

#define IRITHYLL_REQUIRE_SHARED(relative)                                                             \
  do {                                                                                                \
    if (!std::filesystem::exists(::irithyll::testing::shared_path(relative)))                         \
      GTEST_SKIP() << "needs ../shared/" << (relative) << " (not found at "                           \
                   << ::irithyll::testing::shared_path(relative) << "); skipped without shared data"; \
  } while (0)
