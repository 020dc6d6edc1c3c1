// `irithyll serve`: a long-running worker over Redis Streams (or Kafka topics,
// --log kafka, with leases and checkpoints still in Redis). It owns
// partitions through leases, keeps one model per key, publishes a prediction
// for every sample and learns every label exactly once (see
// src/serve/worker.hpp and docs/serve.md). Prints one JSON line
// of metrics every --metrics-ms; on SIGTERM or SIGINT it writes a final
// checkpoint, releases its leases and exits 0. With --task anomaly the model
// is an anomaly detector (`--model half_space_trees`): every sample is
// scored, its score published as the prediction, then learned.
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <random>
#include <string>
#include <thread>

#include "args.hpp"
#include "command.hpp"
#include "eval_anomaly.hpp"
#include "irithyll/anomaly/registry.hpp"
#include "irithyll/pipeline_spec.hpp"
#include "serve/kafka_log.hpp"
#include "serve/redis_log.hpp"
#include "serve/worker.hpp"
#include "model_options.hpp"

namespace irithyll::cli {
namespace {

volatile std::sig_atomic_t g_stop = 0;
extern "C" void on_stop_signal(int) { g_stop = 1; }

ArgParser make_serve_parser(const CatalogueEntry* model, const AnomalyEntry* detector, bool anomaly) {
  ArgParser p("irithyll serve --features N [--task T --classes K] [--redis HOST:PORT] [--log kafka --brokers B] "
              "[--model NAME] [options]",
              "Serves one model per key from Redis Streams or Kafka: predicts every sample, learns every label "
              "exactly once.");
  p.option("log", "redis|kafka", "where samples come from and predictions go; leases and checkpoints stay in "
                                 "Redis either way", "redis")
      .option("brokers", "HOST:PORT,...", "Kafka bootstrap servers (--log kafka): topics <prefix>.in and "
                                          "<prefix>.out with P partitions, <prefix>.dead")
      .option("kafka-timeout-ms", "MS", "Kafka connect, commit and flush limit (--log kafka)", "5000")
      .option("redis", "HOST:PORT", "Redis server", "127.0.0.1:6379")
      .option("prefix", "NAME", "stream and key prefix ({<prefix>:<p>}:in, :out, :lease, :ckpt; <prefix>:dead)",
              "irithyll")
      .option("partitions", "P", "partition count; must match the producers", "8")
      .option("max-partitions", "N", "most partitions this worker owns (0 = all it can take)", "0")
      .option("features", "N", "features per sample (messages with another count are dead letters)")
      .option("task", "TASK", "classification|regression|anomaly (anomaly: score every sample, publish the score, learn "
                              "it; no labels)", "regression")
      .option("classes", "K", "class count for classification (labels 0..K-1)", "0")
      .option("model", "NAME",
              "model: " + listed_model_names() + "; or a pipeline T1|T2|LEARNER of transformers and a learner; " +
                  "with --task anomaly: " + anomaly_detector_names() + " (--model NAME --help lists its options)",
              anomaly ? "half_space_trees" : "sgbt")
      .option("seed", "N", "seed of every key's model", "42")
      .option("max-keys", "N", "models held in memory per partition; least recently used are evicted", "10000")
      .option("batch", "N", "entries per read (XREADGROUP COUNT)", "500")
      .option("checkpoint-ms", "MS", "commit a partition's checkpoint (label window, acks, keys due) every MS", "1000")
      .option("key-checkpoint-ms", "MS", "rewrite a changed key's model about every MS (each key at its own phase; "
                                         "0 = at every commit); a crash replays at most this much", "10000")
      .option("checkpoint-entries", "N", "write every changed key once N entries await acknowledgement", "1000000")
      .option("lease-ms", "MS", "partition lease time to live (renewed every MS/3); a dead worker's partitions "
                                "move after this long", "10000")
      .option("label-window", "N", "unlabelled samples per partition kept for a later label message", "10000")
      .option("metrics-ms", "MS", "milliseconds between JSON metrics lines on stdout (0 = none)", "5000")
      .option("idle-exit-ms", "MS", "exit (after a final checkpoint) once idle this long (0 = never)", "0")
      .option("token", "TEXT",
              "prefix of this worker's lease token (default: host, pid and a random number); a random "
              "suffix is always added, so two workers never share one");
  if (model != nullptr) declare_model_options(p, *model);
  if (detector != nullptr)
    for (const FieldInfo& f : detector->fields())
      p.option(std::string(f.name), "V", std::string(detector->name) + ": " + std::string(f.help) + "; " + f.range_text(),
               std::string(f.default_value));
  return p;
}

Result<std::uint64_t> count_option(const ArgParser& args, const std::string& name, std::uint64_t min) {
  auto v = args.get_int(name);
  if (!v) return v.status();
  if (*v < static_cast<std::int64_t>(min))
    return Status::invalid_argument("--" + name + " must be >= " + std::to_string(min));
  return static_cast<std::uint64_t>(*v);
}

std::string default_token() {
  char host[64] = {0};
  if (::gethostname(host, sizeof host - 1) != 0) host[0] = '\0';
  std::random_device rd;
  return std::string(host) + "-" + std::to_string(::getpid()) + "-" + std::to_string(rd());
}

int run_serve(std::span<char* const> argv) {
  const bool anomaly = wants_anomaly_task(argv);
  const std::string model_name = model_from_argv(argv, anomaly ? "half_space_trees" : "sgbt");
  // A pipeline ("standard_scaler|linear_regression") takes its learner's options.
  const CatalogueEntry* model = anomaly ? nullptr : find_model(learner_of_model(model_name));
  if (model != nullptr && !model->listed) model = nullptr;
  const AnomalyEntry* detector = anomaly ? find_anomaly_detector(model_name) : nullptr;
  ArgParser args = make_serve_parser(model, detector, anomaly);
  if (Status s = args.parse(argv); !s) return fail(s);
  if (args.help_requested()) {
    std::fputs(args.help().c_str(), stdout);
    return 0;
  }
  if (anomaly && detector == nullptr)
    return fail(Status::invalid_argument("unknown anomaly detector '" + model_name + "' (anomaly detectors: " +
                                         anomaly_detector_names() + ")"));
  if (!anomaly && model == nullptr)
    return fail(Status::invalid_argument("unknown model '" + model_name + "' (models: " + listed_model_names() + ")"));
  if (!args.given("features")) return fail(Status::invalid_argument("--features N is required"));

  serve::WorkerConfig config;
  config.names.prefix = args.get("prefix");
  config.anomaly = anomaly;
  if (anomaly) {
    config.model = std::string(detector->name);
    for (const FieldInfo& f : detector->fields())
      if (args.given(std::string(f.name))) config.settings.set(std::string(f.name), args.get(std::string(f.name)));
  } else {
    if (is_pipeline_spec(model_name))
      if (auto steps = parse_pipeline_spec(model_name); !steps) return fail(steps.status());
    config.model = is_pipeline_spec(model_name) ? model_name : std::string(model->name);
    config.settings = given_model_settings(args, *model);
  }
  const std::string task = args.get("task");
  if (task != "classification" && task != "regression" && task != "anomaly")
    return fail(Status::invalid_argument("--task must be classification, regression or anomaly, got '" + task + "'"));
  config.context.task = task == "classification" ? Task::kClassification : Task::kRegression;
  struct Spec {
    const char* name;
    std::uint64_t min;
    std::uint64_t value = 0;
  };
  Spec specs[] = {{"partitions", 1}, {"max-partitions", 0}, {"features", 1}, {"classes", 0},
                  {"seed", 0}, {"max-keys", 1}, {"batch", 1}, {"checkpoint-entries", 1},
                  {"checkpoint-ms", 0}, {"key-checkpoint-ms", 0}, {"lease-ms", 30}, {"label-window", 0}, {"metrics-ms", 0},
                  {"idle-exit-ms", 0}};
  for (Spec& s : specs) {
    auto v = count_option(args, s.name, s.min);
    if (!v) return fail(v.status());
    s.value = *v;
  }
  auto value = [&](std::string_view name) {
    for (const Spec& s : specs)
      if (name == s.name) return s.value;
    return std::uint64_t{0};
  };
  config.partitions = static_cast<std::uint32_t>(value("partitions"));
  config.max_partitions = static_cast<std::uint32_t>(value("max-partitions"));
  config.context.n_features = value("features");
  config.context.n_classes = value("classes");
  config.context.seed = value("seed");
  config.max_keys = value("max-keys");
  config.batch = value("batch");
  config.checkpoint_entries = value("checkpoint-entries");
  config.checkpoint_ms = static_cast<int>(value("checkpoint-ms"));
  config.key_checkpoint_ms = static_cast<int>(value("key-checkpoint-ms"));
  config.lease_ms = static_cast<int>(value("lease-ms"));
  config.label_window = value("label-window");
  config.token = args.given("token") ? args.get("token") : default_token();
  const auto metrics_ms = value("metrics-ms");
  const auto idle_exit_ms = value("idle-exit-ms");

  // The workers build a pipeline per key once connected; building one here
  // first reports a bad step or setting before any connection is made.
  if (!anomaly && is_pipeline_spec(config.model))
    if (auto probe = make_pipeline(config.model, config.settings, config.context, {}); !probe) return fail(probe.status());

  const std::string log_kind = args.get("log");
  if (log_kind != "redis" && log_kind != "kafka")
    return fail(Status::invalid_argument("--log must be redis or kafka, got '" + log_kind + "'"));
  if (log_kind == "kafka" && !args.given("brokers"))
    return fail(Status::invalid_argument("--log kafka needs --brokers HOST:PORT"));
  auto redis = serve::connect_redis(args.get("redis"));
  if (!redis) return fail(redis.status());
  Result<std::unique_ptr<serve::Log>> log = std::move(redis);
  if (log_kind == "kafka") {
    serve::KafkaOptions kafka;
    kafka.brokers = args.get("brokers");
    auto timeout = count_option(args, "kafka-timeout-ms", 1);
    if (!timeout) return fail(timeout.status());
    kafka.timeout_ms = static_cast<int>(std::min<std::uint64_t>(*timeout, 3600000));
    log = serve::connect_kafka(kafka, config.names, config.partitions, std::shared_ptr<serve::Log>(std::move(*log)));
    if (!log) return fail(log.status());
  }
  auto worker = serve::Worker::make(**log, config);
  if (!worker) return fail(worker.status());

  struct sigaction sa {};
  sa.sa_handler = on_stop_signal;
  sigemptyset(&sa.sa_mask);
  ::sigaction(SIGTERM, &sa, nullptr);
  ::sigaction(SIGINT, &sa, nullptr);

  using Clock = std::chrono::steady_clock;
  auto last_metrics = Clock::now(), last_work = Clock::now();
  std::uint64_t entries_at_last = 0;
  // The log failed: a supervisor restarts us; state is safe in the last checkpoint.
  auto log_failed = [](const Status& s) {
    std::fprintf(stderr, "irithyll serve: %s\n", s.to_string().c_str());
    return 1;
  };
  while (g_stop == 0) {
    auto done = (*worker)->poll();
    if (!done) return log_failed(done.status());
    const auto now = Clock::now();
    if (*done > 0) {
      last_work = now;
    } else {
      if (idle_exit_ms > 0 && now - last_work >= std::chrono::milliseconds(idle_exit_ms)) break;
      // Sleep on the log until an entry comes, at most 100 ms, so that the
      // idle exit, the metrics line and a SIGTERM keep their cadence.
      const auto left = [&](std::uint64_t period_ms, Clock::time_point since) {
        return std::chrono::ceil<std::chrono::milliseconds>(std::chrono::milliseconds(period_ms) - (now - since));
      };
      auto wait = std::chrono::milliseconds(100);
      if (idle_exit_ms > 0) wait = std::min(wait, left(idle_exit_ms, last_work));
      if (metrics_ms > 0) wait = std::min(wait, left(metrics_ms, last_metrics));
      auto woke = (*worker)->wait_for_input(static_cast<int>(std::max<long long>(1, wait.count())));
      if (!woke) return log_failed(woke.status());
    }
    if (metrics_ms > 0 && now - last_metrics >= std::chrono::milliseconds(metrics_ms)) {
      const double seconds = std::chrono::duration<double>(now - last_metrics).count();
      const std::uint64_t entries = (*worker)->metrics().entries;
      std::printf("%s\n", (*worker)->metrics_json(static_cast<double>(entries - entries_at_last) / seconds).c_str());
      std::fflush(stdout);
      entries_at_last = entries;
      last_metrics = now;
    }
  }
  if (Status s = (*worker)->shutdown(); !s) return fail(s);
  std::printf("%s\n", (*worker)->metrics_json(0.0).c_str());
  return 0;
}

const CommandRegistration kServeCommand("serve", "serve one model per key from Redis Streams or Kafka, exactly once",
                                        &run_serve);

}  // namespace
}  // namespace irithyll::cli
