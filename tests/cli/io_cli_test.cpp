// End-to-end input handling of the CLI: standard input through a real pipe,
// file-vs-pipe identity, gzip, JSON lines, separators, the id-like-target
// guard rail, unlabelled rows, label delay and class names in the outputs.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>

#include "support/cli_runner.hpp"
#include "support/shared_data.hpp"

namespace irithyll::testing {
namespace {

const std::string kBin = std::string(IRITHYLL_BINARY_DIR) + "/irithyll";

// Runs a whole shell line (pipes included) through sh -c; "IRITHYLL" stands
// for the built binary.
CliRun run_shell(std::string line) {
  for (std::size_t at; (at = line.find("IRITHYLL")) != std::string::npos;) line.replace(at, 8, kBin);
  const std::string err_path = temp_path("shell_stderr.txt");
  const std::string cmd = "sh -c '" + line + "' 2>" + err_path;
  CliRun r;
  FILE* p = popen(cmd.c_str(), "r");
  if (p == nullptr) return r;
  char buf[65536];
  std::size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, p)) > 0) r.out.append(buf, n);
  const int status = pclose(p);
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  r.err = read_text_file(err_path);
  std::remove(err_path.c_str());
  return r;
}

// A small labelled stream with a text label, long enough to pass the
// look-ahead, so the pipe path really streams.
std::string labelled_csv(int rows) {
  std::string text = "x1,x2,colour,label\n";
  for (int i = 0; i < rows; ++i) {
    const int a = (i * 7919) % 101, b = (i * 104729) % 37;
    text += std::to_string(a) + "," + std::to_string(b) + "," + (i % 3 == 0 ? "red" : "blue") + "," +
            (a + b > 60 ? "HIGH" : "LOW") + "\n";
  }
  return text;
}

TEST(IoCli, PipedStdinGivesTheSameResultsAsTheFile) {
  const std::string csv = write_temp_file("pipe.csv", labelled_csv(15000));
  const std::string fp = temp_path("file_pred.txt"), pp = temp_path("pipe_pred.txt");
  auto file = run_cli("eval --data " + csv + " --n-steps 5 --quiet --json --predictions " + fp);
  ASSERT_EQ(file.code, 0) << file.err;
  auto pipe = run_shell("cat " + csv + " | IRITHYLL eval --data - --n-steps 5 --quiet --json --predictions " + pp);
  ASSERT_EQ(pipe.code, 0) << pipe.err;
  auto strip_timing = [](std::string s) {
    for (const char* key : {"\"seconds\":", "\"samples_per_second\":"}) {
      const std::size_t at = s.find(key);
      if (at != std::string::npos) s.erase(at, s.find(',', at) - at);
    }
    // The provenance names the input: the file's path, or <stdin>.
    const std::size_t data = s.find("\"provenance\":{\"irithyll_version\"");
    const std::size_t from = data == std::string::npos ? data : s.find("\"data\":", data);
    if (from != std::string::npos) s.erase(from, s.find(',', from) - from);
    return s;
  };
  EXPECT_EQ(strip_timing(file.out), strip_timing(pipe.out));
  const std::string predictions = read_text_file(fp);
  EXPECT_EQ(predictions, read_text_file(pp));
  // Class names, not ids, in the predictions and the JSON report.
  EXPECT_TRUE(predictions.rfind("HIGH,", 0) == 0 || predictions.rfind("LOW,", 0) == 0) << predictions.substr(0, 40);
  EXPECT_NE(file.out.find("\"classes\":[\"HIGH\",\"LOW\"]"), std::string::npos) << file.out;
  EXPECT_NE(file.out.find("\"per_class\":{\"HIGH\":{\"precision\":"), std::string::npos) << file.out;
}

TEST(IoCli, GzipFileAndGzipPipeReadLikePlain) {
  const std::string csv = write_temp_file("gz.csv", labelled_csv(3000));
  ASSERT_EQ(std::system(("gzip -c " + csv + " > " + csv + ".gz").c_str()), 0);
  auto plain = run_cli("eval --data " + csv + " --n-steps 3 --quiet");
  auto gz = run_cli("eval --data " + csv + ".gz --n-steps 3 --quiet");
  auto gz_pipe = run_shell("cat " + csv + ".gz | IRITHYLL eval --data - --n-steps 3 --quiet");
  ASSERT_EQ(plain.code, 0) << plain.err;
  ASSERT_EQ(gz.code, 0) << gz.err;
  ASSERT_EQ(gz_pipe.code, 0) << gz_pipe.err;
  auto accuracy = [](const std::string& out) { return out.substr(out.find("accuracy"), 20); };
  EXPECT_EQ(accuracy(plain.out), accuracy(gz.out));
  EXPECT_EQ(accuracy(plain.out), accuracy(gz_pipe.out));
  // A gzip stream cut short is an error saying so, not a silently short run.
  ASSERT_EQ(std::system(("head -c 3000 " + csv + ".gz > " + csv + ".cut.gz").c_str()), 0);
  auto cut = run_cli("eval --data " + csv + ".cut.gz --n-steps 3 --quiet");
  EXPECT_NE(cut.code, 0);
  EXPECT_NE(cut.err.find("truncated gzip input"), std::string::npos) << cut.err;
}

