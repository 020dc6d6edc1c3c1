#include "common.hpp"

#include <algorithm>
#include <charconv>

namespace irithyll::preprocess_detail {

std::string column_name(const TransformerContext& context, std::size_t i) {
  if (i < context.feature_names.size() && !context.feature_names[i].empty()) return context.feature_names[i];
  return "f" + std::to_string(i);
}

Status check_input_width(std::string_view who, std::size_t n) {
  if (n == 0 || n > kMaxInputWidth)
    return Status::invalid_argument(std::string(who) + ": needs the input width (1 to 16777216 features), got " +
                                    std::to_string(n));
  return Status::ok();
}

Result<std::vector<std::uint32_t>> resolve_columns(std::string_view who, std::string_view text,
                                                   const TransformerContext& context) {
  std::vector<std::uint32_t> out;
  if (text.empty()) {
    for (const std::uint32_t c : context.categorical)
      if (c < context.n_features) out.push_back(c);
  } else {
    for (std::string_view item : split_list_items(text, ',')) {
      while (!item.empty() && item.front() == ' ') item.remove_prefix(1);
      while (!item.empty() && item.back() == ' ') item.remove_suffix(1);
      if (item.empty()) return Status::invalid_argument(std::string(who) + ": columns '" + std::string(text) + "' has an empty item");
      const auto by_name = std::find(context.feature_names.begin(), context.feature_names.end(), item);
      if (by_name != context.feature_names.end()) {
        out.push_back(static_cast<std::uint32_t>(by_name - context.feature_names.begin()));
        continue;
      }
      std::uint64_t index = 0;
      const auto res = std::from_chars(item.data(), item.data() + item.size(), index);
      if (res.ec != std::errc() || res.ptr != item.data() + item.size() || index >= context.n_features) {
        std::string names;
        for (std::size_t i = 0; i < context.feature_names.size() && i < 20; ++i)
          names += (names.empty() ? "" : ", ") + context.feature_names[i];
        return Status::invalid_argument(std::string(who) + ": no column '" + std::string(item) + "' (columns: " +
                                        (names.empty() ? "0.." + std::to_string(context.n_features - 1) : names) +
                                        (context.feature_names.size() > 20 ? ", ..." : "") + ")");
      }
      out.push_back(static_cast<std::uint32_t>(index));
    }
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

}  // namespace irithyll::preprocess_detail
