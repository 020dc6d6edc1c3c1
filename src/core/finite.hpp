// Internal: the test every learner makes of a feature value before it uses
// it. v - v is 0 for every finite v and NaN for NaN and both infinities, so
// one subtraction and compare answer "finite" without a library call, and
// the same expression serves scalar and vector loops alike.
#pragma once

namespace irithyll {

inline bool finite_value(double v) noexcept { return v - v == 0.0; }

}  // namespace irithyll
