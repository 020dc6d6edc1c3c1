// Half-Space Trees (irithyll/anomaly/half_space_trees.hpp).
#include "irithyll/anomaly/half_space_trees.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "irithyll/core/config_codec.hpp"
#include "irithyll/core/rng.hpp"
#include "core/finite.hpp"

namespace irithyll {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
// The largest ensemble accepted: 2^24 nodes (320 MiB of nodes and masses,
// ten times the default 25 trees of height 15).
constexpr std::uint64_t kMaxNodes = std::uint64_t{1} << 24;
// Splits fall in the middle 70% of a node's work range (River's padding).
constexpr double kPadding = 0.15;
// The buffered first window holds at most 2^27 values (1 GiB of doubles).
constexpr std::uint64_t kMaxFirstWindow = std::uint64_t{1} << 27;
}  // namespace

Status AnomalyDetector::check_sample(std::span<const double> x) const {
  if (x.empty()) return Status::invalid_argument(std::string(name()) + ": empty sample");
  if (n_features() != 0 && x.size() != n_features())
    return Status::invalid_argument(std::string(name()) + ": sample has " + std::to_string(x.size()) +
                                    " features, the detector expects " + std::to_string(n_features()));
  return Status::ok();
}

Result<std::unique_ptr<HalfSpaceTrees>> HalfSpaceTrees::make(const Config& config, const AnomalyContext& context) {
  IRITHYLL_RETURN_IF_ERROR(validate_fields<Config>(kName, config_fields(), config));
  const std::uint64_t nodes = std::uint64_t{config.n_trees} * ((std::uint64_t{2} << config.height) - 1);
  if (nodes > kMaxNodes)
    return Status::invalid_argument("half_space_trees: n-trees * (2^(height+1) - 1) = " + std::to_string(nodes) +
                                    " nodes, more than the 2^24 allowed (lower n-trees or height)");
  if (context.n_features > (1u << 24)) return Status::invalid_argument("half_space_trees: more than 2^24 features");
  if (config.limits == HstLimits::kFirstWindow && context.n_features * std::uint64_t{config.window_size} > kMaxFirstWindow)
    return Status::invalid_argument("half_space_trees: window-size * features = " +
                                    std::to_string(context.n_features * std::uint64_t{config.window_size}) +
                                    " buffered values, more than the 2^27 allowed (lower window-size, or limits unit)");
  auto out = std::make_unique<HalfSpaceTrees>();
  out->config_ = config;
  out->context_ = context;
  out->reset();
  return out;
}

void HalfSpaceTrees::reset() {
  std::vector<Node>().swap(nodes_);
  std::vector<std::uint32_t>().swap(l_mass_);
  std::vector<double>().swap(first_);
  width_ = context_.n_features;
  in_window_ = 0;
  has_reference_ = false;
  seen_ = skipped_ = 0;
}

void HalfSpaceTrees::build(std::span<const double> lo_in, std::span<const double> hi_in) {
  const std::size_t per_tree = nodes_per_tree();
  nodes_.assign(config_.n_trees * per_tree, Node{0.0, 0, 0});
  l_mass_.assign(nodes_.size(), 0);
  std::vector<double> lo(lo_in.begin(), lo_in.end()), hi(hi_in.begin(), hi_in.end());
  Xorshift64 rng(context_.seed);
  const std::size_t height = config_.height;
  // Pre-order walk with an explicit stack: (node, depth, feature changed,
  // saved bound, phase). Depth <= 20, so the stack stays tiny.
  struct Frame {
    std::size_t node, depth;
    std::uint32_t feature;
    double saved;
    int phase;  // 0: split and go left, 1: go right, 2: restore and return
  };
  std::vector<Frame> stack;
  stack.reserve(height + 1);
  for (std::size_t t = 0; t < config_.n_trees; ++t) {
    Node* tree = nodes_.data() + t * per_tree;
    stack.push_back(Frame{0, 0, 0, 0.0, 0});
    while (!stack.empty()) {
      Frame& f = stack.back();
      if (f.depth == height) {  // leaf: no split
        stack.pop_back();
        continue;
      }
      if (f.phase == 0) {
        const auto feature = static_cast<std::uint32_t>(rng.below(width_));
        const double a = lo[feature], b = hi[feature];
        const double split = rng.uniform(a + kPadding * (b - a), b - kPadding * (b - a));
        tree[f.node] = Node{split, feature, 0};
        f.feature = feature;
        f.saved = hi[feature];
        hi[feature] = split;  // left child: [lo, split)
        f.phase = 1;
        stack.push_back(Frame{2 * f.node + 1, f.depth + 1, 0, 0.0, 0});
      } else if (f.phase == 1) {
        hi[f.feature] = f.saved;
        f.saved = lo[f.feature];
        lo[f.feature] = tree[f.node].split;  // right child: [split, hi)
        f.phase = 2;
        stack.push_back(Frame{2 * f.node + 2, f.depth + 1, 0, 0.0, 0});
      } else {
        lo[f.feature] = f.saved;
        stack.pop_back();
      }
    }
  }
}

