#include "irithyll/packed/packed_model.hpp"

#include <cmath>
#include <limits>
#include <utility>

#include "core/cpu_features.hpp"
#include "core/file_io.hpp"
#include "packed/compiled.hpp"
#include "packed/lockstep.hpp"

namespace irithyll::packed {

namespace {

// Largest per-sample key block kept on the stack by the batch paths (32 KB).
constexpr std::size_t kKeyBuffer = 8192;
// Single-sample keys on the stack; wider models use the reference walk.
constexpr std::size_t kSingleKeys = 1024;
// Rows per key block are a multiple of the AVX2 kernel's 8 lanes.
constexpr std::size_t kLanes = 8;

Status format_status(FormatError e) {
  return Status::corruption(std::string("packed model: ") + format_error_message(e));
}

// Re-lays out one tree in BFS order with adjacent siblings (see compiled.hpp).
template <class View, class NodeFn>
void compile_tree(const View& view, std::uint32_t t, detail::Compiled& c, std::vector<std::uint32_t>& queue,
                  NodeFn node_fn) {
  const std::uint32_t base = static_cast<std::uint32_t>(c.nodes.size());
  const std::uint32_t n = view.tree_nodes(t);
  c.tree_base.push_back(base);
  c.nodes.resize(base + n);
  c.leaf_f32.resize(base + n, 0.0f);
  c.leaf_i32.resize(base + n, 0);
  queue.assign(1, 0);  // queue[new index] = original index
  std::uint32_t depth = 0;
  std::vector<std::uint32_t> level(n, 0);
  for (std::uint32_t p = 0; p < queue.size(); ++p) {
    const auto nd = node_fn(view.node(t, queue[p]));  // {is_leaf, key, feature, left, right, leaf f32, leaf i32}
    std::uint64_t packed;
    if (nd.is_leaf) {
      packed = static_cast<std::uint32_t>(std::numeric_limits<std::int32_t>::max()) | (std::uint64_t{p} << 32);
      c.leaf_f32[base + p] = nd.leaf_f32;
      c.leaf_i32[base + p] = nd.leaf_i32;
      depth = std::max(depth, level[p]);
    } else {
      const auto first = static_cast<std::uint32_t>(queue.size());
      queue.push_back(nd.left);
      queue.push_back(nd.right);
      level.resize(queue.size(), 0);
      level[first] = level[first + 1] = level[p] + 1;
      packed = static_cast<std::uint32_t>(nd.key) | (std::uint64_t{first} << 32) | (std::uint64_t{nd.feature} << 48);
    }
    c.nodes[base + p] = packed;
  }
  c.tree_depth.push_back(depth);
}

struct NodeFacts {
  bool is_leaf;
  std::int32_t key;
  std::uint32_t feature, left, right;
  float leaf_f32;
  std::int32_t leaf_i32;
};

}  // namespace

PackedModel::PackedModel() : compiled_(std::make_unique<detail::Compiled>()) {}
PackedModel::PackedModel(PackedModel&&) noexcept = default;
PackedModel& PackedModel::operator=(PackedModel&&) noexcept = default;
PackedModel::~PackedModel() = default;

const ViewInfo& PackedModel::info() const { return format_ == PackedFormat::kF32 ? f32_.info() : i16_.info(); }

Result<PackedModel> PackedModel::from_bytes(std::vector<std::uint8_t> bytes) {
  PackedModel m;
  m.bytes_ = std::move(bytes);
  const std::uint8_t* d = m.bytes_.data();
  const std::size_t n = m.bytes_.size();
  if (n < 4) return format_status(FormatError::kTruncated);
  const bool is_i16 = load_u32(d) == kMagicI16;
  std::vector<std::uint16_t> scratch(is_i16 ? largest_tree_i16(d, n) : largest_tree_f32(d, n));
  const FormatError e = is_i16 ? m.i16_.parse(d, n, scratch.data(), scratch.size())
                               : m.f32_.parse(d, n, scratch.data(), scratch.size());
  if (e != FormatError::kOk) return format_status(e);
  m.format_ = is_i16 ? PackedFormat::kI16 : PackedFormat::kF32;

  detail::Compiled& c = *m.compiled_;
  const ViewInfo& info = m.info();
  c.integer_leaves = is_i16;
  c.base = info.base_prediction;
  c.n_keys = std::max<std::uint32_t>(1, info.required_features);
  std::vector<std::uint32_t> queue;
  if (is_i16) {
    c.leaf_scale = m.i16_.leaf_scale();
    c.feature_scale.resize(c.n_keys, 1.0f);
    for (std::uint32_t f = 0; f < info.n_features && f < c.n_keys; ++f) c.feature_scale[f] = m.i16_.feature_scale(f);
    for (std::uint32_t t = 0; t < info.n_trees; ++t)
      compile_tree(m.i16_, t, c, queue, [](const std::uint8_t* p) {
        const std::uint16_t fl = load_u16(p + 2);
        const std::uint32_t ch = load_u32(p + 4);
        const std::int16_t v = load_i16(p);
        return NodeFacts{(fl & kLeafFlag) != 0, v, static_cast<std::uint32_t>(fl & kFeatureMask), ch & 0xFFFFu, ch >> 16, 0.0f, v};
      });
  } else {
    for (std::uint32_t t = 0; t < info.n_trees; ++t)
      compile_tree(m.f32_, t, c, queue, [](const std::uint8_t* p) {
        const std::uint16_t fl = load_u16(p + 8);
        const std::uint32_t ch = load_u32(p + 4);
        const float v = load_f32(p);
        return NodeFacts{(fl & kLeafFlag) != 0, threshold_key(v), static_cast<std::uint32_t>(fl & kFeatureMask), ch & 0xFFFFu, ch >> 16, v, 0};
      });
  }
  detail::build_heap_table(c);
  m.use_avx512_single_ = detail::cpu_has_avx512() && !c.heap.empty();
  return m;
}

Result<PackedModel> PackedModel::load(const std::string& path) {
  auto bytes = read_file_bytes(path);
  if (!bytes) return bytes.status();
  auto m = from_bytes(std::move(bytes.value()));
  if (!m) return m.status().with_context(path);
  return m;
}

Status PackedModel::check_features(std::size_t n) const {
  if (n < required_features())
    return Status::invalid_argument("packed model reads " + std::to_string(required_features()) +
                                    " features, got " + std::to_string(n));
  return Status::ok();
}

float PackedModel::predict_ref(std::span<const float> x) const {
  float out = std::numeric_limits<float>::quiet_NaN();
  if (format_ == PackedFormat::kF32)
    (void)f32_.predict_ref(x.data(), x.size(), &out);
  else
    (void)i16_.predict_ref(x.data(), x.size(), &out);
  return out;
}

namespace detail {

void make_keys(const Compiled& c, const float* x, std::int32_t* keys) {
  if (c.integer_leaves) {
    for (std::uint32_t f = 0; f < c.n_keys; ++f) keys[f] = saturating_trunc_i16(x[f] * c.feature_scale[f]);
  } else {
    for (std::uint32_t f = 0; f < c.n_keys; ++f) keys[f] = feature_key(x[f]);
  }
}

}  // namespace detail

float PackedModel::predict(std::span<const float> x) const {
  const detail::Compiled& c = *compiled_;
  if (x.size() < required_features()) return std::numeric_limits<float>::quiet_NaN();
  if (c.n_keys > kSingleKeys) return predict_ref(x);
  std::int32_t keys[kSingleKeys];
  if (required_features() == 0)
    keys[0] = 0;
  else
    detail::make_keys(c, x.data(), keys);
  if (use_avx512_single_) return detail::predict_one_avx512(c, keys);
  return predict_table(keys);
}

float PackedModel::predict_portable(std::span<const float> x) const {
  const detail::Compiled& c = *compiled_;
  if (x.size() < required_features()) return std::numeric_limits<float>::quiet_NaN();
  if (c.n_keys > kSingleKeys) return predict_ref(x);
  std::int32_t keys[kSingleKeys];
  if (required_features() == 0)
    keys[0] = 0;
  else
    detail::make_keys(c, x.data(), keys);
  return predict_table(keys);
}

float PackedModel::predict_table(const std::int32_t* keys) const {
  const detail::Compiled& c = *compiled_;
  const std::uint64_t* nodes = c.nodes.data();
  // Both leaf sums are kept; the format picks one at the end (no branch per leaf).
  struct Sums {
    float f;
    std::int32_t i;
  };
  // Eight trees in lockstep for the group's deepest tree.
  const Sums s = detail::sum_trees_lockstep<8>(
      static_cast<std::uint32_t>(c.tree_base.size()), Sums{c.base, 0},
      [&c, nodes](std::uint32_t t) { return nodes + c.tree_base[t]; },
      [&c](std::uint32_t t, std::uint32_t n) {
        std::uint32_t depth = 0;
        for (std::uint32_t j = 0; j < n; ++j) depth = std::max(depth, c.tree_depth[t + j]);
        return depth;
      },
      [keys](const std::uint64_t* tree, std::uint32_t i) { return detail::table_step(tree, i, keys); },
      [&c, nodes](Sums& acc, const std::uint64_t* tree, std::uint32_t i) {
        const std::size_t at = static_cast<std::size_t>(tree - nodes) + i;  // leaves share the nodes' indices
        acc.f += c.leaf_f32[at];
        acc.i += c.leaf_i32[at];
      });
  return c.integer_leaves ? c.base + static_cast<float>(s.i) / c.leaf_scale : s.f;
}

const char* batch_kernel_name(BatchKernel k) {
  switch (k) {
    case BatchKernel::kRef: return "ref";
    case BatchKernel::kPortable: return "portable";
    case BatchKernel::kAvx2: return "avx2";
    case BatchKernel::kAvx512: return "avx512";
  }
  return "unknown";
}

bool PackedModel::batch_kernel_available(BatchKernel k) const {
  switch (k) {
    case BatchKernel::kRef:
    case BatchKernel::kPortable: return true;
    case BatchKernel::kAvx2: return cpu_has_avx2();
    case BatchKernel::kAvx512: return detail::cpu_has_avx512() && !compiled_->heap.empty();
  }
  return false;
}

// AVX2 is left out on purpose: its gathers lose to the portable loop on the
// CPUs we run on (BENCHMARKS.md, packed section).
BatchKernel PackedModel::dispatched_kernel() const {
  return batch_kernel_available(BatchKernel::kAvx512) ? BatchKernel::kAvx512 : BatchKernel::kPortable;
}

Status PackedModel::predict_batch(std::span<const float> rows, std::size_t stride, std::span<float> out) const {
  return batch(rows, stride, out, dispatched_kernel());
}
Status PackedModel::predict_batch_portable(std::span<const float> rows, std::size_t stride,
                                           std::span<float> out) const {
  return batch(rows, stride, out, BatchKernel::kPortable);
}
Status PackedModel::predict_batch_ref(std::span<const float> rows, std::size_t stride, std::span<float> out) const {
  return batch(rows, stride, out, BatchKernel::kRef);
}
Status PackedModel::predict_batch_with(BatchKernel k, std::span<const float> rows, std::size_t stride,
                                       std::span<float> out) const {
  if (!batch_kernel_available(k))
    return Status::not_supported(std::string("packed batch kernel ") + batch_kernel_name(k) +
                                 " not available on this CPU or model");
  return batch(rows, stride, out, k);
}

Status PackedModel::batch(std::span<const float> rows, std::size_t stride, std::span<float> out,
                          BatchKernel k) const {
  IRITHYLL_RETURN_IF_ERROR(check_features(stride));
  if (stride == 0 ? !rows.empty() : rows.size() != out.size() * stride)
    return Status::invalid_argument("predict_batch: " + std::to_string(rows.size()) + " values is not " +
                                    std::to_string(out.size()) + " rows of " + std::to_string(stride));
  const detail::Compiled& c = *compiled_;
  std::size_t first = 0;  // rows before `first` are done
  if (k == BatchKernel::kAvx512) {
    // Makes its own keys from the rows; the remainder goes the portable way.
    first = out.size() / 16 * 16;
    if (first) detail::predict_rows_avx512(c, rows.data(), stride, required_features(), first, out.data());
    if (first == out.size()) return Status::ok();
    k = BatchKernel::kPortable;
    rows = rows.subspan(first * stride);
    out = out.subspan(first);
  }
  const std::size_t n = out.size();
  if (k == BatchKernel::kRef || c.n_keys * kLanes > kKeyBuffer) {
    for (std::size_t r = 0; r < n; ++r) out[r] = predict_ref(rows.subspan(r * stride, stride));
    return Status::ok();
  }
  // Keys for a block of rows live on the stack; blocks are multiples of 8
  // rows, so only the last block has a remainder for the AVX2 kernel.
  std::int32_t keys[kKeyBuffer];
  const std::size_t block = (kKeyBuffer / c.n_keys) / kLanes * kLanes;
  for (std::size_t r0 = 0; r0 < n; r0 += block) {
    const std::size_t m = std::min(block, n - r0);
    for (std::size_t r = 0; r < m; ++r) {
      if (required_features() == 0)
        keys[r * c.n_keys] = 0;
      else
        detail::make_keys(c, rows.data() + (r0 + r) * stride, keys + r * c.n_keys);
    }
    std::size_t done = 0;
    if (k == BatchKernel::kAvx2) {
      done = m / 8 * 8;
      if (done) detail::predict_keys_avx2(c, keys, done, out.data() + r0);
    }
    if (done < m) detail::predict_keys_portable(c, keys + done * c.n_keys, m - done, out.data() + r0 + done);
  }
  return Status::ok();
}

std::uint32_t PackedModel::nodes_visited(std::span<const float> x) const {
  if (x.size() < required_features()) return 0;
  const detail::Compiled& c = *compiled_;
  std::vector<std::int32_t> keys(c.n_keys, 0);
  if (required_features() > 0) detail::make_keys(c, x.data(), keys.data());
  std::uint32_t visited = 0;
  for (std::size_t t = 0; t < c.tree_base.size(); ++t) {
    std::uint32_t i = 0;
    for (;;) {
      ++visited;
      const std::uint64_t nd = c.nodes[c.tree_base[t] + i];
      if (detail::node_child(nd) == i) break;  // only leaves point at themselves
      i = detail::table_step(c.nodes.data() + c.tree_base[t], i, keys.data());
    }
  }
  return visited;
}

std::vector<std::uint32_t> PackedModel::tree_depths() const { return compiled_->tree_depth; }

std::vector<std::uint32_t> PackedModel::split_counts() const {
  const detail::Compiled& c = *compiled_;
  std::vector<std::uint32_t> counts(required_features(), 0);
  for (std::size_t t = 0; t < c.tree_base.size(); ++t) {
    const std::size_t end = t + 1 < c.tree_base.size() ? c.tree_base[t + 1] : c.nodes.size();
    for (std::size_t i = c.tree_base[t]; i < end; ++i)
      if (detail::node_child(c.nodes[i]) != i - c.tree_base[t]) ++counts[detail::node_feature(c.nodes[i])];
  }
  return counts;
}

}  // namespace irithyll::packed
