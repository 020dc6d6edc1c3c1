// Rows of an inner config's field table re-targeted at a member of an outer
// config (BaggedSGBTConfig::sgbt, the SGBT family's `base`), so a model's one
// table lists them as its own rows while the bounds and help stay written
// once, beside the inner config. ConfigField holds plain function pointers,
// so each re-targeted row gets its own instantiation, indexed at compile time
// up to kMaxNestedRows (an inner table static_asserts that it fits).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "irithyll/core/config_fields.hpp"

namespace irithyll {

inline constexpr std::size_t kMaxNestedRows = 64;

namespace nested_detail {

template <class Outer, class Inner, Inner Outer::*kMember, auto kInnerFields, std::size_t I>
Status set_row(Outer& c, std::string_view v) {
  return kInnerFields()[I].set(c.*kMember, v);
}

template <class Outer, class Inner, Inner Outer::*kMember, auto kInnerFields, std::size_t I>
std::string get_row(const Outer& c) {
  return kInnerFields()[I].get(c.*kMember);
}

template <class Outer, class Inner, Inner Outer::*kMember, auto kInnerFields, std::size_t... I>
void append(std::vector<ConfigField<Outer>>& rows, bool (*keep)(const FieldInfo&), std::index_sequence<I...>) {
  const auto inner = kInnerFields();
  ((I < inner.size() && (keep == nullptr || keep(inner[I].info))
        ? rows.push_back(ConfigField<Outer>{inner[I].info, &set_row<Outer, Inner, kMember, kInnerFields, I>,
                                            &get_row<Outer, Inner, kMember, kInnerFields, I>})
        : void()),
   ...);
}

}  // namespace nested_detail

// Appends every row of kInnerFields() (those `keep` accepts, when given),
// reading and writing `outer.*kMember`.
template <class Outer, class Inner, Inner Outer::*kMember, auto kInnerFields>
void append_nested_rows(std::vector<ConfigField<Outer>>& rows, bool (*keep)(const FieldInfo&) = nullptr) {
  nested_detail::append<Outer, Inner, kMember, kInnerFields>(rows, keep, std::make_index_sequence<kMaxNestedRows>{});
}

}  // namespace irithyll
