// External and internal scores of a clustering over a finite set of points
// (a window of a stream): purity and the adjusted Rand index against true
// labels, and the mean silhouette from the points alone.
//
// Cluster ids and labels are any integers; an id of -1 (noise, no cluster) is
// a cluster of its own for purity and ARI and is left out of the silhouette.
// Cost: purity and ARI O(n + distinct pairs); silhouette O(n^2 d), so callers
// keep the window small (the CLI's default is 1,000 rows).
#pragma once

#include <cstdint>
#include <span>

namespace irithyll {

// Share of points whose cluster's most frequent label is their own, in [0, 1]
// (1 for an empty set).
double cluster_purity(std::span<const std::int64_t> clusters, std::span<const std::int64_t> labels);

// Hubert & Arabie's (1985) adjusted Rand index: 1 for identical partitions,
// about 0 for independent ones; 1 when both are a single block (and for fewer
// than two points), as scikit-learn's adjusted_rand_score.
double adjusted_rand_index(std::span<const std::int64_t> clusters, std::span<const std::int64_t> labels);

// Mean silhouette (Rousseeuw 1987) with Euclidean distance over the points
// (n x d row-major) whose id is not -1; a point alone in its cluster scores 0.
// 0 when fewer than two clusters have points, as there is nothing to compare.
double silhouette_score(std::span<const double> points, std::size_t d, std::span<const std::int64_t> clusters);

}  // namespace irithyll
