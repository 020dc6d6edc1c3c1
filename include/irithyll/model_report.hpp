// ModelReport: a narrow capability for learners that have something of their
// own to say after an evaluation (which configuration `auto` chose and for
// how long, ...). Front ends ask for it with dynamic_cast and print it after
// the metrics; learners without it print nothing extra. Kept apart from
// Learner, like IntervalPredictor, so the many models with nothing to report
// carry no empty hook.
#pragma once

#include <string>

namespace irithyll {

class ModelReport {
 public:
  virtual ~ModelReport() = default;
  // A few lines of plain text, each ending in '\n' (empty: nothing to say).
  virtual std::string report_text() const = 0;
  // One JSON value (an object), or empty.
  virtual std::string report_json() const = 0;
};

}  // namespace irithyll
