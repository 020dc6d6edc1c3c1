// Shared body of the packed-reader fuzzers. The input's first 4 bytes are
// replaced by the target format's magic (so the fuzzer spends its time past
// the magic check); the rest is the model. A buffer that validates is then
// predicted through every path (view walk, bounded view walk, compiled single
// (dispatched and portable), and every batch kernel this CPU runs) on inputs
// derived from the same bytes, and
// the paths must agree; a disagreement aborts (a finding).
#pragma once

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "irithyll/packed/packed_model.hpp"

namespace irithyll::packed::fuzz {

inline bool same(float a, float b) { return std::memcmp(&a, &b, 4) == 0 || (std::isnan(a) && std::isnan(b)); }

inline void exercise(const std::uint8_t* data, std::size_t size, std::uint32_t magic) {
  std::vector<std::uint8_t> bytes(data, data + size);
  if (bytes.size() >= 4) std::memcpy(bytes.data(), &magic, 4);
  auto model = PackedModel::from_bytes(bytes);
  if (!model) return;
  const PackedModel& m = *model;
  const std::size_t nf = m.required_features();
  if (nf > 4096) return;
  // Feature rows taken from the tail of the input, reinterpreted as floats
  // (NaN, infinities, denormals included); 19 rows: one 16-row AVX-512 block,
  // two 8-row AVX2 blocks, and remainders for both.
  constexpr std::size_t kRows = 19;
  std::vector<float> rows(kRows * (nf == 0 ? 1 : nf));
  for (std::size_t i = 0; i < rows.size(); ++i) {
    std::uint32_t bits = 0;
    for (std::size_t k = 0; k < 4; ++k) bits = (bits << 8) | data[(size - 1 - (4 * i + k) % size)];
    std::memcpy(&rows[i], &bits, 4);
  }
  const std::size_t stride = nf == 0 ? 1 : nf;
  std::vector<float> batch(kRows), portable(kRows);
  if (!m.predict_batch(rows, stride, batch).is_ok()) std::abort();
  if (!m.predict_batch_portable(rows, stride, portable).is_ok()) std::abort();
  std::vector<std::vector<float>> kernels;
  for (BatchKernel k : {BatchKernel::kAvx2, BatchKernel::kAvx512}) {
    if (!m.batch_kernel_available(k)) continue;
    kernels.emplace_back(kRows);
    if (!m.predict_batch_with(k, rows, stride, kernels.back()).is_ok()) std::abort();
  }
  for (std::size_t r = 0; r < kRows; ++r) {
    const std::span<const float> x(rows.data() + r * stride, stride);
    const float ref = m.predict_ref(x);
    float view = 0.0f;
    const FormatError e = m.format() == PackedFormat::kF32 ? m.f32_view().predict(x.data(), x.size(), &view)
                                                           : m.i16_view().predict(x.data(), x.size(), &view);
    if (e != FormatError::kOk) std::abort();
    if (!same(ref, m.predict(x)) || !same(ref, m.predict_portable(x)) || !same(ref, view) || !same(ref, batch[r]) ||
        !same(ref, portable[r]))
      std::abort();
    for (const auto& k : kernels)
      if (!same(ref, k[r])) std::abort();
  }
  // Too few features must be refused, not read.
  if (nf > 0 && !std::isnan(m.predict(std::span<const float>(rows.data(), nf - 1)))) std::abort();
}

}  // namespace irithyll::packed::fuzz
