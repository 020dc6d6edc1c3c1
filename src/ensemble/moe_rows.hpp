// The mixture-of-experts rows both MoE configs share (n-experts, gate-lr,
// routing, top-k), written once for any Config with those members.
#pragma once

#include <vector>

#include "core/field_rows.hpp"
#include "irithyll/ensemble/moe_gate.hpp"

namespace irithyll {

template <class Config>
std::vector<ConfigField<Config>> moe_gate_rows() {
  using Row = ConfigField<Config>;
  return {
      Row{FieldInfo::integer("n-experts", "4", "experts in the mixture").in(1, 64),
          IRITHYLL_FIELD_UINT(Config, n_experts)},
      Row{FieldInfo::real("gate-lr", "0.01", "SGD rate of the softmax gate").in(0, 10, true),
          IRITHYLL_FIELD_REAL(Config, gate_lr)},
      Row{FieldInfo::choice("routing", "soft", "soft|topk",
                            "soft: every expert weighted by its gate; topk: only the top-k gates learn and predict"),
          IRITHYLL_FIELD_ENUM(Config, routing, parse_moe_routing, moe_routing_name)},
      Row{FieldInfo::integer("top-k", "1", "experts per sample under topk routing (clamped to n-experts)").in(1, 64),
          IRITHYLL_FIELD_UINT(Config, top_k)},
  };
}

}  // namespace irithyll
