// `irithyll cluster`: streams a CSV or JSON-lines file (or '-') through a
// clusterer, one pass: every row is assigned (predict_one) and then learned.
// Prints the final centres; scores the last --window rows as the final model
// assigns them (ids are comparable only under one model state: DBStream and
// CluStream renumber their macro clusters as they rebuild them): the mean
// silhouette always, and with --label COL (a column kept out of the features)
// purity and the adjusted Rand index against it. --plot draws that window as
// a scatter over the two features of largest variance in it, coloured by
// cluster, with the centres as crosses. --assignments writes the prequential
// cluster id of every row (-1: none yet, or a row with a missing value).
// Rows with a missing value are not learned; they are counted ("ignored").
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "args.hpp"
#include "command.hpp"
#include "data_options.hpp"
#include "irithyll/cluster/cluster_metrics.hpp"
#include "irithyll/cluster/registry.hpp"
#include "irithyll/eval/svg_plot.hpp"
#include "irithyll/stream/table_stream.hpp"
#include "plotting.hpp"

namespace irithyll::cli {
namespace {

ArgParser make_cluster_parser() {
  ArgParser p("irithyll cluster --data FILE.csv --model kmeans|clustream|dbstream [settings] [options]",
              "Clusters a stream (each row assigned, then learned); prints the final centres and, on the last\n"
              "--window rows, the silhouette and (with --label) purity and adjusted Rand index.");
  p.option("data", "FILE", "CSV or JSON-lines file (.gz or not); '-' = standard input")
      .option("model", "NAME", "clusterer: kmeans | clustream | dbstream (`irithyll models` lists settings)", "kmeans")
      .option("seed", "N", "random seed", "42")
      .option("label", "COL", "a column of true classes: not a feature, used only for purity and ARI")
      .option("window", "N", "rows at the end that are scored and plotted", "1000")
      .flag("json", "one JSON object on stdout")
      .option("plot", "FILE.svg", "scatter of the last window by cluster, with the centres (FILE.png needs rsvg-convert)")
      .option("assignments", "FILE", "write the prequential cluster id of every row, one per line");
  // Every clusterer's settings, each declared once even where two share a name.
  std::vector<std::string> declared;
  for (const ClustererEntry& e : clusterers())
    for (const FieldInfo& f : e.fields()) {
      const std::string name(f.name);
      if (std::find(declared.begin(), declared.end(), name) != declared.end()) continue;
      declared.push_back(name);
      p.option(name, "V", std::string(e.name) + ": " + std::string(f.help) + " (default " +
                              std::string(f.default_value) + ")");
    }
  declare_data_options(p);
  return p;
}

// The settings given on the command line for `entry`; a setting of another
// clusterer is an error.
Result<ModelSettings> model_settings(const ArgParser& args, const ClustererEntry& entry) {
  ModelSettings settings;
  for (const ClustererEntry& e : clusterers())
    for (const FieldInfo& f : e.fields()) {
      const std::string name(f.name);
      if (!args.given(name)) continue;
      bool mine = false;
      for (const FieldInfo& g : entry.fields()) mine = mine || g.name == f.name;
      if (!mine)
        return Status::invalid_argument("--" + name + " is not a setting of " + std::string(entry.name) +
                                        " (see `irithyll models " + std::string(entry.name) + "`)");
      settings.set(name, args.get(name));
    }
  return settings;
}

std::string number(double v) {
  if (!std::isfinite(v)) return "null";
  return format_field_real(v);
}

// The last rows of the stream: features, true class (or -1) and nothing else.
struct Window {
  std::size_t capacity = 0, d = 0, filled = 0, next = 0;
  std::vector<double> x;
  std::vector<std::int64_t> label;
  void push(std::span<const double> row, std::int64_t y) {
    std::copy(row.begin(), row.end(), x.begin() + static_cast<std::ptrdiff_t>(next * d));
    label[next] = y;
    next = (next + 1) % capacity;
    filled = std::min(filled + 1, capacity);
  }
  // Rows oldest first.
  void ordered(std::vector<double>& xs, std::vector<std::int64_t>& ys) const {
    const std::size_t start = filled < capacity ? 0 : next;
    for (std::size_t i = 0; i < filled; ++i) {
      const std::size_t r = (start + i) % capacity;
      xs.insert(xs.end(), x.begin() + static_cast<std::ptrdiff_t>(r * d),
                x.begin() + static_cast<std::ptrdiff_t>((r + 1) * d));
      ys.push_back(label[r]);
    }
  }
};

// The two features of largest variance over the window (ties: lower index).
std::pair<std::size_t, std::size_t> widest_features(const std::vector<double>& xs, std::size_t n, std::size_t d) {
  std::vector<double> var(d, 0.0);
  for (std::size_t f = 0; f < d; ++f) {
    double mean = 0.0, m2 = 0.0;
    for (std::size_t i = 0; i < n; ++i) {
      const double v = xs[i * d + f], delta = v - mean;
      mean += delta / static_cast<double>(i + 1);
      m2 += delta * (v - mean);
    }
    var[f] = m2;
  }
  std::size_t a = 0;
  for (std::size_t f = 1; f < d; ++f)
    if (var[f] > var[a]) a = f;
  std::size_t b = a == 0 ? 1 : 0;
  for (std::size_t f = 0; f < d; ++f)
    if (f != a && var[f] > var[b]) b = f;
  return a < b ? std::pair{a, b} : std::pair{b, a};
}

LinePlot scatter_plot(const Clusterer& model, const Schema& schema, const std::vector<double>& xs,
                      const std::vector<std::int64_t>& ids, const std::string& data_name) {
  const std::size_t d = model.n_features(), n = ids.size();
  LinePlot plot;
  plot.x_from_zero = false;
  plot.title = "irithyll cluster: " + std::string(model.name()) + " on " + data_name;
  std::size_t fx = 0, fy = 0;
  if (d >= 2) {
    std::tie(fx, fy) = widest_features(xs, n, d);
    plot.subtitle = "last " + std::to_string(n) + " rows; axes: the two features of largest variance in them";
    plot.x_label = schema.feature_names[fx];
    plot.y_label = schema.feature_names[fy];
  } else {
    plot.subtitle = "last " + std::to_string(n) + " rows against their position";
    plot.x_label = "row in window";
    plot.y_label = schema.feature_names[0];
  }
  auto xval = [&](std::size_t i) { return d >= 2 ? xs[i * d + fx] : static_cast<double>(i); };
  auto yval = [&](std::size_t i) { return d >= 2 ? xs[i * d + fy] : xs[i * d]; };
  const std::int64_t k = static_cast<std::int64_t>(model.n_clusters());
  for (std::int64_t c = -1; c < k; ++c) {
    PlotSeries s;
    s.style = PlotStyle::kPoints;
    s.label = c < 0 ? "no cluster" : "cluster " + std::to_string(c);
    s.colour = c < 0 ? 6 : static_cast<int>(c);
    for (std::size_t i = 0; i < n; ++i)
      if (ids[i] == c) s.x.push_back(xval(i)), s.y.push_back(yval(i));
    if (!s.x.empty()) plot.series.push_back(std::move(s));
  }
  if (d >= 2 && k > 0) {
    PlotSeries centres;
    centres.style = PlotStyle::kCentres;
    centres.label = "centre";
    const std::vector<double> c = model.centers();
    for (std::int64_t j = 0; j < k; ++j) {
      centres.x.push_back(c[static_cast<std::size_t>(j) * d + fx]);
      centres.y.push_back(c[static_cast<std::size_t>(j) * d + fy]);
    }
    plot.series.push_back(std::move(centres));
  }
  return plot;
}

int run_cluster(std::span<char* const> argv) {
  ArgParser args = make_cluster_parser();
  if (Status s = args.parse(argv); !s) return fail(s);
  if (args.help_requested()) {
    std::fputs(args.help().c_str(), stdout);
    return 0;
  }
  if (!args.given("data")) return fail(Status::invalid_argument("--data FILE.csv is required"));
  const ClustererEntry* entry = find_clusterer(args.get("model"));
  if (entry == nullptr) return fail(make_clusterer(args.get("model"), {}).status());
  auto settings = model_settings(args, *entry);
  if (!settings) return fail(settings.status());
  auto seed = args.get_int("seed");
  if (!seed) return fail(seed.status());
  if (*seed < 0) return fail(Status::invalid_argument("--seed must be >= 0"));
  auto window_rows = args.get_int("window");
  if (!window_rows) return fail(window_rows.status());
  if (*window_rows < 1 || *window_rows > 100000)
    return fail(Status::invalid_argument("--window must be in [1, 100000] (the silhouette costs window^2)"));
  auto made = make_clusterer(entry->name, *settings, static_cast<std::uint64_t>(*seed));
  if (!made) return fail(made.status());
  std::unique_ptr<Clusterer> model = std::move(made).value();

  auto read = read_data_options(args);
  if (!read) return fail(read.status());
  TableOptions options = std::move(read).value();
  const bool labelled = args.given("label");
  if (labelled) {
    options.target = args.get("label");
    options.task = Task::kClassification;
    options.allow_missing_target = true;  // an unlabelled row is clustered, not scored
  } else {
    options.no_target = true;
  }
  auto opened = open_table_stream(args.get("data"), options);
  if (!opened) return fail_data(opened.status());
  Stream& stream = **opened;
  report_column_notes(stream);
  const Schema& schema = stream.schema();
  const std::size_t d = schema.n_features();

  std::FILE* assignments = nullptr;
  if (args.given("assignments")) {
    assignments = std::fopen(args.get("assignments").c_str(), "w");
    if (assignments == nullptr)
      return fail(Status::io_error("cannot write --assignments " + args.get("assignments")));
  }
  struct Closer {
    std::FILE* f;
    ~Closer() {
      if (f != nullptr) std::fclose(f);
    }
  } closer{assignments};

  Window window;
  window.capacity = static_cast<std::size_t>(*window_rows);
  window.d = d;
  window.x.resize(window.capacity * d);
  window.label.resize(window.capacity);
  std::vector<double> x(d);
  double y = 0.0;
  std::uint64_t row = 0;
  for (; stream.next(x, y); ++row) {
    const std::int64_t id = model->predict_one(x);
    if (Status s = model->learn_one(x); !s) return fail(s.with_context("row " + std::to_string(row + 1)));
    if (assignments != nullptr) std::fprintf(assignments, "%lld\n", static_cast<long long>(id));
    bool finite = true;
    for (const double v : x) finite = finite && std::isfinite(v);
    if (finite) window.push(x, labelled && std::isfinite(y) ? static_cast<std::int64_t>(y) : -1);
  }
  if (!stream.status().is_ok()) return fail_data(stream.status());
  if (assignments != nullptr && (std::fflush(assignments) != 0 || std::ferror(assignments)))
    return fail(Status::io_error("writing --assignments " + args.get("assignments") + " failed"));

  std::vector<double> xs;
  std::vector<std::int64_t> labels, ids;
  window.ordered(xs, labels);
  for (std::size_t i = 0; i < labels.size(); ++i)
    ids.push_back(model->predict_one(std::span<const double>(xs).subspan(i * d, d)));
  const double silhouette = silhouette_score(xs, d, ids);
  const double purity = labelled ? cluster_purity(ids, labels) : 0.0;
  const double ari = labelled ? adjusted_rand_index(ids, labels) : 0.0;

  if (args.given("plot")) {
    if (Status s = write_plot(args.get("plot"), scatter_plot(*model, schema, xs, ids, args.get("data"))); !s)
      return fail(s);
  }

  const std::vector<double> centres = model->centers();
  const std::size_t k = model->n_clusters();
  if (args.given("json")) {
    std::string out = "{\"model\":";
    append_json_string(out, model->name());
    out += ",\"n_samples\":" + std::to_string(model->n_samples_seen());
    out += ",\"n_ignored\":" + std::to_string(model->n_ignored());
    out += ",\"n_clusters\":" + std::to_string(k);
    out += ",\"features\":[";
    for (std::size_t f = 0; f < d; ++f) {
      if (f > 0) out += ',';
      append_json_string(out, schema.feature_names[f]);
    }
    out += "],\"centers\":[";
    for (std::size_t c = 0; c < k; ++c) {
      out += c > 0 ? ",[" : "[";
      for (std::size_t f = 0; f < d; ++f) out += (f > 0 ? "," : "") + number(centres[c * d + f]);
      out += ']';
    }
    out += "],\"window\":" + std::to_string(ids.size());
    out += ",\"silhouette\":" + number(silhouette);
    if (labelled) out += ",\"purity\":" + number(purity) + ",\"ari\":" + number(ari);
    out += "}\n";
    std::fputs(out.c_str(), stdout);
  } else {
    std::printf("%s: %llu rows learned, %llu ignored (missing values), %zu clusters over %zu features\n",
                std::string(model->name()).c_str(), static_cast<unsigned long long>(model->n_samples_seen()),
                static_cast<unsigned long long>(model->n_ignored()), k, d);
    for (std::size_t c = 0; c < k; ++c) {
      std::printf("cluster %zu:", c);
      for (std::size_t f = 0; f < d; ++f)
        std::printf(" %s=%s", schema.feature_names[f].c_str(), number(centres[c * d + f]).c_str());
      std::printf("\n");
    }
    std::printf("last %zu rows: silhouette %.4f", ids.size(), silhouette);
    if (labelled) std::printf(", purity %.4f, adjusted Rand index %.4f", purity, ari);
    std::printf("\n");
  }
  return std::fflush(stdout) == 0 ? 0 : 1;
}

const CommandRegistration kClusterCommand("cluster", "cluster a stream (kmeans, clustream, dbstream)", &run_cluster);

}  // namespace
}  // namespace irithyll::cli
