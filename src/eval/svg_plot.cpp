#include "irithyll/eval/svg_plot.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

namespace irithyll {
namespace {

// Colour-blind-safe palette (Okabe & Ito 2008).
constexpr const char* kPalette[] = {"#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000"};
constexpr int kPaletteSize = 7;

std::string num(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f", v);
  return buf;
}

// Tick label: few digits, no trailing zeros; thousands as "k", millions "M".
std::string tick_label(double v, double step) {
  char buf[32];
  const double a = std::fabs(v);
  if (a >= 1e6 && step >= 1e5) {
    std::snprintf(buf, sizeof buf, "%gM", v / 1e6);
  } else if (a >= 1e3 && step >= 100) {
    std::snprintf(buf, sizeof buf, "%gk", v / 1e3);
  } else {
    const int decimals = step >= 1 ? 0 : static_cast<int>(std::ceil(-std::log10(step)));
    std::snprintf(buf, sizeof buf, "%.*f", std::min(decimals, 6), v);
  }
  return buf;
}

// A step of 1, 2 or 5 x 10^k giving about `target` intervals over span.
double nice_step(double span, int target) {
  if (!(span > 0)) return 1.0;
  const double raw = span / target;
  const double mag = std::pow(10.0, std::floor(std::log10(raw)));
  const double f = raw / mag;
  return (f < 1.5 ? 1 : f < 3.5 ? 2 : f < 7.5 ? 5 : 10) * mag;
}

}  // namespace

std::string xml_escape(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (const char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&apos;"; break;
      default:
        // Control characters are not allowed in XML 1.0 text.
        if (static_cast<unsigned char>(c) < 0x20 && c != '\t' && c != '\n') out += ' ';
        else out += c;
    }
  }
  return out;
}

