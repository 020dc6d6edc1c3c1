#include "estimator/estimator_checks.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>

#include "irithyll/core/rng.hpp"

namespace irithyll::estimator_checks {
namespace {

struct Sample {
  std::vector<double> x;
  double y;
};

// A stable concept: uniform features, a target that depends on three of them.
std::vector<Sample> make_stream(Task task, std::size_t n, std::uint64_t seed) {
  Xorshift64 rng(seed);
  std::vector<Sample> out(n);
  for (auto& s : out) {
    s.x.resize(kFeatures);
    for (double& v : s.x) v = rng.uniform();
    if (task == Task::kClassification) {
      const double t = (s.x[0] + s.x[1]) / 2.0;
      s.y = std::min<double>(kClasses - 1, std::floor(t * kClasses));
    } else {
      s.y = s.x[0] + 2.0 * s.x[1] - s.x[2] + 0.05 * (rng.uniform() - 0.5);
    }
  }
  return out;
}

// Every output a user can read: the point prediction and, for
// classification, the probabilities.
std::vector<double> outputs(const Learner& m, const std::vector<Sample>& probes) {
  std::vector<double> out;
  std::vector<double> proba(m.n_classes());
  for (const auto& s : probes) {
    out.push_back(m.predict_one(s.x));
    if (!proba.empty()) {
      m.predict_proba_one(s.x, proba);
      out.insert(out.end(), proba.begin(), proba.end());
    }
  }
  return out;
}

void learn(Learner& m, const std::vector<Sample>& s) {
  for (const auto& v : s) m.learn_one(v.x, v.y);
}

bool same_bits(const std::vector<double>& a, const std::vector<double>& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (std::isnan(a[i]) && std::isnan(b[i])) continue;
    if (std::memcmp(&a[i], &b[i], sizeof(double)) != 0) return false;
  }
  return true;
}

bool all_finite(const std::vector<double>& v) {
  return std::all_of(v.begin(), v.end(), [](double d) { return std::isfinite(d); });
}

testing::AssertionResult same_outputs(const Learner& a, const Learner& b, const std::vector<Sample>& probes,
                                      const char* what) {
  if (same_bits(outputs(a, probes), outputs(b, probes))) return testing::AssertionSuccess();
  return testing::AssertionFailure() << what;
}

// Two fresh models with the same seed, or a failure naming why not.
#define IRITHYLL_MAKE_OR_FAIL(var, seed)                                         \
  auto var = s.make(seed);                                                       \
  if (!var) return testing::AssertionFailure() << "the model could not be made"

}  // namespace

testing::AssertionResult check_reset(const Subject& s) {
  IRITHYLL_MAKE_OR_FAIL(used, 7);
  IRITHYLL_MAKE_OR_FAIL(fresh, 7);
  const auto stream = make_stream(s.task, 300, 1);
  learn(*used, make_stream(s.task, 300, 5));
  used->reset();
  if (used->n_samples_seen() != 0)
    return testing::AssertionFailure() << "n_samples_seen() is " << used->n_samples_seen() << " after reset()";
  learn(*used, stream);
  learn(*fresh, stream);
  return same_outputs(*used, *fresh, make_stream(s.task, 20, 99), "a reset model predicts unlike a fresh one");
}

testing::AssertionResult check_checkpoint(const Subject& s) {
  IRITHYLL_MAKE_OR_FAIL(a, 7);
  learn(*a, make_stream(s.task, 250, 1));
  ByteWriter w;
  a->encode(w);
  auto b = s.blank();
  if (!b) return testing::AssertionFailure() << "no blank instance";
  ByteReader r(w.data());
  if (Status st = b->decode(r); !st) return testing::AssertionFailure() << "decode: " << st.to_string();
  if (!r.at_end()) return testing::AssertionFailure() << r.remaining() << " bytes left after decode";
  if (auto same = same_outputs(*a, *b, make_stream(s.task, 20, 99), "the decoded model predicts differently"); !same)
    return same;
  // Continue both, predicting before each learn as an evaluation would.
  for (const auto& v : make_stream(s.task, 150, 3)) {
    if (!same_bits(outputs(*a, {v}), outputs(*b, {v})))
      return testing::AssertionFailure() << "the decoded model diverges while learning on";
    a->learn_one(v.x, v.y);
    b->learn_one(v.x, v.y);
  }
  if (a->n_samples_seen() != b->n_samples_seen())
    return testing::AssertionFailure() << "n_samples_seen " << a->n_samples_seen() << " vs " << b->n_samples_seen();
  // Truncated records are refused, never read past their end.
  const auto bytes = w.data();
  for (std::size_t cut : {std::size_t{0}, bytes.size() / 2, bytes.size() - 1}) {
    auto c = s.blank();
    ByteReader rc(std::span<const std::uint8_t>(bytes.data(), cut));
    if (c->decode(rc).is_ok() && rc.at_end() && cut < bytes.size())
      return testing::AssertionFailure() << "a record cut at " << cut << " of " << bytes.size() << " bytes decodes";
  }
  return testing::AssertionSuccess();
}

