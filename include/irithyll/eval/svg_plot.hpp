// A small SVG line-plot writer for learning curves: axes with round ticks,
// one polyline per series (solid or dashed), a legend, vertical event
// markers (drift, tree replacement) and a title. No dependencies; the output
// is a standalone, well-formed SVG 1.1 document that browsers and rsvg show.
//
// Each series is one <polyline class="curve" data-label="...">, each marker
// one <line class="event">, so tools (and tests) can find them. Text is
// XML-escaped. NaN points are skipped (a gap, not a zero). Deterministic:
// the same plot gives the same bytes.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace irithyll {

struct PlotSeries {
  std::string label;
  std::vector<double> x, y;  // same length
  bool dashed = false;
  int colour = -1;  // palette index; -1 = the series' position
};

struct PlotMarker {
  double x = 0.0;
  std::string label;  // tooltip (<title>)
};

struct LinePlot {
  std::string title;
  std::string subtitle;
  std::string x_label, y_label;
  std::vector<PlotSeries> series;
  std::vector<PlotMarker> markers;  // detected drifts: one vertical line each
  // Frequent events (tree replacements): a thin density strip along the
  // bottom edge, binned, so thousands of them never paint the plot.
  std::vector<double> strip_x;  // event positions (one entry per event)
  std::string strip_label;      // legend text; empty = "events"
  std::optional<double> y_min, y_max;  // fixed range (else fitted to the data)
  int width = 860, height = 500;
};

std::string render_svg(const LinePlot& plot);

// XML text and attribute escaping (&, <, >, ", ').
std::string xml_escape(const std::string& text);

}  // namespace irithyll
