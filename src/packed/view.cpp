// Validation and traversal of the packed views. FREESTANDING: this file is
// also compiled by embedded/ with -ffreestanding -fno-exceptions -fno-rtti, so
// it includes only the freestanding packed headers.
#include "irithyll/packed/view.hpp"

#include "lockstep.hpp"  // beside this file: found with -Iinclude alone

namespace irithyll::packed {

const char* format_error_message(FormatError e) noexcept {
  switch (e) {
    case FormatError::kOk: return "ok";
    case FormatError::kTruncated: return "buffer truncated";
    case FormatError::kUnaligned: return "buffer not 4-byte aligned";
    case FormatError::kBadMagic: return "bad magic: expected \"IRIT\" or \"IR16\"";
    case FormatError::kUnsupportedVersion: return "unsupported format version";
    case FormatError::kMisalignedTreeOffset: return "tree offset not aligned to node size";
    case FormatError::kInvalidNodeIndex: return "node child index out of bounds";
    case FormatError::kInvalidFeatureIndex: return "feature index exceeds n_features";
    case FormatError::kNotATree:
      return "tree structure invalid: a child at or before its parent, or a node with no parent or two";
    case FormatError::kScratchTooSmall: return "validation scratch smaller than the largest tree";
    case FormatError::kTooFewFeatures: return "fewer features supplied than the model reads";
    case FormatError::kBadScale: return "int16 scale is zero, negative or not finite";
  }
  return "unknown error";
}

namespace {

// Everything that differs between the two formats.
struct F32Traits {
  static constexpr std::uint32_t kMagic = kMagicF32;
  static constexpr std::size_t kNode = kNodeBytesF32;
  static std::size_t table_offset(std::uint16_t) { return kHeaderBytes; }
  static std::uint32_t children(const std::uint8_t* n) { return load_u32(n + 4); }
  static std::uint16_t flags(const std::uint8_t* n) { return load_u16(n + 8); }
};
struct I16Traits {
  static constexpr std::uint32_t kMagic = kMagicI16;
  static constexpr std::size_t kNode = kNodeBytesI16;
  static std::size_t table_offset(std::uint16_t nf) { return kHeaderBytes + 4 + 4 * std::size_t{nf}; }
  static std::uint32_t children(const std::uint8_t* n) { return load_u32(n + 4); }
  static std::uint16_t flags(const std::uint8_t* n) { return load_u16(n + 2); }
};

constexpr std::uint32_t kMaxTreeSpan = 65536;

bool finite_positive(float v) { return v > 0.0f && v <= 3.4028235e38f; }

template <class T>
std::uint32_t largest_tree(const std::uint8_t* data, std::size_t size) {
  if (data == nullptr || size < kHeaderBytes) return 0;
  const std::uint16_t nt = load_u16(data + 6), nf = load_u16(data + 8);
  const std::size_t table = T::table_offset(nf);
  if (size < table + kTreeEntryBytes * nt) return 0;
  std::uint32_t best = 0;
  for (std::uint32_t t = 0; t < nt; ++t) {
    const std::uint32_t n = load_u32(data + table + kTreeEntryBytes * t);
    best = n > best ? n : best;
  }
  // u16 child indices reach at most 65536 nodes; parse() refuses bigger trees
  // before touching scratch, so a hostile count never sizes an allocation.
  return best > kMaxTreeSpan ? kMaxTreeSpan : best;
}

template <class T>
FormatError parse_view(const std::uint8_t* data, std::size_t size, std::uint16_t* scratch,
                       std::size_t scratch_len, ViewInfo& info) {
  info = ViewInfo{};
  if (data == nullptr || size < kHeaderBytes) return FormatError::kTruncated;
  if (load_u32(data) != T::kMagic) return FormatError::kBadMagic;
  if (load_u16(data + 4) != kFormatVersion) return FormatError::kUnsupportedVersion;
  const std::uint16_t nt = load_u16(data + 6), nf = load_u16(data + 8);
  const std::size_t table = T::table_offset(nf);
  // Sizes fit easily in 64 bits (u16 * small constants); the u32 node sum is
  // overflow-checked like the Rust library's.
  if (size < table + kTreeEntryBytes * std::size_t{nt}) return FormatError::kTruncated;
  const std::size_t node_area = table + kTreeEntryBytes * std::size_t{nt};
  std::uint32_t total = 0;
  for (std::uint32_t t = 0; t < nt; ++t) {
    const std::uint32_t n = load_u32(data + table + kTreeEntryBytes * t);
    if (n > 0xFFFFFFFFu - total) return FormatError::kTruncated;
    total += n;
  }
  const unsigned long long need = static_cast<unsigned long long>(total) * T::kNode;
  if (need > size - node_area) return FormatError::kTruncated;
  const std::size_t region = size - node_area;
  for (std::uint32_t t = 0; t < nt; ++t) {
    const std::uint8_t* e = data + table + kTreeEntryBytes * t;
    const std::uint32_t n = load_u32(e), off = load_u32(e + 4);
    if (off % T::kNode != 0) return FormatError::kMisalignedTreeOffset;
    if (static_cast<unsigned long long>(off) + static_cast<unsigned long long>(n) * T::kNode > region)
      return FormatError::kTruncated;
  }
  // The Rust library's per-node checks, over every tree first.
  std::uint32_t max_feature_plus1 = 0;
  for (std::uint32_t t = 0; t < nt; ++t) {
    const std::uint8_t* e = data + table + kTreeEntryBytes * t;
    const std::uint32_t n = load_u32(e);
    const std::uint8_t* nodes = data + node_area + load_u32(e + 4);
    for (std::uint32_t i = 0; i < n; ++i) {
      const std::uint8_t* nd = nodes + T::kNode * i;
      const std::uint16_t fl = T::flags(nd);
      if (fl & kLeafFlag) continue;
      const std::uint32_t ch = T::children(nd);
      if ((ch & 0xFFFFu) >= n || (ch >> 16) >= n) return FormatError::kInvalidNodeIndex;
      const std::uint32_t f = fl & kFeatureMask;
      if (nf > 0 && f >= nf) return FormatError::kInvalidFeatureIndex;
      if (f + 1 > max_feature_plus1) max_feature_plus1 = f + 1;
    }
  }
  // Ours: int16 scales must be usable divisors / multipliers.
  if (T::kMagic == kMagicI16) {
    if (!finite_positive(load_f32(data + kHeaderBytes))) return FormatError::kBadScale;
    for (std::uint32_t f = 0; f < nf; ++f)
      if (!finite_positive(load_f32(data + kHeaderBytes + 4 + 4 * f))) return FormatError::kBadScale;
  }
  // Ours: structure. level[i] = 1 + depth of node i once its parent is seen.
  std::uint32_t largest = 0, max_depth = 0;
  for (std::uint32_t t = 0; t < nt; ++t) {
    const std::uint8_t* e = data + table + kTreeEntryBytes * t;
    const std::uint32_t n = load_u32(e);
    largest = n > largest ? n : largest;
    if (n == 0 || n > kMaxTreeSpan) return FormatError::kNotATree;  // no root, or nodes no u16 index reaches
    if (n > scratch_len || scratch == nullptr) return FormatError::kScratchTooSmall;
    const std::uint8_t* nodes = data + node_area + load_u32(e + 4);
    for (std::uint32_t i = 0; i < n; ++i) scratch[i] = 0;
    scratch[0] = 1;
    for (std::uint32_t i = 0; i < n; ++i) {
      const std::uint16_t level = scratch[i];
      if (level == 0) return FormatError::kNotATree;  // orphan: no parent before it
      const std::uint8_t* nd = nodes + T::kNode * i;
      if (T::flags(nd) & kLeafFlag) {
        if (level - 1u > max_depth) max_depth = level - 1u;
        continue;
      }
      const std::uint32_t ch = T::children(nd);
      const std::uint32_t l = ch & 0xFFFFu, r = ch >> 16;
      if (l <= i || r <= i || scratch[l] != 0 || scratch[r] != 0 || l == r) return FormatError::kNotATree;
      // level <= i + 1 <= 65535 here, so level + 1 fits in u16 only when
      // i < 65534; n <= 65535 guarantees it because l, r > i and l, r < n.
      scratch[l] = static_cast<std::uint16_t>(level + 1);
      scratch[r] = static_cast<std::uint16_t>(level + 1);
    }
  }
  info.n_trees = nt;
  info.n_features = nf;
  info.base_prediction = load_f32(data + 12);
  info.total_nodes = total;
  info.largest_tree = largest;
  info.max_depth = max_depth;
  info.required_features = nf > 0 ? nf : max_feature_plus1;
  info.node_offset = static_cast<std::uint32_t>(node_area);
  return FormatError::kOk;
}

const std::uint8_t* tree_entry(const std::uint8_t* data, std::size_t table, std::uint32_t t) {
  return data + table + kTreeEntryBytes * t;
}

}  // namespace

std::uint32_t largest_tree_f32(const std::uint8_t* data, std::size_t size) noexcept {
  return largest_tree<F32Traits>(data, size);
}
std::uint32_t largest_tree_i16(const std::uint8_t* data, std::size_t size) noexcept {
  return largest_tree<I16Traits>(data, size);
}

// ---------------------------------------------------------------- f32 view ----

FormatError F32View::parse(const std::uint8_t* data, std::size_t size, std::uint16_t* scratch,
                           std::size_t scratch_len) noexcept {
  data_ = nullptr;
  const FormatError e = parse_view<F32Traits>(data, size, scratch, scratch_len, info_);
  if (e == FormatError::kOk) data_ = data;
  return e;
}

std::uint32_t F32View::tree_nodes(std::uint32_t tree) const noexcept {
  return load_u32(tree_entry(data_, kHeaderBytes, tree));
}

const std::uint8_t* F32View::node(std::uint32_t tree, std::uint32_t index) const noexcept {
  return data_ + info_.node_offset + load_u32(tree_entry(data_, kHeaderBytes, tree) + 4) + kNodeBytesF32 * index;
}

FormatError F32View::predict_ref(const float* x, std::size_t n_x, float* out) const noexcept {
  if (n_x < info_.required_features) return FormatError::kTooFewFeatures;
  float sum = info_.base_prediction;
  for (std::uint32_t t = 0; t < info_.n_trees; ++t) {
    const std::uint8_t* nodes = node(t, 0);
    std::uint32_t i = 0;
    for (;;) {
      const std::uint8_t* nd = nodes + kNodeBytesF32 * i;
      const std::uint16_t fl = load_u16(nd + 8);
      if (fl & kLeafFlag) break;
      const std::uint32_t ch = load_u32(nd + 4);
      i = x[fl & kFeatureMask] > load_f32(nd) ? (ch >> 16) : (ch & 0xFFFFu);
    }
    sum += load_f32(nodes + kNodeBytesF32 * i);
  }
  *out = sum;
  return FormatError::kOk;
}

namespace {
// One branch-free step: a leaf keeps its index (and reads feature 0, which
// exists whenever any tree has a split), an internal node moves to a child.
inline std::uint32_t step_f32(const std::uint8_t* nodes, std::uint32_t i, const float* x) {
  const std::uint8_t* nd = nodes + kNodeBytesF32 * i;
  const std::uint32_t fl = load_u16(nd + 8);
  const std::uint32_t internal = (fl >> 15) ^ 1u;               // 1 for a split
  const std::uint32_t f = (fl & kFeatureMask) & (0u - internal);  // 0 for a leaf
  const std::uint32_t ch = load_u32(nd + 4);
  const std::uint32_t right = static_cast<std::uint32_t>(x[f] > load_f32(nd));
  const std::uint32_t child = (ch >> (16 * right)) & 0xFFFFu;
  return i + ((child - i) & (0u - internal));
}
}  // namespace

FormatError F32View::predict(const float* x, std::size_t n_x, float* out) const noexcept {
  if (n_x < info_.required_features) return FormatError::kTooFewFeatures;
  // Four trees in lockstep, each max_depth steps (the view's walk as it was
  // first written; the compiled table on the host takes eight).
  *out = detail::sum_trees_lockstep<4>(
      info_.n_trees, info_.base_prediction, [this](std::uint32_t t) { return node(t, 0); },
      [this](std::uint32_t, std::uint32_t) { return info_.max_depth; },
      [x](const std::uint8_t* nodes, std::uint32_t i) { return step_f32(nodes, i, x); },
      [](float& sum, const std::uint8_t* nodes, std::uint32_t i) { sum += load_f32(nodes + kNodeBytesF32 * i); });
  return FormatError::kOk;
}

// -------------------------------------------------------------- int16 view ----

FormatError I16View::parse(const std::uint8_t* data, std::size_t size, std::uint16_t* scratch,
                           std::size_t scratch_len) noexcept {
  data_ = nullptr;
  const FormatError e = parse_view<I16Traits>(data, size, scratch, scratch_len, info_);
  if (e == FormatError::kOk) data_ = data;
  return e;
}

std::uint32_t I16View::tree_nodes(std::uint32_t tree) const noexcept {
  return load_u32(tree_entry(data_, I16Traits::table_offset(info_.n_features), tree));
}

const std::uint8_t* I16View::node(std::uint32_t tree, std::uint32_t index) const noexcept {
  const std::uint8_t* e = tree_entry(data_, I16Traits::table_offset(info_.n_features), tree);
  return data_ + info_.node_offset + load_u32(e + 4) + kNodeBytesI16 * index;
}

void I16View::quantize(const float* x, std::size_t n, std::int16_t* q) const noexcept {
  for (std::size_t f = 0; f < n; ++f) q[f] = saturating_trunc_i16(x[f] * feature_scale(static_cast<std::uint32_t>(f)));
}

FormatError I16View::predict_ref(const float* x, std::size_t n_x, float* out) const noexcept {
  if (n_x < info_.required_features) return FormatError::kTooFewFeatures;
  std::int32_t sum = 0;
  for (std::uint32_t t = 0; t < info_.n_trees; ++t) {
    const std::uint8_t* nodes = node(t, 0);
    std::uint32_t i = 0;
    for (;;) {
      const std::uint8_t* nd = nodes + kNodeBytesI16 * i;
      const std::uint16_t fl = load_u16(nd + 2);
      if (fl & kLeafFlag) break;
      const std::uint32_t f = fl & kFeatureMask;
      // A header with n_features 0 has no scales; the Rust library then reads
      // past its table. We use scale 1 (documented in docs/format-i16.md).
      const float scale = f < info_.n_features ? feature_scale(f) : 1.0f;
      const std::int16_t q = saturating_trunc_i16(x[f] * scale);
      const std::uint32_t ch = load_u32(nd + 4);
      i = q > load_i16(nd) ? (ch >> 16) : (ch & 0xFFFFu);
    }
    sum += load_i16(nodes + kNodeBytesI16 * i);
  }
  *out = dequantize(sum);
  return FormatError::kOk;
}

namespace {
inline std::uint32_t step_i16(const std::uint8_t* nodes, std::uint32_t i, const std::int16_t* q) {
  const std::uint8_t* nd = nodes + kNodeBytesI16 * i;
  const std::uint32_t fl = load_u16(nd + 2);
  const std::uint32_t internal = (fl >> 15) ^ 1u;
  const std::uint32_t f = (fl & kFeatureMask) & (0u - internal);
  const std::uint32_t ch = load_u32(nd + 4);
  const std::uint32_t right = static_cast<std::uint32_t>(q[f] > load_i16(nd));
  const std::uint32_t child = (ch >> (16 * right)) & 0xFFFFu;
  return i + ((child - i) & (0u - internal));
}
}  // namespace

FormatError I16View::predict_prequantized(const std::int16_t* q, std::size_t n_q,
                                          std::int32_t* sum_out) const noexcept {
  if (n_q < info_.required_features) return FormatError::kTooFewFeatures;
  *sum_out = detail::sum_trees_lockstep<4>(
      info_.n_trees, std::int32_t{0}, [this](std::uint32_t t) { return node(t, 0); },
      [this](std::uint32_t, std::uint32_t) { return info_.max_depth; },
      [q](const std::uint8_t* nodes, std::uint32_t i) { return step_i16(nodes, i, q); },
      [](std::int32_t& sum, const std::uint8_t* nodes, std::uint32_t i) { sum += load_i16(nodes + kNodeBytesI16 * i); });
  return FormatError::kOk;
}

FormatError I16View::predict(const float* x, std::size_t n_x, float* out) const noexcept {
  if (n_x < info_.required_features) return FormatError::kTooFewFeatures;
  // Quantise once into a bounded stack buffer; wider models fall back to the
  // inline-quantising reference (identical results).
  constexpr std::size_t kStack = 256;
  const std::size_t n = info_.required_features;
  if (n > kStack) return predict_ref(x, n_x, out);
  std::int16_t q[kStack > 0 ? kStack : 1];
  for (std::size_t f = 0; f < n; ++f)
    q[f] = saturating_trunc_i16(x[f] * (f < info_.n_features ? feature_scale(static_cast<std::uint32_t>(f)) : 1.0f));
  if (n == 0) q[0] = 0;
  std::int32_t sum = 0;
  const FormatError e = predict_prequantized(q, n == 0 ? 1 : n, &sum);
  if (e != FormatError::kOk) return e;
  *out = dequantize(sum);
  return FormatError::kOk;
}

}  // namespace irithyll::packed
