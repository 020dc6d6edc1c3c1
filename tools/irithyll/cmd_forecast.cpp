// `irithyll forecast`: streaming forecasting of one numeric column. For each
// row t the model forecasts steps t .. t+H-1 (with the exogenous features of
// those rows when --features names some), each forecast is scored against
// the value it forecast, then the model learns row t. The rows ahead are
// held in a look-ahead of H rows, so the input is still read once, front to
// back. Reported per horizon step h: MAE, RMSE, SMAPE (--json:
// mae_by_horizon, rmse_by_horizon, smape_by_horizon). --plot draws the
// series, the one-step and H-step forecasts and a 90% band around the
// one-step forecast from the 5% and 95% quantiles of its last 500 residuals.
//
// Models: the forecasters (holt_winters, snarimax) with their table's
// options, or any catalogue regressor fed lagged targets (--lags).
// A missing target (empty, NA, NaN) is not scored; the model coasts over it.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "args.hpp"
#include "command.hpp"
#include "output_paths.hpp"
#include "data_options.hpp"
#include "irithyll/catalogue.hpp"
#include "irithyll/stream/table_stream.hpp"
#include "irithyll/timeseries/forecasters.hpp"
#include "irithyll/timeseries/horizon_metrics.hpp"
#include "irithyll/timeseries/lag_forecaster.hpp"
#include "model_options.hpp"
#include "plotting.hpp"

namespace irithyll::cli {
namespace {

using timeseries::Forecaster;

constexpr std::int64_t kMaxHorizon = 100000;
constexpr std::size_t kBandWindow = 500;

void declare_fields(ArgParser& p, std::string_view model, std::span<const FieldInfo> fields) {
  for (const FieldInfo& f : fields) {
    std::string help = std::string(model) + ": " + std::string(f.help);
    if (f.type != FieldType::kText) help += "; " + f.range_text();
    p.option(std::string(f.name), "V", help, std::string(f.default_value));
  }
}

std::string all_model_names() {
  std::string names;
  for (const auto& f : timeseries::forecasters()) names += (names.empty() ? "" : "|") + std::string(f.name);
  for (const auto& e : catalogue())
    if (e.listed && e.regression) names += "|" + std::string(e.name);
  return names;
}

// The q-quantile (0..1) of values (copied: the window keeps its order).
double quantile(std::vector<double> values, double q) {
  if (values.empty()) return std::nan("");
  const std::size_t k = static_cast<std::size_t>(q * static_cast<double>(values.size() - 1) + 0.5);
  std::nth_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(k), values.end());
  return values[k];
}

void json_list(std::string& out, const char* key, const std::vector<double>& v) {
  out += ",\"";
  out += key;
  out += "\":[";
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (i) out += ',';
    out += std::isfinite(v[i]) ? format_field_real(v[i]) : "null";
  }
  out += ']';
}

struct Plot {
  std::vector<double> t, y, one, far, lo, hi;
  std::vector<double> residuals;  // ring of the last kBandWindow one-step residuals
  std::size_t next = 0;
};