std::string render_svg(const LinePlot& plot) {
  const double w = plot.width, h = plot.height;
  const double left = 70, right = 190, top = plot.subtitle.empty() ? 50 : 66, bottom = 56;
  const double pw = w - left - right, ph = h - top - bottom;

  // Data ranges.
  double x0 = std::numeric_limits<double>::infinity(), x1 = -x0, y0 = x0, y1 = -x0;
  for (const PlotSeries& s : plot.series)
    for (std::size_t i = 0; i < s.x.size() && i < s.y.size(); ++i) {
      if (!std::isfinite(s.x[i]) || !std::isfinite(s.y[i])) continue;
      x0 = std::min(x0, s.x[i]);
      x1 = std::max(x1, s.x[i]);
      y0 = std::min(y0, s.y[i]);
      y1 = std::max(y1, s.y[i]);
    }
  if (!std::isfinite(x0)) x0 = 0, x1 = 1, y0 = 0, y1 = 1;
  if (plot.x_from_zero) x0 = std::min(x0, 0.0);
  if (plot.y_min) y0 = *plot.y_min;
  if (plot.y_max) y1 = *plot.y_max;
  if (x1 <= x0) x1 = x0 + 1;
  if (y1 <= y0) {
    const double pad = std::fabs(y0) > 0 ? std::fabs(y0) * 0.05 : 0.5;
    y0 -= pad;
    y1 += pad;
  }
  const double xs = nice_step(x1 - x0, 6), ys = nice_step(y1 - y0, 5);
  if (!plot.y_min) y0 = std::floor(y0 / ys) * ys;
  if (!plot.y_max) y1 = std::ceil(y1 / ys) * ys;
  if (!plot.x_from_zero) x0 = std::floor(x0 / xs) * xs;
  x1 = std::ceil(x1 / xs) * xs;
  auto px = [&](double x) { return left + (x - x0) / (x1 - x0) * pw; };
  auto py = [&](double y) { return top + ph - (std::clamp(y, y0, y1) - y0) / (y1 - y0) * ph; };

  std::string o;
  o += "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  o += "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"" + num(w) + "\" height=\"" + num(h) +
       "\" viewBox=\"0 0 " + num(w) + " " + num(h) + "\" font-family=\"DejaVu Sans, Helvetica, Arial, sans-serif\">\n";
  o += "<rect x=\"0\" y=\"0\" width=\"" + num(w) + "\" height=\"" + num(h) + "\" fill=\"#ffffff\"/>\n";
  o += "<text x=\"" + num(left) + "\" y=\"26\" font-size=\"16\" font-weight=\"bold\">" + xml_escape(plot.title) +
       "</text>\n";
  if (!plot.subtitle.empty())
    o += "<text x=\"" + num(left) + "\" y=\"46\" font-size=\"12\" fill=\"#444444\">" + xml_escape(plot.subtitle) +
         "</text>\n";

  // Grid and ticks.
  o += "<g class=\"grid\" stroke=\"#e4e4e4\" stroke-width=\"1\">\n";
  for (double y = y0; y <= y1 + ys * 1e-9; y += ys)
    o += "<line x1=\"" + num(left) + "\" y1=\"" + num(py(y)) + "\" x2=\"" + num(left + pw) + "\" y2=\"" + num(py(y)) +
         "\"/>\n";
  for (double x = x0; x <= x1 + xs * 1e-9; x += xs)
    o += "<line x1=\"" + num(px(x)) + "\" y1=\"" + num(top) + "\" x2=\"" + num(px(x)) + "\" y2=\"" + num(top + ph) +
         "\"/>\n";
  o += "</g>\n<g class=\"ticks\" font-size=\"11\" fill=\"#333333\">\n";
  for (double y = y0; y <= y1 + ys * 1e-9; y += ys)
    o += "<text x=\"" + num(left - 8) + "\" y=\"" + num(py(y) + 4) + "\" text-anchor=\"end\">" +
         xml_escape(tick_label(y, ys)) + "</text>\n";
  for (double x = x0; x <= x1 + xs * 1e-9; x += xs)
    o += "<text x=\"" + num(px(x)) + "\" y=\"" + num(top + ph + 18) + "\" text-anchor=\"middle\">" +
         xml_escape(tick_label(x, xs)) + "</text>\n";
  o += "</g>\n";
  o += "<rect x=\"" + num(left) + "\" y=\"" + num(top) + "\" width=\"" + num(pw) + "\" height=\"" + num(ph) +
       "\" fill=\"none\" stroke=\"#888888\"/>\n";
  o += "<text x=\"" + num(left + pw / 2) + "\" y=\"" + num(h - 14) + "\" font-size=\"12\" text-anchor=\"middle\">" +
       xml_escape(plot.x_label) + "</text>\n";
  o += "<text x=\"18\" y=\"" + num(top + ph / 2) + "\" font-size=\"12\" text-anchor=\"middle\" transform=\"rotate(-90 18 " +
       num(top + ph / 2) + ")\">" + xml_escape(plot.y_label) + "</text>\n";

  // Event markers under the curves.
  if (!plot.markers.empty()) {
    // A faint full-height line per event plus a solid tick along the top
    // edge, so that dense events read as a rug rather than a red wall.
    o += "<g class=\"events\" stroke=\"#C0392B\" stroke-width=\"1\">\n";
    for (const PlotMarker& m : plot.markers) {
      if (!std::isfinite(m.x) || m.x < x0 || m.x > x1) continue;
      o += "<line class=\"event\" x1=\"" + num(px(m.x)) + "\" y1=\"" + num(top) + "\" x2=\"" + num(px(m.x)) +
           "\" y2=\"" + num(top + ph) + "\" stroke-opacity=\"0.15\"><title>" + xml_escape(m.label) +
           "</title></line>\n";
      o += "<line x1=\"" + num(px(m.x)) + "\" y1=\"" + num(top) + "\" x2=\"" + num(px(m.x)) + "\" y2=\"" +
           num(top + 9) + "\" stroke-width=\"1.5\"/>\n";
    }
    o += "</g>\n";
  }

  // Density strip: at most kStripBins cells along the bottom edge, each as
  // dark as its share of the busiest cell.
  if (!plot.strip_x.empty() && x1 > x0) {
    constexpr int kStripBins = 100;
    std::vector<int> bins(kStripBins, 0);
    for (double x : plot.strip_x) {
      if (!std::isfinite(x) || x < x0 || x > x1) continue;
      const int b = std::min(kStripBins - 1, static_cast<int>((x - x0) / (x1 - x0) * kStripBins));
      ++bins[static_cast<std::size_t>(b)];
    }
    const int busiest = *std::max_element(bins.begin(), bins.end());
    o += "<g class=\"strip\" fill=\"#7F8C8D\">\n";
    for (int b = 0; b < kStripBins && busiest > 0; ++b) {
      const int n = bins[static_cast<std::size_t>(b)];
      if (n == 0) continue;
      const double bx = left + pw * b / kStripBins;
      o += "<rect class=\"strip-cell\" x=\"" + num(bx) + "\" y=\"" + num(top + ph - 6) + "\" width=\"" +
           num(pw / kStripBins) + "\" height=\"6\" fill-opacity=\"" + num(0.15 + 0.85 * n / busiest) + "\"><title>" +
           std::to_string(n) + "</title></rect>\n";
    }
    o += "</g>\n";
  }

  // Curves.
  for (std::size_t i = 0; i < plot.series.size(); ++i) {
    const PlotSeries& s = plot.series[i];
    const char* colour = kPalette[(s.colour >= 0 ? s.colour : static_cast<int>(i)) % kPaletteSize];
    if (s.style == PlotStyle::kPoints) {
      o += "<g class=\"points\" data-label=\"" + xml_escape(s.label) + "\" fill=\"" + colour +
           "\" fill-opacity=\"0.55\">\n";
      for (std::size_t j = 0; j < s.x.size() && j < s.y.size(); ++j) {
        if (!std::isfinite(s.x[j]) || !std::isfinite(s.y[j])) continue;
        o += "<circle cx=\"" + num(px(s.x[j])) + "\" cy=\"" + num(py(s.y[j])) + "\" r=\"2.5\"/>\n";
      }
      o += "</g>\n";
      continue;
    }
    if (s.style == PlotStyle::kCentres) {
      o += "<g class=\"centres\" data-label=\"" + xml_escape(s.label) + "\" stroke-width=\"3\">\n";
      for (std::size_t j = 0; j < s.x.size() && j < s.y.size(); ++j) {
        if (!std::isfinite(s.x[j]) || !std::isfinite(s.y[j])) continue;
        const double cx = px(s.x[j]), cy = py(s.y[j]);
        const char* c = kPalette[j % kPaletteSize];
        o += "<path d=\"M" + num(cx - 8) + "," + num(cy - 8) + " L" + num(cx + 8) + "," + num(cy + 8) + " M" +
             num(cx - 8) + "," + num(cy + 8) + " L" + num(cx + 8) + "," + num(cy - 8) +
             "\" stroke=\"#000000\" stroke-width=\"5\"/>\n";
        o += "<path d=\"M" + num(cx - 8) + "," + num(cy - 8) + " L" + num(cx + 8) + "," + num(cy + 8) + " M" +
             num(cx - 8) + "," + num(cy + 8) + " L" + num(cx + 8) + "," + num(cy - 8) + "\" stroke=\"" + c +
             "\"><title>" + xml_escape(s.label + " " + std::to_string(j)) + "</title></path>\n";
      }
      o += "</g>\n";
      continue;
    }
    std::string points;
    for (std::size_t j = 0; j < s.x.size() && j < s.y.size(); ++j) {
      if (!std::isfinite(s.x[j]) || !std::isfinite(s.y[j])) continue;
      if (!points.empty()) points += ' ';
      points += num(px(s.x[j])) + "," + num(py(s.y[j]));
    }
    o += "<polyline class=\"curve\" data-label=\"" + xml_escape(s.label) + "\" fill=\"none\" stroke=\"" + colour +
         "\" stroke-width=\"" + (s.dashed ? "1.4" : "2") + "\"" + (s.dashed ? " stroke-dasharray=\"5,3\"" : "") +
         " points=\"" + points + "\"/>\n";
  }

  // Legend, right of the plot.
  double ly = top + 8;
  o += "<g class=\"legend\" font-size=\"12\">\n";
  for (std::size_t i = 0; i < plot.series.size(); ++i) {
    const PlotSeries& s = plot.series[i];
    const char* colour = kPalette[(s.colour >= 0 ? s.colour : static_cast<int>(i)) % kPaletteSize];
    const double lx = left + pw + 14;
    if (s.style == PlotStyle::kPoints) {
      o += "<circle cx=\"" + num(lx + 12) + "\" cy=\"" + num(ly) + "\" r=\"4\" fill=\"" + colour + "\"/>\n";
    } else if (s.style == PlotStyle::kCentres) {
      o += "<path d=\"M" + num(lx + 6) + "," + num(ly - 6) + " L" + num(lx + 18) + "," + num(ly + 6) + " M" +
           num(lx + 6) + "," + num(ly + 6) + " L" + num(lx + 18) + "," + num(ly - 6) +
           "\" stroke=\"#000000\" stroke-width=\"3\"/>\n";
    } else {
      o += "<line x1=\"" + num(lx) + "\" y1=\"" + num(ly) + "\" x2=\"" + num(lx + 24) + "\" y2=\"" + num(ly) +
           "\" stroke=\"" + colour + "\" stroke-width=\"2\"" + (s.dashed ? " stroke-dasharray=\"5,3\"" : "") +
           "/>\n";
    }
    o += "<text x=\"" + num(lx + 30) + "\" y=\"" + num(ly + 4) + "\">" + xml_escape(s.label) + "</text>\n";
    ly += 20;
  }
  if (!plot.markers.empty()) {
    const double lx = left + pw + 14;
    o += "<line x1=\"" + num(lx + 12) + "\" y1=\"" + num(ly - 8) + "\" x2=\"" + num(lx + 12) + "\" y2=\"" +
         num(ly + 8) + "\" stroke=\"#C0392B\" stroke-width=\"1.5\"/>\n";
    o += "<text x=\"" + num(lx + 30) + "\" y=\"" + num(ly + 4) + "\">" + xml_escape("drift") + "</text>\n";
    ly += 20;
  }
  if (!plot.strip_x.empty()) {
    const double lx = left + pw + 14;
    o += "<rect x=\"" + num(lx) + "\" y=\"" + num(ly - 3) + "\" width=\"24\" height=\"6\" fill=\"#7F8C8D\"/>\n";
    o += "<text x=\"" + num(lx + 30) + "\" y=\"" + num(ly + 4) + "\">" +
         xml_escape(plot.strip_label.empty() ? "events" : plot.strip_label) + "</text>\n";
  }
  o += "</g>\n</svg>\n";
  return o;
}

}  // namespace irithyll
