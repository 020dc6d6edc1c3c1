// Helpers shared by the serve tests: a labelled sample stream with keys, and
// the single-process reference that learns each key's samples in order.
#pragma once

#include <gtest/gtest.h>

#include <map>
#include <set>
#include <string>
#include <vector>

#include "irithyll/catalogue.hpp"
#include "irithyll/model_file.hpp"
#include "irithyll/pipeline_spec.hpp"
#include "serve/log.hpp"
#include "serve/message.hpp"
#include "serve/produce.hpp"
#include "serve/worker.hpp"
#include "irithyll/stream/generators.hpp"

namespace irithyll::serve::test {

// A small, quick SGBT so thousands of keys learn in seconds.
inline ModelSettings small_sgbt() { return ModelSettings{{"n-steps", "3"}, {"grace-period", "50"}}; }

struct Sample {
  std::string key;
  std::vector<double> x;
  double y;
};

// The samples produce() sends for generator `name` (same seed, keys, order).
inline std::vector<Sample> generate(const std::string& name, std::uint64_t seed, std::uint64_t n, std::uint64_t keys) {
  auto stream = make_generator(name, seed, n);
  EXPECT_TRUE(stream.is_ok());
  std::vector<Sample> out;
  std::vector<double> x((*stream)->schema().n_features());
  double y = 0;
  for (std::uint64_t i = 0; i < n && (*stream)->next(x, y); ++i) out.push_back(Sample{sample_key(i, keys, seed), x, y});
  return out;
}

struct Reference {
  std::map<std::string, std::vector<std::uint8_t>> model;  // key -> checkpoint bytes
  std::map<std::string, std::uint64_t> learned;
};

inline Reference learn_reference(const std::vector<Sample>& samples, const std::string& model,
                                 const ModelSettings& settings, const LearnerContext& context) {
  std::map<std::string, std::unique_ptr<Learner>> learners;
  Reference ref;
  for (const Sample& s : samples) {
    auto& l = learners[s.key];
    if (!l)
      l = std::move(is_pipeline_spec(model) ? make_pipeline(model, settings, context, {})
                                            : make_learner(model, settings, context))
              .value();
    l->learn_one(s.x, s.y);
    ++ref.learned[s.key];
  }
  for (auto& [key, l] : learners) ref.model[key] = encode_learner(*l);
  return ref;
}

// Every key's record in every partition's checkpoint hash.
inline std::map<std::string, KeyRecord> checkpointed(StateStore& store, const StreamNames& names,
                                                     std::uint32_t partitions) {
  std::map<std::string, KeyRecord> out;
  for (std::uint32_t p = 0; p < partitions; ++p) {
    auto all = store.hash_get_all(names.checkpoint(p));
    EXPECT_TRUE(all.is_ok()) << all.status().to_string();
    if (!all) continue;
    for (const auto& [field, value] : *all) {
      if (field.rfind("k:", 0) != 0) continue;
      auto rec = decode_key_record(value);
      EXPECT_TRUE(rec.is_ok());
      if (rec) out[field.substr(2)] = std::move(*rec);
    }
  }
  return out;
}

// Byte-for-byte: every key's model and learned count match the reference.
inline void expect_matches(const std::map<std::string, KeyRecord>& got, const Reference& ref) {
  ASSERT_EQ(got.size(), ref.model.size());
  std::size_t mismatched = 0;
  for (const auto& [key, bytes] : ref.model) {
    auto it = got.find(key);
    ASSERT_NE(it, got.end()) << key;
    EXPECT_EQ(it->second.learned, ref.learned.at(key)) << key;
    if (it->second.model != bytes) ++mismatched;
  }
  EXPECT_EQ(mismatched, 0u) << "keys whose model bytes differ from the single-process reference";
}

inline const std::string kCli = std::string(IRITHYLL_BINARY_DIR) + "/irithyll";

// `irithyll serve` with the small SGBT on the 10-feature friedman stream;
// commits every 200 ms, each key rewritten every 0.5-1 s (at its own phase),
// so a crash replays entries per key from different positions.
inline std::vector<std::string> serve_args(const std::string& address, std::uint32_t partitions) {
  return {kCli, "serve", "--redis", address, "--partitions", std::to_string(partitions), "--features", "10",
          "--model", "sgbt", "--n-steps", "3", "--grace-period", "50", "--seed", "7", "--lease-ms", "1000",
          "--checkpoint-ms", "200", "--key-checkpoint-ms", "1000", "--metrics-ms", "100"};
}

// Sample ids with a prediction in the output streams; every repeat must
// carry the same value (predictions are idempotent by sample id).
inline std::set<std::string> predicted_ids(Log& log, const StreamNames& names, std::uint32_t partitions) {
  std::map<std::string, std::string> value;
  for (std::uint32_t p = 0; p < partitions; ++p) {
    auto entries = log.range(names.output(p), 10000000);
    EXPECT_TRUE(entries.is_ok());
    if (!entries) continue;
    for (const auto& e : *entries) {
      const std::string& id = e.fields.at(0).second;
      auto [it, fresh] = value.emplace(id, e.fields.at(2).second);
      if (!fresh && it->second != e.fields.at(2).second) {
        ADD_FAILURE() << "partition " << p << " entry " << e.id << ": republished prediction of " << id << " (key "
                      << e.fields.at(1).second << ") differs: " << it->second << " then " << e.fields.at(2).second;
      }
    }
  }
  std::set<std::string> ids;
  for (const auto& [id, v] : value) ids.insert(id);
  return ids;
}

}  // namespace irithyll::serve::test
