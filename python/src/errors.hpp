// The one place a library Status becomes a Python exception. Every binding
// calls check()/take(); the library itself never throws, so this is the
// only exception source on the C++ side besides pybind11's own conversions.
#pragma once

#include <pybind11/pybind11.h>

#include <utility>

#include "irithyll/core/status.hpp"

namespace irithyll::python {

// invalid argument / corruption -> ValueError, I/O -> OSError,
// not supported -> NotImplementedError; the message is the library's.
[[noreturn]] void raise_status(const Status& status);

inline void check(const Status& status) {
  if (!status) raise_status(status);
}

template <class T>
T take(Result<T>&& result) {
  if (!result) raise_status(result.status());
  return std::move(result).value();
}

void bind_learner(pybind11::module_& m);
void bind_bandit(pybind11::module_& m);
void bind_drift(pybind11::module_& m);
void bind_packed(pybind11::module_& m);
void bind_timeseries(pybind11::module_& m);
void bind_anomaly(pybind11::module_& m);
void bind_cluster(pybind11::module_& m);
void bind_transformer(pybind11::module_& m);

}  // namespace irithyll::python
