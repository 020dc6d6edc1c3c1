// Clusterer: the interface of the unsupervised models (streaming k-means,
// CluStream, DBStream). Each sample is learned once and dropped; the model
// keeps centres (k-means), or micro-clusters summarised into macro clusters
// (CluStream, DBStream), and assigns a new point to a cluster id.
//
//   auto model = make_clusterer("kmeans", {{"n-clusters", "3"}}, /*seed=*/7);
//   for (row : rows) (*model)->learn_one(row);
//   std::int64_t id = (*model)->predict_one(row);   // -1: no cluster yet
//
// Samples. The first learned row fixes n_features(); a row of another width
// is refused (InvalidArgument naming both widths, state unchanged). A row
// holding NaN or an infinity, or a weight that is not a positive finite
// number, is ignored: learn_one returns OK, learns nothing and counts it in
// n_ignored(), so a stream with missing cells never corrupts the centres.
//
// Checkpoints. encode() writes the complete state (configuration, seed,
// random generator, every statistic); decode() into a blank instance of the
// same kind continues bit-identically. save_clusterer()/load_clusterer() wrap
// that in a self-describing, checksummed record; hostile bytes are refused
// with a Corruption status, never a crash or a hang.
//
// Determinism: the same seed, settings and rows give the same bytes.
// Thread safety: none; const methods may run concurrently with each other.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "irithyll/core/bytes.hpp"
#include "irithyll/core/config_fields.hpp"
#include "irithyll/core/status.hpp"

namespace irithyll {

class Clusterer {
 public:
  virtual ~Clusterer() = default;

  virtual std::string_view name() const = 0;

  // Learns one sample (rules in the banner).
  virtual Status learn_one(std::span<const double> x, double weight = 1.0) = 0;
  // The cluster id of x: an index into centers(). -1 when there is no
  // cluster yet, or x has the wrong width or a non-finite value.
  virtual std::int64_t predict_one(std::span<const double> x) const = 0;

  virtual std::size_t n_clusters() const = 0;
  // The cluster centres, n_clusters() rows of n_features() values, row-major.
  virtual std::vector<double> centers() const = 0;

  virtual std::size_t n_features() const = 0;  // 0 before the first sample
  virtual std::uint64_t n_samples_seen() const = 0;
  virtual std::uint64_t n_ignored() const = 0;  // rows with non-finite values or weights
  virtual std::size_t memory_bytes() const = 0;
  // Back to the freshly built state (same settings, generator re-seeded).
  virtual void reset() = 0;

  // The settings as the model's field table prints them (registry.hpp).
  virtual ModelSettings settings() const = 0;
  virtual std::uint64_t seed() const = 0;

  // The settings by name from the model's field table (encode_config), then
  // the state.
  virtual void encode(ByteWriter& out) const = 0;
  // Replaces this model's state; on error the model is reset.
  virtual Status decode(ByteReader& in) = 0;
  // Checkpoint format 1 wrote the settings as fixed binary fields.
  virtual Status decode_v1(ByteReader& in) = 0;
};

// A checkpoint: "IRCL", format version, the model's name, its encode(), and a
// CRC-32 of everything before it (little-endian).
std::vector<std::uint8_t> save_clusterer(const Clusterer& model);
Result<std::unique_ptr<Clusterer>> load_clusterer(std::span<const std::uint8_t> bytes);

namespace cluster_detail {

// What every clusterer counts about its input, and the one check of a row.
struct SampleGate {
  std::size_t n_features = 0;
  std::uint64_t n_seen = 0;
  std::uint64_t n_ignored = 0;

  // OK and learn = true: learn the row (n_seen was counted, the width fixed).
  // OK and learn = false: ignored (non-finite). Error: wrong width.
  Status admit(std::string_view model, std::span<const double> x, double weight, bool& learn);
  // True when x can be assigned (right width, every value finite).
  bool can_predict(std::span<const double> x) const;
  void encode(ByteWriter& out) const;
  // Bounds the width by max_features.
  void decode(ByteReader& in);
};

}  // namespace cluster_detail
}  // namespace irithyll
