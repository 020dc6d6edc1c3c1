// `irithyll export`: writes a trained checkpoint of any learner with the
// Exportable capability (SGBT) as ONE packed model, f32 ("IRIT") or int16
// ("IR16"), through packed::export_packed: a plain version-1 file for one
// ensemble, a multiclass bundle ("IRMC") for K classes. The written path is
// printed on stdout. When the checkpoint stores its training columns (eval
// --save does), the file carries the metadata trailer (feature, target and
// class names, the task) so `predict --model` maps columns by name.
#include <cstdio>
#include <string>
#include <vector>

#include "args.hpp"
#include "command.hpp"
#include "output_paths.hpp"
#include "core/file_io.hpp"
#include "irithyll/model_file.hpp"
#include "irithyll/packed/exportable.hpp"
#include "irithyll/packed/metadata.hpp"

namespace irithyll::cli {
namespace {

ArgParser make_export_parser() {
  ArgParser p("irithyll export --checkpoint FILE --format f32|i16 --out FILE.bin",
              "Exports a trained SGBT checkpoint to one packed model (multiclass: one bundle with every class).");
  p.option("checkpoint", "FILE", "checkpoint holding an SGBT learner")
      .option("format", "f32|i16", "packed format", "f32")
      .option("out", "FILE.bin", "output path");
  return p;
}

int run_export(std::span<char* const> argv) {
  ArgParser args = make_export_parser();
  if (Status s = args.parse(argv); !s) return fail(s);
  if (args.help_requested()) {
    std::fputs(args.help().c_str(), stdout);
    return 0;
  }
  if (Status s = check_output_paths(args, {"out"}); !s) return fail(s);
  if (!args.given("checkpoint")) return fail(Status::invalid_argument("--checkpoint FILE is required"));
  if (!args.given("out")) return fail(Status::invalid_argument("--out FILE.bin is required"));
  const std::string format = args.get("format");
  if (format != "f32" && format != "i16")
    return fail(Status::invalid_argument("--format must be f32 or i16, got '" + format + "'"));
  Schema schema;
  auto learner = load_learner(args.get("checkpoint"), &schema);
  if (!learner) return fail(learner.status());
  const auto* exportable = dynamic_cast<const Exportable*>(learner->get());
  if (exportable == nullptr)
    return fail(Status::invalid_argument("export: the checkpoint holds a '" + std::string((*learner)->name()) +
                                         "' learner, which has no packed form (sgbt has)"));
  packed::PackedMetadata meta;
  meta.classification = (*learner)->task() == Task::kClassification;
  meta.feature_names = schema.feature_names;
  meta.target_name = schema.target_name;
  if (meta.classification) {
    meta.class_names = schema.class_names;
    if (meta.class_names.size() != (*learner)->n_classes()) {  // none stored: the ids are the names
      meta.class_names.clear();
      for (std::size_t c = 0; c < (*learner)->n_classes(); ++c) meta.class_names.push_back(std::to_string(c));
    }
  }
  // Names that disagree with the model's width would map the wrong columns:
  // such a file keeps positional reading.
  if (meta.feature_names.size() != (*learner)->n_features()) meta.feature_names.clear();
  auto file = packed::export_packed(*exportable, format == "f32" ? packed::PackedFormat::kF32 : packed::PackedFormat::kI16,
                                    &meta);
  if (!file) return fail(file.status());
  if (Status s = write_file_atomic(args.get("out"), *file); !s) return fail(s);
  std::printf("%s\n", args.get("out").c_str());
  return 0;
}

const CommandRegistration kExportCommand("export", "export an SGBT checkpoint to a packed f32/int16 model", &run_export);

}  // namespace
}  // namespace irithyll::cli
