#include "irithyll/pipeline_spec.hpp"

#include <algorithm>

#include "irithyll/catalogue.hpp"
#include "irithyll/pipeline.hpp"
#include "irithyll/preprocess/registry.hpp"

namespace irithyll {
namespace {

constexpr std::size_t kMaxSteps = 32;

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

// One "name(key=value;...)".
Result<ModelSpec> parse_step(std::string_view text, std::string_view whole) {
  const std::string_view step = trim(text);
  const std::string where = "pipeline '" + std::string(whole) + "'";
  if (step.empty()) return Status::invalid_argument(where + ": empty step");
  ModelSpec m;
  const std::size_t open = step.find('(');
  m.name = std::string(trim(step.substr(0, open)));
  if (m.name.empty()) return Status::invalid_argument(where + ": a step has settings but no name");
  for (const char c : m.name)
    if (!(c == '_' || c == '-' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')))
      return Status::invalid_argument(where + ": step name '" + m.name + "' is not a name (letters, digits, _)");
  if (open == std::string_view::npos) return m;
  if (step.back() != ')' || step.find('(', open + 1) != std::string_view::npos ||
      step.find(')') != step.size() - 1)
    return Status::invalid_argument(where + ": step '" + std::string(step) + "' must be name(key=value;...)");
  std::string_view inner = step.substr(open + 1, step.size() - open - 2);
  while (!trim(inner).empty()) {
    const std::size_t semi = inner.find(';');
    const std::string_view kv = trim(inner.substr(0, semi));
    const std::size_t eq = kv.find('=');
    if (eq == std::string_view::npos || trim(kv.substr(0, eq)).empty())
      return Status::invalid_argument(where + ": expected key=value in '" + std::string(step) + "', got '" +
                                      std::string(kv) + "'");
    m.settings.set(std::string(trim(kv.substr(0, eq))), std::string(trim(kv.substr(eq + 1))));
    if (semi == std::string_view::npos) break;
    inner.remove_prefix(semi + 1);
  }
  return m;
}

}  // namespace

bool is_pipeline_spec(std::string_view text) {
  int depth = 0;
  for (const char c : text) {
    if (c == '(') ++depth;
    if (c == ')') --depth;
    if (c == '|' && depth == 0) return true;
  }
  return false;
}

Result<std::vector<ModelSpec>> parse_pipeline_spec(std::string_view text) {
  std::vector<ModelSpec> steps;
  std::size_t start = 0;
  int depth = 0;
  for (std::size_t i = 0; i <= text.size(); ++i) {
    const char c = i < text.size() ? text[i] : '|';
    if (c == '(') ++depth;
    if (c == ')' && --depth < 0)
      return Status::invalid_argument("pipeline '" + std::string(text) + "': unbalanced ')'");
    if (c != '|' || depth > 0) continue;
    if (steps.size() == kMaxSteps)
      return Status::invalid_argument("pipeline '" + std::string(text) + "': more than 32 steps");
    auto step = parse_step(text.substr(start, i - start), text);
    if (!step) return step.status();
    steps.push_back(std::move(step).value());
    start = i + 1;
  }
  if (depth != 0) return Status::invalid_argument("pipeline '" + std::string(text) + "': unbalanced '('");
  return steps;
}

Result<std::unique_ptr<Learner>> make_pipeline(std::string_view text, const ModelSettings& extra,
                                               const LearnerContext& context,
                                               std::span<const std::uint32_t> categorical) {
  auto specs = parse_pipeline_spec(text);
  if (!specs) return specs.status();
  if (specs->size() < 2)
    return Status::invalid_argument("pipeline '" + std::string(text) + "': needs transformers then a learner (a|b)");
  if (context.n_features == 0)
    return Status::invalid_argument("pipeline: the input width must be known to build one");
  TransformerContext tc;
  tc.task = context.task;
  tc.n_classes = context.n_classes;
  tc.seed = context.seed;
  tc.n_features = context.n_features;
  tc.feature_names = context.feature_names;
  if (tc.feature_names.size() != tc.n_features) {
    tc.feature_names.clear();
    for (std::size_t i = 0; i < tc.n_features; ++i) tc.feature_names.push_back("f" + std::to_string(i));
  }
  tc.categorical.assign(categorical.begin(), categorical.end());
  std::vector<std::unique_ptr<Transformer>> steps;
  for (std::size_t s = 0; s + 1 < specs->size(); ++s) {
    const ModelSpec& spec = (*specs)[s];
    if (find_transformer(spec.name) == nullptr && find_model(spec.name) != nullptr)
      return Status::invalid_argument("pipeline: '" + spec.name + "' is a learner; only the last step may be one");
    auto made = make_transformer(spec.name, spec.settings, tc);
    if (!made) return made.status().with_context("pipeline step " + std::to_string(s + 1));
    std::unique_ptr<Transformer> t = std::move(made).value();
    const std::size_t width = t->output_size(tc.n_features);
    std::vector<std::string> names = t->output_names(tc.feature_names);
    if (names.size() != width) return Status::invalid_argument("pipeline: step '" + spec.name + "' names its outputs wrongly");
    // Category columns follow their names; a step that consumed one (one_hot)
    // no longer prints it.
    std::vector<std::uint32_t> cats;
    for (const std::uint32_t c : tc.categorical) {
      const auto it = std::find(names.begin(), names.end(), tc.feature_names[c]);
      if (it != names.end()) cats.push_back(static_cast<std::uint32_t>(it - names.begin()));
    }
    std::sort(cats.begin(), cats.end());
    tc.n_features = width;
    tc.feature_names = std::move(names);
    tc.categorical = std::move(cats);
    steps.push_back(std::move(t));
  }
  const ModelSpec& last = specs->back();
  if (find_model(last.name) == nullptr && find_transformer(last.name) != nullptr)
    return Status::invalid_argument("pipeline: the last step '" + last.name + "' is a transformer; end with a learner");
  ModelSettings settings = last.settings;
  for (const auto& [k, v] : extra.items()) settings.set(k, v);
  LearnerContext lc = context;
  lc.n_features = tc.n_features;
  lc.feature_names = tc.feature_names;
  auto learner = make_learner(last.name, settings, lc);
  if (!learner) return learner.status();
  return std::unique_ptr<Learner>(std::make_unique<Pipeline>(std::move(steps), std::move(learner).value()));
}

}  // namespace irithyll
