#include "memory_budget.hpp"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "irithyll/core/rng.hpp"

namespace irithyll::cli {
namespace {

// Below this many classes the projection is skipped: a model of a few classes
// is the size any user expects, and the two probe models would cost a
// noticeable share of a short run's start-up.
constexpr std::size_t kProbeFromClasses = 16;

std::string mega(double bytes) {
  char buf[48];
  if (bytes >= 1e9) std::snprintf(buf, sizeof buf, "%.1f GB", bytes / 1e9);
  else std::snprintf(buf, sizeof buf, "%.1f MB", bytes / 1e6);
  return buf;
}

// Samples the probe models learn: models allocate per-class trees and leaf
// statistics on their first updates, not at construction, so the size is
// read after a short warm-up of deterministic pseudo-random rows (a lower
// bound: trees keep growing afterwards).
constexpr int kProbeSamples = 64;

Result<double> probe_bytes(std::string_view name, const ModelSettings& settings, LearnerContext context,
                           std::size_t n_classes) {
  context.n_classes = n_classes;
  auto made = make_learner(name, settings, context);
  if (!made) return made.status();
  std::vector<double> x(context.n_features, 0.0);
  Xorshift64 rng(context.seed);
  for (int i = 0; i < kProbeSamples; ++i) {
    for (double& v : x) v = rng.uniform();
    (*made)->learn_one(x, static_cast<double>(static_cast<std::size_t>(i) % n_classes), 1.0);
  }
  return static_cast<double>((*made)->memory_bytes());
}

}  // namespace

void declare_memory_budget(ArgParser& p) {
  p.option("memory-budget", "BYTES",
           "largest model a classification target's class count may project to (K, M or G suffix); "
           "a larger projection stops before the first row",
           "1G");
}

Result<std::uint64_t> parse_byte_size(std::string_view text) {
  const std::string_view original = text;
  double scale = 1.0;
  if (!text.empty()) {
    switch (text.back()) {
      case 'k': case 'K': scale = 1e3; break;
      case 'm': case 'M': scale = 1e6; break;
      case 'g': case 'G': scale = 1e9; break;
      default: break;
    }
    if (scale != 1.0) text.remove_suffix(1);
  }
  double value = 0.0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size() || !std::isfinite(value) || value <= 0.0 ||
      value * scale > 1e18)
    return Status::invalid_argument("--memory-budget: '" + std::string(original) +
                                    "' is not a positive size (bytes, or a number with K, M or G)");
  return static_cast<std::uint64_t>(value * scale);
}

Status check_class_memory(const ArgParser& args, std::string_view name, const ModelSettings& settings,
                          const LearnerContext& context, std::string_view target) {
  auto budget = parse_byte_size(args.get("memory-budget"));
  if (!budget) return budget.status();
  if (context.task != Task::kClassification || context.n_classes < kProbeFromClasses) return Status::ok();
  auto two = probe_bytes(name, settings, context, 2);
  auto three = probe_bytes(name, settings, context, 3);
  if (!two || !three) return Status::ok();  // building the real model reports the reason
  // Model size is affine in the class count for every catalogue classifier
  // (shared parts plus one block per class); a model that does not grow with
  // classes has per_class 0.
  const double per_class = std::max(0.0, *three - *two);
  const double projected = *two + per_class * static_cast<double>(context.n_classes - 2);
  if (projected <= static_cast<double>(*budget)) return Status::ok();
  return Status::invalid_argument(
      "target '" + std::string(target) + "' has " + std::to_string(context.n_classes) + " classes: " +
      std::string(name) + " would need at least " + mega(projected) + " (" + mega(per_class) +
      " per class), over the memory budget of " + mega(static_cast<double>(*budget)) +
      ". Is the column an id? Name the target with --target, drop classes, or raise --memory-budget");
}

}  // namespace irithyll::cli
