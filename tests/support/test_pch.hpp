// Precompiled for every test file (IRITHYLL_PCH): GoogleTest and the standard
// headers most test files include. Parsing them is about half of a test
// file's compile time; only headers that never change go here, so editing the
// library never rebuilds the precompiled header.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <limits>
#include <memory>
#include <optional>
#include <span>
#include <sstream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>
