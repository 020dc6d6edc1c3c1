// Status and Result<T>: errors as values at every boundary (CSV, model bytes,
// checkpoints, configuration, CLI). Hot paths never return these; they assert.
//
// A Status is either OK or a code plus a human message that names what failed
// and where ("elec.csv:12:3: not a number: 'abc'"). Cheap to move; copying an
// error copies its message. Not thread-safe to share mutable instances.
#pragma once

#include <cassert>
#include <string>
#include <string_view>
#include <utility>
#include <optional>

namespace irithyll {

enum class StatusCode : unsigned char {
  kOk = 0,
  kInvalidArgument,
  kCorruption,
  kIOError,
  kNotSupported,
};

class Status {
 public:
  Status() = default;  // OK

  static Status ok() { return Status(); }
  static Status invalid_argument(std::string msg) { return Status(StatusCode::kInvalidArgument, std::move(msg)); }
  static Status corruption(std::string msg) { return Status(StatusCode::kCorruption, std::move(msg)); }
  static Status io_error(std::string msg) { return Status(StatusCode::kIOError, std::move(msg)); }
  static Status not_supported(std::string msg) { return Status(StatusCode::kNotSupported, std::move(msg)); }

  bool is_ok() const { return code_ == StatusCode::kOk; }
  explicit operator bool() const { return is_ok(); }
  StatusCode code() const { return code_; }
  const std::string& message() const { return message_; }

  // "invalid argument: <message>", or "OK".
  std::string to_string() const;

  // Prefixes the message with context ("loading model.ckpt: ..."); OK stays OK.
  Status with_context(std::string_view context) const;

 private:
  Status(StatusCode code, std::string msg) : code_(code), message_(std::move(msg)) {}
  StatusCode code_ = StatusCode::kOk;
  std::string message_;
};

// A value or the Status explaining why there is none (std::expected is C++23).
template <class T>
class Result {
 public:
  Result(T value) : value_(std::move(value)) {}              // NOLINT: implicit by design
  Result(Status status) : status_(std::move(status)) {        // NOLINT: implicit by design
    assert(!status_.is_ok() && "Result built from an OK status");
  }

  bool is_ok() const { return value_.has_value(); }
  explicit operator bool() const { return is_ok(); }

  const Status& status() const { return status_; }
  T& value() & { assert(is_ok()); return *value_; }
  const T& value() const& { assert(is_ok()); return *value_; }
  T&& value() && { assert(is_ok()); return std::move(*value_); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }

 private:
  Status status_;
  std::optional<T> value_;
};

}  // namespace irithyll

// Early return of a non-OK Status from a function returning Status or Result.
#define IRITHYLL_RETURN_IF_ERROR(expr)                      \
  do {                                                      \
    ::irithyll::Status irithyll_status_ = (expr);           \
    if (!irithyll_status_.is_ok()) return irithyll_status_; \
  } while (0)
