#include "ensemble/tree_slot.hpp"

#include <utility>

namespace irithyll {

TreeSlot::TreeSlot(const GradientTreeConfig& tree, std::unique_ptr<DriftDetector> detector, std::uint64_t max_tree_samples)
    : active_(tree), alternate_(tree), detector_(std::move(detector)), max_tree_samples_(max_tree_samples) {}

void TreeSlot::set_limits(double lambda, std::uint32_t max_depth) {
  active_.set_limits(lambda, max_depth);
  alternate_.set_limits(lambda, max_depth);
  if (retiring_) retiring_->set_limits(lambda, max_depth);
}

void TreeSlot::replace_active() {
  if (has_alternate_) {
    if (handoff_window_ > 0) {
      // Graduated: the retired tree moves to retiring_ (dropping any handoff
      // still running) and blends out over the window; what retiring_ held
      // lands in alternate_ and is released below.
      if (!retiring_) retiring_ = std::make_unique<GradientTree>(active_.config());
      std::swap(*retiring_, active_);
      handoff_left_ = handoff_window_;
    }
    std::swap(active_, alternate_);  // the retired tree (abrupt) lands in alternate_
    has_alternate_ = false;
    // The next alternate may be many samples away (or never come): don't
    // park the retired tree's histograms and nodes until then.
    alternate_.release_storage();
  } else {
    active_.reset();  // nothing grew in the background: start over
  }
  if (detector_) detector_->reset();
  ++replacements_;
}

double TreeSlot::learn_one(std::span<const double> x, double g, double h, double monitor, std::uint32_t repeats) {
  std::uint32_t leaf;
  const double before = begin(x, repeats, leaf);
  finish(x, leaf, g, h, monitor, repeats);
  return before;
}

void TreeSlot::finish(std::span<const double> x, std::uint32_t leaf, double g, double h, double monitor,
                      std::uint32_t repeats) {
  if (repeats == 0) return;
  for (std::uint32_t r = 0; r < repeats; ++r) {
    if (active_.train_leaf(leaf, x, g, h)) leaf = active_.leaf_index(x);
  }
  if (has_alternate_) alternate_.learn_one(x, g, h, repeats);
  if (detector_) {
    for (std::uint32_t r = 0; r < repeats; ++r) {
      const DriftSignal s = detector_->update(monitor);
      if (s == DriftSignal::kWarning && !has_alternate_) {
        has_alternate_ = true;  // alternate_ is already reset and starts with the next sample
        ++warnings_;
      } else if (s == DriftSignal::kDrift) {
        replace_active();
        break;
      }
    }
  }
  if (max_tree_samples_ > 0 && active_.n_samples_seen() >= max_tree_samples_) replace_active();
}

void TreeSlot::reset() {
  active_.reset();
  alternate_.release_storage();
  has_alternate_ = false;
  retiring_.reset();
  handoff_left_ = 0;
  if (detector_) detector_->reset();
  replacements_ = 0;
  warnings_ = 0;
}

std::size_t TreeSlot::memory_bytes() const {
  return sizeof(*this) + active_.memory_bytes() + alternate_.memory_bytes() - 2 * sizeof(GradientTree) +
         (retiring_ ? retiring_->memory_bytes() : 0) +
         (detector_ ? detector_->memory_bytes() : 0);
}

void TreeSlot::encode(ByteWriter& out) const {
  active_.encode(out);
  out.boolean(has_alternate_);
  if (has_alternate_) alternate_.encode(out);
  out.boolean(detector_ != nullptr);
  if (detector_) encode_drift_detector(*detector_, out);
  out.u64(max_tree_samples_);
  out.u64(replacements_);
  out.u64(warnings_);
  if (handoff_window_ == 0) return;  // present exactly when the config enables the handoff
  out.u32(handoff_left_);
  if (handoff_left_ > 0) retiring_->encode(out);
}

Status TreeSlot::decode(ByteReader& in, TreeSettings settings) {
  const bool in_record = settings == TreeSettings::kInRecord;
  IRITHYLL_RETURN_IF_ERROR(in_record ? active_.decode_with_config(in) : active_.decode(in));
  has_alternate_ = in.boolean("has alternate");
  if (!in.ok()) return in.status();
  alternate_ = GradientTree(active_.config());
  if (has_alternate_) IRITHYLL_RETURN_IF_ERROR(in_record ? alternate_.decode_with_config(in) : alternate_.decode(in));
  const bool has_detector = in.boolean("has detector");
  if (!in.ok()) return in.status();
  detector_.reset();
  if (has_detector) {
    auto d = decode_drift_detector(in);
    if (!d) return d.status();
    detector_ = std::move(*d);
  }
  max_tree_samples_ = in.u64("max tree samples");
  replacements_ = in.u64("replacements");
  warnings_ = in.u64("warnings");
  retiring_.reset();
  handoff_left_ = 0;
  if (handoff_window_ > 0) {
    const std::uint32_t left = in.u32("handoff samples left");
    if (!in.ok()) return in.status();
    if (left > handoff_window_) return Status::corruption("handoff samples left exceed the handoff window");
    if (left > 0) {
      retiring_ = std::make_unique<GradientTree>(active_.config());
      IRITHYLL_RETURN_IF_ERROR(in_record ? retiring_->decode_with_config(in) : retiring_->decode(in));
    }
    handoff_left_ = left;
  }
  return in.status();
}

}  // namespace irithyll
