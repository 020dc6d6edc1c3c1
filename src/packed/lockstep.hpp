// Internal: the one lockstep tree walk behind every scalar packed predictor
// (the freestanding views in view.cpp, PackedModel's compiled-table single
// path in packed_model.cpp and its portable batch kernel in
// traverse_portable.cpp).
//
// kLanes independent walks (different trees of one sample, or one tree for
// different samples) advance together, one step each per round, so their
// load-compare chains overlap instead of waiting on each other. Every walk
// takes exactly `depth` steps: the callers' step functions leave a leaf where
// it is, so shorter paths idle and there is no data-dependent branch.
//
// FREESTANDING: included by view.cpp, which embedded/ cross-compiles with
// -ffreestanding -fno-exceptions -fno-rtti; only <cstddef>/<cstdint> here.
#pragma once

#include <cstddef>
#include <cstdint>

namespace irithyll::packed::detail {

// idx[j] = step(j, idx[j]), `depth` rounds over all lanes.
template <std::size_t kLanes, class Step>
inline void walk_lockstep(std::uint32_t depth, std::uint32_t (&idx)[kLanes], Step step) {
  for (std::uint32_t d = 0; d < depth; ++d)
    for (std::size_t j = 0; j < kLanes; ++j) idx[j] = step(j, idx[j]);
}

// One sample through `nt` trees, kLanes trees at a time, then the remainder
// one by one. root(t) gives tree t's handle (a node pointer or a table
// offset); depth(t, n) the steps for trees t..t+n-1; step(root, i) one step
// from node i; add(acc, root, i) adds leaf i. Leaves are added in tree order,
// so a floating-point sum is the one the reference walk computes.
template <std::size_t kLanes, class Acc, class Root, class Depth, class Step, class Add>
inline Acc sum_trees_lockstep(std::uint32_t nt, Acc acc, Root root, Depth depth, Step step, Add add) {
  using Handle = decltype(root(std::uint32_t{0}));
  std::uint32_t t = 0;
  for (; t + kLanes <= nt; t += kLanes) {
    Handle r[kLanes];
    std::uint32_t idx[kLanes];
    for (std::size_t j = 0; j < kLanes; ++j) {
      r[j] = root(t + static_cast<std::uint32_t>(j));
      idx[j] = 0;
    }
    walk_lockstep(depth(t, static_cast<std::uint32_t>(kLanes)), idx,
                  [&](std::size_t j, std::uint32_t i) { return step(r[j], i); });
    for (std::size_t j = 0; j < kLanes; ++j) add(acc, r[j], idx[j]);
  }
  for (; t < nt; ++t) {
    const Handle r = root(t);
    std::uint32_t idx[1] = {0};
    walk_lockstep(depth(t, 1u), idx, [&](std::size_t, std::uint32_t i) { return step(r, i); });
    add(acc, r, idx[0]);
  }
  return acc;
}

}  // namespace irithyll::packed::detail