int run_forecast(std::span<char* const> argv) {
  const std::string model = model_from_argv(argv, "holt_winters");
  const timeseries::ForecasterEntry* fentry = timeseries::find_forecaster(model);
  const CatalogueEntry* centry = fentry == nullptr ? find_model(model) : nullptr;
  ArgParser args("irithyll forecast --data FILE.csv --target COL --horizon H [--model " + all_model_names() +
                     "] [options]",
                 "Forecasts a column H steps ahead at every row, then learns the row; reports MAE, RMSE and\n"
                 "SMAPE per horizon step. Exogenous features: only the columns --features names (default none).");
  args.option("data", "FILE", "CSV or JSON-lines file (.gz or not); '-' = standard input")
      .option("target", "COL", "the series to forecast (default: the last column)")
      .option("horizon", "H", "steps ahead forecast at every row", "1")
      .option("model", "NAME", all_model_names(), "holt_winters")
      .option("period", "M", "season length in steps (sets the model's seasonality / m; adds lag M with --lags's default)")
      .option("lags", "L", "catalogue regressors: lagged targets used as features (default 1,2,3, plus M with --period)")
      .option("seed", "N", "seed of a catalogue regressor", "42")
      .option("plot", "FILE", "write the series, forecasts and a 90% band as FILE.svg (or .png via rsvg-convert)")
      .flag("json", "print one JSON object with the results on stdout");
  declare_data_options(args);
  if (fentry != nullptr) declare_fields(args, fentry->name, fentry->fields());
  else if (centry != nullptr && centry->listed) declare_model_options(args, *centry);
  if (Status s = args.parse(argv); !s) return fail(s);
  if (args.help_requested()) {
    std::fputs(args.help().c_str(), stdout);
    return 0;
  }
  if (Status s = check_output_paths(args, {"plot"}); !s) return fail(s);
  if (fentry == nullptr && (centry == nullptr || !centry->listed || !centry->regression))
    return fail(Status::invalid_argument("unknown forecasting model '" + model + "' (models: " + all_model_names() + ")"));
  if (!args.given("data")) return fail(Status::invalid_argument("--data FILE.csv is required"));
  auto horizon = args.get_int("horizon");
  if (!horizon) return fail(horizon.status());
  if (*horizon < 1 || *horizon > kMaxHorizon)
    return fail(Status::invalid_argument("--horizon must be in [1, " + std::to_string(kMaxHorizon) + "]"));
  const std::size_t H = static_cast<std::size_t>(*horizon);
  std::int64_t period = 0;
  if (args.given("period")) {
    auto p = args.get_int("period");
    if (!p) return fail(p.status());
    if (*p < 1) return fail(Status::invalid_argument("--period must be >= 1"));
    period = *p;
  }

  auto read = read_data_options(args);
  if (!read) return fail(read.status());
  TableOptions options = std::move(read).value();
  const bool exogenous = args.given("features");
  options.task = Task::kRegression;
  options.allow_target_only = true;
  options.allow_missing_target = true;
  auto opened = open_table_stream(args.get("data"), options);
  if (!opened) {
    std::fprintf(stderr, "irithyll: %s\n", opened.status().message().c_str());
    return 1;
  }
  TableStream& stream = **opened;
  report_column_notes(stream);
  const std::size_t n_x = exogenous ? stream.schema().n_features() : 0;

  std::unique_ptr<Forecaster> forecaster;
  if (fentry != nullptr) {
    if (args.given("lags")) return fail(Status::invalid_argument("--lags is for catalogue regressors, not " + model));
    ModelSettings settings;
    if (period > 0 && !args.given(std::string(fentry->period_field)))
      settings.set(std::string(fentry->period_field), std::to_string(period));
    for (const FieldInfo& f : fentry->fields())
      if (args.given(std::string(f.name))) settings.set(std::string(f.name), args.get(std::string(f.name)));
    auto made = fentry->make(settings, catalogue_member_factory());
    if (!made) return fail(made.status());
    forecaster = std::move(made).value();
  } else {
    std::string lag_text = args.get("lags");
    if (lag_text.empty()) lag_text = period > 1 ? "1,2,3," + std::to_string(period) : "1,2,3";
    auto lags = timeseries::parse_lags(lag_text);
    if (!lags) return fail(lags.status());
    auto seed = args.get_int("seed");
    if (!seed) return fail(seed.status());
    const LearnerContext context{Task::kRegression, 0, lags->size() + n_x, static_cast<std::uint64_t>(*seed), 1};
    auto learner = make_learner(model, given_model_settings(args, *centry), context);
    if (!learner) return fail(learner.status());
    auto made = timeseries::LagForecaster::make(std::move(learner).value(), std::move(lags).value(), n_x,
                                                [](std::string_view name) { return make_blank_learner(name); });
    if (!made) return fail(made.status());
    forecaster = std::move(made).value();
  }

  // The look-ahead: H rows, a ring (head = the row the model learns next).
  std::vector<double> ring_y(H), ring_x(H * n_x), xs(H * n_x), out(H);
  std::vector<double> x(stream.schema().n_features());
  std::size_t head = 0, held = 0;
  bool more = true;
  auto fill = [&]() {
    while (more && held < H) {
      double y = 0.0;
      if (!stream.next(x, y)) {
        more = false;
        break;
      }
      const std::size_t slot = (head + held) % H;
      ring_y[slot] = y;
      std::copy_n(x.begin(), n_x, ring_x.begin() + static_cast<std::ptrdiff_t>(slot * n_x));
      ++held;
    }
  };
  timeseries::HorizonMetrics metrics(H);
  const bool plotting = args.given("plot");
  Plot plot;
  if (plotting) plot.far.reserve(1024);
  std::uint64_t step = 0, missing = 0;
  fill();
  while (held > 0) {
    for (std::size_t h = 0; h < held; ++h) {
      const std::size_t slot = (head + h) % H;
      std::copy_n(ring_x.begin() + static_cast<std::ptrdiff_t>(slot * n_x), n_x,
                  xs.begin() + static_cast<std::ptrdiff_t>(h * n_x));
    }
    const std::span<double> ahead(out.data(), held);
    if (Status s = forecaster->forecast(std::span<const double>(xs.data(), held * n_x), ahead); !s) return fail(s);
    for (std::size_t h = 0; h < held; ++h) metrics.update(h, ring_y[(head + h) % H], out[h]);
    const double y = ring_y[head];
    if (!std::isfinite(y)) ++missing;
    if (plotting) {
      const double r = y - out[0];
      double lo = std::nan(""), hi = std::nan("");
      if (plot.residuals.size() >= 20) {
        lo = out[0] + quantile(plot.residuals, 0.05);
        hi = out[0] + quantile(plot.residuals, 0.95);
      }
      plot.t.push_back(static_cast<double>(step));
      plot.y.push_back(y);
      plot.one.push_back(out[0]);
      plot.lo.push_back(lo);
      plot.hi.push_back(hi);
      if (plot.far.size() < step + H) plot.far.resize(step + H, std::nan(""));
      if (held == H) plot.far[step + H - 1] = out[H - 1];
      if (std::isfinite(r)) {
        if (plot.residuals.size() < kBandWindow) plot.residuals.push_back(r);
        else plot.residuals[plot.next] = r;
        plot.next = (plot.next + 1) % kBandWindow;
      }
    }
    const std::span<const double> xrow(ring_x.data() + head * n_x, n_x);
    if (Status s = forecaster->learn_one(y, xrow); !s) return fail(s.with_context("row " + std::to_string(step)));
    head = (head + 1) % H;
    --held;
    ++step;
    fill();
  }
  if (!stream.status().is_ok()) {
    std::fprintf(stderr, "irithyll: %s\n", stream.status().message().c_str());
    return 1;
  }
  if (step == 0) return fail(Status::invalid_argument(args.get("data") + ": no rows to forecast"));

  if (plotting) {
    LinePlot p;
    p.title = model + " forecasts of " + stream.schema().target_name;
    p.subtitle = std::to_string(step) + " steps, horizon " + std::to_string(H) + "; band: 5%-95% one-step residuals";
    p.x_label = "step";
    p.y_label = stream.schema().target_name;
    // At most ~2000 points per line: a stride keeps the SVG small on long series.
    const std::size_t stride = std::max<std::size_t>(1, plot.t.size() / 2000);
    auto thin = [&](const std::vector<double>& v) {
      std::vector<double> o;
      for (std::size_t i = 0; i < plot.t.size(); i += stride) o.push_back(i < v.size() ? v[i] : std::nan(""));
      return o;
    };
    const std::vector<double> t = thin(plot.t);
    p.series.push_back({"series", t, thin(plot.y), false, 0});
    p.series.push_back({"forecast h=1", t, thin(plot.one), false, 1});
    if (H > 1) p.series.push_back({"forecast h=" + std::to_string(H), t, thin(plot.far), false, 2});
    p.series.push_back({"90% band h=1 (low)", t, thin(plot.lo), true, 3});
    p.series.push_back({"90% band h=1 (high)", t, thin(plot.hi), true, 3});
    if (Status s = write_plot(args.get("plot"), p); !s) return fail(s);
  }

  const std::vector<double> mae = metrics.mae(), rmse = metrics.rmse(), smape = metrics.smape();
  if (args.given("json")) {
    std::string json = "{\"model\":\"" + model + "\",\"target\":\"" + stream.schema().target_name + "\"";
    json += ",\"horizon\":" + std::to_string(H) + ",\"steps\":" + std::to_string(step) +
            ",\"missing_targets\":" + std::to_string(missing) +
            ",\"exogenous\":" + std::to_string(n_x) +
            ",\"memory_bytes\":" + std::to_string(forecaster->memory_bytes());
    json_list(json, "mae_by_horizon", mae);
    json_list(json, "rmse_by_horizon", rmse);
    json_list(json, "smape_by_horizon", smape);
    json += "}";
    std::printf("%s\n", json.c_str());
  } else {
    std::printf("model     %s\nseries    %s, %llu steps (%llu missing), %zu exogenous\nhorizon   %zu\n\n",
                model.c_str(), stream.schema().target_name.c_str(), static_cast<unsigned long long>(step),
                static_cast<unsigned long long>(missing), n_x, H);
    std::printf("%4s %14s %14s %10s %10s\n", "h", "MAE", "RMSE", "SMAPE%", "scored");
    for (std::size_t h = 0; h < H; ++h)
      std::printf("%4zu %14.6g %14.6g %10.4g %10llu\n", h + 1, mae[h], rmse[h], smape[h],
                  static_cast<unsigned long long>(metrics.count(h)));
  }
  return std::fflush(stdout) == 0 ? 0 : 1;
}

const CommandRegistration kForecastCommand("forecast", "forecast a column H steps ahead, test-then-train", &run_forecast);

}  // namespace
}  // namespace irithyll::cli
