// BinStrategy: how a tree learns each feature's bin edges during its grace
// period (uniform, quantile or categorical; FeatureBinner implements them).
// It is part of the tree and SGBT configurations, so it is public on its own,
// apart from the binner. Strategies are rows of one table, parsed by name.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>

#include "irithyll/core/status.hpp"

namespace irithyll {

enum class BinStrategy : std::uint8_t { kUniform = 0, kQuantile = 1, kCategorical = 2, kKMeans = 3 };

struct BinStrategyRow {
  BinStrategy strategy;
  std::string_view name;
};
std::span<const BinStrategyRow> bin_strategy_table();
Result<BinStrategy> parse_bin_strategy(std::string_view name);
std::string_view bin_strategy_name(BinStrategy s);

}  // namespace irithyll