void HalfSpaceTrees::count(std::span<const double> x) {
  const std::size_t per_tree = nodes_per_tree();
  const std::size_t height = config_.height;
  for (std::size_t t = 0; t < config_.n_trees; ++t) {
    const Node* tree = nodes_.data() + t * per_tree;
    std::uint32_t* mass = l_mass_.data() + t * per_tree;
    std::size_t i = 0;
    for (std::size_t depth = 0;; ++depth) {
      ++mass[i];
      if (depth == height) break;
      const double v = x[tree[i].feature];
      const bool right = finite_value(v) ? v >= tree[i].split : tree[2 * i + 2].r_mass > tree[2 * i + 1].r_mass;
      i = 2 * i + 1 + (right ? 1 : 0);
    }
  }
}

void HalfSpaceTrees::rotate() {
  for (std::size_t i = 0; i < nodes_.size(); ++i) {
    nodes_[i].r_mass = l_mass_[i];
    l_mass_[i] = 0;
  }
  in_window_ = 0;
  has_reference_ = true;
}

void HalfSpaceTrees::learn_one(std::span<const double> x) {
  ++seen_;
  const bool too_wide = config_.limits == HstLimits::kFirstWindow && nodes_.empty() &&
                        x.size() * std::uint64_t{config_.window_size} > kMaxFirstWindow;
  if (x.empty() || (width_ != 0 && x.size() != width_) || x.size() > (1u << 24) || too_wide) {
    ++skipped_;
    return;
  }
  if (width_ == 0) width_ = x.size();
  const std::size_t w = config_.window_size;
  if (nodes_.empty()) {
    if (config_.limits == HstLimits::kUnit) {
      const std::vector<double> lo(width_, 0.0), hi(width_, 1.0);
      build(lo, hi);
    } else {
      // First window: buffered until the ranges are known.
      if (first_.empty() && w * width_ <= (std::size_t{1} << 20)) first_.reserve(w * width_);
      for (const double v : x) first_.push_back(finite_value(v) ? v : kNaN);
      if (first_.size() < w * width_) return;
      std::vector<double> lo(width_, std::numeric_limits<double>::infinity());
      std::vector<double> hi(width_, -std::numeric_limits<double>::infinity());
      for (std::size_t r = 0; r < w; ++r)
        for (std::size_t j = 0; j < width_; ++j) {
          const double v = first_[r * width_ + j];
          if (v != v) continue;
          lo[j] = std::min(lo[j], v);
          hi[j] = std::max(hi[j], v);
        }
      for (std::size_t j = 0; j < width_; ++j) {
        if (!(lo[j] <= hi[j])) lo[j] = hi[j] = 0.0;  // never seen
        if (!(hi[j] > lo[j])) lo[j] -= 0.5, hi[j] += 0.5;
      }
      build(lo, hi);
      for (std::size_t r = 0; r < w; ++r) count(std::span<const double>(first_).subspan(r * width_, width_));
      std::vector<double>().swap(first_);
      rotate();
      return;
    }
  }
  count(x);
  if (++in_window_ == w) rotate();
}

double HalfSpaceTrees::score_one(std::span<const double> x) const {
  if (!has_reference_ || x.size() != width_) return 0.0;
  const std::size_t per_tree = nodes_per_tree();
  const std::size_t height = config_.height;
  const double limit = config_.size_limit * static_cast<double>(config_.window_size);
  std::uint64_t sum = 0;
  for (std::size_t t = 0; t < config_.n_trees; ++t) {
    const Node* tree = nodes_.data() + t * per_tree;
    std::size_t i = 0;
    for (std::size_t depth = 0;; ++depth) {
      const Node& n = tree[i];
      sum += std::uint64_t{n.r_mass} << depth;
      if (depth == height || static_cast<double>(n.r_mass) < limit) break;
      const double v = x[n.feature];
      const bool right = finite_value(v) ? v >= n.split : tree[2 * i + 2].r_mass > tree[2 * i + 1].r_mass;
      i = 2 * i + 1 + (right ? 1 : 0);
    }
  }
  const double max = static_cast<double>(config_.n_trees) * static_cast<double>(config_.window_size) *
                     static_cast<double>(per_tree);
  return 1.0 - static_cast<double>(sum) / max;
}

