// `irithyll drift`: runs one drift detector over one numeric column of a CSV
// or JSON-lines input (a file, .gz, or '-' for standard input, read in one
// pass, so `tail -f errors.csv | irithyll drift --data -` reports as it goes:
// each signal line is flushed) and prints each signal as "drift N" or
// "warning N", N being the 0-based
// data row (the header is not a row). A detector holds its warning for as
// long as the evidence stays ambiguous, often hundreds of rows, so by default
// only the row where a warning zone opens is printed (--warnings all prints
// every row, none suppresses them). Exit 0 when the whole column was read;
// otherwise one "irithyll: FILE:LINE:COL: ..." line on stderr and exit 1
// (2 for a bad command line).
#include <cstdio>
#include <string>
#include <vector>

#include "args.hpp"
#include "command.hpp"
#include "data_options.hpp"
#include "irithyll/drift/drift_detector.hpp"
#include "irithyll/stream/csv_stream.hpp"

namespace irithyll::cli {
namespace {

ArgParser make_parser() {
  ArgParser p("irithyll drift --detector adwin|pht|ddm --data FILE.csv --column C [options]",
              "Runs a drift detector over one numeric CSV column; prints 'drift N' / 'warning N' per signal\n"
              "(N = 0-based data row).");
  p.option("detector", "NAME", "adwin | pht (Page-Hinkley) | ddm", "adwin")
      .option("data", "FILE", "CSV or JSON-lines file (.gz or not); '-' = standard input")
      .option("column", "C", "name of the column to monitor (default: the last column)")
      .option("warnings", "MODE", "onset (the row a warning zone opens) | all (every warning row) | none", "onset")
      .option("delta", "D", "adwin: confidence in (0,1) (default 0.002); pht: tolerated change (default 0.005)")
      .option("lambda", "L", "pht: alarm threshold (default 50)")
      .option("warning-level", "W", "ddm: warning at p + s >= p_min + W s_min (default 2)")
      .option("drift-level", "K", "ddm: drift at p + s >= p_min + K s_min (default 3)")
      .option("min-instances", "N", "ddm: no signal before N values (default 30)");
  declare_data_options(p);
  return p;
}

// Prints a data error as "irithyll: FILE:LINE:COL: ..." (the reader's message
// already starts with the location), without the status-code prefix.
int fail_data(const Status& status) {
  std::fprintf(stderr, "irithyll: %s\n", status.message().c_str());
  return 1;
}

Result<DriftConfig> read_config(const ArgParser& args) {
  auto kind = parse_drift_kind(args.get("detector"));
  if (!kind) return kind.status();
  if (*kind == DriftKind::kNone) return Status::invalid_argument("--detector none monitors nothing");
  DriftConfig config = default_drift_config(*kind);
  struct Field {
    const char* option;
    double* target;
  };
  for (const Field& f : {Field{"delta", &config.delta}, Field{"lambda", &config.lambda},
                         Field{"warning-level", &config.warning_level}, Field{"drift-level", &config.drift_level}}) {
    if (!args.given(f.option)) continue;
    auto v = args.get_double(f.option);
    if (!v) return v.status();
    *f.target = *v;
  }
  if (args.given("min-instances")) {
    auto v = args.get_int("min-instances");
    if (!v) return v.status();
    if (*v < 1 || *v > 0xFFFFFFFFll) return Status::invalid_argument("--min-instances must be in [1, 2^32)");
    config.min_instances = static_cast<std::uint32_t>(*v);
  }
  return config;
}

int run_drift(std::span<char* const> argv) {
  ArgParser args = make_parser();
  if (Status s = args.parse(argv); !s) return fail(s);
  if (args.help_requested()) {
    std::fputs(args.help().c_str(), stdout);
    return 0;
  }
  if (!args.given("data")) return fail(Status::invalid_argument("--data FILE.csv is required"));
  auto config = read_config(args);
  if (!config) return fail(config.status());
  auto made = make_drift_detector(*config);
  if (!made) return fail(made.status());
  std::unique_ptr<DriftDetector> detector = std::move(made).value();

  const std::string warnings = args.get("warnings");
  if (warnings != "onset" && warnings != "all" && warnings != "none")
    return fail(Status::invalid_argument("--warnings must be onset, all or none, not '" + warnings + "'"));

  auto read = read_data_options(args);
  if (!read) return fail(read.status());
  CsvOptions options = std::move(read).value();
  options.target = args.get("column");
  options.task = Task::kRegression;  // the column's values as numbers, never class ids
  options.allow_target_only = true;
  auto opened = open_csv_stream(args.get("data"), options);
  if (!opened) return fail_data(opened.status());
  Stream& stream = **opened;
  std::vector<double> x(stream.schema().n_features());
  double y = 0.0;
  DriftSignal previous = DriftSignal::kStable;
  for (std::uint64_t row = 0; stream.next(x, y); ++row) {
    const DriftSignal s = detector->update(y);
    if (s == DriftSignal::kDrift) std::printf("drift %llu\n", static_cast<unsigned long long>(row));
    const bool show_warning = warnings == "all" || (warnings == "onset" && previous != DriftSignal::kWarning);
    if (s == DriftSignal::kWarning && show_warning) std::printf("warning %llu\n", static_cast<unsigned long long>(row));
    // Signals are rare; flushing each keeps a live pipe's reader current.
    if (s == DriftSignal::kDrift || (s == DriftSignal::kWarning && show_warning)) std::fflush(stdout);
    previous = s;
  }
  if (!stream.status().is_ok()) return fail_data(stream.status());
  report_skipped_rows(stream);
  return std::fflush(stdout) == 0 ? 0 : 1;
}

const CommandRegistration kRegistration("drift", "run a drift detector over a CSV column", &run_drift);

}  // namespace
}  // namespace irithyll::cli
