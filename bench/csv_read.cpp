// Table reader throughput: rows/s and MB/s reading ../shared/datasets/elec.csv
// (45,312 rows x 7 columns) and elec8.csv (string labels) end to end: open
// (header and look-ahead) plus next() over every row; then the same elec8
// rows gzip-compressed (elec8_gz) and as JSON lines (elec8_jsonl), both
// written to the temp directory first. 2 warm-up runs, then 10 timed
// repetitions; one JSON line per workload with mean and stddev of the wall
// rate and the median rate by the thread's CPU time (the figure to compare
// on a shared machine).
//
//   build-*/bench/bench_csv_read [shared_dir]
//   build-*/bench/bench_csv_read --file FILE.csv [FILE.csv ...]
// The second form reads only the named files (a generated million-row table,
// say), same repetitions.
// shared_dir defaults to $IRITHYLL_SHARED_DIR, else IRITHYLL_BENCH_SHARED when
// the build defines it, else ../shared.
#include <time.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdlib>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include <zlib.h>

#include <fstream>
#include <sstream>

#include "irithyll/stream/table_stream.hpp"

namespace {

constexpr int kWarmup = 2;
constexpr int kRepetitions = 10;

// Returns the rows read, or -1 on error.
long long read_all(const std::string& path, const irithyll::TableOptions& options) {
  auto opened = irithyll::open_table_stream(path, options);
  if (!opened.is_ok()) {
    std::fprintf(stderr, "%s\n", opened.status().message().c_str());
    return -1;
  }
  irithyll::Stream& s = **opened;
  std::vector<double> x(s.schema().n_features());
  double y = 0.0, checksum = 0.0;
  long long rows = 0;
  while (s.next(x, y)) {
    checksum += y;
    ++rows;
  }
  if (!s.status().is_ok() || std::isnan(checksum)) return -1;
  return rows;
}

double thread_seconds() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

int run(const std::string& name, const std::string& path, const irithyll::TableOptions& options = {}) {
  if (!std::filesystem::exists(path)) {
    std::fprintf(stderr, "csv_read: %s not found; skipped\n", path.c_str());
    return 0;
  }
  const double mb = static_cast<double>(std::filesystem::file_size(path)) / 1e6;
  long long rows = 0;
  for (int i = 0; i < kWarmup; ++i) rows = read_all(path, options);
  if (rows < 0) return 1;
  std::vector<double> rate, cpu_rate;
  for (int i = 0; i < kRepetitions; ++i) {
    const auto t0 = std::chrono::steady_clock::now();
    const double c0 = thread_seconds();
    if (read_all(path, options) != rows) return 1;
    const double c = thread_seconds() - c0;
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    rate.push_back(static_cast<double>(rows) / s);
    cpu_rate.push_back(static_cast<double>(rows) / c);
  }
  std::sort(cpu_rate.begin(), cpu_rate.end());
  const double cpu_median = 0.5 * (cpu_rate[(kRepetitions - 1) / 2] + cpu_rate[kRepetitions / 2]);
  double mean = 0.0, var = 0.0;
  for (double r : rate) mean += r / kRepetitions;
  for (double r : rate) var += (r - mean) * (r - mean) / (kRepetitions - 1);
  std::printf(
      "{\"workload\":\"csv_read/%s\",\"rows\":%lld,\"file_mb\":%.3f,\"repetitions\":%d,"
      "\"rows_per_second\":%.0f,\"rows_per_second_stddev\":%.0f,\"mb_per_second\":%.1f,"
      "\"rows_per_cpu_second_median\":%.0f}\n",
      name.c_str(), rows, mb, kRepetitions, mean, std::sqrt(var), mean * mb / static_cast<double>(rows), cpu_median);
  return 0;
}

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// elec8.csv as JSON lines: numbers bare, other cells as strings (no escaping
// needed: the file has no quotes or backslashes).
std::string to_jsonl(const std::string& csv) {
  std::vector<std::string> header;
  std::istringstream lines(csv);
  std::string line, out;
  auto split = [](const std::string& l) {
    std::vector<std::string> cells;
    std::string cell;
    std::istringstream ss(l);
    while (std::getline(ss, cell, ',')) cells.push_back(cell);
    return cells;
  };
  std::getline(lines, line);
  header = split(line);
  while (std::getline(lines, line)) {
    const auto cells = split(line);
    out += '{';
    for (std::size_t i = 0; i < cells.size() && i < header.size(); ++i) {
      const bool number = !cells[i].empty() && (std::isdigit(static_cast<unsigned char>(cells[i][0])) != 0 ||
                                                cells[i][0] == '-' || cells[i][0] == '.');
      out += (i ? ",\"" : "\"") + header[i] + "\":" + (number ? cells[i] : "\"" + cells[i] + "\"");
    }
    out += "}\n";
  }
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  std::string shared = "../shared";
#ifdef IRITHYLL_BENCH_SHARED
  shared = IRITHYLL_BENCH_SHARED;
#endif
  if (const char* env = std::getenv("IRITHYLL_SHARED_DIR"); env != nullptr && *env != '\0') shared = env;
  if (argc > 1 && std::string(argv[1]) == "--file") {
    int rc = 0;
    for (int i = 2; i < argc; ++i) rc |= run(std::filesystem::path(argv[i]).filename().string(), argv[i]);
    return rc;
  }
  if (argc > 1) shared = argv[1];
  int rc = run("elec", shared + "/datasets/elec.csv");
  rc |= run("elec8", shared + "/datasets/elec8.csv");
  const std::string elec8 = slurp(shared + "/datasets/elec8.csv");
  if (!elec8.empty()) {
    const std::filesystem::path tmp = std::filesystem::temp_directory_path();
    const std::string gz_path = (tmp / "irithyll_bench_elec8.csv.gz").string();
    const std::string jsonl_path = (tmp / "irithyll_bench_elec8.jsonl").string();
    if (gzFile f = gzopen(gz_path.c_str(), "wb6"); f != nullptr) {
      gzwrite(f, elec8.data(), static_cast<unsigned>(elec8.size()));
      gzclose(f);
      rc |= run("elec8_gz", gz_path);
    }
    std::ofstream(jsonl_path, std::ios::binary) << to_jsonl(elec8);
    irithyll::TableOptions jsonl;
    jsonl.format = irithyll::TableFormat::kJsonLines;
    rc |= run("elec8_jsonl", jsonl_path, jsonl);
    std::filesystem::remove(gz_path);
    std::filesystem::remove(jsonl_path);
  }
  return rc;
}
