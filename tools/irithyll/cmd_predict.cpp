// `irithyll predict`: predictions for every row of a CSV file, from a packed
// model (--model FILE.bin, f32 or int16: the format's raw output) or from a
// checkpoint (--checkpoint FILE: the full trained model, without learning; an
// SGBT prints its raw margin, one per committee comma-separated, any other
// learner its predict_one). One line per row, %.9g (round-trips an f32).
//
// CSV: a header row, then rows whose first n_features cells are numbers
// (n_features: the packed header's, or the checkpoint learner's); later cells
// are ignored whatever they hold. A bad cell is an error naming FILE:LINE:COL.
//
// --bench: instead of printing, repeats the prediction pass over the loaded
// rows for at least a second per path (single, batch) and prints one JSON
// object with nanoseconds per prediction.
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <vector>

#include "args.hpp"
#include "command.hpp"
#include "irithyll/core/file_io.hpp"
#include "irithyll/ensemble/sgbt_learner.hpp"
#include "irithyll/model_file.hpp"
#include "irithyll/packed/packed_model.hpp"

namespace irithyll::cli {
namespace {

ArgParser make_parser() {
  ArgParser p("irithyll predict (--model FILE.bin | --checkpoint FILE) --data FILE.csv [--bench]",
              "Predicts every row of a CSV file with a packed model or a checkpoint; one value per line.");
  p.option("model", "FILE.bin", "packed model (f32 \"IRIT\" or int16 \"IR16\")")
      .option("checkpoint", "FILE", "checkpoint written by irithyll (predicts with the full model)")
      .option("data", "FILE.csv", "CSV with a header row; the first n_features columns are the features")
      .flag("bench", "time the single and batch paths (>= 1 s each) and print one JSON object");
  return p;
}

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r'; }

// Reads rows of n_features floats; non-numeric cells after them are ignored.
Result<std::vector<float>> read_rows(const std::string& path, std::size_t n_features) {
  auto bytes = read_file_bytes(path);
  if (!bytes) return bytes.status();
  const std::string text(bytes->begin(), bytes->end());
  std::vector<float> rows;
  std::size_t pos = 0, line = 0;
  while (pos < text.size()) {
    std::size_t end = text.find('\n', pos);
    if (end == std::string::npos) end = text.size();
    ++line;
    const std::string_view row(text.data() + pos, end - pos);
    pos = end + 1;
    if (line == 1) continue;  // header
    bool blank = true;
    for (char c : row) blank = blank && is_space(c);
    if (blank) continue;
    std::size_t cell_start = 0;
    for (std::size_t col = 1; col <= n_features; ++col) {
      const std::string where = path + ":" + std::to_string(line) + ":" + std::to_string(col) + ": ";
      if (cell_start > row.size())
        return Status::corruption(where + "row has " + std::to_string(col - 1) + " cells, need " +
                                  std::to_string(n_features) + " features");
      std::size_t cell_end = row.find(',', cell_start);
      if (cell_end == std::string_view::npos) cell_end = row.size();
      std::string cell(row.substr(cell_start, cell_end - cell_start));
      cell_start = cell_end + 1;
      std::size_t a = 0, b = cell.size();
      while (a < b && is_space(cell[a])) ++a;
      while (b > a && is_space(cell[b - 1])) --b;
      cell = cell.substr(a, b - a);
      char* stop = nullptr;
      const float v = cell.empty() ? 0.0f : std::strtof(cell.c_str(), &stop);
      if (cell.empty() || stop != cell.c_str() + cell.size())
        return Status::corruption(where + "not a number: '" + cell + "'");
      rows.push_back(v);
    }
  }
  return rows;
}

double time_ns_per_pred(std::size_t n_rows, const std::function<void()>& pass) {
  using clock = std::chrono::steady_clock;
  pass();  // warm-up
  std::size_t passes = 0;
  const auto t0 = clock::now();
  double elapsed = 0.0;
  do {
    pass();
    ++passes;
    elapsed = std::chrono::duration<double, std::nano>(clock::now() - t0).count();
  } while (elapsed < 1e9);
  return elapsed / static_cast<double>(passes * n_rows);
}

void print_values(const std::vector<float>& values, std::size_t per_row) {
  std::string out;
  char buf[32];
  for (std::size_t i = 0; i < values.size(); ++i) {
    std::snprintf(buf, sizeof buf, "%.9g", static_cast<double>(values[i]));
    out += buf;
    out += (i + 1) % per_row == 0 ? '\n' : ',';
  }
  std::fwrite(out.data(), 1, out.size(), stdout);
}

volatile float g_sink = 0.0f;

int run_packed(const ArgParser& args) {
  auto model = packed::PackedModel::load(args.get("model"));
  if (!model) return fail(model.status());
  const packed::PackedModel& m = *model;
  const std::size_t nf = m.info().n_features > 0 ? m.info().n_features : m.required_features();
  auto rows = read_rows(args.get("data"), nf);
  if (!rows) return fail(rows.status());
  const std::size_t n = nf == 0 ? 0 : rows->size() / nf;
  std::vector<float> out(n);
  if (nf == 0) return fail(Status::invalid_argument("model reads no features; nothing to predict per row"));
  if (!args.given("bench")) {
    if (Status s = m.predict_batch(*rows, nf, out); !s) return fail(s);
    print_values(out, 1);
    return 0;
  }
  if (n == 0) return fail(Status::invalid_argument("--bench needs at least one data row"));
  const double single = time_ns_per_pred(n, [&] {
    for (std::size_t r = 0; r < n; ++r) out[r] = m.predict(std::span<const float>(rows->data() + r * nf, nf));
    g_sink = g_sink + out[0];
  });
  const double batch = time_ns_per_pred(n, [&] {
    (void)m.predict_batch(*rows, nf, out);
    g_sink = g_sink + out[0];
  });
  std::printf("{\"model\":\"%s\",\"format\":\"%s\",\"rows\":%zu,\"trees\":%u,\"nodes\":%u,\"bytes\":%zu,"
              "\"single_ns_per_pred\":%.2f,\"batch_ns_per_pred\":%.2f,\"single_kernel\":\"%s\",\"batch_kernel\":\"%s\"}\n",
              args.get("model").c_str(), m.format() == packed::PackedFormat::kF32 ? "f32" : "i16", n,
              m.info().n_trees, m.info().total_nodes, m.bytes().size(), single, batch, m.single_kernel(),
              m.batch_kernel());
  return 0;
}

int run_checkpoint(const ArgParser& args) {
  auto learner = load_learner(args.get("checkpoint"));
  if (!learner) return fail(learner.status());
  const Learner& l = **learner;
  const auto* sgbt = dynamic_cast<const SGBTLearner*>(&l);
  const std::size_t nf = l.n_features();
  if (nf == 0) return fail(Status::invalid_argument("checkpoint's learner has seen no features yet"));
  auto rows = read_rows(args.get("data"), nf);
  if (!rows) return fail(rows.status());
  const std::size_t n = rows->size() / nf;
  const std::size_t per_row = sgbt ? sgbt->n_committees() : 1;
  std::vector<float> out(n * per_row);
  std::vector<double> x(nf), raw(per_row);
  auto pass = [&] {
    for (std::size_t r = 0; r < n; ++r) {
      for (std::size_t f = 0; f < nf; ++f) x[f] = (*rows)[r * nf + f];
      if (sgbt) {
        sgbt->predict_raw(x, raw);
        for (std::size_t k = 0; k < per_row; ++k) out[r * per_row + k] = static_cast<float>(raw[k]);
      } else {
        out[r] = static_cast<float>(l.predict_one(x));
      }
    }
  };
  if (!args.given("bench")) {
    pass();
    print_values(out, per_row);
    return 0;
  }
  if (n == 0) return fail(Status::invalid_argument("--bench needs at least one data row"));
  // A trained learner has one prediction path; "batch" is the same loop.
  const double single = time_ns_per_pred(n, [&] { pass(); g_sink = g_sink + out[0]; });
  const double batch = time_ns_per_pred(n, [&] { pass(); g_sink = g_sink + out[0]; });
  std::printf("{\"checkpoint\":\"%s\",\"learner\":\"%.*s\",\"rows\":%zu,\"single_ns_per_pred\":%.2f,"
              "\"batch_ns_per_pred\":%.2f,\"batch_kernel\":\"loop\"}\n",
              args.get("checkpoint").c_str(), static_cast<int>(l.name().size()), l.name().data(), n, single, batch);
  return 0;
}

int run_predict(std::span<char* const> argv) {
  ArgParser args = make_parser();
  if (Status s = args.parse(argv); !s) return fail(s);
  if (args.help_requested()) {
    std::fputs(args.help().c_str(), stdout);
    return 0;
  }
  if (args.given("model") == args.given("checkpoint"))
    return fail(Status::invalid_argument("give exactly one of --model FILE.bin and --checkpoint FILE"));
  if (!args.given("data")) return fail(Status::invalid_argument("--data FILE.csv is required"));
  return args.given("model") ? run_packed(args) : run_checkpoint(args);
}

const CommandRegistration kRegistration("predict", "predict a CSV with a packed model or a checkpoint", &run_predict);

}  // namespace
}  // namespace irithyll::cli
