// `irithyll export`: writes a trained SGBT checkpoint as ONE packed model,
// f32 ("IRIT") or int16 ("IR16"). One committee (regression, binary) gives a
// plain version-1 file. A K-class model has K committees: they go into one
// multiclass bundle ("IRMC", include/irithyll/packed/class_bundle.hpp) that
// carries the class count and one version-1 file per class. The written path
// is printed on stdout.
#include <cstdio>
#include <string>
#include <vector>

#include "args.hpp"
#include "command.hpp"
#include "core/file_io.hpp"
#include "irithyll/ensemble/sgbt_learner.hpp"
#include "irithyll/model_file.hpp"
#include "irithyll/packed/class_bundle.hpp"
#include "irithyll/packed/exporter.hpp"

namespace irithyll::cli {
namespace {

ArgParser make_parser() {
  ArgParser p("irithyll export --checkpoint FILE --format f32|i16 --out FILE.bin",
              "Exports a trained SGBT checkpoint to one packed model (multiclass: one bundle with every class).");
  p.option("checkpoint", "FILE", "checkpoint holding an SGBT learner")
      .option("format", "f32|i16", "packed format", "f32")
      .option("out", "FILE.bin", "output path");
  return p;
}

int run_export(std::span<char* const> argv) {
  ArgParser args = make_parser();
  if (Status s = args.parse(argv); !s) return fail(s);
  if (args.help_requested()) {
    std::fputs(args.help().c_str(), stdout);
    return 0;
  }
  if (!args.given("checkpoint")) return fail(Status::invalid_argument("--checkpoint FILE is required"));
  if (!args.given("out")) return fail(Status::invalid_argument("--out FILE.bin is required"));
  const std::string format = args.get("format");
  if (format != "f32" && format != "i16")
    return fail(Status::invalid_argument("--format must be f32 or i16, got '" + format + "'"));
  auto learner = load_learner(args.get("checkpoint"));
  if (!learner) return fail(learner.status());
  const auto* sgbt = dynamic_cast<const SGBTLearner*>(learner->get());
  if (sgbt == nullptr)
    return fail(Status::invalid_argument("export: the checkpoint holds a '" + std::string((*learner)->name()) +
                                         "' learner; only sgbt can be packed"));
  std::vector<std::vector<std::uint8_t>> members;
  for (std::size_t k = 0; k < sgbt->n_committees(); ++k) {
    const ExportModel em = sgbt->export_model(k);
    auto bytes = format == "f32" ? packed::export_f32(em) : packed::export_i16(em);
    if (!bytes) return fail(bytes.status().with_context(sgbt->n_committees() > 1 ? "class " + std::to_string(k) : ""));
    members.push_back(std::move(bytes).value());
  }
  std::vector<std::uint8_t> file;
  if (members.size() == 1) {
    file = std::move(members.front());
  } else {
    auto bundle = packed::pack_class_bundle(members);
    if (!bundle) return fail(bundle.status());
    file = std::move(bundle).value();
  }
  if (Status s = write_file_atomic(args.get("out"), file); !s) return fail(s);
  std::printf("%s\n", args.get("out").c_str());
  return 0;
}

const CommandRegistration kRegistration("export", "export an SGBT checkpoint to a packed f32/int16 model", &run_export);

}  // namespace
}  // namespace irithyll::cli
