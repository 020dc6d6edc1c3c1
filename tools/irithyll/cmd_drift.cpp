// `irithyll drift`: runs one drift detector over one numeric column of a CSV
// or JSON-lines input (a file, .gz, or '-' for standard input, read in one
// pass, so `tail -f errors.csv | irithyll drift --data -` reports as it goes:
// each signal line is flushed) and prints each signal as "drift N" or
// "warning N", N being the 0-based
// data row (the header is not a row). A detector holds its warning for as
// long as the evidence stays ambiguous, often hundreds of rows, and flickers in
// and out of it near its threshold, so by default only the row where a
// warning episode opens is printed: an episode closes at a drift or after
// kEpisodeGap rows without a warning (--warnings all prints every warning
// row, none suppresses them). Exit 0 when the whole column was read;
// otherwise one "irithyll: FILE:LINE:COL: ..." line on stderr and exit 1
// (2 for a bad command line).
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "args.hpp"
#include "command.hpp"
#include "data_options.hpp"
#include "irithyll/drift/drift_detector.hpp"
#include "irithyll/stream/table_stream.hpp"

namespace irithyll::cli {
namespace {

// Rows without a warning after which a new warning starts a new episode.
constexpr std::uint64_t kEpisodeGap = 100;

ArgParser make_drift_parser() {
  ArgParser p("irithyll drift --detector adwin|pht|ddm|eddm|hddm_a|hddm_w|kswin --data FILE.csv --column C [options]",
              "Runs a drift detector over one numeric CSV column; prints 'drift N' / 'warning N' per signal\n"
              "(N = 0-based data row). eddm, hddm_a and hddm_w read errors (0/1, or values in [0, 1]).");
  p.option("detector", "NAME",
           "adwin | pht (Page-Hinkley) | ddm | eddm | hddm_a | hddm_w | kswin (Kolmogorov-Smirnov window)", "adwin")
      .option("data", "FILE", "CSV or JSON-lines file (.gz or not); '-' = standard input")
      .option("column", "C", "name of the column to monitor (default: the last column)")
      .option("warnings", "MODE",
              "onset (the row a warning episode opens; it closes at a drift or after 100 rows without a warning)"
              " | all (every warning row) | none",
              "onset")
      .option("delta", "D", "adwin: confidence in (0,1) (default 0.002); pht: tolerated change (default 0.005)")
      .option("lambda", "L", "pht: alarm threshold (default 50)")
      .option("warning-level", "W", "ddm: warning at p + s >= p_min + W s_min (default 2); eddm: warning ratio (0.95)")
      .option("drift-level", "K", "ddm: drift at p + s >= p_min + K s_min (default 3); eddm: drift ratio (0.90)")
      .option("min-instances", "N", "ddm: no signal before N values; eddm: before N errors (default 30)")
      .option("confirm-window", "N",
              "eddm: a drift needs the newest N error distances' mean below the running mean (default 50; "
              "0 = the paper's rule; at most 200)")
      .option("confirm-z", "Z", "eddm: by Z standard errors (default 4)")
      .option("drift-confidence", "C", "hddm_a, hddm_w: confidence of the drift test (default 0.001; hddm_w 0.0001)")
      .option("warning-confidence", "C", "hddm_a, hddm_w: confidence of the warning test (default 0.005; hddm_w 0.0005)")
      .option("ewma-lambda", "L", "hddm_w: weight of the newest value in (0,1) (default 0.02)")
      .flag("two-sided", "hddm_a, hddm_w: also detect decreases")
      .option("window-size", "N", "kswin: values kept (default 300)")
      .option("stat-size", "N", "kswin: newest values tested against as many drawn from the rest (default 100)")
      .option("alpha", "A", "kswin: p-value at or below which it signals (default 0.00001)")
      .option("seed", "S", "kswin: sampling seed (default 42)");
  declare_data_options(p);
  return p;
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
  // EDDM's levels are ratios, not DDM's multiples of s: the same options, its own fields.
  const bool eddm = *kind == DriftKind::kEddm;
  for (const Field& f :
       {Field{"delta", &config.delta}, Field{"lambda", &config.lambda},
        Field{"warning-level", eddm ? &config.eddm_warning : &config.warning_level},
        Field{"drift-level", eddm ? &config.eddm_drift : &config.drift_level},
        Field{"drift-confidence", &config.drift_confidence}, Field{"warning-confidence", &config.warning_confidence},
        Field{"ewma-lambda", &config.ewma_lambda}, Field{"alpha", &config.alpha},
        Field{"confirm-z", &config.eddm_confirm_z}}) {
    if (!args.given(f.option)) continue;
    auto v = args.get_double(f.option);
    if (!v) return v.status();
    *f.target = *v;
  }
  struct Count {
    const char* option;
    std::uint32_t* target;
    std::int64_t least = 1;  // confirm-window takes 0 (no confirmation)
  };
  for (const Count& f : {Count{"min-instances", &config.min_instances}, Count{"window-size", &config.window_size},
                         Count{"stat-size", &config.stat_size},
                         Count{"confirm-window", &config.eddm_confirm_window, 0}}) {
    if (!args.given(f.option)) continue;
    auto v = args.get_int(f.option);
    if (!v) return v.status();
    if (*v < f.least || *v > 0xFFFFFFFFll)
      return Status::invalid_argument(std::string("--") + f.option + " must be in [" + std::to_string(f.least) +
                                      ", 2^32)");
    *f.target = static_cast<std::uint32_t>(*v);
  }
  if (args.given("seed")) {
    auto v = args.get_int("seed");
    if (!v) return v.status();
    if (*v < 0) return Status::invalid_argument("--seed must be >= 0");
    config.seed = static_cast<std::uint64_t>(*v);
  }
  config.two_sided = args.given("two-sided");
  return config;
}

int run_drift(std::span<char* const> argv) {
  ArgParser args = make_drift_parser();
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
  TableOptions options = std::move(read).value();
  options.target = args.get("column");
  options.task = Task::kRegression;  // the column's values as numbers, never class ids
  options.allow_target_only = true;
  auto opened = open_table_stream(args.get("data"), options);
  if (!opened) return fail_data(opened.status());
  Stream& stream = **opened;
  std::vector<double> x(stream.schema().n_features());
  double y = 0.0;
  bool in_episode = false;
  std::uint64_t last_warning = 0;
  for (std::uint64_t row = 0; stream.next(x, y); ++row) {
    const DriftSignal s = detector->update(y);
    if (s == DriftSignal::kDrift) std::printf("drift %llu\n", static_cast<unsigned long long>(row));
    if (in_episode && (s == DriftSignal::kDrift || row - last_warning > kEpisodeGap)) in_episode = false;
    bool show_warning = false;
    if (s == DriftSignal::kWarning) {
      show_warning = warnings == "all" || (warnings == "onset" && !in_episode);
      in_episode = true;
      last_warning = row;
    }
    if (show_warning) std::printf("warning %llu\n", static_cast<unsigned long long>(row));
    // Signals are rare; flushing each keeps a live pipe's reader current.
    if (s == DriftSignal::kDrift || show_warning) std::fflush(stdout);
  }
  if (!stream.status().is_ok()) return fail_data(stream.status());
  report_skipped_rows(stream);
  return std::fflush(stdout) == 0 ? 0 : 1;
}

const CommandRegistration kDriftCommand("drift", "run a drift detector over a CSV column", &run_drift);

}  // namespace
}  // namespace irithyll::cli
