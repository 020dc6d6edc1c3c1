// `irithyll inspect FILE.bin`: describes a packed model (format, trees,
// nodes, depth histogram, features used, bytes) after validating it; a file
// the reader refuses prints the reason and exits 1.
#include <cstdio>
#include <map>
#include <string>

#include "args.hpp"
#include "command.hpp"
#include "irithyll/packed/packed_model.hpp"

namespace irithyll::cli {
namespace {

int run_inspect(std::span<char* const> argv) {
  ArgParser args("irithyll inspect FILE.bin", "Validates a packed model and describes it.");
  args.positional("FILE.bin", "packed model (f32 \"IRIT\" or int16 \"IR16\")");
  if (Status s = args.parse(argv); !s) return fail(s);
  if (args.help_requested()) {
    std::fputs(args.help().c_str(), stdout);
    return 0;
  }
  if (args.positionals().size() != 1) return fail(Status::invalid_argument("inspect takes one FILE.bin"));
  const std::string& path = args.positionals()[0];
  auto model = packed::PackedModel::load(path);
  if (!model) return fail(model.status());
  const packed::PackedModel& m = *model;
  const packed::ViewInfo& info = m.info();
  const bool f32 = m.format() == packed::PackedFormat::kF32;
  std::printf("file: %s\n", path.c_str());
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

const CommandRegistration kRegistration("inspect", "validate and describe a packed model", &run_inspect);

}  // namespace
}  // namespace irithyll::cli
