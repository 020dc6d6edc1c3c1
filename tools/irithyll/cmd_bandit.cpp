// `irithyll bandit`: runs a bandit policy either on simulated arms
// (--simulate bernoulli:0.1,0.2,0.5 --steps N --seed S), reporting the
// cumulative reward and cumulative regret (and --plot FILE.svg of regret over
// time), or on logged data (--data F with arm, reward and propensity columns
// and optional context columns), reporting the policy's inverse-propensity
// (IPS) and replay estimates of mean reward (irithyll/bandit/offline_eval.hpp).
// The policy's settings are options named after its field table (--epsilon,
// --variant, --discount, --alpha, ...). --json prints one JSON line.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "args.hpp"
#include "command.hpp"
#include "data_options.hpp"
#include "irithyll/bandit/bandit_policy.hpp"
#include "irithyll/bandit/offline_eval.hpp"
#include "irithyll/bandit/simulate.hpp"
#include "irithyll/eval/report.hpp"
#include "irithyll/stream/table_stream.hpp"
#include "plotting.hpp"

namespace irithyll::cli {
namespace {

std::string policy_from_argv(std::span<char* const> argv) {
  for (std::size_t i = 0; i < argv.size(); ++i) {
    const std::string_view a = argv[i];
    if (a == "--policy" && i + 1 < argv.size()) return argv[i + 1];
    if (a.rfind("--policy=", 0) == 0) return std::string(a.substr(9));
  }
  return "ucb";
}

const BanditPolicyInfo* find_policy(const std::string& name) {
  for (const auto& info : bandit_policies())
    if (info.name == name) return &info;
  return nullptr;
}

std::string policy_names() {
  std::string s;
  for (const auto& info : bandit_policies()) s += (s.empty() ? "" : " | ") + std::string(info.name);
  return s;
}

ArgParser make_bandit_parser(const BanditPolicyInfo* info) {
  ArgParser p("irithyll bandit --policy NAME (--simulate KIND:M1,M2,... | --data FILE --arms K) [options]",
              "Runs a bandit policy on simulated arms (cumulative reward and regret) or on logged data\n"
              "(inverse-propensity-scored and replay estimates of its mean reward).");
  p.option("policy", "NAME", policy_names(), "ucb")
      .option("simulate", "SPEC", "bernoulli:M1,M2,... (means in [0,1]) or gaussian:M1,M2,... (unit variance)")
      .option("steps", "N", "simulated steps", "10000")
      .option("seed", "S", "seed of the simulated rewards (the policy's own seed is --policy-seed)",
              "1")
      .option("plot", "FILE.svg", "simulation: cumulative regret over time (.png needs rsvg-convert)")
      .option("data", "FILE", "logged data: CSV or JSON lines (.gz or not); '-' = standard input")
      .option("arms", "K", "number of arms (logged data: arms are 0 .. K-1)")
      .option("arm-column", "C", "logged data: column of the pulled arm (0-based integer)", "arm")
      .option("reward-column", "C", "logged data: column of the reward", "reward")
      .option("propensity-column", "C", "logged data: column of the logger's probability of that arm", "propensity")
      .option("context", "C1,C2,...", "logged data: context columns (needed by contextual policies)")
      .flag("json", "print one JSON line instead of text");
  declare_data_options(p);
  if (info != nullptr)
    for (const FieldInfo& f : info->fields) {
      // The simulation's --seed is the environment's; the policy's is --policy-seed.
      const std::string name = f.name == "seed" ? "policy-seed" : std::string(f.name);
      std::string help = std::string(info->name) + ": " + std::string(f.help);
      if (f.type != FieldType::kText) help += "; " + f.range_text();
      p.option(name, "V", help, std::string(f.default_value));
    }
  return p;
}

ModelSettings given_settings(const ArgParser& args, const BanditPolicyInfo& info) {
  ModelSettings s;
  for (const FieldInfo& f : info.fields) {
    const std::string option = f.name == "seed" ? "policy-seed" : std::string(f.name);
    if (args.given(option)) s.set(std::string(f.name), args.get(option));
  }
  return s;
}

std::string settings_json(const BanditPolicy& p) {
  std::string out = "{";
  const ModelSettings settings = p.settings();  // items() borrows from it
  for (const auto& [k, v] : settings.items()) out += (out.size() > 1 ? "," : "") + json_quote(k) + ":" + json_quote(v);
  return out + "}";
}

std::string settings_text(const BanditPolicy& p) {
  std::string out;
  const ModelSettings settings = p.settings();
  for (const auto& [k, v] : settings.items()) out += (out.empty() ? "" : ", ") + k + "=" + v;
  return out;
}

Result<std::uint64_t> positive_int(const ArgParser& args, const char* name, std::int64_t max) {
  auto v = args.get_int(name);
  if (!v) return v.status();
  if (*v < 1 || *v > max)
    return Status::invalid_argument(std::string("--") + name + " must be in [1, " + std::to_string(max) + "]");
  return static_cast<std::uint64_t>(*v);
}

int run_simulation(const ArgParser& args, const std::string& policy_name, const ModelSettings& settings) {
  auto arms = parse_simulated_arms(args.get("simulate"));
  if (!arms) return fail(arms.status());
  if (args.given("arms")) {
    auto k = positive_int(args, "arms", 1 << 20);
    if (!k) return fail(k.status());
    if (*k != arms->means.size())
      return fail(Status::invalid_argument("--arms " + std::to_string(*k) + " but --simulate lists " +
                                           std::to_string(arms->means.size()) + " arms"));
  }
  auto steps = positive_int(args, "steps", std::int64_t{1} << 40);
  if (!steps) return fail(steps.status());
  auto seed = args.get_int("seed");
  if (!seed) return fail(seed.status());
  auto made = make_bandit_policy(policy_name, arms->means.size(), 0, settings);
  if (!made) return fail(made.status());
  BanditPolicy& policy = **made;
  const std::uint64_t every = std::max<std::uint64_t>(1, *steps / 500);
  auto run = simulate_bandit(policy, *arms, *steps, static_cast<std::uint64_t>(*seed), every);
  if (!run) return fail(run.status());

  if (args.given("plot")) {
    LinePlot plot;
    plot.title = "Cumulative regret: " + policy_name;
    plot.subtitle = args.get("simulate") + ", " + std::to_string(*steps) + " steps, seed " + std::to_string(*seed);
    plot.x_label = "step";
    plot.y_label = "cumulative regret";
    PlotSeries s;
    s.label = policy_name;
    s.x.assign(run->curve_steps.begin(), run->curve_steps.end());
    s.y = run->curve_regret;
    plot.series.push_back(std::move(s));
    if (Status st = write_plot(args.get("plot"), plot); !st) return fail(st);
  }

  if (args.given("json")) {
    std::string pulls;
    for (std::uint64_t n : run->pulls) pulls += (pulls.empty() ? "" : ",") + std::to_string(n);
    std::printf("{\"policy\":%s,\"settings\":%s,\"arms\":%zu,\"steps\":%llu,\"seed\":%lld,"
                "\"cumulative_reward\":%s,\"cumulative_regret\":%s,\"mean_reward\":%s,\"pulls\":[%s]}\n",
                json_quote(policy_name).c_str(), settings_json(policy).c_str(), arms->means.size(),
                static_cast<unsigned long long>(*steps), static_cast<long long>(*seed),
                json_number(run->cumulative_reward).c_str(), json_number(run->cumulative_regret).c_str(),
                json_number(run->cumulative_reward / static_cast<double>(*steps)).c_str(), pulls.c_str());
  } else {
    std::printf("policy             %s (%s)\n", policy_name.c_str(), settings_text(policy).c_str());
    std::printf("arms               %s (best mean %s)\n", args.get("simulate").c_str(),
                json_number(arms->best_mean()).c_str());
    std::printf("steps              %llu (reward seed %lld)\n", static_cast<unsigned long long>(*steps),
                static_cast<long long>(*seed));
    std::printf("cumulative reward  %.6g (mean %.6g per step)\n", run->cumulative_reward,
                run->cumulative_reward / static_cast<double>(*steps));
    std::printf("cumulative regret  %.6g (regret / ln T = %.4g)\n", run->cumulative_regret,
                run->cumulative_regret / std::log(std::max(2.0, static_cast<double>(*steps))));
    std::printf("pulls             ");
    for (std::size_t a = 0; a < run->pulls.size(); ++a)
      std::printf(" %zu:%llu", a, static_cast<unsigned long long>(run->pulls[a]));
    std::printf("\n");
  }
  return std::fflush(stdout) == 0 ? 0 : 1;
}

Result<std::size_t> column_index(const Schema& schema, const std::string& name) {
  for (std::size_t j = 0; j < schema.feature_names.size(); ++j)
    if (schema.feature_names[j] == name) return j;
  return Status::invalid_argument("column '" + name + "' is not in the data");
}

int run_logged(const ArgParser& args, const std::string& policy_name, const BanditPolicyInfo& info,
               const ModelSettings& settings) {
  if (!args.given("arms")) return fail(Status::invalid_argument("--data needs --arms K (arms are 0 .. K-1)"));
  auto k = positive_int(args, "arms", 1 << 20);
  if (!k) return fail(k.status());
  const std::vector<std::string> context_names = args.given("context") ? split_list(args.get("context"))
                                                                       : std::vector<std::string>{};
  if (info.contextual && context_names.empty())
    return fail(Status::invalid_argument(policy_name + " is contextual: name its --context columns"));
  auto made = make_bandit_policy(policy_name, *k, info.contextual ? context_names.size() : 0, settings);
  if (!made) return fail(made.status());
  BanditPolicy& policy = **made;

  auto read = read_data_options(args);
  if (!read) return fail(read.status());
  TableOptions options = std::move(read).value();
  options.target = args.get("reward-column");
  options.task = Task::kRegression;
  options.features = {args.get("arm-column"), args.get("propensity-column")};
  for (const std::string& c : context_names) options.features.push_back(c);
  auto opened = open_table_stream(args.get("data"), options);
  if (!opened) return fail(opened.status());
  Stream& stream = **opened;
  const Schema& schema = stream.schema();
  auto arm_col = column_index(schema, args.get("arm-column"));
  auto prop_col = column_index(schema, args.get("propensity-column"));
  if (!arm_col) return fail(arm_col.status());
  if (!prop_col) return fail(prop_col.status());
  std::vector<std::size_t> ctx_cols;
  for (const std::string& c : context_names) {
    auto j = column_index(schema, c);
    if (!j) return fail(j.status());
    ctx_cols.push_back(*j);
  }
  std::vector<double> x(schema.n_features()), ctx(ctx_cols.size());
  double reward = 0.0;
  ReplayEvaluator eval;
  for (std::uint64_t row = 0; stream.next(x, reward); ++row) {
    const double arm = x[*arm_col];
    if (!(arm >= 0.0 && arm < static_cast<double>(*k)) || arm != std::floor(arm))
      return fail(Status::invalid_argument("data row " + std::to_string(row) + ": arm " + json_number(arm) +
                                           " is not an integer in [0, " + std::to_string(*k) + ")"));
    for (std::size_t j = 0; j < ctx_cols.size(); ++j) ctx[j] = x[ctx_cols[j]];
    if (Status s = eval.add(policy, static_cast<std::size_t>(arm), reward, x[*prop_col], ctx); !s)
      return fail(s.with_context("data row " + std::to_string(row)));
  }
  if (!stream.status().is_ok()) return fail(stream.status());
  if (args.given("json")) {
    std::printf("{\"policy\":%s,\"settings\":%s,\"arms\":%llu,\"events\":%llu,\"matched\":%llu,"
                "\"ips\":%s,\"replay\":%s,\"logged_mean\":%s}\n",
                json_quote(policy_name).c_str(), settings_json(policy).c_str(), static_cast<unsigned long long>(*k),
                static_cast<unsigned long long>(eval.events()), static_cast<unsigned long long>(eval.matched()),
                json_number(eval.ips()).c_str(), json_number(eval.replay()).c_str(),
                json_number(eval.logged_mean()).c_str());
  } else {
    std::printf("policy             %s (%s)\n", policy_name.c_str(), settings_text(policy).c_str());
    std::printf("events             %llu (matched the logged arm: %llu)\n",
                static_cast<unsigned long long>(eval.events()), static_cast<unsigned long long>(eval.matched()));
    std::printf("ips estimate       %.6g (mean reward per step, inverse propensity scored)\n", eval.ips());
    std::printf("replay estimate    %.6g (mean reward over matched events)\n", eval.replay());
    std::printf("logged mean        %.6g (the logging policy's own mean reward)\n", eval.logged_mean());
  }
  return std::fflush(stdout) == 0 ? 0 : 1;
}

int run_bandit(std::span<char* const> argv) {
  const std::string policy_name = policy_from_argv(argv);
  const BanditPolicyInfo* info = find_policy(policy_name);
  ArgParser args = make_bandit_parser(info);
  if (Status s = args.parse(argv); !s) return fail(s);
  if (args.help_requested()) {
    std::fputs(args.help().c_str(), stdout);
    return 0;
  }
  if (info == nullptr)
    return fail(Status::invalid_argument("unknown --policy '" + policy_name + "' (policies: " + policy_names() + ")"));
  const ModelSettings settings = given_settings(args, *info);
  if (args.given("simulate") == args.given("data"))
    return fail(Status::invalid_argument("give exactly one of --simulate SPEC and --data FILE"));
  if (args.given("simulate")) {
    if (info->contextual)
      return fail(Status::invalid_argument(policy_name + " needs contexts: use --data with --context columns"));
    return run_simulation(args, policy_name, settings);
  }
  return run_logged(args, policy_name, *info, settings);
}

const CommandRegistration kBanditCommand("bandit", "run a bandit policy on simulated arms or logged data", &run_bandit);

}  // namespace
}  // namespace irithyll::cli
