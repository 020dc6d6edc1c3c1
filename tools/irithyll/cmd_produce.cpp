// `irithyll produce`: writes a CSV file or a generator to Redis Streams as
// `irithyll serve` messages, routing each sample by its key's hash to one of
// P partition streams (schema: src/serve/message.hpp). Prints
// one JSON line with the counts.
#include <cstdio>
#include <string>

#include "args.hpp"
#include "command.hpp"
#include "serve/produce.hpp"
#include "serve/redis_log.hpp"
#include "irithyll/stream/table_stream.hpp"
#include "irithyll/stream/generators.hpp"

namespace irithyll::cli {
namespace {

ArgParser make_produce_parser() {
  std::string streams;
  for (const auto& g : generator_table()) streams += (streams.empty() ? "" : "|") + std::string(g.name);
  ArgParser p("irithyll produce [--data FILE.csv | --stream NAME] [--redis HOST:PORT] [options]",
              "Sends samples to the partition streams `irithyll serve` reads, keyed and routed by key hash.");
  p.option("redis", "HOST:PORT", "Redis server", "127.0.0.1:6379")
      .option("prefix", "NAME", "stream prefix (samples go to {<prefix>:<p>}:in)", "irithyll")
      .option("partitions", "P", "partition count; must match the workers", "8")
      .option("data", "FILE.csv", "CSV with a header row; the last column is the label")
      .option("stream", "NAME", "built-in generator: " + streams + " (default sea)")
      .option("max-samples", "N", "send at most N samples (generators default to 100000)")
      .option("seed", "N", "seed of the generator and of the key assignment", "42")
      .option("keys", "N", "distinct keys; sample i gets key k<hash(seed, i) mod N>", "1000")
      .option("key", "COL", "--data only: each row's key is its column COL (not a feature), routed to partition "
                            "FNV-1a-64(key) mod P")
      .option("first-index", "N", "index of the first sample (ids s<index>): continue an earlier run", "0")
      .option("label-delay", "N", "0: labels in the samples; N: send each label as a separate message N samples later",
              "0");
  return p;
}

int run_produce(std::span<char* const> argv) {
  ArgParser args = make_produce_parser();
  if (Status s = args.parse(argv); !s) return fail(s);
  if (args.help_requested()) {
    std::fputs(args.help().c_str(), stdout);
    return 0;
  }
  serve::ProduceOptions options;
  options.names.prefix = args.get("prefix");
  std::int64_t values[5] = {};
  const char* names[5] = {"partitions", "seed", "keys", "label-delay", "first-index"};
  for (int i = 0; i < 5; ++i) {
    auto v = args.get_int(names[i]);
    if (!v) return fail(v.status());
    if (*v < (i == 0 || i == 2 ? 1 : 0))
      return fail(Status::invalid_argument(std::string("--") + names[i] + " is out of range"));
    values[i] = *v;
  }
  options.partitions = static_cast<std::uint32_t>(values[0]);
  options.seed = static_cast<std::uint64_t>(values[1]);
  options.keys = static_cast<std::uint64_t>(values[2]);
  options.label_delay = static_cast<std::uint64_t>(values[3]);
  options.first_index = static_cast<std::uint64_t>(values[4]);
  std::optional<std::uint64_t> max_samples;
  if (args.given("max-samples")) {
    auto m = args.get_int("max-samples");
    if (!m || *m < 0) return fail(m ? Status::invalid_argument("--max-samples must be >= 0") : m.status());
    max_samples = static_cast<std::uint64_t>(*m);
  }
  if (args.given("data") && args.given("stream")) return fail(Status::invalid_argument("give --data or --stream"));
  Result<std::unique_ptr<Stream>> stream = Status::invalid_argument("no stream");
  std::unique_ptr<serve::KeySource> keys;
  if (args.given("key")) {
    if (!args.given("data")) return fail(Status::invalid_argument("--key COL needs --data FILE.csv"));
    if (args.given("keys")) return fail(Status::invalid_argument("give --key (a column) or --keys (a count)"));
    auto k = serve::open_csv_keys(args.get("data"), args.get("key"));
    if (!k) return fail(k.status());
    keys = std::move(*k);
  }
  if (args.given("data")) {
    TableOptions csv;
    if (keys) csv.drop.push_back(args.get("key"));  // the key is not a feature
    auto table = open_table_stream(args.get("data"), csv);
    if (!table) return fail(table.status());
    stream = std::unique_ptr<Stream>(std::move(table).value());
  } else {
    stream = make_generator(args.given("stream") ? args.get("stream") : std::string(kDefaultGenerator), options.seed,
                            max_samples.value_or(kDefaultGeneratorSamples));
  }
  if (!stream) return fail(stream.status());
  auto log = serve::connect_redis(args.get("redis"));
  if (!log) return fail(log.status());
  auto report = serve::produce(**log, **stream, options, max_samples, keys.get());
  if (!report) return fail(report.status());
  std::printf("{\"samples\":%llu,\"labels\":%llu}\n", static_cast<unsigned long long>(report->samples),
              static_cast<unsigned long long>(report->labels));
  return 0;
}

const CommandRegistration kProduceCommand("produce", "send samples to Redis Streams partitions for `serve`",
                                        &run_produce);

}  // namespace
}  // namespace irithyll::cli