testing::AssertionResult check_same_seed(const Subject& s) {
  IRITHYLL_MAKE_OR_FAIL(a, 11);
  IRITHYLL_MAKE_OR_FAIL(b, 11);
  const auto stream = make_stream(s.task, 300, 1);
  learn(*a, stream);
  learn(*b, stream);
  return same_outputs(*a, *b, make_stream(s.task, 20, 99), "two models with seed 11 predict differently");
}

testing::AssertionResult check_predict_pure(const Subject& s) {
  IRITHYLL_MAKE_OR_FAIL(a, 7);
  IRITHYLL_MAKE_OR_FAIL(b, 7);
  std::vector<double> proba(a->n_classes());
  for (const auto& v : make_stream(s.task, 300, 1)) {
    (void)a->predict_one(v.x);
    if (!proba.empty()) a->predict_proba_one(v.x, proba);
    a->learn_one(v.x, v.y);
    b->learn_one(v.x, v.y);
  }
  return same_outputs(*a, *b, make_stream(s.task, 20, 99), "predicting before each learn changed what was learned");
}

testing::AssertionResult check_zero_weight(const Subject& s) {
  IRITHYLL_MAKE_OR_FAIL(a, 7);
  IRITHYLL_MAKE_OR_FAIL(b, 7);
  const auto noise = make_stream(s.task, 300, 77);
  std::size_t i = 0;
  for (const auto& v : make_stream(s.task, 300, 1)) {
    a->learn_one(v.x, v.y);
    b->learn_one(v.x, v.y);
    if (i % 3 == 0) b->learn_one(noise[i].x, noise[i].y, 0.0);
    ++i;
  }
  return same_outputs(*a, *b, make_stream(s.task, 20, 99), "zero-weight samples changed the model");
}

testing::AssertionResult check_wrong_width(const Subject& s) {
  IRITHYLL_MAKE_OR_FAIL(a, 7);
  IRITHYLL_MAKE_OR_FAIL(b, 7);
  const auto stream = make_stream(s.task, 200, 1);
  learn(*a, stream);
  learn(*b, stream);
  std::vector<double> narrow(kFeatures - 1, 0.5), wide(kFeatures + 3, 0.5);
  const Status refused = b->check_sample(narrow, 0.0);
  if (refused.is_ok()) return testing::AssertionFailure() << "check_sample accepts " << narrow.size() << " features";
  if (refused.message().find(std::to_string(kFeatures)) == std::string::npos)
    return testing::AssertionFailure() << "the refusal does not name the width: " << refused.message();
  if (b->check_sample(wide, 0.0).is_ok())
    return testing::AssertionFailure() << "check_sample accepts " << wide.size() << " features";
  if (Status ok = b->check_sample(stream[0].x, stream[0].y); !ok)
    return testing::AssertionFailure() << "check_sample refuses a good sample: " << ok.message();
  b->learn_one(narrow, 0.0);
  b->learn_one(wide, 1.0);
  return same_outputs(*a, *b, make_stream(s.task, 20, 99), "a sample of the wrong width changed the model");
}

