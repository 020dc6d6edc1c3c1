// `irithyll export`: writes a trained SGBT checkpoint as a packed model,
// f32 ("IRIT") or int16 ("IR16"). One committee (regression, binary) gives
// one file at --out. A K-class model has K committees, and the version-1
// formats hold one ensemble, so it writes one file per class,
// FILE.class<k>.bin (k = 0..K-1, --out FILE.bin); the class scores are the K
// files' raw outputs (softmax them for probabilities). Each written path is
// printed on stdout.
#include <cstdio>
#include <string>

#include "args.hpp"
#include "command.hpp"
#include "irithyll/core/file_io.hpp"
#include "irithyll/ensemble/sgbt_learner.hpp"
#include "irithyll/model_file.hpp"
#include "irithyll/packed/exporter.hpp"

namespace irithyll::cli {
namespace {

ArgParser make_parser() {
  ArgParser p("irithyll export --checkpoint FILE --format f32|i16 --out FILE.bin",
              "Exports a trained SGBT checkpoint to a packed model (multiclass: FILE.class<k>.bin per class).");
  p.option("checkpoint", "FILE", "checkpoint holding an SGBT learner")
      .option("format", "f32|i16", "packed format", "f32")
      .option("out", "FILE.bin", "output path");
  return p;
}

std::string class_path(const std::string& out, std::size_t k) {
  const std::string suffix = ".class" + std::to_string(k);
  const std::size_t slash = out.find_last_of('/');
  const std::size_t dot = out.find_last_of('.');
  if (dot == std::string::npos || (slash != std::string::npos && dot < slash)) return out + suffix + ".bin";
  return out.substr(0, dot) + suffix + out.substr(dot);
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
  const std::size_t k_max = sgbt->n_committees();
  for (std::size_t k = 0; k < k_max; ++k) {
    const ExportModel em = sgbt->export_model(k);
    auto bytes = format == "f32" ? packed::export_f32(em) : packed::export_i16(em);
    if (!bytes) return fail(bytes.status());
    const std::string path = k_max == 1 ? args.get("out") : class_path(args.get("out"), k);
    if (Status s = write_file_atomic(path, *bytes); !s) return fail(s);
    std::printf("%s\n", path.c_str());
  }
  return 0;
}

const CommandRegistration kRegistration("export", "export an SGBT checkpoint to a packed f32/int16 model", &run_export);

}  // namespace
}  // namespace irithyll::cli
