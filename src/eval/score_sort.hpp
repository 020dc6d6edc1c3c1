// Internal: sorts finite doubles ascending (ROC AUC's buffered scores) by
// their bits, least significant digit first: six counting passes of 11 bits
// over keys that order as the values do, skipping a pass whose digit is the
// same in every key (the high digits, for scores of one sign and magnitude).
// For n in the thousands this is several times std::sort. Equal finite
// values other than 0 have equal bits, so any correct sort gives the same
// array; the caller folds -0 into +0 first. Scratch grows to 2n keys and is
// kept for the next call.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

namespace irithyll::eval_detail {

// REQUIRES: every value finite and no -0.0.
void sort_scores(std::span<double> values, std::vector<std::uint64_t>& scratch);
// The plain version the tests compare against: std::sort.
void sort_scores_ref(std::span<double> values);

}  // namespace irithyll::eval_detail
