// libFuzzer target: arbitrary bytes after a small valid f32 model, through the
// metadata trailer reader. Whatever it accepts must have names that fit the
// input; it must never crash or read out of bounds.
#include <cstdint>
#include <cstdlib>
#include <vector>

#include "irithyll/packed/metadata.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  // One tree, one leaf: header, tree table, one 12-byte node.
  std::vector<std::uint8_t> file = {'I', 'R', 'I', 'T', 1, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0,  // header
                                    1, 0, 0, 0, 0, 0, 0, 0,                                  // tree 0
                                    0, 0, 0, 0, 0, 0, 0, 0, 0, 0x80, 0, 0};                  // leaf
  file.insert(file.end(), data, data + size);
  auto model = irithyll::packed::PackedModel::from_bytes(std::move(file));
  if (!model) return 0;
  auto meta = irithyll::packed::read_metadata(*model);
  if (meta && meta->has_value()) {
    std::size_t bytes = (*meta)->target_name.size();
    for (const auto& s : (*meta)->feature_names) bytes += s.size();
    for (const auto& s : (*meta)->class_names) bytes += s.size();
    if (bytes > size) std::abort();
  }
  return 0;
}
