// Read-ahead for table streams: the rows of a file are read, split and
// parsed on a second thread, in batches, while the caller predicts and
// learns from the rows before them. On two cores a fast learner (linear
// models, naive Bayes) then waits on neither: the reader and the learner
// overlap instead of taking turns.
//
// The rows, their order, the errors (at the same row, with the same
// message) and every count reported are those of the stream read directly:
// a stream stopped early (--max-samples) reports the skipped rows and
// ignored keys as they stood at the last row delivered, whatever the
// reader thread met beyond it. Only the work moves.
//
// For regular files, one target: a live source (standard input, a pipe)
// decides its own look-ahead by what has arrived and is read directly.
// The schema's category dictionaries grow as the reader meets new values;
// a caller that stops before the end calls stop_read_ahead() before it
// reads them (or any count) again.
//
// If the thread cannot be started the rows are read on the caller's thread.
// Not thread-safe itself: one consumer.
#pragma once

#include <memory>

#include "irithyll/stream/table_stream.hpp"

namespace irithyll {

std::unique_ptr<TableStream> read_ahead(std::unique_ptr<TableStream> inner);

// Stops and joins the reader thread of a stream made by read_ahead (nothing
// for any other stream); idempotent.
void stop_read_ahead(const TableStream& stream);

}  // namespace irithyll
