// BaggedSGBTConfig's field table: two bagging rows, then SGBT's own rows
// re-targeted at the nested `sgbt` member (core/nested_rows.hpp), so the
// bounds and help stay written once, in sgbt_config.cpp.
#include <string>
#include <utility>
#include <vector>

#include "core/field_rows.hpp"
#include "core/nested_rows.hpp"
#include "irithyll/ensemble/bagged_sgbt.hpp"

namespace irithyll {

namespace {

using BaggedSgbtConfigRow = ConfigField<BaggedSGBTConfig>;

const std::vector<BaggedSgbtConfigRow>& bagged_sgbt_config_table() {
  static const std::vector<BaggedSgbtConfigRow> rows = [] {
    std::vector<BaggedSgbtConfigRow> out = {
        BaggedSgbtConfigRow{FieldInfo::integer("n-bags", "10", "SGBT committees bagged").in(1, 100), IRITHYLL_FIELD_UINT(BaggedSGBTConfig, n_bags)},
        BaggedSgbtConfigRow{FieldInfo::real("bag-lambda", "1", "Poisson rate of each bag's repeats of a sample (SGBT's --lambda is its L2)").in(0, 10, true),
            IRITHYLL_FIELD_REAL(BaggedSGBTConfig, lambda)},
    };
    append_nested_rows<BaggedSGBTConfig, SGBTConfig, &BaggedSGBTConfig::sgbt, &sgbt_config_fields>(out);
    return out;
  }();
  return rows;
}

}  // namespace

std::span<const ConfigField<BaggedSGBTConfig>> bagged_sgbt_config_fields() { return bagged_sgbt_config_table(); }

Status BaggedSGBTConfig::validate() const {
  IRITHYLL_RETURN_IF_ERROR(validate_fields<BaggedSGBTConfig>("bagged_sgbt", bagged_sgbt_config_table(), *this));
  return sgbt.validate().with_context("bagged_sgbt");
}

Status BaggedSGBTConfig::decode(ByteReader& in) {
  BaggedSGBTConfig c;
  c.n_bags = in.u32("n_bags");
  c.lambda = in.f64("lambda");
  if (!in.ok()) return in.status();
  IRITHYLL_RETURN_IF_ERROR(c.sgbt.decode(in));
  IRITHYLL_RETURN_IF_ERROR(c.validate().with_context("bagged_sgbt config"));
  *this = c;
  return Status::ok();
}

}  // namespace irithyll
