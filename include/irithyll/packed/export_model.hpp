// ExportModel: the neutral, in-memory description of a trained tree ensemble
// that the packed exporters (f32 and int16) consume. The ensemble side fills
// it; the packed side never sees ensemble internals.
//
// Routing semantics shared by training and packed inference: a sample goes
// right when x[feature] > threshold, else left; NaN (missing) goes left.
// A committee's raw output is base_prediction + learning_rate * sum of the
// leaf values reached (the exporter bakes learning_rate into the leaves).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace irithyll {

struct ExportNode {
  bool is_leaf = true;
  std::uint32_t feature = 0;  // split feature (internal nodes)
  double threshold = 0.0;     // split threshold (internal nodes)
  std::uint32_t left = 0;     // index into ExportTree::nodes (internal nodes)
  std::uint32_t right = 0;
  double leaf_value = 0.0;    // leaf output before the learning rate (leaves)
  // A category-set split (x goes left iff bit x of the mask is set): the
  // packed formats have no such node, so the exporters refuse it.
  bool categorical = false;
  std::uint64_t category_mask = 0;
};

struct ExportTree {
  std::vector<ExportNode> nodes;  // any order; root at index `root`
  std::uint32_t root = 0;
};

struct ExportModel {
  double base_prediction = 0.0;
  double learning_rate = 1.0;
  std::uint32_t n_features = 0;
  std::vector<ExportTree> trees;
  // Non-empty: the model uses an option the packed formats cannot express
  // (it names the option); the exporters refuse with this message.
  std::string unsupported;
};

}  // namespace irithyll
