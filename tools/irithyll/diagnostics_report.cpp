#include "diagnostics_report.hpp"

#include <cstdio>

#include "irithyll/ensemble/sgbt_diagnostics.hpp"
#include "irithyll/eval/report.hpp"
#include "irithyll/tunable.hpp"

namespace irithyll::cli {
namespace {

std::string u(std::uint64_t v) { return std::to_string(v); }

}  // namespace

std::string diagnostics_text(const Learner& learner) {
  const auto* sgbt = dynamic_cast<const Diagnosable*>(&learner);
  if (sgbt == nullptr) return {};
  std::string out;
  char buf[256];
  for (std::size_t c = 0; c < sgbt->n_diagnosed_ensembles(); ++c) {
    const SGBTDiagnostics d = sgbt->ensemble_diagnostics(c);
    if (sgbt->n_diagnosed_ensembles() > 1) out += "committee " + u(c) + ":\n";
    std::snprintf(buf, sizeof buf,
                  "ensemble: %zu steps, %zu trees (%zu alternates growing, %zu handoffs running), %zu leaves\n",
                  d.n_steps, d.n_trees, d.alternates, d.handoffs, d.n_leaves);
    out += buf;
    std::snprintf(buf, sizeof buf, "depth: mean %.3g, max %u; replacements %llu, drift warnings %llu\n", d.mean_depth,
                  d.max_depth, static_cast<unsigned long long>(d.replacements),
                  static_cast<unsigned long long>(d.warnings));
    out += buf;
    std::snprintf(buf, sizeof buf, "base prediction %.9g; mean |lr * leaf| per tree %.6g\n", d.base_prediction,
                  d.mean_abs_contribution);
    out += buf;
    if (!d.soft_bandwidths.empty()) {
      out += "soft routing bandwidths:";
      for (double b : d.soft_bandwidths) {
        std::snprintf(buf, sizeof buf, " %.4g", b);
        out += buf;
      }
      out += "\n";
    }
    out += "tree  depth  leaves   samples  repl  warn  alt_samples  handoff  leaf_min     leaf_max     mean|contrib|\n";
    for (std::size_t t = 0; t < d.trees.size(); ++t) {
      const SGBTTreeDiagnostics& s = d.trees[t];
      std::snprintf(buf, sizeof buf, "%4zu  %5u  %6zu  %8llu  %4llu  %4llu  %11s  %7u  %-11.4g  %-11.4g  %.4g\n", t,
                    s.depth, s.n_leaves, static_cast<unsigned long long>(s.n_samples),
                    static_cast<unsigned long long>(s.replacements), static_cast<unsigned long long>(s.warnings),
                    s.has_alternate ? u(s.alternate_samples).c_str() : "-", s.handoff_left, s.leaf_min, s.leaf_max,
                    s.contribution_abs);
      out += buf;
    }
  }
  return out;
}

std::string tuning_signals_text(const Learner& learner) {
  const auto* tunable = dynamic_cast<const Tunable*>(&learner);
  if (tunable == nullptr) return {};
  const auto values = tunable->config_diagnostics().as_array();
  std::string out = "tuning signals:";
  char buf[96];
  for (std::size_t i = 0; i < values.size(); ++i) {
    std::snprintf(buf, sizeof buf, "%s %.*s %.6g", i ? "," : "", static_cast<int>(kConfigDiagnosticNames[i].size()),
                  kConfigDiagnosticNames[i].data(), values[i]);
    out += buf;
  }
  return out + "\n";
}

}  // namespace irithyll::cli
