// Per-class results in the user's own labels: precision, recall, F1 and
// support for each class, and the confusion matrix with named rows (truth)
// and columns (prediction), as text for people and as JSON members for tools.
//   precision_k = TP_k / col_k, recall_k = TP_k / row_k,
//   F1_k = 2 TP_k / (row_k + col_k); NaN (JSON null, text "-") when 0/0.
#pragma once

#include <string>
#include <vector>

#include "irithyll/eval/confusion_matrix.hpp"

namespace irithyll {

struct ClassScores {
  double precision, recall, f1;
  std::uint64_t support;  // true rows of the class
};

ClassScores class_scores(const ConfusionMatrix& cm, std::size_t k);

// Aligned text: a per-class table, then the confusion matrix. `names` must
// have cm.n_classes() entries (ids as names otherwise).
std::string class_report_text(const ConfusionMatrix& cm, const std::vector<std::string>& names);

// ,"classes":["DOWN","UP"],"per_class":{"DOWN":{"precision":..,"recall":..,
// "f1":..,"support":..},...}  (leading comma: appended inside an object).
std::string class_report_json_members(const ConfusionMatrix& cm, const std::vector<std::string>& names);

}  // namespace irithyll
