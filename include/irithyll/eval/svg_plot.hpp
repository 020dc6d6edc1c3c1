// A small SVG line-plot writer for learning curves: axes with round ticks,
// one polyline per series (solid or dashed), a legend, vertical event
// markers (drift, tree replacement) and a title. No dependencies; the output
// is a standalone, well-formed SVG 1.1 document that browsers and rsvg show.
//
// Each series is one <polyline class="curve" data-label="...">, each marker
// one <line class="event">, so tools (and tests) can find them. Text is
// XML-escaped. NaN points are skipped (a gap, not a zero). Deterministic:
// the same plot gives the same bytes.
//
// Scatter plots use the same writer: a series styled kPoints is one
// <g class="points" data-label="..."> of small circles, and a kCentres series
// one <g class="centres"> of large crosses, the i-th point in palette colour
// i (cluster i's colour). LinePlot::x_from_zero = false fits the x axis to
// the data instead of starting it at 0.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace irithyll {

enum class PlotStyle : unsigned char { kLine = 0, kPoints = 1, kCentres = 2 };

struct PlotSeries {
  std::string label;
  std::vector<double> x, y;  // same length
  bool dashed = false;
  int colour = -1;  // palette index; -1 = the series' position
  PlotStyle style = PlotStyle::kLine;  // last, so positional initialisers keep working
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
  bool x_from_zero = true;             // learning curves start at sample 0
  int width = 860, height = 500;
};

std::string render_svg(const LinePlot& plot);

// XML text and attribute escaping (&, <, >, ", ').
std::string xml_escape(const std::string& text);

}  // namespace irithyll
