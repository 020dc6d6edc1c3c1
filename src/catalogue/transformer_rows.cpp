// The transformer catalogue (irithyll/preprocess/registry.hpp): it lives
// beside the learner rows since its rows come from several areas
// (preprocess, nn/attention).
#include "irithyll/preprocess/registry.hpp"

#include <array>

#include "irithyll/nn/attention/attention_preprocessor.hpp"
#include "preprocess/common.hpp"
#include "irithyll/preprocess/ccipca.hpp"
#include "irithyll/preprocess/feature_hasher.hpp"
#include "irithyll/preprocess/feature_selector.hpp"
#include "irithyll/preprocess/min_max.hpp"
#include "irithyll/preprocess/normalizer.hpp"
#include "irithyll/preprocess/one_hot.hpp"
#include "irithyll/preprocess/polynomial.hpp"
#include "irithyll/preprocess/standard_scaler.hpp"
#include "irithyll/preprocess/target_encoder.hpp"

namespace irithyll {
namespace {

using preprocess_detail::transformer_field_infos;
using preprocess_detail::make_from_settings;

template <class T>
std::unique_ptr<Transformer> blank() {
  return std::make_unique<T>();
}

std::span<const FieldInfo> transformer_no_fields() { return {}; }

Result<std::unique_ptr<Transformer>> make_scaler(const ModelSettings& settings, const TransformerContext&) {
  if (!settings.empty())
    return Status::invalid_argument("standard_scaler: unknown setting '" + settings.items().front().first +
                                    "' (it has no settings)");
  return std::unique_ptr<Transformer>(std::make_unique<StandardScaler>());
}

template <class T>
TransformerEntry row(std::string_view description, std::string_view module, std::string_view cls) {
  return {T::kName, description, &transformer_field_infos<T>, &make_from_settings<T>, &blank<T>, module, cls};
}

// Sorted by name.
const std::array kRows = {
    row<AttentionPreprocessor>("streaming attention features: one linear-attention layer over the recent samples",
                               "preprocessing", "AttentionFeatures"),
    row<Ccipca>("incremental PCA (CCIPCA, Weng et al. 2003): the top k principal components", "preprocessing",
                "CCIPCA"),
    row<FeatureHasher>("hashing trick into a fixed width, signed; categories hashed as name=value", "preprocessing",
                       "FeatureHasher"),
    row<FeatureSelector>("keeps the features most correlated with the target (the others become 0)",
                         "feature_selection", "CorrelationSelector"),
    row<MinMaxScaler>("scales each feature to [lo, hi] by its running min and max", "preprocessing", "MinMaxScaler"),
    row<Normalizer>("scales each sample to unit Lp norm", "preprocessing", "Normalizer"),
    row<OneHotEncoder>("category columns to indicator columns (fixed slots per column)", "preprocessing",
                       "OneHotEncoder"),
    row<PolynomialExtender>("degree-2 products of the features", "feature_extraction", "PolynomialExtender"),
    TransformerEntry{"standard_scaler", "zero mean, unit variance per feature (running Welford statistics)",
                     &transformer_no_fields, &make_scaler, &blank<StandardScaler>, "preprocessing", "StandardScaler"},
    row<TargetEncoder>("category columns to the smoothed mean of the target per category", "feature_extraction",
                       "TargetAgg"),
};

}  // namespace

std::span<const TransformerEntry> transformer_catalogue() { return kRows; }

const TransformerEntry* find_transformer(std::string_view name) {
  for (const auto& e : kRows)
    if (e.name == name) return &e;
  return nullptr;
}

Result<std::unique_ptr<Transformer>> make_transformer(std::string_view name, const ModelSettings& settings,
                                                      const TransformerContext& context) {
  const TransformerEntry* e = find_transformer(name);
  if (e == nullptr) {
    std::string names;
    for (const auto& r : kRows) names += (names.empty() ? "" : ", ") + std::string(r.name);
    return Status::invalid_argument("unknown transformer '" + std::string(name) + "' (transformers: " + names + ")");
  }
  return e->make(settings, context);
}

std::string transformers_json() {
  std::string out = "[";
  for (const auto& e : kRows) {
    if (out.size() > 1) out += ",";
    out += "{\"name\":";
    append_json_string(out, e.name);
    out += ",\"description\":";
    append_json_string(out, e.description);
    out += ",\"python_module\":";
    append_json_string(out, e.python_module);
    out += ",\"python_class\":";
    append_json_string(out, e.python_class);
    out += ',';
    append_parameters_json(out, e.fields());
    out += "}";
  }
  return out + "]";
}

}  // namespace irithyll
