// `irithyll predict` with checkpoints that know their columns: features by
// header name (any order, through a pipe), class names and probabilities,
// missing and unknown columns named; and `eval --load` refusing model flags
// that would be silently ignored.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/file_io.hpp"
#include "irithyll/model_file.hpp"
#include "support/cli_runner.hpp"

namespace irithyll::testing {
namespace {

std::string table(int rows, bool reordered) {
  std::string text = reordered ? "label,x2,x1\n" : "x1,x2,label\n";
  for (int i = 0; i < rows; ++i) {
    const int a = (i * 37) % 50, b = (i * 11) % 20;
    const std::string y = a > 25 ? "HIGH" : "LOW";
    text += reordered ? y + "," + std::to_string(b) + "," + std::to_string(a) + "\n"
                      : std::to_string(a) + "," + std::to_string(b) + "," + y + "\n";
  }
  return text;
}

class PredictCli : public ::testing::Test {
 protected:
  void SetUp() override {
    train_ = write_temp_file("predict_train.csv", table(3000, false));
    ckpt_ = temp_path("predict.ckpt");
    auto r = run_cli("eval --data " + train_ + " --model loglinear --quiet --save " + ckpt_);
    ASSERT_EQ(r.code, 0) << r.err;
  }
  std::string train_, ckpt_;
};

TEST_F(PredictCli, ClassNamesByHeaderNameInAnyOrderThroughAPipe) {
  const std::string same = write_temp_file("predict_same.csv", table(100, false));
  const std::string swapped = write_temp_file("predict_swapped.csv", table(100, true));
  auto a = run_cli("predict --checkpoint " + ckpt_ + " --data " + same);
  auto b = run_cli("predict --checkpoint " + ckpt_ + " --data - < " + swapped);
  ASSERT_EQ(a.code, 0) << a.err;
  ASSERT_EQ(b.code, 0) << b.err;
  EXPECT_EQ(a.out, b.out);
  const auto lines = split_lines(a.out);
  ASSERT_EQ(lines.size(), 100u);
  EXPECT_TRUE(lines[0].rfind("HIGH,", 0) == 0 || lines[0].rfind("LOW,", 0) == 0) << lines[0];
  auto all = run_cli("predict --checkpoint " + ckpt_ + " --data " + same + " --proba");
  ASSERT_EQ(all.code, 0) << all.err;
  const auto rows = split_lines(all.out);
  ASSERT_EQ(rows.size(), 101u);
  EXPECT_EQ(rows[0], "prediction,HIGH,LOW");
}

TEST_F(PredictCli, MissingOrUnknownColumnsAreNamed) {
  const std::string missing = write_temp_file("predict_missing.csv", "x1,label\n1,LOW\n");
  auto m = run_cli("predict --checkpoint " + ckpt_ + " --data " + missing);
  EXPECT_NE(m.code, 0);
  EXPECT_NE(m.err.find("column 'x2' that the model was trained on is missing"), std::string::npos) << m.err;
  const std::string extra = write_temp_file("predict_extra.csv", "id,x1,x2\n7,1,2\n");
  auto e = run_cli("predict --checkpoint " + ckpt_ + " --data " + extra);
  EXPECT_NE(e.code, 0);
  EXPECT_NE(e.err.find("column 'id' is not a feature of the model (--drop it)"), std::string::npos) << e.err;
  auto dropped = run_cli("predict --checkpoint " + ckpt_ + " --data " + extra + " --drop id");
  EXPECT_EQ(dropped.code, 0) << dropped.err;
}

TEST_F(PredictCli, LoadRefusesModelFlagsThatWouldBeIgnored) {
  auto same = run_cli("eval --data " + train_ + " --load " + ckpt_ + " --model loglinear --quiet");
  EXPECT_EQ(same.code, 0) << same.err;
  auto other = run_cli("eval --data " + train_ + " --load " + ckpt_ + " --model sgbt --quiet");
  EXPECT_NE(other.code, 0);
  EXPECT_NE(other.err.find("the checkpoint holds a 'loglinear' model"), std::string::npos) << other.err;
  auto flags = run_cli("eval --data " + train_ + " --load " + ckpt_ + " --n-steps 9 --quiet");
  EXPECT_NE(flags.code, 0);
  EXPECT_NE(flags.err.find("--n-steps"), std::string::npos) << flags.err;
  const std::string swapped = write_temp_file("predict_swapped_train.csv", table(100, true));
  auto order = run_cli("eval --data " + swapped + " --target label --load " + ckpt_ + " --quiet");
  EXPECT_NE(order.code, 0);
  EXPECT_NE(order.err.find("another order"), std::string::npos) << order.err;
}

}  // namespace
}  // namespace irithyll::testing

namespace irithyll::testing {
namespace {

TEST_F(PredictCli, InspectTellsACheckpointFromOtherFiles) {
  auto c = run_cli("inspect " + ckpt_);
  ASSERT_EQ(c.code, 0) << c.err;
  EXPECT_NE(c.out.find("kind: checkpoint"), std::string::npos) << c.out;
  EXPECT_NE(c.out.find("learner: loglinear"), std::string::npos) << c.out;
  EXPECT_NE(c.out.find("class names: HIGH,LOW"), std::string::npos) << c.out;
  auto other = run_cli("inspect " + train_);
  EXPECT_NE(other.code, 0);
  EXPECT_NE(other.err.find("neither a packed model"), std::string::npos) << other.err;
}

TEST(VersionCli, PrintsVersionAndSimdLevel) {
  auto r = run_cli("--version");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.out.rfind("irithyll ", 0), 0u) << r.out;
  EXPECT_NE(r.out.find("simd: "), std::string::npos) << r.out;
}

}  // namespace
}  // namespace irithyll::testing

namespace irithyll::testing {
namespace {

// The schema record round-trips, and a damaged one is refused, not skipped.
TEST_F(PredictCli, CheckpointSchemaRecordRoundTripsAndIsChecked) {
  auto bytes = read_file_bytes(ckpt_);
  ASSERT_TRUE(bytes.is_ok());
  Schema schema;
  auto learner = decode_learner(*bytes, &schema);
  ASSERT_TRUE(learner.is_ok()) << learner.status().message();
  EXPECT_EQ(schema.feature_names, (std::vector<std::string>{"x1", "x2"}));
  EXPECT_EQ(schema.target_name, "label");
  EXPECT_EQ(schema.class_names, (std::vector<std::string>{"HIGH", "LOW"}));
  // Without the record the same learner state decodes and the schema is empty.
  const std::vector<std::uint8_t> plain = encode_learner(**learner);
  Schema none;
  ASSERT_TRUE(decode_learner(plain, &none).is_ok());
  EXPECT_TRUE(none.feature_names.empty());
  // A record cut short is corruption (resealed so the checksum passes).
  const std::vector<std::uint8_t> full = encode_learner(**learner, &schema);
  auto payload = open_checkpoint(full);
  ASSERT_TRUE(payload.is_ok());
  std::vector<std::uint8_t> cut(payload->begin(), payload->end() - 3);
  auto refused = decode_learner(seal_checkpoint(cut));
  EXPECT_FALSE(refused.is_ok());
}

}  // namespace
}  // namespace irithyll::testing
