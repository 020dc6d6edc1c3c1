// Learning-curve pictures for `eval --plot` and `compare`: records the curve
// points of a run (and, for models that report them, drift-driven tree
// replacements) and turns one or several runs into an SVG line plot with the
// library's writer (irithyll/eval/svg_plot.hpp).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "irithyll/eval/prequential.hpp"
#include "irithyll/eval/svg_plot.hpp"

namespace irithyll::cli {

class CurveRecorder final : public PrequentialObserver {
 public:
  // events: a running count of the model's drift events (nullptr = none known).
  explicit CurveRecorder(std::function<std::uint64_t()> events = nullptr) : events_(std::move(events)) {}
  void on_curve_point(const CurvePoint& point) override;
  const std::vector<CurvePoint>& points() const { return points_; }
  // Sample counts at which the event count rose, with how many events.
  const std::vector<PlotMarker>& markers() const { return markers_; }
  // One entry per event (the curve point's sample count), for the density strip.
  const std::vector<double>& event_positions() const { return positions_; }

 private:
  std::function<std::uint64_t()> events_;
  std::uint64_t last_events_ = 0;
  std::vector<CurvePoint> points_;
  std::vector<PlotMarker> markers_;
  std::vector<double> positions_;
};

// The learner's drift/replacement counter, when it has one (SGBT: tree
// replacements summed over its committees); nullptr otherwise.
std::function<std::uint64_t()> drift_event_counter(const Learner& learner);

struct CurveRun {
  std::string label;  // model name
  const CurveRecorder* recorder;
};

// Cumulative (solid) and rolling (dashed) accuracy for classification, MAE
// for regression, against samples. Tree replacements (thousands on a real
// stream) go to a density strip along the bottom, never to vertical lines.
LinePlot learning_curve_plot(const std::vector<CurveRun>& runs, Task task, const std::string& stream_name,
                             std::size_t window);

// Writes the plot to path: FILE.svg as is, FILE.png rendered by rsvg-convert
// (an error naming the Debian package when it is missing).
Status write_plot(const std::string& path, const LinePlot& plot);

}  // namespace irithyll::cli
