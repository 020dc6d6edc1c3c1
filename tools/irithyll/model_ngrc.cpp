// `irithyll eval --model ngrc`: next-generation reservoir computing (delay taps
// plus degree-p monomials) with RLS readouts (one per class for classification).
#include "irithyll/nn/reservoir/ngrc.hpp"
#include "model_factory.hpp"

namespace irithyll::cli {
namespace {

void declare(ArgParser& p) {
  p.option("ngrc-k", "K", "ngrc: number of delay taps", "2");
  p.option("ngrc-s", "S", "ngrc: spacing between taps in samples", "1");
  p.option("ngrc-degree", "P", "ngrc: monomial degree, 0 (linear only) or 2..4", "2");
  p.option("ngrc-rls-lambda", "L", "ngrc: RLS forgetting factor in (0, 1]", "0.9999");
  p.option("ngrc-rls-delta", "D", "ngrc: RLS initial P = delta I", "100");
}

Result<std::unique_ptr<Learner>> make(const ArgParser& args, const ModelContext& ctx) {
  nn::NgrcLearnerConfig c;
  c.task = ctx.task;
  c.n_classes = ctx.n_classes;
  c.n_features = ctx.n_features;
  auto k = args.get_int("ngrc-k");
  auto s = args.get_int("ngrc-s");
  auto degree = args.get_int("ngrc-degree");
  auto lambda = args.get_double("ngrc-rls-lambda");
  auto delta = args.get_double("ngrc-rls-delta");
  for (const Status* st : {&k.status(), &s.status(), &degree.status(), &lambda.status(), &delta.status()})
    if (!st->is_ok()) return *st;
  if (*k < 1 || *s < 1 || *degree < 0) return Status::invalid_argument("ngrc: --ngrc-k and --ngrc-s must be >= 1, degree >= 0");
  c.k = static_cast<std::size_t>(*k);
  c.s = static_cast<std::size_t>(*s);
  c.degree = static_cast<std::size_t>(*degree);
  c.rls = RlsConfig{*lambda, *delta};
  auto m = nn::NextGenReservoir::make(c);
  if (!m.is_ok()) return m.status();
  return std::unique_ptr<Learner>(std::move(m).value());
}

const ModelRegistration kRegistration({"ngrc", "next-generation reservoir (NVAR features) with an RLS readout", &declare, &make});

}  // namespace
}  // namespace irithyll::cli
