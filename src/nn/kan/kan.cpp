#include "irithyll/nn/kan/kan.hpp"

#include "core/field_rows.hpp"
#include "nn/boxed_learner_impl.hpp"
#include "nn/kan/kan_core.hpp"

namespace irithyll::nn {

std::span<const ConfigField<KanConfig>> KolmogorovArnoldNetwork::config_fields() {
  using KC = KanConfig;
  static const ConfigField<KC> rows[] = {
      {FieldInfo::integer("hidden", "5", "nodes per hidden layer (the network is [features, hidden..., outputs])")
           .in(1, 1024),
       IRITHYLL_FIELD_UINT(KC, hidden)},
      {FieldInfo::integer("hidden-layers", "1", "number of hidden layers").in(1, 8),
       IRITHYLL_FIELD_UINT(KC, hidden_layers)},
      {FieldInfo::integer("spline-order", "3", "B-spline order k (3 = cubic); k + 1 coefficients move per edge")
           .in(1, static_cast<double>(BSplineBasis::kMaxOrder)),
       IRITHYLL_FIELD_UINT(KC, spline_order)},
      {FieldInfo::integer("grid-size", "8", "spline intervals on [-1, 1]; g + k coefficients per edge").in(1, 256),
       IRITHYLL_FIELD_UINT(KC, grid_size)},
      {FieldInfo::real("lr", "0.1", "SGD step on the standardised target (times the sample weight)")
           .in(0, 10, true),
       IRITHYLL_FIELD_REAL(KC, lr)},
      {FieldInfo::real("momentum", "0", "heavy-ball momentum of the spline coefficients").in(0, 1, false, true),
       IRITHYLL_FIELD_REAL(KC, momentum)},
      {FieldInfo::real("coefficient-decay", "0",
                       "shrinks all spline coefficients after 2000 samples, more after a surprise (0 = off)")
           .in(0, 1),
       IRITHYLL_FIELD_REAL(KC, coefficient_decay)},
  };
  return rows;
}

std::size_t KolmogorovArnoldNetwork::n_edges(const Config& c, std::size_t n_features, std::size_t n_outputs) noexcept {
  if (n_features == 0) return 0;
  return n_features * c.hidden + c.hidden * c.hidden * (c.hidden_layers - 1) + c.hidden * n_outputs;
}

std::size_t KolmogorovArnoldNetwork::n_outputs(const LearnerContext& context) noexcept {
  return context.task == Task::kClassification ? context.n_classes : 1;
}

Status KolmogorovArnoldNetwork::validate(const Config& config, const LearnerContext& context) {
  if (context.task == Task::kClassification && (context.n_classes < 2 || context.n_classes > 1024))
    return Status::invalid_argument("kan: classification needs 2 to 1024 classes, got " +
                                    std::to_string(context.n_classes));
  if (context.n_features > (std::size_t{1} << 24) ||
      n_edges(config, context.n_features, n_outputs(context)) > kMaxEdges)
    return Status::invalid_argument("kan: the network would have more than 2^20 edges; lower hidden or hidden-layers");
  return Status::ok();
}

Result<std::unique_ptr<KolmogorovArnoldNetwork>> KolmogorovArnoldNetwork::make(const Config& config, const LearnerContext& context) {
  return make_boxed<KolmogorovArnoldNetwork>(config, context);
}

KolmogorovArnoldNetwork::KolmogorovArnoldNetwork(const Config& config, const LearnerContext& context) : BoxedLearner(config, context) {}

}  // namespace irithyll::nn

namespace irithyll {
template class BoxedLearner<nn::KanCore, nn::KanConfig>;
}  // namespace irithyll
