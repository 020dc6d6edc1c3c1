// libFuzzer target for pipeline text (`--model "a(k=v)|b|learner"`): any
// bytes through parse_pipeline_spec and, when they parse, make_pipeline on a
// small stream shape. Every refusal must be a Status; a pipeline that builds
// must learn and predict a few samples (one of them with NaN) and survive a
// checkpoint round trip.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>
#include <vector>

#include "irithyll/model_file.hpp"
#include "irithyll/pipeline_spec.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  auto steps = irithyll::parse_pipeline_spec(text);
  if (!steps.is_ok() || size > 512) return 0;
  irithyll::LearnerContext context{irithyll::Task::kClassification, 3, 3, 1};
  context.feature_names = {"colour", "a", "b"};
  const std::uint32_t categorical[1] = {0};
  auto made = irithyll::make_pipeline(text, {}, context, categorical);
  if (!made.is_ok()) return 0;
  irithyll::Learner& p = **made;
  std::vector<double> proba(3);
  for (int i = 0; i < 8; ++i) {
    const double x[3] = {static_cast<double>(i % 3), i == 5 ? __builtin_nan("") : 0.5 * i, -1.0 * i};
    p.predict_proba_one(x, proba);
    p.learn_one(x, static_cast<double>(i % 3));
  }
  auto again = irithyll::decode_learner(irithyll::encode_learner(p));
  if (!again.is_ok()) std::abort();
  return 0;
}