testing::AssertionResult check_bad_values(const Subject& s) {
  IRITHYLL_MAKE_OR_FAIL(m, 7);
  const double inf = std::numeric_limits<double>::infinity();
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const auto stream = make_stream(s.task, 400, 1);
  for (std::size_t i = 0; i < stream.size(); ++i) {
    Sample v = stream[i];
    switch (i % 8) {
      case 1: v.x[i % kFeatures] = nan; break;
      case 2: v.x[i % kFeatures] = inf; break;
      case 3: v.x[i % kFeatures] = -inf; break;
      case 4: m->learn_one(v.x, nan); break;
      case 5: m->learn_one(v.x, s.task == Task::kClassification ? 1e300 : inf); break;
      case 6:
        m->learn_one(v.x, v.y, nan);
        m->learn_one(v.x, v.y, -1.0);
        m->learn_one(v.x, v.y, inf);
        break;
      default: break;
    }
    m->learn_one(v.x, v.y);
  }
  const auto& x0 = stream[0].x;
  if (m->check_sample(x0, nan).is_ok()) return testing::AssertionFailure() << "check_sample accepts a NaN target";
  if (m->check_sample(x0, stream[0].y, -1.0).is_ok())
    return testing::AssertionFailure() << "check_sample accepts weight -1";
  if (m->check_sample(x0, stream[0].y, nan).is_ok())
    return testing::AssertionFailure() << "check_sample accepts a NaN weight";
  if (m->check_sample(x0, stream[0].y, inf).is_ok())
    return testing::AssertionFailure() << "check_sample accepts an infinite weight";
  const auto probes = make_stream(s.task, 30, 99);
  if (!all_finite(outputs(*m, probes)))
    return testing::AssertionFailure() << "a non-finite prediction after bad values";
  // A probe with a missing feature still predicts a number.
  std::vector<double> x = probes[0].x;
  x[0] = nan;
  if (!std::isfinite(m->predict_one(x)))
    return testing::AssertionFailure() << "a probe with a NaN feature predicts a non-finite value";
  // And learning goes on: still finite after more clean samples.
  learn(*m, make_stream(s.task, 100, 4));
  if (!all_finite(outputs(*m, probes)))
    return testing::AssertionFailure() << "a non-finite prediction after more clean samples";
  return testing::AssertionSuccess();
}

testing::AssertionResult check_memory(const Subject& s) {
  IRITHYLL_MAKE_OR_FAIL(m, 7);
  const auto stream = make_stream(s.task, 3000, 21);
  // Mean memory over samples 300-600 and over 2700-3000 (four readings
  // each): a forest that replaces drifting members rises and falls by a
  // tree's size, and one reading can land on either. Ten times the samples;
  // linear growth would be about 10x (6.4x for a vector that doubles).
  double early = 0.0, late = 0.0;
  for (std::size_t n = 100; n <= 3000; n += 100) {
    learn(*m, std::vector<Sample>(stream.begin() + static_cast<std::ptrdiff_t>(n - 100),
                                  stream.begin() + static_cast<std::ptrdiff_t>(n)));
    if (n >= 300 && n <= 600) early += static_cast<double>(m->memory_bytes()) / 4.0;
    if (n >= 2700) late += static_cast<double>(m->memory_bytes()) / 4.0;
  }
  if (!(early > 0.0)) return testing::AssertionFailure() << "memory_bytes() is 0";
  if (late < 5.0 * early) return testing::AssertionSuccess();
  return testing::AssertionFailure() << "memory_bytes " << early << " over samples 300-600, " << late
                                     << " over 2700-3000";
}

testing::AssertionResult check_double_weight(const Subject& s) {
  IRITHYLL_MAKE_OR_FAIL(a, 7);
  IRITHYLL_MAKE_OR_FAIL(b, 7);
  for (const auto& v : make_stream(s.task, 200, 1)) {
    a->learn_one(v.x, v.y, 2.0);
    b->learn_one(v.x, v.y);
    b->learn_one(v.x, v.y);
  }
  const auto probes = make_stream(s.task, 20, 99);
  const auto oa = outputs(*a, probes), ob = outputs(*b, probes);
  if (oa.size() != ob.size()) return testing::AssertionFailure() << "output counts differ";
  for (std::size_t i = 0; i < oa.size(); ++i)
    if (!(std::fabs(oa[i] - ob[i]) <= 1e-12 * (1.0 + std::fabs(ob[i]))))
      return testing::AssertionFailure() << "output " << i << ": weight 2 gives " << oa[i] << ", twice gives " << ob[i];
  return testing::AssertionSuccess();
}

}  // namespace irithyll::estimator_checks
