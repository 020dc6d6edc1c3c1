// Exporters: an ExportModel (export_model.hpp, filled by a trained ensemble)
// to the packed f32 ("IRIT") and int16 ("IR16") formats of format.hpp.
//
// Each tree is written in BFS order from its root, so the root is node 0 and
// every child index is larger than its parent's (what the readers require).
// Leaves carry learning_rate * leaf_value; thresholds are rounded toward -inf
// to f32 (threshold_to_f32), so f32 features route as in the f64 model.
// int16 scales:
//   feature f: 32767 / max |threshold on f|, or 1.0 when f is never split on;
//   leaves:    32767 / max |learning_rate * leaf|, or 1.0 when all are zero;
// a threshold is stored as (thr * scale_f) as i16 computed in f32, exactly
// the arithmetic the reader applies to features (capped at 32766, see
// quantize_threshold), and a leaf as
// (lr * leaf * leaf_scale) as i16, both truncating and saturating.
//
// Refused with a Status (never a crash): more than 65535 trees or 65535 nodes
// in a tree, more than 32767 features, a split on a feature >= n_features, a
// child or root index out of range, a node reachable twice or a cycle, and a
// non-finite threshold, leaf, base or learning rate.
//
// Error bound of the int16 format (docs/format-i16.md): when a sample takes
// the same path as in f32, |i16 - f32| <= n_trees / leaf_scale plus f32
// rounding; a sample whose feature lies within 1/scale_f of a threshold it is
// compared with may take the other branch.
//
// Cost: O(nodes). Thread safety: pure functions.
#pragma once

#include <cstdint>
#include <vector>

#include "irithyll/core/status.hpp"
#include "irithyll/packed/export_model.hpp"

namespace irithyll::packed {

Result<std::vector<std::uint8_t>> export_f32(const ExportModel& model);
Result<std::vector<std::uint8_t>> export_i16(const ExportModel& model);

// Quantisation helpers, exposed for tests and inspection.
// The largest f32 <= threshold: with it, x > t in f32 equals x > threshold in
// f64 for every f32 feature x (the Rust library rounds to nearest and misroutes
// features equal to a threshold rounded up; see exporter.cpp).
float threshold_to_f32(double threshold);
float i16_feature_scale(const ExportModel& model, std::uint32_t feature);
// trunc(thr * scale) in f32, capped at 32766 so that a saturated feature can
// still exceed the largest threshold (see exporter.cpp; the Rust library caps at
// 32767 and routes every sample above that threshold left).
std::int16_t quantize_threshold(double threshold, float scale);
float i16_leaf_scale(const ExportModel& model);

}  // namespace irithyll::packed
