// Catalogue row "kan": streaming Kolmogorov-Arnold network (B-spline edge
// functions trained by SGD), regression and classification (softmax).
#include "irithyll/nn/kan/kan.hpp"
#include "rows.hpp"

namespace irithyll::catalogue_detail {

CatalogueEntry kan_row() {
  return learner_row<nn::KolmogorovArnoldNetwork>(
      "Kolmogorov-Arnold network: a learnable B-spline on every edge, trained by SGD", Tasks::kBoth);
}

}  // namespace irithyll::catalogue_detail
