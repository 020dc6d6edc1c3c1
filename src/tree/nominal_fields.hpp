// The two nominal-attribute settings of a Hoeffding tree, worded and bounded
// once for every table whose model holds such a tree (hoeffding_tree, and the
// adaptive tree's member rows). The penalty's default is the model's own.
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

}  // namespace irithyll