TEST(IoCli, SemicolonJsonLinesAndColumnOptions) {
  std::string semi = "id;a;b;y\n", jsonl;
  for (int i = 0; i < 400; ++i) {
    const std::string a = std::to_string(i % 10), b = std::to_string((i * 3) % 7), y = i % 10 > 4 ? "yes" : "no";
    semi += std::to_string(i) + ";" + a + ";" + b + ";" + y + "\n";
    jsonl += "{\"b\": " + b + ", \"a\": " + a + ", \"id\": " + std::to_string(i) + ", \"y\": \"" + y + "\"}\n";
  }
  const std::string s = write_temp_file("semi.csv", semi), j = write_temp_file("rows.jsonl", jsonl);
  auto csv_run = run_cli("eval --data " + s + " --drop id --features a,b --quiet --json");
  ASSERT_EQ(csv_run.code, 0) << csv_run.err;
  auto json_run = run_shell("cat " + j + " | IRITHYLL eval --data - --format jsonl --drop id --features a,b --quiet --json");
  ASSERT_EQ(json_run.code, 0) << json_run.err;
  auto metric = [](const std::string& out) { return out.substr(out.find("\"accuracy\""), 40); };
  EXPECT_EQ(metric(csv_run.out), metric(json_run.out));
  auto no_header = run_cli("eval --data " + s + " --no-header --sep ';' --task regression --target c2 --quiet");
  EXPECT_NE(no_header.code, 0);  // the header line "a" is not a number
  EXPECT_NE(no_header.err.find(":1:"), std::string::npos) << no_header.err;
}

