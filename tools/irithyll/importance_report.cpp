#include "importance_report.hpp"

#include <algorithm>
#include <cstdio>
#include <numeric>
#include <vector>

#include "irithyll/tree_model.hpp"
#include "irithyll/eval/report.hpp"

namespace irithyll::cli {
namespace {

struct Row {
  std::string name;
  double gain = -1.0;  // < 0: the model records no split gains
  std::uint64_t splits = 0;
};

std::vector<Row> rows_of(const Learner& learner, const Schema& schema) {
  const auto* trees = dynamic_cast<const TreeModel*>(&learner);
  if (trees == nullptr) return {};
  const std::vector<double> gain = trees->feature_importances();
  const std::vector<std::uint64_t> splits = trees->feature_split_counts();
  std::vector<Row> rows(splits.size());
  for (std::size_t f = 0; f < rows.size(); ++f) {
    rows[f].name = f < schema.feature_names.size() ? schema.feature_names[f] : "x" + std::to_string(f);
    if (!gain.empty()) rows[f].gain = f < gain.size() ? gain[f] : 0.0;
    rows[f].splits = splits[f];
  }
  std::stable_sort(rows.begin(), rows.end(), [](const Row& a, const Row& b) {
    return a.gain != b.gain ? a.gain > b.gain : a.splits > b.splits;
  });
  return rows;
}

}  // namespace

std::string importance_table(const Learner& learner, const Schema& schema) {
  const std::vector<Row> rows = rows_of(learner, schema);
  if (rows.empty()) return {};
  // Wide data (thousands of columns) would print one line per column; the
  // text report keeps the strongest kTextRows and says how many it left out
  // (the JSON report keeps every column).
  constexpr std::size_t kTextRows = 20;
  const std::size_t shown = std::min(rows.size(), kTextRows);
  std::size_t width = 7;
  for (std::size_t i = 0; i < shown; ++i) width = std::max(width, rows[i].name.size());
  const bool has_gain = rows.front().gain >= 0.0;
  std::string out = has_gain ? "feature importances (share of split gain, splits in the active trees):\n"
                             : "feature importances (splits in the live trees; this model records no gains):\n";
  char buf[64];
  for (std::size_t i = 0; i < shown; ++i) {
    const Row& r = rows[i];
    out += "  " + r.name + std::string(width - r.name.size() + 2, ' ');
    if (has_gain)
      std::snprintf(buf, sizeof buf, "%6.4f %8llu\n", r.gain, static_cast<unsigned long long>(r.splits));
    else
      std::snprintf(buf, sizeof buf, "%8llu\n", static_cast<unsigned long long>(r.splits));
    out += buf;
  }
  if (shown < rows.size()) {
    // Features past the top kTextRows: count those the model used at all.
    std::size_t used = 0;
    for (std::size_t i = shown; i < rows.size(); ++i) used += (rows[i].gain > 0.0 || rows[i].splits > 0) ? 1 : 0;
    out += "  ... " + std::to_string(rows.size() - shown) + " more features (" + std::to_string(used) +
           " of them used in splits; --json lists all)\n";
  }
  return out;
}

std::string importance_json(const Learner& learner, const Schema& schema) {
  const std::vector<Row> rows = rows_of(learner, schema);
  if (rows.empty()) return {};
  std::string out = "[";
  for (std::size_t i = 0; i < rows.size(); ++i) {
    if (i > 0) out += ",";
    out += "{\"feature\":" + json_quote(rows[i].name);
    if (rows[i].gain >= 0.0) out += ",\"gain\":" + json_number(rows[i].gain);
    out += ",\"splits\":" + std::to_string(rows[i].splits) + "}";
  }
  return out + "]";
}

}  // namespace irithyll::cli
