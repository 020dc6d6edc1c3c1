// Settings inside their ranges can ask for more memory than a process may
// take: moe_distributional_sgbt with 64 experts of 10,000 trees needs about
// 20 GB. Building such a model, or decoding a record whose few bytes name
// those settings, must give an error, never an escaping std::bad_alloc
// (which aborts the process), and a record is refused before it is built.
// Each case runs in a child process whose address space is capped at 1 GB,
// so the failure is certain and harmless.
#include <gtest/gtest.h>

#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "irithyll/catalogue.hpp"
#include "irithyll/core/bytes.hpp"
#include "irithyll/model_file.hpp"

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define IRITHYLL_TEST_ASAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define IRITHYLL_TEST_ASAN 1
#endif

namespace irithyll {
namespace {

// Runs `body` in a child under a 1 GB address-space cap. The child exits 0
// when `body` returns true (an error with the expected words), 1 when it
// returns false; an escaped exception aborts it (a signal).
void expect_error_under_memory_cap(const std::function<bool()>& body) {
#ifdef IRITHYLL_TEST_ASAN
  GTEST_SKIP() << "AddressSanitizer reserves terabytes of address space; the cap would stop it starting";
#endif
  const pid_t pid = ::fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    const rlimit cap{1ull << 30, 1ull << 30};
    ::setrlimit(RLIMIT_AS, &cap);
    ::_exit(body() ? 0 : 1);
  }
  int status = 0;
  ASSERT_EQ(::waitpid(pid, &status, 0), pid);
  ASSERT_TRUE(WIFEXITED(status)) << "the child died of signal " << WTERMSIG(status) << " (an escaped exception)";
  EXPECT_EQ(WEXITSTATUS(status), 0) << "the child got no error, or an error without the expected words";
}

const LearnerContext kRegression{.task = Task::kRegression, .seed = 1};

TEST(MemoryLimit, SettingsTooLargeToBuildAreAnError) {
  expect_error_under_memory_cap([] {
    auto m = make_learner("moe_distributional_sgbt", {{"n-experts", "64"}, {"n-steps", "10000"}}, kRegression);
    return !m.is_ok() && m.status().message().find("more memory") != std::string::npos;
  });
}

// The record of a small mixture with its settings rewritten to the large
// ones (settings are stored as text, each after its varint length), sealed
// again so that only the settings are hostile.
std::vector<std::uint8_t> record_naming_a_huge_mixture() {
  auto small = make_learner("moe_distributional_sgbt", {{"n-experts", "2"}, {"n-steps", "1"}}, kRegression);
  EXPECT_TRUE(small.is_ok());
  const std::vector<std::uint8_t> sealed = encode_learner(**small);
  std::vector<std::uint8_t> payload(sealed.begin() + kCheckpointHeaderBytes, sealed.end());
  const auto replace = [&](const std::string& name, const std::string& from, const std::string& to) {
    std::vector<std::uint8_t> old_bytes{static_cast<std::uint8_t>(name.size())};
    old_bytes.insert(old_bytes.end(), name.begin(), name.end());
    std::vector<std::uint8_t> new_bytes = old_bytes;
    old_bytes.push_back(static_cast<std::uint8_t>(from.size()));
    old_bytes.insert(old_bytes.end(), from.begin(), from.end());
    new_bytes.push_back(static_cast<std::uint8_t>(to.size()));
    new_bytes.insert(new_bytes.end(), to.begin(), to.end());
    const auto at = std::search(payload.begin(), payload.end(), old_bytes.begin(), old_bytes.end());
    EXPECT_NE(at, payload.end()) << name;
    if (at == payload.end()) return;
    const auto offset = at - payload.begin();
    payload.erase(payload.begin() + offset, payload.begin() + offset + static_cast<std::ptrdiff_t>(old_bytes.size()));
    payload.insert(payload.begin() + offset, new_bytes.begin(), new_bytes.end());
  };
  replace("n-experts", "2", "64");
  replace("n-steps", "1", "10000");
  return seal_checkpoint(payload);
}

// The record is refused before anything is built: its few hundred bytes
// cannot hold the state of the 2,560,000 tree slots its settings name. (The
// cap only keeps the machine safe should that check be missing: then the
// build fails on memory instead, with other words.)
TEST(MemoryLimit, ARecordNamingSettingsTooLargeToBuildIsRefusedUnbuilt) {
  const std::vector<std::uint8_t> bytes = record_naming_a_huge_mixture();
  expect_error_under_memory_cap([&] {
    auto m = decode_learner(bytes);
    return !m.is_ok() && m.status().message().find("name at least 2560000 tree slots") != std::string::npos;
  });
}

}  // namespace
}  // namespace irithyll
