// QuantileSGBTConfig's field table: the tau list, then SGBT's rows (less
// the loss, fixed to the quantile loss) re-targeted at the nested `sgbt`
// member, so their bounds and help stay written once, in sgbt_config.cpp.
#include <algorithm>
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "irithyll/ensemble/quantile_sgbt.hpp"

namespace irithyll {

namespace {

using Row = ConfigField<QuantileSGBTConfig>;
constexpr std::size_t kMaxQuantiles = 64;
constexpr std::size_t kMaxInnerRows = 64;

template <std::size_t I>
Status set_inner(QuantileSGBTConfig& c, std::string_view v) {
  return sgbt_config_fields()[I].set(c.sgbt, v);
}

template <std::size_t I>
std::string get_inner(const QuantileSGBTConfig& c) {
  return sgbt_config_fields()[I].get(c.sgbt);
}

Status set_quantiles(QuantileSGBTConfig& c, std::string_view v) {
  auto q = parse_quantile_list(v);
  if (!q) return q.status();
  c.quantiles = std::move(q).value();
  return Status::ok();
}

std::string get_quantiles(const QuantileSGBTConfig& c) {
  std::string s;
  for (double q : c.quantiles) s += (s.empty() ? "" : ",") + format_field_real(q);
  return s;
}

template <std::size_t... I>
std::vector<Row> build_rows(std::index_sequence<I...>) {
  std::vector<Row> rows = {
      Row{FieldInfo::text("quantiles", "0.05,0.5,0.95", "quantile levels tau, comma-separated, each in (0, 1)"),
          &set_quantiles, &get_quantiles},
  };
  const auto inner = sgbt_config_fields();
  auto add = [&](std::size_t i, Row row) {
    if (i < inner.size() && inner[i].info.name != "loss" && inner[i].info.name != "loss-param") rows.push_back(row);
  };
  (add(I, Row{I < inner.size() ? inner[I].info : FieldInfo{}, &set_inner<I>, &get_inner<I>}), ...);
  return rows;
}

const std::vector<Row>& table() {
  static const std::vector<Row> rows = build_rows(std::make_index_sequence<kMaxInnerRows>{});
  return rows;
}

}  // namespace

std::span<const ConfigField<QuantileSGBTConfig>> quantile_sgbt_config_fields() { return table(); }

Result<std::vector<double>> parse_quantile_list(std::string_view text) {
  std::vector<double> out;
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t comma = std::min(text.find(',', start), text.size());
    const std::string_view item = text.substr(start, comma - start);
    auto v = parse_field_real("quantiles", item);
    if (!v) return v.status();
    if (!(*v > 0.0 && *v < 1.0))
      return Status::invalid_argument("quantiles: " + std::string(item) + " is out of range: each tau must be in (0, 1)");
    out.push_back(*v);
    if (out.size() > kMaxQuantiles) return Status::invalid_argument("quantiles: at most 64 levels");
    start = comma + 1;
  }
  std::sort(out.begin(), out.end());
  for (std::size_t i = 1; i < out.size(); ++i)
    if (out[i] - out[i - 1] < 1e-15) return Status::invalid_argument("quantiles: " + format_field_real(out[i]) + " is listed twice");
  return out;
}

Status QuantileSGBTConfig::validate() const {
  if (sgbt_config_fields().size() > kMaxInnerRows) return Status::invalid_argument("quantile_sgbt: SGBT table outgrew its adapter");
  if (quantiles.empty()) return Status::invalid_argument("quantile_sgbt: quantiles is empty");
  // Re-parse the printed list: one place for the rules (range, order, duplicates).
  auto q = parse_quantile_list(get_quantiles(*this));
  if (!q) return q.status().with_context("quantile_sgbt");
  if (*q != quantiles) return Status::invalid_argument("quantile_sgbt: quantiles must be sorted");
  IRITHYLL_RETURN_IF_ERROR(validate_fields<QuantileSGBTConfig>("quantile_sgbt", table(), *this));
  return sgbt.validate().with_context("quantile_sgbt");
}

void QuantileSGBTConfig::encode(ByteWriter& out) const {
  out.f64s(quantiles);
  sgbt.encode(out);
}

Status QuantileSGBTConfig::decode(ByteReader& in) {
  QuantileSGBTConfig c;
  c.quantiles = in.f64s("quantiles");
  if (!in.ok()) return in.status();
  if (c.quantiles.size() > kMaxQuantiles) return Status::corruption("quantile_sgbt config: too many quantiles");
  IRITHYLL_RETURN_IF_ERROR(c.sgbt.decode(in));
  IRITHYLL_RETURN_IF_ERROR(c.validate().with_context("quantile_sgbt config"));
  *this = std::move(c);
  return Status::ok();
}

}  // namespace irithyll
