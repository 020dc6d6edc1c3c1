// Prequential (test-then-train) SGBT on a CSV file: every row is predicted,
// scored, then learned, once. Prints the accuracy (classification) or the
// mean absolute error (regression). With a second argument, also writes the
// trained model as a packed f32 file that packed_predict reads.
//
// Usage: prequential_sgbt DATA.csv [MODEL.bin]
// DATA.csv: a header row, the target in the last column (table_stream.hpp).
#include <cmath>
#include <cstdio>
#include <fstream>
#include <vector>

#include "irithyll/ensemble/sgbt_learner.hpp"
#include "irithyll/packed/exporter.hpp"
#include "irithyll/stream/table_stream.hpp"

int main(int argc, char** argv) {
  if (argc < 2 || argc > 3) {
    std::fprintf(stderr, "usage: %s DATA.csv [MODEL.bin]\n", argv[0]);
    return 2;
  }
  auto stream = irithyll::open_table_stream(argv[1]);
  if (!stream.is_ok()) {
    std::fprintf(stderr, "%s\n", stream.status().to_string().c_str());
    return 1;
  }
  const irithyll::Schema& schema = (*stream)->schema();
  const bool classification = schema.task == irithyll::Task::kClassification;

  irithyll::SGBTConfig config;  // the defaults; sgbt_config.hpp documents each field
  config.n_steps = 20;
  auto made = irithyll::SGBTLearner::make(
      config, {.task = schema.task, .n_classes = schema.n_classes(), .seed = config.seed});
  if (!made.is_ok()) {
    std::fprintf(stderr, "%s\n", made.status().to_string().c_str());
    return 1;
  }
  irithyll::SGBTLearner& model = **made;

  std::vector<double> x(schema.n_features());
  double y = 0.0, score = 0.0;
  std::uint64_t n = 0;
  while ((*stream)->next(x, y)) {
    const double prediction = model.predict_one(x);  // test first ...
    score += classification ? (prediction == y ? 1.0 : 0.0) : std::fabs(prediction - y);
    model.learn_one(x, y);  // ... then train
    ++n;
  }
  if (!(*stream)->status().is_ok()) {
    std::fprintf(stderr, "%s\n", (*stream)->status().to_string().c_str());
    return 1;
  }
  std::printf("samples %llu %s %.4f\n", static_cast<unsigned long long>(n), classification ? "accuracy" : "mae",
              n ? score / static_cast<double>(n) : 0.0);

  if (argc == 3) {
    // One packed model per committee; a multiclass model has one per class.
    if (model.n_committees() != 1) {
      std::fprintf(stderr, "packed export here covers regression and binary models only\n");
      return 1;
    }
    auto bytes = irithyll::packed::export_f32(model.export_model(0));
    if (!bytes.is_ok()) {
      std::fprintf(stderr, "%s\n", bytes.status().to_string().c_str());
      return 1;
    }
    std::ofstream out(argv[2], std::ios::binary);
    out.write(reinterpret_cast<const char*>(bytes->data()), static_cast<std::streamsize>(bytes->size()));
    if (!out) {
      std::fprintf(stderr, "%s: cannot write\n", argv[2]);
      return 1;
    }
  }
  return 0;
}
