// Pipelines from the command line: `--model "one_hot|standard_scaler|
// logistic_regression"` in eval, compare and predict, a text column reaching
// one_hot / target_encoder / feature_hasher by name, a checkpoint of a
// pipeline resuming exactly, `irithyll models` listing the transformers, and
// malformed pipelines refused with a message.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>

#include "irithyll/core/rng.hpp"
#include "support/cli_runner.hpp"

namespace irithyll::testing {
namespace {

// y = yes iff the colour is in a scattered half of 16 names: linear in the
// colour's indicators, hopeless for a linear model on its code.
std::string colour_rows(int rows, std::uint64_t seed) {
  static const char* kNames[] = {"red",  "green", "blue",  "cyan",  "pink", "gold",  "grey", "navy",
                                 "lime", "teal",  "olive", "coral", "plum", "khaki", "mint", "rust"};
  std::string csv;
  Xorshift64 rng(seed);
  for (int i = 0; i < rows; ++i) {
    const auto c = static_cast<int>(rng.uniform() * 16.0);
    const bool y = ((0x6A93u >> c) & 1u) != 0;
    csv += std::string(kNames[c]) + "," + std::to_string(rng.uniform() * 100.0) + "," + (y ? "yes" : "no") + "\n";
  }
  return csv;
}

const std::string kHeader = "colour,noise,label\n";

TEST(PipelineCli, TextColumnReachesOneHotByName) {
  const std::string data = write_temp_file("pipe_colours.csv", kHeader + colour_rows(4000, 9));
  const auto piped = run_cli("eval --quiet --data " + data +
                             " --model 'one_hot(columns=colour)|standard_scaler|logistic_regression'");
  ASSERT_EQ(piped.code, 0) << piped.err;
  const auto plain = run_cli("eval --quiet --data " + data + " --model logistic_regression");
  ASSERT_EQ(plain.code, 0) << plain.err;
  EXPECT_GT(accuracy_in(piped.out), 0.95) << piped.out;
  EXPECT_LT(accuracy_in(plain.out), accuracy_in(piped.out) - 0.2) << plain.out;
  EXPECT_NE(piped.out.find("categorical  colour (category codes"), std::string::npos) << piped.out;
  // The default columns are the text columns; the other encoders take it too.
  for (const char* model : {"one_hot|logistic_regression", "target_encoder|logistic_regression",
                            "feature_hasher(n-buckets=64)|logistic_regression"}) {
    const auto r = run_cli("eval --quiet --data " + data + " --model '" + model + "'");
    ASSERT_EQ(r.code, 0) << model << r.err;
    EXPECT_GT(accuracy_in(r.out), 0.9) << model << r.out;
  }
  std::remove(data.c_str());
}

TEST(PipelineCli, LearnerOptionsAndCheckpointResumeExactly) {
  const std::string first = write_temp_file("pipe_a.csv", kHeader + colour_rows(1500, 1));
  const std::string second = write_temp_file("pipe_b.csv", kHeader + colour_rows(1500, 2));
  const std::string whole = write_temp_file("pipe_ab.csv", kHeader + colour_rows(1500, 1) + colour_rows(1500, 2));
  const std::string ck = temp_path("pipe.irck"), p_whole = temp_path("pipe_whole.txt"),
                    p_resumed = temp_path("pipe_resumed.txt");
  const std::string model = " --model 'one_hot|min_max|logistic_regression' --learning-rate 0.05";
  const auto w = run_cli("eval --quiet --data " + whole + model + " --predictions " + p_whole);
  ASSERT_EQ(w.code, 0) << w.err;
  const auto a = run_cli("eval --quiet --data " + first + model + " --save " + ck);
  ASSERT_EQ(a.code, 0) << a.err;
  const auto b = run_cli("eval --quiet --data " + second + " --load " + ck + " --predictions " + p_resumed);
  ASSERT_EQ(b.code, 0) << b.err;
  const auto lw = split_lines(read_text_file(p_whole)), lr = split_lines(read_text_file(p_resumed));
  ASSERT_EQ(lr.size() + 1500, lw.size());
  for (std::size_t i = 0; i < lr.size(); ++i) ASSERT_EQ(lr[i], lw[i + 1500]) << "row " << i;
  // Restating the pipeline beside --load is accepted; learner options are not.
  EXPECT_EQ(run_cli("eval --quiet --data " + second + " --load " + ck + " --model 'one_hot|min_max|logistic_regression'").code, 0);
  EXPECT_NE(run_cli("eval --quiet --data " + second + " --load " + ck + " --learning-rate 0.1").code, 0);
  // predict runs the saved pipeline on the raw columns.
  const auto p = run_cli("predict --checkpoint " + ck + " --data " + second);
  ASSERT_EQ(p.code, 0) << p.err;
  EXPECT_EQ(split_lines(p.out).size(), 1500u) << p.out.substr(0, 200);
  for (const auto& f : {first, second, whole, ck, p_whole, p_resumed}) std::remove(f.c_str());
}

TEST(PipelineCli, CompareAcceptsPipelinesBesideModels) {
  const auto r = run_cli("compare --stream sea --max-samples 3000 --models "
                         "'standard_scaler|logistic_regression,polynomial(bias=on)|min_max|logistic_regression,"
                         "logistic_regression(learning-rate=0.05),attention_features(d-model=8)|logistic_regression'");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("standard_scaler|logistic_regression"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("polynomial(bias=on)|min_max|logistic_regression"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("attention_features(d-model=8)|logistic_regression"), std::string::npos) << r.out;
}

TEST(PipelineCli, ModelsListsTransformersWithTheirSettings) {
  const auto all = run_cli("models");
  ASSERT_EQ(all.code, 0) << all.err;
  EXPECT_NE(all.out.find("transformers (pipeline steps)"), std::string::npos);
  for (const char* t : {"attention_features", "one_hot", "min_max", "normalizer", "feature_hasher", "polynomial",
                        "target_encoder", "ccipca", "feature_selector", "standard_scaler"})
    EXPECT_NE(all.out.find(std::string("\n") + t + "  "), std::string::npos) << t;
  const auto one = run_cli("models one_hot");
  ASSERT_EQ(one.code, 0) << one.err;
  EXPECT_NE(one.out.find("--max-categories"), std::string::npos) << one.out;
  const auto json = run_cli("models --json");
  ASSERT_EQ(json.code, 0);
  EXPECT_NE(json.out.find("\"transformers\":[{\"name\":\"attention_features\""), std::string::npos);
}

TEST(PipelineCli, MalformedPipelinesAreRefusedWithAMessage) {
  struct Bad {
    const char* model;
    const char* says;
  };
  for (const Bad& b : {Bad{"one_hot(|logistic_regression", "unbalanced"},
                       Bad{"scaler|logistic_regression", "unknown transformer 'scaler'"},
                       Bad{"min_max|sgbt|logistic_regression", "is a learner"},
                       Bad{"min_max(lo=5)|logistic_regression", "lo = 5"},
                       Bad{"min_max|no_such_model", "unknown model"},
                       Bad{"one_hot(columns=nope)|logistic_regression", "no column 'nope'"}}) {
    const auto r = run_cli("eval --quiet --stream sea --max-samples 100 --model '" + std::string(b.model) + "'");
    EXPECT_NE(r.code, 0) << b.model;
    EXPECT_NE(r.err.find(b.says), std::string::npos) << b.model << ": " << r.err;
  }
}

}  // namespace
}  // namespace irithyll::testing
