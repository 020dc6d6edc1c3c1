// Loads a packed f32 or int16 model (written by the library's exporter, e.g.
// prequential_sgbt's second argument or `irithyll export`) and prints one
// prediction per CSV row: the raw score (for a binary model, the log-odds of
// class 1). The model is validated once at load; predicting allocates nothing.
//
// Usage: packed_predict MODEL.bin DATA.csv
// DATA.csv: a header row; the last column is the target and is not used.
#include <cstdio>
#include <vector>

#include "irithyll/packed/packed_model.hpp"
#include "irithyll/stream/table_stream.hpp"

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: %s MODEL.bin DATA.csv\n", argv[0]);
    return 2;
  }
  auto model = irithyll::packed::PackedModel::load(argv[1]);
  if (!model.is_ok()) {
    std::fprintf(stderr, "%s\n", model.status().to_string().c_str());
    return 1;
  }
  auto stream = irithyll::open_table_stream(argv[2]);
  if (!stream.is_ok()) {
    std::fprintf(stderr, "%s\n", stream.status().to_string().c_str());
    return 1;
  }
  const std::size_t n_features = (*stream)->schema().n_features();
  if (n_features < model->required_features()) {
    std::fprintf(stderr, "the model reads %zu features, the file has %zu\n",
                 static_cast<std::size_t>(model->required_features()), n_features);
    return 1;
  }
  std::vector<double> x(n_features);
  std::vector<float> xf(n_features);
  double y = 0.0;
  while ((*stream)->next(x, y)) {
    for (std::size_t f = 0; f < n_features; ++f) xf[f] = static_cast<float>(x[f]);
    std::printf("%.9g\n", model->predict(xf));
  }
  if (!(*stream)->status().is_ok()) {
    std::fprintf(stderr, "%s\n", (*stream)->status().to_string().c_str());
    return 1;
  }
  return 0;
}
