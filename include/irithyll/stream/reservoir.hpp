// Uniform subsampling of a stream that keeps its order: Algorithm R (Vitter
// 1985, "Random sampling with a reservoir") chooses k of n items in one pass
// with memory k, each k-subset equally likely; the chosen items are then
// delivered in their original order, so a model trained on the sample sees
// time run forward. For training on a bounded slice of a stream too long to
// learn whole, and for `irithyll eval --subsample N`.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "irithyll/stream/stream.hpp"

namespace irithyll {

// k of the indices 0..n-1, ascending, drawn by Algorithm R from a generator
// seeded with `seed` (the same seed gives the same sample); all n when k >= n.
std::vector<std::size_t> reservoir_indices(std::size_t n, std::size_t k, std::uint64_t seed);

// A stream of k rows of `inner`, uniformly chosen and in inner's order. The
// first next() reads inner to its end (after skipping `skip` rows, and reading
// at most `limit` rows when given), holding k rows in memory. An error of
// inner ends this stream before any row with inner's status (its row and
// reason), since no sample exists until the last row is read. REQUIRES: k >= 1.
std::unique_ptr<Stream> reservoir_sample(std::unique_ptr<Stream> inner, std::size_t k, std::uint64_t seed,
                                         std::uint64_t skip = 0, std::optional<std::uint64_t> limit = {});

}  // namespace irithyll
