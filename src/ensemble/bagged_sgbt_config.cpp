// BaggedSGBTConfig's field table: two bagging rows, then SGBT's own rows
// re-targeted at the nested `sgbt` member (one adapter per row index), so
// the bounds and help stay written once, in sgbt_config.cpp.
#include <string>
#include <utility>
#include <vector>

#include "core/field_rows.hpp"
#include "irithyll/ensemble/bagged_sgbt.hpp"

namespace irithyll {

namespace {

using Row = ConfigField<BaggedSGBTConfig>;

template <std::size_t I>
Status set_inner(BaggedSGBTConfig& c, std::string_view v) {
  return sgbt_config_fields()[I].set(c.sgbt, v);
}

template <std::size_t I>
std::string get_inner(const BaggedSGBTConfig& c) {
  return sgbt_config_fields()[I].get(c.sgbt);
}

constexpr std::size_t kMaxInnerRows = 64;

template <std::size_t... I>
std::vector<Row> build_rows(std::index_sequence<I...>) {
  std::vector<Row> rows = {
      Row{FieldInfo::integer("n-bags", "10", "SGBT committees bagged").in(1, 100), IRITHYLL_FIELD_UINT(BaggedSGBTConfig, n_bags)},
      Row{FieldInfo::real("bag-lambda", "1", "Poisson rate of each bag's repeats of a sample (SGBT's --lambda is its L2)").in(0, 10, true),
          IRITHYLL_FIELD_REAL(BaggedSGBTConfig, lambda)},
  };
  const auto inner = sgbt_config_fields();
  ((I < inner.size() ? rows.push_back(Row{inner[I].info, &set_inner<I>, &get_inner<I>}) : void()), ...);
  return rows;
}

const std::vector<Row>& table() {
  static const std::vector<Row> rows = build_rows(std::make_index_sequence<kMaxInnerRows>{});
  return rows;
}

}  // namespace

std::span<const ConfigField<BaggedSGBTConfig>> bagged_sgbt_config_fields() { return table(); }

Status BaggedSGBTConfig::validate() const {
  if (sgbt_config_fields().size() > kMaxInnerRows) return Status::invalid_argument("bagged_sgbt: SGBT table outgrew its adapter");
  IRITHYLL_RETURN_IF_ERROR(validate_fields<BaggedSGBTConfig>("bagged_sgbt", table(), *this));
  return sgbt.validate().with_context("bagged_sgbt");
}

void BaggedSGBTConfig::encode(ByteWriter& out) const {
  out.u32(n_bags);
  out.f64(lambda);
  sgbt.encode(out);
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
