// libFuzzer target for the CSV reader: any bytes, read through the in-memory
// path with the option combinations the CLI can produce. The reader must
// return errors as values, never crash, hang or read out of bounds; a stream
// that opens must deliver exactly n_features values per sample, class ids in
// range, and finite regression targets.
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
  if (mode & 1) options.task = (mode & 2) ? irithyll::Task::kClassification : irithyll::Task::kRegression;
  if (mode & 4) options.target = "y";
  options.skip_rows = (mode >> 4) & 3;
  if (mode & 8) options.lookahead_rows = 2;  // rows after the look-ahead take the other code path
  if (mode & 64) options.separator = ';';
  if (mode & 128) options.header = false;
  std::string text(reinterpret_cast<const char*>(data + 1), size - 1);
  auto opened = irithyll::open_table_stream_from_string(std::move(text), options, "fuzz.csv");
  if (!opened.is_ok()) return 0;
  irithyll::Stream& s = **opened;
  const irithyll::Schema& schema = s.schema();
  std::vector<double> x(schema.n_features());
  double y = 0.0;
  std::uint64_t rows = 0;
  while (s.next(x, y)) {
    ++rows;
    if (schema.task == irithyll::Task::kClassification) {
      if (!(y >= 0.0 && y < static_cast<double>(schema.n_classes()))) std::abort();
    } else if (!std::isfinite(y)) {
      std::abort();
    }
  }
  // A size known in advance (input shorter than the look-ahead) must be right.
  if (s.status().is_ok() && s.size_hint().has_value() && *s.size_hint() != rows) std::abort();
  return 0;
}
