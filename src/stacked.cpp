#include "irithyll/stacked.hpp"

#include <array>

#include "core/field_rows.hpp"
#include "irithyll/model_file.hpp"

namespace irithyll {

namespace {

constexpr std::uint32_t kStateVersion = 1;
constexpr std::size_t kMaxBases = 16;

using C = StackedConfig;
using Row = ConfigField<C>;
Status set_text(std::string& field, std::string_view v) {
  field = std::string(v);
  return Status::ok();
}
const std::array kFields = {
    Row{FieldInfo::text("bases", "sgbt,arf,hoeffding_tree", "base models: catalogue names, each with optional (key=value;...) settings"),
        [](C& c, std::string_view v) { return set_text(c.bases, v); }, [](const C& c) { return c.bases; }},
    Row{FieldInfo::text("meta", "sgbt(n-steps=20;learning-rate=0.1;grace-period=50)",
                        "meta model: a catalogue name with optional (key=value;...) settings"),
        [](C& c, std::string_view v) { return set_text(c.meta, v); }, [](const C& c) { return c.meta; }},
    Row{FieldInfo::boolean("passthrough", "off", "the meta model also sees the raw features"),
        IRITHYLL_FIELD_BOOL(C, passthrough)},
};

std::string_view trim_spaces(std::string_view s) {
  while (!s.empty() && s.front() == ' ') s.remove_prefix(1);
  while (!s.empty() && s.back() == ' ') s.remove_suffix(1);
  return s;
}

}  // namespace

std::span<const ConfigField<StackedConfig>> stacked_config_fields() { return kFields; }

Result<std::vector<ModelSpec>> parse_model_specs(std::string_view text) {
  std::vector<ModelSpec> out;
  std::size_t i = 0;
  while (i <= text.size()) {
    // One spec runs to the next comma outside parentheses.
    std::size_t j = i;
    int depth = 0;
    while (j < text.size() && (depth > 0 || text[j] != ',')) {
      if (text[j] == '(') ++depth;
      if (text[j] == ')') --depth;
      if (depth < 0) return Status::invalid_argument("model list '" + std::string(text) + "': unbalanced ')'");
      ++j;
    }
    if (depth != 0) return Status::invalid_argument("model list '" + std::string(text) + "': unbalanced '('");
    std::string_view spec = trim_spaces(text.substr(i, j - i));
    if (spec.empty()) return Status::invalid_argument("model list '" + std::string(text) + "': empty entry");
    ModelSpec m;
    const std::size_t open = spec.find('(');
    m.name = std::string(trim_spaces(spec.substr(0, open)));
    if (open != std::string_view::npos) {
      if (spec.back() != ')') return Status::invalid_argument("model spec '" + std::string(spec) + "': expected ')' at the end");
      std::string_view inner = spec.substr(open + 1, spec.size() - open - 2);
      while (!inner.empty()) {
        const std::size_t semi = inner.find(';');
        const std::string_view kv = trim_spaces(inner.substr(0, semi));
        const std::size_t eq = kv.find('=');
        if (eq == std::string_view::npos || eq == 0)
          return Status::invalid_argument("model spec '" + std::string(spec) + "': expected key=value, got '" +
                                          std::string(kv) + "'");
        m.settings.set(std::string(trim_spaces(kv.substr(0, eq))), std::string(trim_spaces(kv.substr(eq + 1))));
        if (semi == std::string_view::npos) break;
        inner.remove_prefix(semi + 1);
      }
    }
    out.push_back(std::move(m));
    i = j + 1;
  }
  return out;
}

Result<std::unique_ptr<StackedLearner>> StackedLearner::make(const StackedConfig& config, const LearnerContext& context) {
  auto s = std::make_unique<StackedLearner>();
  s->config_ = config;
  s->context_ = context;
  IRITHYLL_RETURN_IF_ERROR(s->build());
  return s;
}

Status StackedLearner::build() {
  auto bases = parse_model_specs(config_.bases);
  if (!bases) return bases.status().with_context("stacked: bases");
  auto meta = parse_model_specs(config_.meta);
  if (!meta) return meta.status().with_context("stacked: meta");
  if (bases->empty() || bases->size() > kMaxBases)
    return Status::invalid_argument("stacked: bases needs 1.." + std::to_string(kMaxBases) + " models");
  if (meta->size() != 1) return Status::invalid_argument("stacked: meta names exactly one model");
  std::vector<std::unique_ptr<Learner>> made;
  for (std::size_t b = 0; b < bases->size(); ++b) {
    const ModelSpec& spec = (*bases)[b];
    if (spec.name == kName) return Status::invalid_argument("stacked: a stack cannot list 'stacked' as a base");
    LearnerContext ctx = context_;
    ctx.seed = context_.seed + 0x9E3779B97F4A7C15ull * (b + 1);
    auto m = make_learner(spec.name, spec.settings, ctx);
    if (!m) return m.status().with_context("stacked: base " + std::to_string(b));
    made.push_back(std::move(m).value());
  }
  const std::size_t width = made.size() * width_per_base() + (config_.passthrough ? context_.n_features : 0);
  LearnerContext meta_ctx = context_;
  meta_ctx.n_features = (config_.passthrough && context_.n_features == 0) ? 0 : width;
  auto m = make_learner((*meta)[0].name, (*meta)[0].settings, meta_ctx);
  if (!m) return m.status().with_context("stacked: meta");
  bases_ = std::move(made);
  meta_ = std::move(m).value();
  features_.assign(width, 0.0);
  proba_.assign(width_per_base(), 0.0);
  samples_seen_ = 0;
  return Status::ok();
}

std::span<const double> StackedLearner::meta_features(std::span<const double> x) const {
  const std::size_t w = width_per_base();
  const std::size_t need = bases_.size() * w + (config_.passthrough ? x.size() : 0);
  if (features_.size() != need) features_.resize(need);  // passthrough width fixed by the first sample
  for (std::size_t b = 0; b < bases_.size(); ++b) {
    if (context_.task == Task::kClassification) {
      bases_[b]->predict_proba_one(x, proba_);
      for (std::size_t k = 0; k < w; ++k) features_[b * w + k] = proba_[k];
    } else {
      features_[b] = bases_[b]->predict_one(x);
    }
  }
  if (config_.passthrough)
    for (std::size_t i = 0; i < x.size(); ++i) features_[bases_.size() * w + i] = x[i];
  return features_;
}

void StackedLearner::learn_one(std::span<const double> x, double y, double weight) {
  // A sample a base would refuse (wrong width, bad target or weight) is
  // refused whole, so the meta model never learns from half of it.
  if (!sample_admissible(x, y, weight, n_features(), task(), n_classes())) return;
  // Temporal holdout: the meta model learns from predictions the bases made
  // before they saw this target.
  meta_->learn_one(meta_features(x), y, weight);
  for (auto& b : bases_) b->learn_one(x, y, weight);
  ++samples_seen_;
}

double StackedLearner::predict_one(std::span<const double> x) const { return meta_->predict_one(meta_features(x)); }

void StackedLearner::predict_proba_one(std::span<const double> x, std::span<double> proba) const {
  meta_->predict_proba_one(meta_features(x), proba);
}

void StackedLearner::reset() {
  for (auto& b : bases_) b->reset();
  if (meta_) meta_->reset();
  samples_seen_ = 0;
}

std::size_t StackedLearner::memory_bytes() const {
  std::size_t bytes = sizeof(*this) + (features_.capacity() + proba_.capacity()) * sizeof(double);
  for (const auto& b : bases_) bytes += b->memory_bytes();
  return bytes + (meta_ ? meta_->memory_bytes() : 0);
}

void StackedLearner::encode(ByteWriter& out) const {
  out.u32(kStateVersion);
  out.str(config_.bases);
  out.str(config_.meta);
  out.boolean(config_.passthrough);
  out.u8(static_cast<std::uint8_t>(context_.task));
  out.u64(context_.n_classes);
  out.u64(context_.n_features);
  out.u64(context_.seed);
  out.u64(samples_seen_);
  // Each part as its kind's name and state, so it decodes through the catalogue.
  for (const auto& b : bases_) {
    out.str(b->name());
    b->encode(out);
  }
  out.str(meta_->name());
  meta_->encode(out);
}

Status StackedLearner::decode(ByteReader& in) {
  const std::uint32_t version = in.u32("stacked state version");
  if (!in.ok()) return in.status();
  if (version != kStateVersion) return Status::not_supported("stacked state version " + std::to_string(version));
  StackedLearner next;
  next.config_.bases = in.str("stacked bases");
  next.config_.meta = in.str("stacked meta");
  next.config_.passthrough = in.u8("passthrough") != 0;
  const std::uint8_t task = in.u8("task");
  next.context_.n_classes = in.u64("n_classes");
  next.context_.n_features = in.u64("n_features");
  next.context_.seed = in.u64("seed");
  const std::uint64_t seen = in.u64("samples seen");
  if (!in.ok()) return in.status();
  if (task > 1) return Status::corruption("stacked: task " + std::to_string(task));
  next.context_.task = static_cast<Task>(task);
  if (next.context_.task == Task::kClassification && (next.context_.n_classes < 2 || next.context_.n_classes > 1u << 16))
    return Status::corruption("stacked: class count " + std::to_string(next.context_.n_classes));
  if (next.context_.n_features > 1u << 20) return Status::corruption("stacked: feature count out of range");
  // Rebuild the shape from the settings (validates them), then replace each
  // part by its decoded state.
  IRITHYLL_RETURN_IF_ERROR(next.build().with_context("stacked state"));
  auto read_part = [&](std::unique_ptr<Learner>& part, const char* what) -> Status {
    const std::string kind = in.str(what);
    if (!in.ok()) return in.status();
    if (kind != part->name())
      return Status::corruption(std::string("stacked: ") + what + " is '" + kind + "', expected '" +
                                std::string(part->name()) + "'");
    auto fresh = make_blank_learner(kind);
    IRITHYLL_RETURN_IF_ERROR(fresh->decode(in).with_context(std::string("stacked ") + what));
    if (fresh->task() != next.context_.task) return Status::corruption(std::string("stacked: ") + what + " task");
    part = std::move(fresh);
    return Status::ok();
  };
  for (auto& b : next.bases_) IRITHYLL_RETURN_IF_ERROR(read_part(b, "base"));
  IRITHYLL_RETURN_IF_ERROR(read_part(next.meta_, "meta"));
  next.samples_seen_ = seen;
  *this = std::move(next);
  return Status::ok();
}

}  // namespace irithyll
