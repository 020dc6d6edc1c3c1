#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>

#include "core/file_io.hpp"
#include "irithyll/catalogue.hpp"
#include "irithyll/model_file.hpp"

namespace irithyll {
namespace {

std::vector<std::uint8_t> sample_payload() {
  ByteWriter w;
  w.str("pipeline-or-whatever");
  for (int i = 0; i < 100; ++i) w.f64(i * 0.5);
  return w.take();
}

TEST(CheckpointContainer, SealThenOpenReturnsThePayload) {
  const auto payload = sample_payload();
  const auto file = seal_checkpoint(payload);
  ASSERT_EQ(file.size(), payload.size() + kCheckpointHeaderBytes);
  EXPECT_EQ(file[0], 'I');
  EXPECT_EQ(file[1], 'R');
  EXPECT_EQ(file[2], 'C');
  EXPECT_EQ(file[3], 'K');
  auto opened = open_checkpoint(file);
  ASSERT_TRUE(opened.is_ok()) << opened.status().to_string();
  EXPECT_TRUE(std::equal(opened->begin(), opened->end(), payload.begin(), payload.end()));
}

TEST(CheckpointContainer, EveryTruncationIsRefused) {
  const auto file = seal_checkpoint(sample_payload());
  for (std::size_t n = 0; n < file.size(); ++n) {
    auto r = open_checkpoint(std::span(file.data(), n));
    EXPECT_FALSE(r.is_ok()) << "accepted a file truncated to " << n << " bytes";
  }
}

TEST(CheckpointContainer, EverySingleByteCorruptionIsRefused) {
  const auto file = seal_checkpoint(sample_payload());
  for (std::size_t i = 0; i < file.size(); ++i) {
    if (i >= 20 && i < 24) continue;  // reserved field: not checked
    auto bad = file;
    bad[i] ^= 0x5A;
    EXPECT_FALSE(open_checkpoint(bad).is_ok()) << "accepted corruption at byte " << i;
  }
}

TEST(CheckpointContainer, WrongVersionIsNamed) {
  auto file = seal_checkpoint(sample_payload());
  file[4] = 9;
  auto r = open_checkpoint(file);
  ASSERT_FALSE(r.is_ok());
  EXPECT_EQ(r.status().code(), StatusCode::kNotSupported);
  EXPECT_NE(r.status().message().find("version 9"), std::string::npos);
}

TEST(CheckpointContainer, UnknownLearnerKindIsRefused) {
  ByteWriter w;
  w.str("no-such-model");
  auto r = decode_learner(seal_checkpoint(w.data()));
  ASSERT_FALSE(r.is_ok());
  EXPECT_NE(r.status().message().find("no-such-model"), std::string::npos);
}

TEST(AtomicWrite, ReplacesTheFileAndLeavesNoTemporary) {
  const auto dir = std::filesystem::temp_directory_path() / "irithyll_atomic_test";
  std::filesystem::create_directories(dir);
  const std::string path = (dir / "m.ckpt").string();
  const std::vector<std::uint8_t> a = {1, 2, 3}, b = {4, 5, 6, 7};
  ASSERT_TRUE(write_file_atomic(path, a).is_ok());
  ASSERT_TRUE(write_file_atomic(path, b).is_ok());
  auto back = read_file_bytes(path);
  ASSERT_TRUE(back.is_ok());
  EXPECT_EQ(*back, b);
  std::size_t entries = 0;
  for ([[maybe_unused]] auto& e : std::filesystem::directory_iterator(dir)) ++entries;
  EXPECT_EQ(entries, 1u);
  std::filesystem::remove_all(dir);
}

TEST(AtomicWrite, FailureLeavesTheTargetUntouched) {
  // A directory that does not exist: the temporary cannot be created.
  auto s = write_file_atomic("/nonexistent-dir-irithyll/m.ckpt", std::vector<std::uint8_t>{1});
  EXPECT_FALSE(s.is_ok());
  EXPECT_EQ(s.code(), StatusCode::kIOError);
}

// The schema's category dictionaries round-trip (record version 2); a schema
// without any is still written as version 1; every truncation is refused.
TEST(CheckpointSchema, CategoryDictionariesRoundTripAndTruncationIsRefused) {
  auto learner = make_learner("hoeffding_tree", {}, LearnerContext{Task::kClassification, 2, 3, 1});
  ASSERT_TRUE(learner.is_ok());
  const double x[3] = {0.0, 1.0, 0.5};
  (*learner)->learn_one(x, 1.0);
  Schema schema;
  schema.task = Task::kClassification;
  schema.feature_names = {"colour", "size", "noise"};
  schema.class_names = {"no", "yes"};
  schema.target_name = "label";
  const auto plain = encode_learner(**learner, &schema);
  schema.category_values = {{"red", "green", "blue"}, {}, {}};
  schema.category_values[1] = {"S", "M"};
  const auto bytes = encode_learner(**learner, &schema);
  Schema back;
  ASSERT_TRUE(decode_learner(bytes, &back).is_ok());
  EXPECT_EQ(back.category_values, schema.category_values);
  EXPECT_EQ(back.feature_names, schema.feature_names);
  Schema old;
  ASSERT_TRUE(decode_learner(plain, &old).is_ok());
  EXPECT_TRUE(old.category_values.empty());
  // The version field follows the "SCHM" tag: 1 without dictionaries, 2 with.
  auto version_after_tag = [](const std::vector<std::uint8_t>& b) {
    for (std::size_t i = b.size(); i-- > 4;)
      if (b[i - 4] == 'S' && b[i - 3] == 'C' && b[i - 2] == 'H' && b[i - 1] == 'M') return static_cast<int>(b[i]);
    return -1;
  };
  EXPECT_EQ(version_after_tag(plain), 1);
  EXPECT_EQ(version_after_tag(bytes), 2);
  for (std::size_t n = 0; n < bytes.size(); n += 7)
    EXPECT_FALSE(decode_learner(std::span(bytes.data(), n)).is_ok()) << n;
}

TEST(LoadLearner, MissingFileIsAnIOError) {
  auto r = load_learner("/nonexistent-dir-irithyll/none.ckpt");
  ASSERT_FALSE(r.is_ok());
  EXPECT_EQ(r.status().code(), StatusCode::kIOError);
}

}  // namespace
}  // namespace irithyll
