// `irithyll inspect FILE`: tells a packed model, a checkpoint and anything
// else apart by the first four bytes, then describes it. A packed model:
// format, trees, nodes, depth histogram, features used, bytes, after
// validating it. A checkpoint: learner, task, classes, features, samples
// seen, memory, the stored column names, and for tree models the tree count
// and feature importances (--json: the same as one object; --tree N [--dot]:
// one tree), and for SGBT the ensemble diagnostics (per committee and per
// tree), and for tunable models (SGBT, the SGD linear models) the five
// tuning signals (`irithyll adjust` moves the settings they inform).
// Anything else: says it is neither.
// A file the reader refuses prints the reason and exits 1.
#include <algorithm>
#include <cstdio>
#include <map>
#include <string>

#include "args.hpp"
#include "command.hpp"
#include "core/file_io.hpp"
#include "diagnostics_report.hpp"
#include "importance_report.hpp"
#include "irithyll/eval/report.hpp"
#include "irithyll/model_file.hpp"
#include "irithyll/packed/class_bundle.hpp"
#include "irithyll/packed/packed_model.hpp"
#include "irithyll/tree_model.hpp"

namespace irithyll::cli {
namespace {

std::string joined(const std::vector<std::string>& names) {
  std::string out;
  for (const std::string& n : names) out += (out.empty() ? "" : ",") + n;
  return out;
}

// What `inspect` was asked to show of a checkpoint beyond its summary.
struct CheckpointView {
  bool json = false;
  std::int64_t tree = -1;  // >= 0: dump that tree instead of the summary
  TreeDumpFormat format = TreeDumpFormat::kText;
};

int dump_one_tree(const std::string& path, const Learner& l, const Schema& schema, const CheckpointView& view) {
  const auto* trees = dynamic_cast<const TreeModel*>(&l);
  if (trees == nullptr)
    return fail(Status::invalid_argument(path + ": --tree: learner '" + std::string(l.name()) + "' has no trees"));
  const std::size_t n = trees->n_dump_trees();
  if (static_cast<std::uint64_t>(view.tree) >= n)
    return fail(Status::invalid_argument(path + ": --tree " + std::to_string(view.tree) + ": the model has " +
                                     std::to_string(n) + " trees (0.." + (n == 0 ? "none" : std::to_string(n - 1)) +
                                     ")"));
  const std::size_t i = static_cast<std::size_t>(view.tree);
  const std::string body = trees->dump_tree(i, view.format, schema.feature_names, schema.category_values);
  if (view.format == TreeDumpFormat::kDot) {
    std::fputs(body.c_str(), stdout);
  } else {
    std::printf("tree %zu of %zu (%s):\n%s", i, n, trees->tree_label(i).c_str(), body.c_str());
  }
  return 0;
}

int inspect_checkpoint(const std::string& path, const CheckpointView& view) {
  Schema schema;
  auto learner = load_learner(path, &schema);
  if (!learner) return fail(learner.status());
  const Learner& l = **learner;
  if (view.tree >= 0) return dump_one_tree(path, l, schema, view);
  const auto* trees = dynamic_cast<const TreeModel*>(&l);
  const bool cls = l.task() == Task::kClassification;
  if (view.json) {
    std::string j = "{\"file\":" + json_quote(path) + ",\"kind\":\"checkpoint\",\"version\":" +
                    std::to_string(kCheckpointVersion) + ",\"learner\":" + json_quote(l.name()) +
                    ",\"task\":\"" + (cls ? "classification" : "regression") + "\"";
    if (cls) j += ",\"classes\":" + std::to_string(l.n_classes());
    j += ",\"n_features\":" + std::to_string(l.n_features()) +
         ",\"samples_seen\":" + std::to_string(l.n_samples_seen()) +
         ",\"memory_bytes\":" + std::to_string(l.memory_bytes());
    if (!schema.feature_names.empty()) {
      j += ",\"features\":[";
      for (std::size_t f = 0; f < schema.feature_names.size(); ++f)
        j += (f > 0 ? "," : "") + json_quote(schema.feature_names[f]);
      j += "],\"target\":" + json_quote(schema.target_name);
      if (!schema.class_names.empty()) {
        j += ",\"class_names\":[";
        for (std::size_t c = 0; c < schema.class_names.size(); ++c)
          j += (c > 0 ? "," : "") + json_quote(schema.class_names[c]);
        j += "]";
      }
    }
    if (trees != nullptr) j += ",\"trees\":" + std::to_string(trees->n_dump_trees());
    if (const std::string imp = importance_json(l, schema); !imp.empty()) j += ",\"feature_importances\":" + imp;
    if (const std::string d = diagnostics_json(l); !d.empty()) j += ",\"diagnostics\":" + d;
    if (const std::string t = tuning_signals_json(l); !t.empty()) j += ",\"tuning_signals\":" + t;
    std::printf("%s}\n", j.c_str());
    return 0;
  }
  std::printf("file: %s\n", path.c_str());
  std::printf("kind: checkpoint (IRCK, version %u): the complete training state\n", kCheckpointVersion);
  std::printf("learner: %.*s\n", static_cast<int>(l.name().size()), l.name().data());
  std::printf("task: %s\n", cls ? "classification" : "regression");
  if (cls) std::printf("classes: %zu\n", l.n_classes());
  std::printf("n_features: %zu\n", l.n_features());
  std::printf("samples seen: %llu\n", static_cast<unsigned long long>(l.n_samples_seen()));
  std::printf("memory: %zu bytes\n", l.memory_bytes());
  if (schema.feature_names.empty()) {
    std::printf("columns: not stored (features are taken by position)\n");
  } else {
    std::printf("features: %s\n", joined(schema.feature_names).c_str());
    std::printf("target: %s\n", schema.target_name.c_str());
    if (!schema.class_names.empty()) std::printf("class names: %s\n", joined(schema.class_names).c_str());
  }
  if (trees != nullptr)
    std::printf("trees: %zu (show one with --tree N, as Graphviz with --dot)\n", trees->n_dump_trees());
  std::fputs(importance_table(l, schema).c_str(), stdout);
  std::fputs(tuning_signals_text(l).c_str(), stdout);
  std::fputs(diagnostics_text(l).c_str(), stdout);
  return 0;
}

int run_inspect(std::span<char* const> argv) {
  ArgParser args("irithyll inspect FILE", "Tells a packed model from a checkpoint, validates it and describes it.");
  args.positional("FILE", "packed model (f32 \"IRIT\" or int16 \"IR16\") or checkpoint (\"IRCK\")");
  args.flag("json", "checkpoint: the description as one JSON object (importances and SGBT diagnostics included)");
  args.option("tree", "N", "checkpoint: print tree N (0-based; the summary says how many) instead of the summary");
  args.flag("dot", "with --tree: Graphviz dot instead of the indented outline");
  if (Status s = args.parse(argv); !s) return fail(s);
  if (args.help_requested()) {
    std::fputs(args.help().c_str(), stdout);
    return 0;
  }
  CheckpointView view;
  view.json = args.given("json");
  if (args.given("tree")) {
    auto t = args.get_int("tree");
    if (!t) return fail(t.status());
    if (*t < 0) return fail(Status::invalid_argument("--tree " + std::to_string(*t) + ": must be >= 0"));
    view.tree = *t;
  }
  if (args.given("dot")) {
    if (view.tree < 0) return fail(Status::invalid_argument("--dot needs --tree N"));
    view.format = TreeDumpFormat::kDot;
  }
  if (view.json && view.tree >= 0) return fail(Status::invalid_argument("--json and --tree are exclusive"));
  if (args.positionals().size() != 1) return fail(Status::invalid_argument("inspect takes one FILE"));
  const std::string& path = args.positionals()[0];
  auto bytes = read_file_bytes(path);
  if (!bytes) return fail(bytes.status());
  const std::string magic(bytes->begin(), bytes->begin() + static_cast<std::ptrdiff_t>(std::min<std::size_t>(4, bytes->size())));
  if (magic == "IRCK") return inspect_checkpoint(path, view);
  if (view.json || view.tree >= 0)
    return fail(Status::invalid_argument(path + ": --json and --tree apply to checkpoints (\"IRCK\"), not packed models"));
  if (magic == "IRMC") {
    auto bundle = packed::PackedClassBundle::from_bytes(*bytes);
    if (!bundle) return fail(bundle.status().with_context(path));
    std::printf("file: %s\n", path.c_str());
    std::printf("kind: packed multiclass bundle (IRMC, version 1; inference only)\n");
    std::printf("classes: %zu, format %s, bytes %zu\n", bundle->n_classes(),
                bundle->format() == packed::PackedFormat::kF32 ? "f32 (IRIT)" : "int16 (IR16)", bytes->size());
    std::printf("n_features: %zu read by predict\n", bundle->required_features());
    for (std::size_t c = 0; c < bundle->n_classes(); ++c) {
      const packed::ViewInfo& info = bundle->member(c).info();
      std::printf("class %zu: %u trees, %u nodes, max depth %u, base %.9g\n", c, info.n_trees, info.total_nodes,
                  info.max_depth, static_cast<double>(info.base_prediction));
    }
    return 0;
  }
  if (magic != "IRIT" && magic != "IR16")
    return fail(Status::invalid_argument(path + ": neither a packed model (\"IRIT\"/\"IR16\"/\"IRMC\") nor a checkpoint " +
                                         "(\"IRCK\"): not an irithyll model file"));

  auto model = packed::PackedModel::load(path);
  if (!model) return fail(model.status());
  const packed::PackedModel& m = *model;
  const packed::ViewInfo& info = m.info();
  const bool f32 = m.format() == packed::PackedFormat::kF32;
  std::printf("file: %s\n", path.c_str());
  std::printf("kind: packed model (inference only)\n");
  std::printf("format: %s, version 1\n", f32 ? "f32 (IRIT)" : "int16 (IR16)");
  std::printf("bytes: %zu (node area %zu, %u B per node)\n", m.bytes().size(),
              static_cast<std::size_t>(info.total_nodes) * (f32 ? 12u : 8u), f32 ? 12u : 8u);
  std::printf("trees: %u\n", info.n_trees);
  const std::uint32_t internal = [&] {
    std::uint32_t s = 0;
    for (std::uint32_t c : m.split_counts()) s += c;
    return s;
  }();
  std::printf("nodes: %u (%u splits, %u leaves), largest tree %u\n", info.total_nodes, internal,
              info.total_nodes - internal, info.largest_tree);
  std::printf("base_prediction: %.9g\n", static_cast<double>(info.base_prediction));
  std::printf("n_features: %u in header, %u read by predict\n", info.n_features, info.required_features);
  std::map<std::uint32_t, std::uint32_t> hist;
  for (std::uint32_t d : m.tree_depths()) ++hist[d];
  std::printf("depth histogram (depth: trees):");
  for (const auto& [d, c] : hist) std::printf(" %u:%u", d, c);
  std::printf("\nmax depth: %u\n", info.max_depth);
  const auto counts = m.split_counts();
  std::uint32_t used = 0;
  for (std::uint32_t c : counts) used += c > 0;
  std::printf("features used: %u of %zu (feature: splits):", used, counts.size());
  for (std::size_t f = 0; f < counts.size(); ++f)
    if (counts[f] > 0) std::printf(" %zu:%u", f, counts[f]);
  std::printf("\n");
  if (!f32) {
    std::printf("leaf_scale: %.9g\n", static_cast<double>(m.i16_view().leaf_scale()));
    std::printf("feature_scales:");
    for (std::uint32_t f = 0; f < info.n_features; ++f)
      std::printf(" %.9g", static_cast<double>(m.i16_view().feature_scale(f)));
    std::printf("\n");
  }
  return 0;
}

const CommandRegistration kInspectCommand("inspect", "validate and describe a packed model or a checkpoint",
                                        &run_inspect);

}  // namespace
}  // namespace irithyll::cli
