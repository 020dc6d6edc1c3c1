// Hoeffding tree settings worded and bounded once for every table whose model
// holds such trees (hoeffding_tree, the adaptive trees, ARF and the member
// rows of SRP and leveraging bagging). The nominal penalty's default is the
// model's own; the others' defaults are the tree config's.
#pragma once

#include <string_view>

#include "irithyll/core/config_fields.hpp"

namespace irithyll {

constexpr FieldInfo nominal_penalty_field(std::string_view default_text) {
  return FieldInfo::real("nominal-penalty", default_text,
                         "classification: a nominal split's merit loses this many times what it gains on noise "
                         "alone, (B-1)(K-1)/(2n ln 2) bits for B branches, K classes, weight n, which grows with "
                         "the branch count; 0: the plain merit")
      .in(0, 100);
}

constexpr FieldInfo nominal_nb_prior_field(std::string_view default_text) {
  return FieldInfo::real("nominal-nb-prior", default_text,
                         "naive Bayes leaves: a nominal attribute's per-class value frequencies are shrunk towards "
                         "its frequencies over all classes with this many pseudo-samples per value (m-estimate); "
                         "0: add-one smoothing")
      .in(0, 1000);
}

constexpr FieldInfo nb_threshold_field() {
  return FieldInfo::real("nb-threshold", "0",
                         "leaf-model nb: the weight a leaf gathers before it answers by naive Bayes (majority class "
                         "until then; River's nb_threshold)")
      .in(0, 1e9);
}

constexpr FieldInfo linear_learning_rate_field() {
  return FieldInfo::real("learning-rate", "0.05", "linear leaves: SGD step on normalised features").in(0, 1, true);
}

}  // namespace irithyll
