#include "irithyll/packed/exporter.hpp"

#include <cmath>
#include <limits>
#include <string>

#include "irithyll/core/bytes.hpp"
#include "irithyll/packed/format.hpp"

namespace irithyll::packed {

namespace {

// A tree in BFS order: order[new index] = original index.
Result<std::vector<std::uint32_t>> bfs_order(const ExportModel& m, std::size_t t) {
  const ExportTree& tree = m.trees[t];
  const std::string where = "export: tree " + std::to_string(t) + ": ";
  const std::size_t n = tree.nodes.size();
  if (tree.root >= n) return Status::invalid_argument(where + "root index out of range");
  std::vector<std::uint8_t> seen(n, 0);
  std::vector<std::uint32_t> order{tree.root};
  seen[tree.root] = 1;
  for (std::size_t p = 0; p < order.size(); ++p) {
    const ExportNode& nd = tree.nodes[order[p]];
    if (nd.is_leaf) {
      if (!std::isfinite(nd.leaf_value)) return Status::invalid_argument(where + "non-finite leaf value");
      continue;
    }
    if (nd.feature >= m.n_features)
      return Status::invalid_argument(where + "split on feature " + std::to_string(nd.feature) + " >= n_features " +
                                      std::to_string(m.n_features));
    if (nd.categorical)
      return Status::invalid_argument(where + "category-set split on feature " + std::to_string(nd.feature) +
                                      ": the packed formats have only threshold nodes, so a model with categorical "
                                      "splits cannot be exported (retrain with --categorical-features \"\" to export)");
    if (!std::isfinite(nd.threshold)) return Status::invalid_argument(where + "non-finite threshold");
    for (std::uint32_t c : {nd.left, nd.right}) {
      if (c >= n) return Status::invalid_argument(where + "child index out of range");
      if (seen[c]) return Status::invalid_argument(where + "node " + std::to_string(c) + " reachable twice (not a tree)");
      seen[c] = 1;
      order.push_back(c);
    }
    if (order.size() > kMaxNodesPerTree)
      return Status::invalid_argument(where + "more than 65535 nodes");
  }
  return order;
}

Status check_model(const ExportModel& m) {
  if (!m.unsupported.empty()) return Status::invalid_argument("export: " + m.unsupported);
  if (m.trees.size() > 65535) return Status::invalid_argument("export: more than 65535 trees");
  if (m.n_features > 32767) return Status::invalid_argument("export: more than 32767 features");
  if (!std::isfinite(m.base_prediction) || !std::isfinite(m.learning_rate))
    return Status::invalid_argument("export: non-finite base prediction or learning rate");
  return Status::ok();
}

void write_header(ByteWriter& w, std::uint32_t magic, const ExportModel& m) {
  w.u32(magic);
  w.u16(kFormatVersion);
  w.u16(static_cast<std::uint16_t>(m.trees.size()));
  w.u16(static_cast<std::uint16_t>(m.n_features));
  w.u16(0);
  w.f32(static_cast<float>(m.base_prediction));
}

// f64 -> i16 with the same truncate/saturate/NaN rule as saturating_trunc_i16.
std::int16_t trunc_i16(double v) {
  if (std::isnan(v)) return 0;
  if (v >= 32767.0) return 32767;
  if (v <= -32768.0) return -32768;
  return static_cast<std::int16_t>(v);
}

template <class NodeWriter>
Result<std::vector<std::uint8_t>> write_trees(ByteWriter& w, const ExportModel& m, std::size_t node_bytes,
                                              NodeWriter write_node) {
  std::vector<std::vector<std::uint32_t>> orders;
  orders.reserve(m.trees.size());
  for (std::size_t t = 0; t < m.trees.size(); ++t) {
    auto order = bfs_order(m, t);
    if (!order) return order.status();
    orders.push_back(std::move(order.value()));
  }
  std::uint64_t offset = 0;
  for (const auto& order : orders) {
    if (offset > 0xFFFFFFFFu) return Status::invalid_argument("export: node area exceeds 4 GiB");
    w.u32(static_cast<std::uint32_t>(order.size()));
    w.u32(static_cast<std::uint32_t>(offset));
    offset += node_bytes * order.size();
  }
  std::vector<std::uint32_t> position;
  for (std::size_t t = 0; t < m.trees.size(); ++t) {
    const auto& order = orders[t];
    const ExportTree& tree = m.trees[t];
    position.assign(tree.nodes.size(), 0);
    for (std::uint32_t i = 0; i < order.size(); ++i) position[order[i]] = i;
    for (std::uint32_t i = 0; i < order.size(); ++i) {
      const ExportNode& nd = tree.nodes[order[i]];
      const std::uint32_t children = nd.is_leaf ? 0u : (position[nd.left] | (position[nd.right] << 16));
      write_node(w, nd, children);
    }
  }
  return w.take();
}

}  // namespace

// The Rust library writes thresholds as `thr as f32` (round to nearest). When the
// nearest f32 lies above thr, a feature equal to it satisfies x > thr in the
// trained model but not x > f32(thr) in the file, so it goes the other way
// (seen on Electricity: rows off by a whole leaf). Rounding toward -inf
// instead makes the file route every f32 feature exactly as the f64 model:
// with lo = largest f32 <= thr, no f32 lies in (lo, thr], so x > lo <=> x > thr.
float threshold_to_f32(double threshold) {
  float f = static_cast<float>(threshold);
  if (static_cast<double>(f) > threshold) f = std::nextafter(f, -std::numeric_limits<float>::infinity());
  return f;
}

// The i16 layout stores trunc(thr * scale) and routes right when
// trunc(x * scale) > that. For the largest |threshold| of a feature the
// product rounds to 32767 about half the time, and then no feature value can
// exceed it: every sample above that threshold would go left. Capping stored
// thresholds at 32766 keeps the layout's scale (so files stay readable by any
// reader of the format) and routes the whole upper tail right; the one
// casualty is a feature exactly equal to that largest threshold, which then
// goes right.
std::int16_t quantize_threshold(double threshold, float scale) {
  const std::int16_t q = saturating_trunc_i16(threshold_to_f32(threshold) * scale);
  return q > 32766 ? static_cast<std::int16_t>(32766) : q;
}

float i16_feature_scale(const ExportModel& m, std::uint32_t feature) {
  double max_abs = 0.0;
  for (const ExportTree& t : m.trees)
    for (const ExportNode& nd : t.nodes)
      if (!nd.is_leaf && nd.feature == feature && std::isfinite(nd.threshold))
        max_abs = std::fmax(max_abs, std::fabs(nd.threshold));
  return max_abs > 0.0 ? static_cast<float>(32767.0 / max_abs) : 1.0f;
}

float i16_leaf_scale(const ExportModel& m) {
  double max_abs = 0.0;
  for (const ExportTree& t : m.trees)
    for (const ExportNode& nd : t.nodes)
      if (nd.is_leaf && std::isfinite(nd.leaf_value)) max_abs = std::fmax(max_abs, std::fabs(m.learning_rate * nd.leaf_value));
  return max_abs > 0.0 ? static_cast<float>(32767.0 / max_abs) : 1.0f;
}

Result<std::vector<std::uint8_t>> export_f32(const ExportModel& m) {
  IRITHYLL_RETURN_IF_ERROR(check_model(m));
  ByteWriter w;
  write_header(w, kMagicF32, m);
  const double lr = m.learning_rate;
  return write_trees(w, m, kNodeBytesF32, [lr](ByteWriter& out, const ExportNode& nd, std::uint32_t children) {
    out.f32(nd.is_leaf ? static_cast<float>(lr * nd.leaf_value) : threshold_to_f32(nd.threshold));
    out.u32(children);
    out.u16(nd.is_leaf ? kLeafFlag : static_cast<std::uint16_t>(nd.feature & kFeatureMask));
    out.u16(0);
  });
}

Result<std::vector<std::uint8_t>> export_i16(const ExportModel& m) {
  IRITHYLL_RETURN_IF_ERROR(check_model(m));
  std::vector<float> scales(m.n_features);
  for (std::uint32_t f = 0; f < m.n_features; ++f) scales[f] = i16_feature_scale(m, f);
  const float leaf_scale = i16_leaf_scale(m);
  ByteWriter w;
  write_header(w, kMagicI16, m);
  w.f32(leaf_scale);
  for (float s : scales) w.f32(s);
  const double lr = m.learning_rate;
  return write_trees(w, m, kNodeBytesI16,
                     [&scales, lr, leaf_scale](ByteWriter& out, const ExportNode& nd, std::uint32_t children) {
                       std::int16_t v;
                       if (nd.is_leaf)
                         v = trunc_i16(lr * nd.leaf_value * static_cast<double>(leaf_scale));
                       else  // f32 arithmetic, as the reader quantises features
                         v = quantize_threshold(nd.threshold, scales[nd.feature]);
                       out.u16(static_cast<std::uint16_t>(v));
                       out.u16(nd.is_leaf ? kLeafFlag : static_cast<std::uint16_t>(nd.feature & kFeatureMask));
                       out.u32(children);
                     });
}

}  // namespace irithyll::packed
