#include "plotting.hpp"

#include <fstream>

#include "irithyll/ensemble/sgbt_learner.hpp"

namespace irithyll::cli {

void CurveRecorder::on_curve_point(const CurvePoint& point) {
  points_.push_back(point);
  if (!events_) return;
  const std::uint64_t now = events_();
  if (now > last_events_) {
    markers_.push_back({static_cast<double>(point.samples),
                        std::to_string(now - last_events_) + " tree replacement(s) by sample " +
                            std::to_string(point.samples)});
    last_events_ = now;
  }
}

std::function<std::uint64_t()> drift_event_counter(const Learner& learner) {
  const auto* sgbt = dynamic_cast<const SGBTLearner*>(&learner);
  if (sgbt == nullptr) return nullptr;
  return [sgbt] {
    std::uint64_t n = 0;
    for (std::size_t c = 0; c < sgbt->n_committees(); ++c) n += sgbt->committee(c).n_replacements();
    return n;
  };
}

LinePlot learning_curve_plot(const std::vector<CurveRun>& runs, Task task, const std::string& stream_name,
                             std::size_t window) {
  const bool cls = task == Task::kClassification;
  const std::string metric = cls ? "accuracy" : "MAE";
  LinePlot plot;
  std::string models;
  for (const CurveRun& r : runs) models += (models.empty() ? "" : ", ") + r.label;
  plot.title = (runs.size() == 1 ? "Learning curve: " : "Learning curves: ") + models + " on " + stream_name;
  plot.subtitle = runs.size() == 1 ? "prequential " + metric + ": cumulative (solid), rolling over " +
                                         std::to_string(window) + " samples (dashed)"
                                   : "prequential " + metric + ", cumulative; one pass, every model sees the same rows";
  plot.x_label = "samples";
  plot.y_label = metric;
  if (cls) {
    plot.y_max = 1.0;
  }
  int colour = 0;
  for (const CurveRun& r : runs) {
    PlotSeries cumulative, rolling;
    cumulative.label = runs.size() == 1 ? metric + " (cumulative)" : r.label;
    rolling.label = runs.size() == 1 ? metric + " (rolling)" : r.label + " (rolling)";
    rolling.dashed = true;
    cumulative.colour = rolling.colour = runs.size() == 1 ? -1 : colour;
    if (runs.size() == 1) {
      cumulative.colour = 0;
      rolling.colour = 1;
    }
    for (const CurvePoint& p : r.recorder->points()) {
      const auto x = static_cast<double>(p.samples);
      cumulative.x.push_back(x);
      rolling.x.push_back(x);
      cumulative.y.push_back(cls ? p.cumulative.accuracy : p.cumulative.mae);
      rolling.y.push_back(cls ? p.rolling.accuracy : p.rolling.mae);
    }
    plot.series.push_back(std::move(cumulative));
    // Several models: the rolling curves would hide the comparison; one
    // curve per model keeps the picture readable.
    if (runs.size() == 1) plot.series.push_back(std::move(rolling));
    for (const PlotMarker& m : r.recorder->markers())
      plot.markers.push_back({m.x, (runs.size() == 1 ? "" : r.label + ": ") + m.label});
    ++colour;
  }
  return plot;
}

Status write_plot(const std::string& path, const LinePlot& plot) {
  if (path.size() < 4 || path.compare(path.size() - 4, 4, ".svg") != 0)
    return Status::invalid_argument("--plot writes SVG: give a FILE.svg (render to PNG with e.g. rsvg-convert)");
  std::ofstream out(path, std::ios::binary);
  if (!out) return Status::io_error(path + ": cannot open for writing");
  const std::string svg = render_svg(plot);
  out.write(svg.data(), static_cast<std::streamsize>(svg.size()));
  if (!out) return Status::io_error(path + ": write failed");
  return Status::ok();
}

}  // namespace irithyll::cli
