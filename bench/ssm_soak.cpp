// 10-million-step soak of every SSM / recurrent model and learner (see
// soak_models.hpp): one JSON line per model with finiteness, the largest output
// magnitude and the wall time. usage: bench_ssm_soak [STEPS] [MODEL...]
// (default 10,000,000 steps, every model). Exit code 1 if any model produced
// a NaN or inf.
#include <cstdio>
#include <cstdlib>
#include <string>

#include "soak_models.hpp"

int main(int argc, char** argv) {
  std::uint64_t steps = 10'000'000;
  if (argc > 1) steps = std::strtoull(argv[1], nullptr, 10);
  std::vector<std::string> models;
  for (int i = 2; i < argc; ++i) models.emplace_back(argv[i]);
  if (models.empty()) models = irithyll::soak::model_names();
  int rc = 0;
  for (const auto& name : models) {
    const auto r = irithyll::soak::run(name, steps, 12345);
    std::printf("{\"workload\":\"soak_%s\",\"steps\":%llu,\"finite\":%s,\"first_bad_step\":%llu,\"max_abs_output\":%.6g,"
                "\"seconds\":%.2f}\n",
                r.model.c_str(), static_cast<unsigned long long>(r.steps), r.finite ? "true" : "false",
                static_cast<unsigned long long>(r.first_bad_step), r.max_abs_output, r.seconds);
    std::fflush(stdout);
    if (!r.finite || r.steps != steps) rc = 1;
  }
  return rc;
}
