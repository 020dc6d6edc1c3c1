// The reading options every command that takes --data shares (separator,
// header, format, column selection, classes, look-ahead), declared once so
// that eval, compare, drift and predict spell and document them alike.
#pragma once

#include <string>
#include <vector>

#include "args.hpp"
#include "irithyll/stream/table_stream.hpp"

namespace irithyll::cli {

// Declares --format --sep --no-header --features --drop --categorical
// --classes --max-classes --lookahead (not --data, --target or --task: each
// command words those itself).
void declare_data_options(ArgParser& p);
// TableOptions from those options plus --target/--task when the parser has them.
// several_targets: --target may list several columns (a,b,c: multi-target
// regression); else a list is refused.
Result<TableOptions> read_data_options(const ArgParser& args, bool several_targets = false);
// A loaded model's category dictionaries (its checkpoint's schema) into the
// reader's options, so the file's categories get the codes the model learned.
void seed_known_categories(TableOptions& options, const Schema& stored);
// "a,b,c" -> {"a","b","c"} (no quoting: names with commas need the header fixed).
std::vector<std::string> split_list(const std::string& text);
// After a run: the count and first errors of rows passed over by
// --on-error skip, on stderr (nothing when none were).
void report_skipped_rows(const Stream& stream);
// The file `stream` reads, through any wrappers (a --subsample reservoir);
// nullptr when it reads none.
const TableStream* source_table(const Stream& stream);
// After predicting with a loaded model that does not learn: per text column,
// the values the model never saw in training (the reader gave them new
// codes, which the model reads as a missing value), one line each on stderr
// with the first few values (nothing when every value was known).
void report_unseen_categories(const Stream& stream, const Schema& stored);
// Right after opening: how columns with decorated numbers (decimal comma,
// thousands separators, '%', currency) are read, and warnings on columns
// that look like ids or free text, one line each on stderr.
void report_column_notes(const Stream& stream);

}  // namespace irithyll::cli