std::size_t HalfSpaceTrees::memory_bytes() const {
  return sizeof(*this) + nodes_.capacity() * sizeof(Node) + l_mass_.capacity() * sizeof(std::uint32_t) +
         first_.capacity() * sizeof(double);
}

void HalfSpaceTrees::encode(ByteWriter& out) const {
  out.u8(1);  // record version
  encode_config(config_fields(), config_, out);
  out.u64(context_.n_features);
  out.u64(context_.seed);
  out.u64(width_);
  out.u64(nodes_.size());
  for (const Node& n : nodes_) {
    out.f64(n.split);
    out.u32(n.feature);
    out.u32(n.r_mass);
  }
  for (const std::uint32_t m : l_mass_) out.u32(m);
  out.f64s(first_);
  out.u64(in_window_);
  out.boolean(has_reference_);
  out.u64(seen_);
  out.u64(skipped_);
}

Status HalfSpaceTrees::decode(ByteReader& in) {
  const std::uint8_t version = in.u8("half_space_trees version");
  if (in.ok() && version != 1)
    return Status::corruption("half_space_trees: unknown record version " + std::to_string(version));
  Config config;
  IRITHYLL_RETURN_IF_ERROR(decode_config(kName, config_fields(), in, config));
  IRITHYLL_RETURN_IF_ERROR(validate_fields<Config>(kName, config_fields(), config));
  AnomalyContext context;
  context.n_features = in.u64("half_space_trees n_features");
  context.seed = in.u64("half_space_trees seed");
  const std::uint64_t width = in.u64("half_space_trees width");
  const std::size_t n_nodes = in.read_count(20, "half_space_trees nodes");
  if (!in.ok()) return in.status();
  const std::uint64_t per_tree = (std::uint64_t{2} << config.height) - 1;
  const std::uint64_t expect = std::uint64_t{config.n_trees} * per_tree;
  if (expect > kMaxNodes || (n_nodes != 0 && n_nodes != expect) || context.n_features > (1u << 24) ||
      width > (1u << 24) || (context.n_features != 0 && width != context.n_features))
    return Status::corruption("half_space_trees: shape out of range");
  std::vector<Node> nodes(n_nodes);
  std::vector<std::uint32_t> l_mass(n_nodes);
  const std::uint32_t w = config.window_size;
  bool good = true;
  for (Node& n : nodes) {
    n.split = in.f64("half_space_trees split");
    n.feature = in.u32("half_space_trees feature");
    n.r_mass = in.u32("half_space_trees reference mass");
    good = good && finite_value(n.split) && n.feature < std::max<std::uint64_t>(width, 1) && n.r_mass <= w;
  }
  for (std::uint32_t& m : l_mass) {
    m = in.u32("half_space_trees latest mass");
    good = good && m <= w;
  }
  std::vector<double> first = in.f64s("half_space_trees first window");
  const std::uint64_t in_window = in.u64("half_space_trees window count");
  const bool has_reference = in.boolean("half_space_trees has reference");
  const std::uint64_t seen = in.u64("half_space_trees seen");
  const std::uint64_t skipped = in.u64("half_space_trees skipped");
  if (!in.ok()) return in.status();
  const bool built = n_nodes != 0;
  good = good && in_window < w && (built || (in_window == 0 && !has_reference)) && (!built || first.empty()) &&
         (built || width > 0 || first.empty()) && (width == 0 || first.size() % width == 0) &&
         first.size() < std::uint64_t{w} * std::max<std::uint64_t>(width, 1) && (!built || width > 0);
  for (const double v : first) good = good && !std::isinf(v);
  if (!good) return Status::corruption("half_space_trees: state out of range");
  config_ = config;
  context_ = context;
  reset();
  width_ = width;
  nodes_ = std::move(nodes), l_mass_ = std::move(l_mass), first_ = std::move(first);
  in_window_ = in_window, has_reference_ = has_reference, seen_ = seen, skipped_ = skipped;
  return Status::ok();
}

}  // namespace irithyll
