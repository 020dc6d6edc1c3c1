#include "irithyll/eval/class_report.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

#include "irithyll/eval/report.hpp"

namespace irithyll {
namespace {

double class_report_ratio(double a, double b) { return b > 0 ? a / b : std::numeric_limits<double>::quiet_NaN(); }

std::string name_of(const std::vector<std::string>& names, std::size_t k) {
  return k < names.size() ? names[k] : std::to_string(k);
}

std::string fixed4(double v) {
  if (std::isnan(v)) return "-";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.4f", v);
  return buf;
}

void pad_to(std::string& out, const std::string& cell, std::size_t width, bool left) {
  const std::size_t fill = width > cell.size() ? width - cell.size() : 0;
  if (!left) out.append(fill, ' ');
  out += cell;
  if (left) out.append(fill, ' ');
}

}  // namespace

ClassScores class_scores(const ConfusionMatrix& cm, std::size_t k) {
  const auto tp = static_cast<double>(cm.at(k, k));
  const auto row = static_cast<double>(cm.row_sum(k));
  const auto col = static_cast<double>(cm.col_sum(k));
  return {class_report_ratio(tp, col), class_report_ratio(tp, row), class_report_ratio(2 * tp, row + col), cm.row_sum(k)};
}

std::string class_report_text(const ConfusionMatrix& cm, const std::vector<std::string>& names) {
  const std::size_t k = cm.n_classes();
  std::size_t w = 5;  // "class"
  for (std::size_t c = 0; c < k; ++c) w = std::max(w, name_of(names, c).size());
  std::string out;
  pad_to(out, "class", w, true);
  out += "  precision     recall         f1    support\n";
  for (std::size_t c = 0; c < k; ++c) {
    const ClassScores s = class_scores(cm, c);
    pad_to(out, name_of(names, c), w, true);
    for (const double v : {s.precision, s.recall, s.f1}) pad_to(out, fixed4(v), 11, false);
    pad_to(out, std::to_string(s.support), 11, false);
    out += '\n';
  }
  // Confusion matrix: rows are the true class, columns the prediction.
  std::size_t cw = 1;
  for (std::size_t c = 0; c < k; ++c) {
    cw = std::max(cw, name_of(names, c).size());
    for (std::size_t p = 0; p < k; ++p) cw = std::max(cw, std::to_string(cm.at(c, p)).size());
  }
  out += "\nconfusion (rows: true class, columns: predicted)\n";
  pad_to(out, "", w, true);
  for (std::size_t p = 0; p < k; ++p) {
    out += "  ";
    pad_to(out, name_of(names, p), cw, false);
  }
  out += '\n';
  for (std::size_t t = 0; t < k; ++t) {
    pad_to(out, name_of(names, t), w, true);
    for (std::size_t p = 0; p < k; ++p) {
      out += "  ";
      pad_to(out, std::to_string(cm.at(t, p)), cw, false);
    }
    out += '\n';
  }
  return out;
}

std::string class_report_json_members(const ConfusionMatrix& cm, const std::vector<std::string>& names) {
  const std::size_t k = cm.n_classes();
  std::string out = ",\"classes\":[";
  for (std::size_t c = 0; c < k; ++c) {
    if (c > 0) out += ',';
    out += json_quote(name_of(names, c));
  }
  out += "],\"per_class\":{";
  for (std::size_t c = 0; c < k; ++c) {
    const ClassScores s = class_scores(cm, c);
    if (c > 0) out += ',';
    out += json_quote(name_of(names, c)) + ":{\"precision\":" + json_number(s.precision) +
           ",\"recall\":" + json_number(s.recall) + ",\"f1\":" + json_number(s.f1) +
           ",\"support\":" + std::to_string(s.support) + "}";
  }
  out += '}';
  return out;
}

}  // namespace irithyll
