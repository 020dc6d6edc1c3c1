// libFuzzer target for the JSON-lines reader: any bytes, through the
// in-memory path, with option combinations the CLI can produce. As for CSV:
// errors come back as values, no crash, hang or out-of-bounds read; a stream
// that opens delivers n_features values per sample, class ids in range and
// finite regression targets (NaN only where unlabelled rows are allowed).
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "irithyll/stream/table_stream.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 1) return 0;
  // First byte picks the options; the rest is the file.
  const std::uint8_t mode = data[0];
  irithyll::TableOptions options;
  options.format = irithyll::TableFormat::kJsonLines;
  if (mode & 1) options.task = (mode & 2) ? irithyll::Task::kClassification : irithyll::Task::kRegression;
  if (mode & 4) options.target = "y";
  if (mode & 8) options.lookahead_rows = 2;  // keys first seen later are ignored, not added
  if (mode & 16) options.allow_missing_target = true;
  if (mode & 32) options.features = {"a", "b"};
  if (mode & 64) options.categorical = {"a"};
  std::string text(reinterpret_cast<const char*>(data + 1), size - 1);
  auto opened = irithyll::open_table_stream_from_string(std::move(text), options, "fuzz.jsonl");
  if (!opened.is_ok()) return 0;
  irithyll::TableStream& s = **opened;
  const irithyll::Schema& schema = s.schema();
  std::vector<double> x(schema.n_features());
  double y = 0.0;
  std::uint64_t rows = 0;
  while (s.next(x, y)) {
    ++rows;
    if (std::isnan(y)) {
      if (!options.allow_missing_target) std::abort();
    } else if (schema.task == irithyll::Task::kClassification) {
      if (!(y >= 0.0 && y < static_cast<double>(schema.n_classes()))) std::abort();
    } else if (!std::isfinite(y)) {
      std::abort();
    }
  }
  if (s.status().is_ok() && s.size_hint().has_value() && *s.size_hint() != rows) std::abort();
  return 0;
}
