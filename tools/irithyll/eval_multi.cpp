#include "eval_multi.hpp"

#include <cmath>
#include <cstdio>
#include <fstream>

#include "irithyll/eval/multi_prequential.hpp"
#include "irithyll/eval/report.hpp"
#include "irithyll/model_file.hpp"
#include "irithyll/stream/table_stream.hpp"

namespace irithyll::cli {

int run_multi_target_eval(const ArgParser& args, Learner& learner, Stream& stream, const PrequentialOptions& options,
                          const std::string& source, PrequentialObserver* progress) {
  const Schema& schema = stream.schema();
  // --predictions: one line per row, one column per target in --target order.
  std::ofstream predictions;
  std::string line;
  bool write_failed = false;
  MultiPredictionCallback on_prediction;
  if (args.given("predictions")) {
    predictions.open(args.get("predictions"));
    if (!predictions) return fail(Status::io_error(args.get("predictions") + ": cannot open for writing"));
    on_prediction = [&](std::uint64_t, std::span<const double>, std::span<const double> pred) {
      line.clear();
      for (std::size_t k = 0; k < pred.size(); ++k) {
        if (k > 0) line += ',';
        line += std::isfinite(pred[k]) ? json_number(pred[k]) : std::string("nan");
      }
      line += '\n';
      predictions << line;
      write_failed = write_failed || !predictions;
    };
  }
  auto report = run_prequential_multi_target(learner, stream, options, on_prediction, progress);
  if (!report) {
    Status st = report.status();
    if (const auto* table = dynamic_cast<const TableStream*>(&stream);
        table != nullptr && st.message().rfind(source, 0) != 0)
      st = st.with_context(source + (table->current_line() > 0 ? ":" + std::to_string(table->current_line()) : ""));
    return fail(st);
  }
  if (predictions.is_open()) predictions.flush();
  if (write_failed || (predictions.is_open() && !predictions))
    return fail(Status::io_error(args.get("predictions") + ": write failed"));
  if (args.given("save")) {
    if (Status s = save_learner(args.get("save"), learner, &schema); !s) return fail(s);
  }
  if (args.given("json")) {
    std::printf("%s\n", multi_report_to_json(*report).c_str());
    return 0;
  }
  std::printf("model        %s\n", report->learner.c_str());
  std::printf("stream       %s (%zu features, regression, %zu targets)\n", source.c_str(), schema.n_features(),
              report->targets.size());
  std::printf("samples      %llu\n", static_cast<unsigned long long>(report->samples));
  if (report->unlabelled > 0) std::printf("unlabelled   %llu\n", static_cast<unsigned long long>(report->unlabelled));
  std::printf("%-16s %12s %12s %10s\n", "target", "mae", "rmse", "r2");
  for (std::size_t k = 0; k < report->targets.size(); ++k)
    std::printf("%-16s %12.6g %12.6g %10.4f\n", report->targets[k].c_str(), report->metrics[k].mae,
                report->metrics[k].rmse, report->metrics[k].r2);
  std::printf("seconds      %.3f\n", report->seconds);
  std::printf("samples/s    %.0f\n", report->samples_per_second);
  std::printf("model bytes  %zu\n", report->model_bytes);
  return 0;
}

}  // namespace irithyll::cli
