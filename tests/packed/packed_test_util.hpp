// Test helpers for the packed formats: hand-built byte buffers, random
// ensembles, and the f64 evaluation of an ExportModel (the trained model's own
// prediction, which the exporters must reproduce).
#pragma once

#include <cmath>
#include <cstdint>
#include <vector>

#include "irithyll/core/bytes.hpp"
#include "irithyll/core/rng.hpp"
#include "irithyll/packed/export_model.hpp"
#include "irithyll/packed/format.hpp"

namespace irithyll::packed::testing {

struct RawNode {
  float value = 0.0f;  // threshold or leaf
  std::uint16_t left = 0, right = 0;
  std::uint16_t flags = kLeafFlag;
};
inline RawNode leaf(float v) { return RawNode{v, 0, 0, kLeafFlag}; }
inline RawNode split(std::uint16_t feature, float thr, std::uint16_t l, std::uint16_t r) {
  return RawNode{thr, l, r, static_cast<std::uint16_t>(feature & kFeatureMask)};
}

// f32 buffer with trees back to back.
inline std::vector<std::uint8_t> build_f32(const std::vector<std::vector<RawNode>>& trees, std::uint16_t n_features,
                                           float base) {
  ByteWriter w;
  w.u32(kMagicF32);
  w.u16(1);
  w.u16(static_cast<std::uint16_t>(trees.size()));
  w.u16(n_features);
  w.u16(0);
  w.f32(base);
  std::uint32_t off = 0;
  for (const auto& t : trees) {
    w.u32(static_cast<std::uint32_t>(t.size()));
    w.u32(off);
    off += static_cast<std::uint32_t>(12 * t.size());
  }
  for (const auto& t : trees)
    for (const RawNode& n : t) {
      w.f32(n.value);
      w.u32(n.left | (std::uint32_t{n.right} << 16));
      w.u16(n.flags);
      w.u16(0);
    }
  return w.take();
}

// int16 buffer; node values are rounded to i16 as given (already quantised).
inline std::vector<std::uint8_t> build_i16(const std::vector<std::vector<RawNode>>& trees,
                                           const std::vector<float>& scales, float leaf_scale, float base) {
  ByteWriter w;
  w.u32(kMagicI16);
  w.u16(1);
  w.u16(static_cast<std::uint16_t>(trees.size()));
  w.u16(static_cast<std::uint16_t>(scales.size()));
  w.u16(0);
  w.f32(base);
  w.f32(leaf_scale);
  for (float s : scales) w.f32(s);
  std::uint32_t off = 0;
  for (const auto& t : trees) {
    w.u32(static_cast<std::uint32_t>(t.size()));
    w.u32(off);
    off += static_cast<std::uint32_t>(8 * t.size());
  }
  for (const auto& t : trees)
    for (const RawNode& n : t) {
      w.u16(static_cast<std::uint16_t>(static_cast<std::int16_t>(n.value)));
      w.u16(n.flags);
      w.u32(n.left | (std::uint32_t{n.right} << 16));
    }
  return w.take();
}

// A random ensemble: trees grown by random splitting up to max_depth, nodes
// stored in a shuffled order (so exporters must re-index), thresholds drawn
// from [-scale, scale] and occasionally repeated exactly (ties matter).
inline ExportModel random_model(Xorshift64& rng, std::uint32_t n_trees, std::uint32_t n_features,
                                std::uint32_t max_depth, double scale = 10.0) {
  ExportModel m;
  m.n_features = n_features;
  m.base_prediction = rng.normal();
  m.learning_rate = 0.05 + 0.5 * rng.uniform();
  for (std::uint32_t t = 0; t < n_trees; ++t) {
    ExportTree tree;
    struct Pending { std::uint32_t slot, depth; };
    tree.nodes.push_back({});
    std::vector<Pending> todo{{0, 0}};
    while (!todo.empty()) {
      Pending p = todo.back();
      todo.pop_back();
      const bool make_leaf = p.depth >= max_depth || n_features == 0 || rng.uniform() < 0.2;
      ExportNode nd;
      if (make_leaf) {
        nd.is_leaf = true;
        nd.leaf_value = rng.normal() * 2.0;
      } else {
        nd.is_leaf = false;
        nd.feature = static_cast<std::uint32_t>(rng.below(n_features));
        nd.threshold = std::round((rng.uniform() * 2.0 - 1.0) * scale * 8.0) / 8.0;  // ties with inputs likely
        nd.left = static_cast<std::uint32_t>(tree.nodes.size());
        nd.right = nd.left + 1;
        tree.nodes.push_back({});
        tree.nodes.push_back({});
        todo.push_back({nd.left, p.depth + 1});
        todo.push_back({nd.right, p.depth + 1});
      }
      tree.nodes[p.slot] = nd;
    }
    // Shuffle storage order; remap indices.
    const std::size_t n = tree.nodes.size();
    std::vector<std::uint32_t> perm(n);
    for (std::size_t i = 0; i < n; ++i) perm[i] = static_cast<std::uint32_t>(i);
    for (std::size_t i = n; i > 1; --i) std::swap(perm[i - 1], perm[rng.below(i)]);
    std::vector<ExportNode> shuffled(n);
    for (std::size_t i = 0; i < n; ++i) {
      ExportNode nd = tree.nodes[i];
      if (!nd.is_leaf) {
        nd.left = perm[nd.left];
        nd.right = perm[nd.right];
      }
      shuffled[perm[i]] = nd;
    }
    tree.nodes = std::move(shuffled);
    tree.root = perm[0];
    m.trees.push_back(std::move(tree));
  }
  return m;
}

// The trained model's own prediction in f64 (right when x > threshold).
inline double predict_f64(const ExportModel& m, const std::vector<float>& x) {
  double sum = 0.0;
  for (const ExportTree& t : m.trees) {
    std::uint32_t i = t.root;
    while (!t.nodes[i].is_leaf) i = static_cast<double>(x[t.nodes[i].feature]) > t.nodes[i].threshold ? t.nodes[i].right : t.nodes[i].left;
    sum += t.nodes[i].leaf_value;
  }
  return m.base_prediction + m.learning_rate * sum;
}

// Random features with specials: NaN, +-inf, +-0, and exact threshold grid values.
inline std::vector<float> random_row(Xorshift64& rng, std::uint32_t n, double scale = 10.0) {
  std::vector<float> x(n);
  for (auto& v : x) {
    const double u = rng.uniform();
    if (u < 0.03) v = std::nanf("");
    else if (u < 0.05) v = INFINITY;
    else if (u < 0.07) v = -INFINITY;
    else if (u < 0.09) v = -0.0f;
    else if (u < 0.3) v = static_cast<float>(std::round((rng.uniform() * 2.0 - 1.0) * scale * 8.0) / 8.0);
    else v = static_cast<float>((rng.uniform() * 2.4 - 1.2) * scale);
  }
  return x;
}

}  // namespace irithyll::packed::testing
