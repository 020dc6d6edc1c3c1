// libFuzzer target for the forecasters' readers: checkpoint bytes
// (decode_forecaster), the --lags list (parse_lags) and decompose_window on
// arbitrary doubles. The first byte picks which. A checkpoint that decodes
// must then forecast and learn without crashing; every refusal is a Status.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>
#include <vector>

#include "irithyll/timeseries/decomposition.hpp"
#include "irithyll/timeseries/forecasters.hpp"
#include "irithyll/timeseries/lag_forecaster.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 1) return 0;
  const std::uint8_t mode = data[0] % 3;
  const std::span<const std::uint8_t> rest(data + 1, size - 1);
  if (mode == 0) {
    irithyll::ByteReader in(rest);
    auto model = irithyll::timeseries::decode_forecaster(in);
    if (!model.is_ok()) return 0;
    std::vector<double> out(4);
    (void)(*model)->forecast({}, out);
    (void)(*model)->learn_one(1.5);
    (void)(*model)->forecast({}, out);
  } else if (mode == 1) {
    auto lags = irithyll::timeseries::parse_lags(std::string_view(reinterpret_cast<const char*>(rest.data()), rest.size()));
    if (lags.is_ok() && lags->empty()) __builtin_trap();  // a parsed list is never empty
  } else if (rest.size() >= 1) {
    std::vector<double> y(std::min<std::size_t>((rest.size() - 1) / 8, 4096));
    if (!y.empty()) std::memcpy(y.data(), rest.data() + 1, y.size() * sizeof(double));  // memcpy from/to null is UB even for 0 bytes
    (void)irithyll::timeseries::decompose_window(y, rest[0] % 16, rest[0] & 0x80);
  }
  return 0;
}
