// Catalogue rows of the SGBT family members built on SGBT committees:
// "adaptive_sgbt", "quantile_sgbt", "distributional_sgbt", "moe_sgbt",
// "moe_distributional_sgbt", "multi_target_sgbt" and "bagged_sgbt". Each
// member's one table is its own rows followed by the SGBT rows it shares
// (src/ensemble/sgbt_family.hpp), so `--learning-rate` means the same in
// every member; multi_target_sgbt takes the number of targets from the data
// (LearnerContext::n_targets, e.g. `--target a,b,c`).
#include "irithyll/ensemble/adaptive_sgbt.hpp"
#include "irithyll/ensemble/bagged_sgbt.hpp"
#include "irithyll/ensemble/distributional_sgbt.hpp"
#include "irithyll/ensemble/moe_distributional_sgbt.hpp"
#include "irithyll/ensemble/moe_sgbt.hpp"
#include "irithyll/ensemble/multi_target_sgbt.hpp"
#include "irithyll/ensemble/quantile_sgbt.hpp"
#include "rows.hpp"

namespace irithyll::catalogue_detail {

CatalogueEntry adaptive_sgbt_row() {
  return learner_row<AdaptiveSGBT>(
      "SGBT with a learning-rate schedule: constant, linear, exponential, cosine or plateau", Tasks::kBoth);
}

CatalogueEntry quantile_sgbt_row() {
  return learner_row<QuantileSGBT>("one SGBT per quantile level, non-crossing (PAVA), online coverage correction",
                                   Tasks::kRegression);
}

CatalogueEntry distributional_sgbt_row() {
  return learner_row<DistributionalSGBT>(
      "Gaussian predictive distribution: SGBT location, SGBT log-scale, calibrated intervals", Tasks::kRegression);
}

CatalogueEntry moe_sgbt_row() {
  return learner_row<MoESGBT>("mixture of SGBT experts behind an online softmax gate (soft or top-k routing)",
                              Tasks::kBoth);
}

CatalogueEntry moe_distributional_sgbt_row() {
  return learner_row<MoEDistributionalSGBT>(
      "mixture of Gaussian SGBT experts with shadow challengers: mixture mean, total variance, intervals",
      Tasks::kRegression);
}

CatalogueEntry multi_target_sgbt_row() {
  return learner_row<MultiTargetSGBT>(
      "several regression targets at once (--target a,b,c): one SGBT per target, shared settings", Tasks::kRegression);
}

CatalogueEntry bagged_sgbt_row() {
  return learner_row<BaggedSGBT>("Oza online bagging of SGBTs: each bag learns a sample Poisson(1) times; bags averaged",
                                 Tasks::kBoth);
}

}  // namespace irithyll::catalogue_detail
