// The Electricity model exported by the Rust library: every path of our readers
// must reproduce the Rust library's own predictions for all 45,312 rows of
// elec8.csv (f32 bit-exact here, which is stricter than "to rounding"; int16
// exactly, which also pins the quantise-once arithmetic).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "irithyll/packed/packed_model.hpp"
#include "support/shared_data.hpp"

namespace irithyll::packed {
namespace {

struct ElecData {
  std::vector<float> rows;  // 8 per row
  std::vector<float> want_f32, want_i16;
};

ElecData load_elec() {
  ElecData d;
  std::ifstream data(irithyll::testing::shared_path("datasets/elec8.csv"));
  std::ifstream exp(irithyll::testing::shared_path("interop/elec_50t_d6_lr0.1.expected.csv"));
  std::string a, b;
  std::getline(data, a);
  std::getline(exp, b);
  while (std::getline(data, a) && std::getline(exp, b)) {
    std::stringstream sa(a), sb(b);
    std::string cell;
    for (int i = 0; i < 8; ++i) {
      std::getline(sa, cell, ',');
      d.rows.push_back(std::strtof(cell.c_str(), nullptr));
    }
    std::getline(sb, cell, ',');
    std::getline(sb, cell, ',');
    d.want_f32.push_back(std::strtof(cell.c_str(), nullptr));
    std::getline(sb, cell, ',');
    d.want_i16.push_back(std::strtof(cell.c_str(), nullptr));
  }
  return d;
}

void check_all_paths(const PackedModel& m, const ElecData& d, const std::vector<float>& want) {
  const std::size_t n = want.size();
  ASSERT_EQ(n, 45312u);
  std::size_t bad_ref = 0, bad_fast = 0, bad_portable = 0;
  for (std::size_t r = 0; r < n; ++r) {
    const std::span<const float> x(d.rows.data() + 8 * r, 8);
    bad_ref += m.predict_ref(x) != want[r];
    bad_fast += m.predict(x) != want[r];
    bad_portable += m.predict_portable(x) != want[r];
  }
  EXPECT_EQ(bad_ref, 0u);
  EXPECT_EQ(bad_fast, 0u);
  EXPECT_EQ(bad_portable, 0u);
  std::vector<float> out(n);
  ASSERT_TRUE(m.predict_batch(d.rows, 8, out).is_ok());
  EXPECT_EQ(out, want) << "batch kernel " << m.batch_kernel();
  for (BatchKernel k : {BatchKernel::kPortable, BatchKernel::kAvx2, BatchKernel::kAvx512}) {
    if (!m.batch_kernel_available(k)) continue;
    std::fill(out.begin(), out.end(), 0.0f);
    ASSERT_TRUE(m.predict_batch_with(k, d.rows, 8, out).is_ok());
    EXPECT_EQ(out, want) << "batch kernel " << batch_kernel_name(k);
  }
}

TEST(PackedInterop, ElectricityF32MatchesOriginal) {
  IRITHYLL_REQUIRE_SHARED("interop/elec_50t_d6_lr0.1.bin");
  IRITHYLL_REQUIRE_SHARED("datasets/elec8.csv");
  auto m = PackedModel::load(irithyll::testing::shared_path("interop/elec_50t_d6_lr0.1.bin"));
  ASSERT_TRUE(m.is_ok()) << m.status().to_string();
  EXPECT_EQ(m->format(), PackedFormat::kF32);
  EXPECT_EQ(m->info().total_nodes, 2776u);
  EXPECT_EQ(m->info().n_trees, 50);
  EXPECT_EQ(m->info().max_depth, 6u);
  const ElecData d = load_elec();
  check_all_paths(*m, d, d.want_f32);
  // The freestanding view's bounded walk (what a microcontroller runs) too.
  std::size_t bad = 0;
  for (std::size_t r = 0; r < d.want_f32.size(); ++r) {
    float p = 0;
    (void)m->f32_view().predict(d.rows.data() + 8 * r, 8, &p);
    bad += p != d.want_f32[r];
  }
  EXPECT_EQ(bad, 0u);
}

TEST(PackedInterop, ElectricityI16MatchesOriginalExactly) {
  IRITHYLL_REQUIRE_SHARED("interop/elec_50t_d6_lr0.1_i16.bin");
  IRITHYLL_REQUIRE_SHARED("datasets/elec8.csv");
  auto m = PackedModel::load(irithyll::testing::shared_path("interop/elec_50t_d6_lr0.1_i16.bin"));
  ASSERT_TRUE(m.is_ok()) << m.status().to_string();
  EXPECT_EQ(m->format(), PackedFormat::kI16);
  EXPECT_EQ(m->info().total_nodes, 2776u);
  const ElecData d = load_elec();
  check_all_paths(*m, d, d.want_i16);
  // The view's inline-quantising walk and its quantise-once walk agree too.
  std::size_t bad = 0;
  for (std::size_t r = 0; r < d.want_i16.size(); ++r) {
    float a = 0, b = 0;
    (void)m->i16_view().predict_ref(d.rows.data() + 8 * r, 8, &a);
    (void)m->i16_view().predict(d.rows.data() + 8 * r, 8, &b);
    bad += a != b || b != d.want_i16[r];
  }
  EXPECT_EQ(bad, 0u);
}

}  // namespace
}  // namespace irithyll::packed