TEST(IoCli, IdLikeTargetStopsAtOnceNamingTheColumn) {
  std::string text = "v,when\n";
  for (int i = 0; i < 20000; ++i) text += std::to_string(i % 17) + ",2024-01-01T" + std::to_string(i) + "\n";
  const std::string csv = write_temp_file("stamp.csv", text);
  auto r = run_cli("eval --data " + csv + " --quiet");
  EXPECT_NE(r.code, 0);
  EXPECT_NE(r.err.find("target column 'when'"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("--target COL"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("--task regression"), std::string::npos) << r.err;
  EXPECT_TRUE(r.out.empty());
}

TEST(IoCli, ManyClassesOverTheMemoryBudgetStopBeforeTheFirstRow) {
  // 300 classes, two rows each: SGBT keeps one ensemble per class, so the
  // projected model is far over a 20 MB budget; the run stops at once with the
  // estimate and the column's name, and a generous budget lets it run.
  std::string csv = "a,b,label\n";
  for (int i = 0; i < 600; ++i)
    csv += std::to_string(i % 300) + "," + std::to_string(i % 7) + ",c" + std::to_string(i % 300) + "\n";
  const std::string data = write_temp_file("many_classes.csv", csv);
  auto r = run_cli("eval --quiet --memory-budget 20M --data " + data);
  EXPECT_NE(r.code, 0);
  EXPECT_NE(r.err.find("target 'label' has 300 classes"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("per class"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("--memory-budget"), std::string::npos) << r.err;
  EXPECT_EQ(r.out.find("accuracy"), std::string::npos) << r.out;
  auto compare = run_cli("compare --quiet --memory-budget 20M --models sgbt,hoeffding_tree --data " + data);
  EXPECT_NE(compare.code, 0);
  EXPECT_NE(compare.err.find("target 'label' has 300 classes"), std::string::npos) << compare.err;
  // The Hoeffding tree's size barely depends on the class count: it runs.
  auto small = run_cli("eval --quiet --memory-budget 20M --model hoeffding_tree --data " + data);
  EXPECT_EQ(small.code, 0) << small.err;
  auto bad = run_cli("eval --quiet --memory-budget lots --data " + data);
  EXPECT_NE(bad.code, 0);
  EXPECT_NE(bad.err.find("--memory-budget: 'lots'"), std::string::npos) << bad.err;
}

TEST(IoCli, UnlabelledRowsArePredictedNotLearned) {
  std::string text = "a,y\n";
  for (int i = 0; i < 300; ++i) text += std::to_string(i % 5) + "," + (i % 10 == 9 ? "" : i % 5 > 2 ? "p" : "q") + "\n";
  const std::string csv = write_temp_file("unl.csv", text), pred = temp_path("unl_pred.txt");
  auto r = run_cli("eval --data " + csv + " --quiet --predictions " + pred);
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("samples      270"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("unlabelled   30"), std::string::npos) << r.out;
  EXPECT_EQ(split_lines(read_text_file(pred)).size(), 300u);  // every row predicted
  auto skip = run_cli("eval --data " + csv + " --quiet --unlabelled skip --predictions " + pred);
  ASSERT_EQ(skip.code, 0) << skip.err;
  EXPECT_EQ(split_lines(read_text_file(pred)).size(), 270u);
  auto strict = run_cli("eval --data " + csv + " --quiet --unlabelled error");
  EXPECT_NE(strict.code, 0);
  EXPECT_NE(strict.err.find(":11:2: missing target value"), std::string::npos) << strict.err;
}

TEST(IoCli, LabelDelayChangesWhatIsLearnedNotWhatIsScored) {
  const std::string csv = write_temp_file("delay.csv", labelled_csv(2000));
  const std::string a = temp_path("now.txt"), b = temp_path("late.txt");
  auto now = run_cli("eval --data " + csv + " --model loglinear --quiet --predictions " + a);
  auto late = run_cli("eval --data " + csv + " --model loglinear --quiet --label-delay 500 --predictions " + b);
  ASSERT_EQ(now.code, 0) << now.err;
  ASSERT_EQ(late.code, 0) << late.err;
  EXPECT_NE(late.out.find("samples      2000"), std::string::npos) << late.out;
  const auto pa = split_lines(read_text_file(a)), pb = split_lines(read_text_file(b));
  ASSERT_EQ(pa.size(), 2000u);
  ASSERT_EQ(pb.size(), 2000u);
  // Nothing is learned before row 500 with the delay, so up to the first
  // learned row the predictions agree, and they differ afterwards.
  EXPECT_EQ(pb[0], pb[499]);
  EXPECT_NE(pa, pb);
}

TEST(IoCli, SummaryShowsPerClassScoresAndANamedConfusionMatrix) {
  const std::string csv = write_temp_file("names.csv", labelled_csv(1000));
  auto r = run_cli("eval --data " + csv + " --n-steps 3 --quiet");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("class  precision     recall         f1    support"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("confusion (rows: true class, columns: predicted)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\nHIGH "), std::string::npos) << r.out;
}

TEST(IoCli, DriftReadsStandardInput) {
  std::string text = "err\n";
  for (int i = 0; i < 4000; ++i) text += (i < 2000 ? "0.1\n" : "0.9\n");
  const std::string csv = write_temp_file("drift_in.csv", text);
  auto file = run_cli("drift --detector adwin --data " + csv);
  auto pipe = run_shell("cat " + csv + " | IRITHYLL drift --detector adwin --data -");
  ASSERT_EQ(file.code, 0) << file.err;
  ASSERT_EQ(pipe.code, 0) << pipe.err;
  EXPECT_FALSE(file.out.empty());
  EXPECT_EQ(file.out, pipe.out);
}

}  // namespace
}  // namespace irithyll::testing

namespace irithyll::testing {
namespace {

TEST(IoCli, ClassesAfterTheLookaheadNeedTheClassList) {
  std::string text = "a,y\n";
  for (int i = 0; i < 300; ++i) text += std::to_string(i % 7) + "," + (i < 200 ? (i % 2 ? "p" : "q") : "r") + "\n";
  const std::string csv = write_temp_file("late_class.csv", text);
  auto late = run_shell("cat " + csv + " | IRITHYLL eval --data - --lookahead 100 --quiet");
  EXPECT_NE(late.code, 0);
  EXPECT_NE(late.err.find("<stdin>:202:2: class 'r' first appears after the 100 rows"), std::string::npos) << late.err;
  auto listed = run_shell("cat " + csv + " | IRITHYLL eval --data - --lookahead 100 --classes p,q,r --quiet --json");
  ASSERT_EQ(listed.code, 0) << listed.err;
  EXPECT_NE(listed.out.find("\"classes\":[\"p\",\"q\",\"r\"]"), std::string::npos) << listed.out;
}

}  // namespace
}  // namespace irithyll::testing
