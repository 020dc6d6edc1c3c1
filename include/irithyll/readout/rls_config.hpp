// RlsConfig: the settings of the recursive-least-squares readout that the
// neural learners fit on their features (readout/rls.hpp, internal, holds the
// filter itself). Public because every such learner's config carries one.
#pragma once

namespace irithyll {

struct RlsConfig {
  double forgetting_factor = 0.998;  // lambda in (0, 1]; 1 = never forget. Effective memory ~ 1/(1-lambda).
  double delta = 100.0;              // P(0) = delta * I; larger = faster initial adaptation.
};

}  // namespace irithyll
