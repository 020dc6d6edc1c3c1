#include "irithyll/diagnostics_json.hpp"

#include "irithyll/ensemble/sgbt_diagnostics.hpp"
#include "irithyll/eval/report.hpp"
#include "irithyll/tunable.hpp"

namespace irithyll {
namespace {

std::string count_text(std::uint64_t v) { return std::to_string(v); }

std::string number_list_json(const std::vector<double>& v) {
  std::string out = "[";
  for (std::size_t i = 0; i < v.size(); ++i) out += (i ? "," : "") + json_number(v[i]);
  return out + "]";
}

}  // namespace

std::string diagnostics_json(const Learner& learner) {
  const auto* sgbt = dynamic_cast<const Diagnosable*>(&learner);
  if (sgbt == nullptr) return {};
  std::string out = "[";
  for (std::size_t c = 0; c < sgbt->n_diagnosed_ensembles(); ++c) {
    const SGBTDiagnostics d = sgbt->ensemble_diagnostics(c);
    out += c ? "," : "";
    out += "{\"committee\":" + count_text(c) + ",\"n_samples\":" + count_text(d.n_samples) +
           ",\"n_steps\":" + count_text(d.n_steps) +
           ",\"n_trees\":" + count_text(d.n_trees) + ",\"n_leaves\":" + count_text(d.n_leaves) +
           ",\"mean_depth\":" + json_number(d.mean_depth) + ",\"max_depth\":" + count_text(d.max_depth) +
           ",\"replacements\":" + count_text(d.replacements) + ",\"warnings\":" + count_text(d.warnings) +
           ",\"alternates\":" + count_text(d.alternates) + ",\"handoffs\":" + count_text(d.handoffs) +
           ",\"base_prediction\":" + json_number(d.base_prediction) +
           ",\"mean_abs_contribution\":" + json_number(d.mean_abs_contribution) +
           ",\"soft_bandwidths\":" + number_list_json(d.soft_bandwidths) + ",\"trees\":[";
    for (std::size_t t = 0; t < d.trees.size(); ++t) {
      const SGBTTreeDiagnostics& s = d.trees[t];
      out += t ? "," : "";
      out += "{\"depth\":" + count_text(s.depth) + ",\"n_leaves\":" + count_text(s.n_leaves) +
             ",\"n_samples\":" + count_text(s.n_samples) +
             ",\"replacements\":" + count_text(s.replacements) + ",\"warnings\":" + count_text(s.warnings) +
             ",\"has_alternate\":" + (s.has_alternate ? "true" : "false") +
             ",\"alternate_samples\":" + count_text(s.alternate_samples) +
             ",\"handoff_left\":" + count_text(s.handoff_left) +
             ",\"leaf_min\":" + json_number(s.leaf_min) + ",\"leaf_max\":" + json_number(s.leaf_max) +
             ",\"contribution_mean\":" + json_number(s.contribution_mean) +
             ",\"contribution_sd\":" + json_number(s.contribution_sd) +
             ",\"contribution_abs\":" + json_number(s.contribution_abs) + "}";
    }
    out += "]}";
  }
  return out + "]";
}

std::string tuning_signals_json(const Learner& learner) {
  const auto* tunable = dynamic_cast<const Tunable*>(&learner);
  if (tunable == nullptr) return {};
  const auto values = tunable->config_diagnostics().as_array();
  std::string out = "{";
  for (std::size_t i = 0; i < values.size(); ++i)
    out += (i ? ",\"" : "\"") + std::string(kConfigDiagnosticNames[i]) + "\":" + json_number(values[i]);
  return out + "}";
}

}  // namespace irithyll
