// Memory plateau of SGBT on a long stream: the model's reported bytes and the
// process's peak RSS at checkpoints along a 1,000,000-sample generator stream.
// Once the trees have grown, both must stop growing (within 10% between
// sample 200,000 and sample 1,000,000). Prints one JSON line per checkpoint,
// a breakdown line (where the bytes are: active trees' histograms and nodes,
// alternates in use, idle alternates, detectors; slabs live / allocated /
// capacity per tree) and a final verdict line. `config=default` uses
// SGBTConfig{} (what `irithyll eval` runs) instead of the bench's settings.
//
//   build/bench/bench_sgbt_memory [stream=agrawal] [samples=1000000] [config=bench|default]
#include <malloc.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include "irithyll/ensemble/sgbt_learner.hpp"
#include "ensemble/tree_slot.hpp"
#include "irithyll/stream/generators.hpp"

namespace {
long peak_rss_kib() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return u.ru_maxrss;
}

// Current resident set, after asking glibc to return freed heap pages, so it
// can be compared with the model's count of the bytes it holds.
long trimmed_rss_kib() {
  malloc_trim(0);
  std::ifstream f("/proc/self/statm");
  long size = 0, resident = 0;
  f >> size >> resident;
  return resident * (sysconf(_SC_PAGESIZE) / 1024);
}

struct TreeTally {
  std::size_t trees = 0, bytes = 0, histogram_bytes = 0, live = 0, slabs = 0, capacity = 0, nodes = 0;
  void add(const irithyll::GradientTree& t) {
    const irithyll::HistogramPool& p = t.histograms();
    ++trees;
    bytes += t.memory_bytes();
    histogram_bytes += p.memory_bytes() - sizeof(p);
    live += p.live_slabs();
    slabs += p.n_slabs();
    capacity += p.capacity_slabs();
    nodes += t.n_nodes();
  }
  void print(const char* role) const {
    const double n = trees > 0 ? static_cast<double>(trees) : 1.0;
    std::printf("\"%s\":{\"trees\":%zu,\"bytes\":%zu,\"histogram_bytes\":%zu,\"live_slabs_per_tree\":%.2f,"
                "\"slabs_per_tree\":%.2f,\"capacity_slabs_per_tree\":%.2f,\"nodes_per_tree\":%.1f}",
                role, trees, bytes, histogram_bytes, static_cast<double>(live) / n, static_cast<double>(slabs) / n,
                static_cast<double>(capacity) / n, static_cast<double>(nodes) / n);
  }
};

void print_breakdown(const irithyll::SGBTLearner& learner, long rss_before_kib) {
  TreeTally active, alternate;
  std::size_t slots = 0, detectors = 0, slab_bytes = 0;
  for (std::size_t c = 0; c < learner.n_committees(); ++c) {
    const irithyll::SGBT& k = learner.committee(c);
    for (std::size_t s = 0; s < k.n_steps(); ++s) {
      const irithyll::TreeSlot& slot = k.slot(s);
      active.add(slot.active());
      if (slot.alternate() != nullptr) alternate.add(*slot.alternate());
      if (slot.detector() != nullptr) detectors += slot.detector()->memory_bytes();
      slots += slot.memory_bytes();
      slab_bytes = std::max(slab_bytes, (slot.active().histograms().bins_per_slab() + 1) * sizeof(irithyll::GradBin));
    }
  }
  // What the slots hold besides the trees in use and the detectors: the idle
  // alternates' storage plus the slot objects themselves.
  const std::size_t idle = slots - active.bytes - alternate.bytes - detectors;
  std::printf("{\"bench\":\"sgbt_memory_breakdown\",\"model_bytes\":%zu,", learner.memory_bytes());
  active.print("active");
  std::printf(",");
  alternate.print("alternate_in_use");
  std::printf(",\"idle_alternates_and_slot_objects_bytes\":%zu,\"detector_bytes\":%zu,\"slab_bytes\":%zu,"
              "\"trimmed_rss_growth_kib\":%ld}\n",
              idle, detectors, slab_bytes, trimmed_rss_kib() - rss_before_kib);
}
}  // namespace

int main(int argc, char** argv) {
  const std::string name = argc > 1 ? argv[1] : "agrawal";
  const std::uint64_t n = argc > 2 ? std::strtoull(argv[2], nullptr, 10) : 1000000;
  auto stream = irithyll::make_generator(name, 42, n);
  if (!stream) {
    std::fprintf(stderr, "%s\n", stream.status().to_string().c_str());
    return 1;
  }
  const auto& schema = (*stream)->schema();
  irithyll::SGBTConfig config;
  if (!(argc > 3 && std::string(argv[3]) == "default")) {
    config.n_steps = 100;
    config.tree.max_depth = 6;
    config.learning_rate = 0.1;
    config.tree.grace_period = 50;
    config.tree.n_bins = 32;
  }
  const long rss_before = trimmed_rss_kib();
  auto learner = irithyll::SGBTLearner::make(
      config, {.task = schema.task, .n_classes = schema.n_classes(), .seed = config.seed});
  if (!learner) {
    std::fprintf(stderr, "%s\n", learner.status().to_string().c_str());
    return 1;
  }
  std::vector<double> x(schema.n_features());
  std::vector<double> proba(schema.n_classes());
  double y = 0;
  std::uint64_t t = 0, correct = 0;
  std::size_t bytes_at_200k = 0;
  long rss_at_200k = 0;
  while ((*stream)->next(x, y)) {
    if (schema.task == irithyll::Task::kClassification) correct += (*learner)->predict_one(x) == y;
    (*learner)->learn_one(x, y);
    ++t;
    if (t % 100000 == 0) {
      const std::size_t bytes = (*learner)->memory_bytes();
      const long rss = peak_rss_kib();
      if (t == 200000) {
        bytes_at_200k = bytes;
        rss_at_200k = rss;
      }
      std::printf("{\"bench\":\"sgbt_memory\",\"stream\":\"%s\",\"samples\":%llu,\"model_bytes\":%zu,"
                  "\"peak_rss_kib\":%ld,\"accuracy\":%.4f}\n",
                  name.c_str(), static_cast<unsigned long long>(t), bytes, rss,
                  static_cast<double>(correct) / static_cast<double>(t));
      std::fflush(stdout);
    }
  }
  print_breakdown(**learner, rss_before);
  if (bytes_at_200k > 0) {
    const double bytes_growth = static_cast<double>((*learner)->memory_bytes()) / static_cast<double>(bytes_at_200k);
    const double rss_growth = static_cast<double>(peak_rss_kib()) / static_cast<double>(rss_at_200k);
    std::printf("{\"bench\":\"sgbt_memory_verdict\",\"model_bytes_growth_200k_to_end\":%.4f,"
                "\"peak_rss_growth_200k_to_end\":%.4f,\"within_10_percent\":%s}\n",
                bytes_growth, rss_growth, (bytes_growth <= 1.10 && rss_growth <= 1.10) ? "true" : "false");
  }
  return 0;
}
