#include "plotting.hpp"

#include <cstdio>
#include <cstdlib>
#include <fstream>

#include "irithyll/ensemble/sgbt_diagnostics.hpp"

namespace irithyll::cli {

void CurveRecorder::on_curve_point(const CurvePoint& point) {
  points_.push_back(point);
  if (!events_) return;
  const std::uint64_t now = events_();
  if (now > last_events_) {
    markers_.push_back({static_cast<double>(point.samples),
                        std::to_string(now - last_events_) + " tree replacement(s) by sample " +
                            std::to_string(point.samples)});
    positions_.insert(positions_.end(), now - last_events_, static_cast<double>(point.samples));
    last_events_ = now;
  }
}

std::function<std::uint64_t()> drift_event_counter(const Learner& learner) {
  const auto* diagnosable = dynamic_cast<const Diagnosable*>(&learner);
  if (diagnosable == nullptr) return nullptr;
  return [diagnosable] { return diagnosable->n_tree_replacements(); };
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
    const auto& events = r.recorder->event_positions();
    plot.strip_x.insert(plot.strip_x.end(), events.begin(), events.end());
    ++colour;
  }
  if (!plot.strip_x.empty()) plot.strip_label = "tree replacements";
  return plot;
}

namespace {

Status write_text(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  if (!out) return Status::io_error(path + ": cannot open for writing");
  out.write(text.data(), static_cast<std::streamsize>(text.size()));
  if (!out) return Status::io_error(path + ": write failed");
  return Status::ok();
}

}  // namespace

Status write_plot(const std::string& path, const LinePlot& plot) {
  const bool png = path.ends_with(".png");
  if (!png && !path.ends_with(".svg"))
    return Status::invalid_argument("--plot takes FILE.svg or FILE.png, got '" + path + "'");
  const std::string svg = render_svg(plot);
  if (!png) return write_text(path, svg);
  // PNG: the SVG rendered by rsvg-convert (Debian librsvg2-bin), so the
  // library needs no image code. The paths go through the shell, quoted.
  if (path.find('\'') != std::string::npos)
    return Status::invalid_argument("--plot: a .png path may not contain a single quote");
  if (std::system("command -v rsvg-convert >/dev/null 2>&1") != 0)
    return Status::not_supported("--plot FILE.png needs rsvg-convert (Debian: librsvg2-bin); FILE.svg needs nothing");
  const std::string tmp = path + ".tmp.svg";
  IRITHYLL_RETURN_IF_ERROR(write_text(tmp, svg));
  const int rc = std::system(("rsvg-convert -o '" + path + "' '" + tmp + "'").c_str());
  std::remove(tmp.c_str());
  if (rc != 0) return Status::io_error(path + ": rsvg-convert failed");
  return Status::ok();
}

}  // namespace irithyll::cli
