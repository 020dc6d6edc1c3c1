// DictRow: the feature order that turns a River-style dict sample into the
// dense row the library expects, shared by every binding that reads dicts
// (learners, transformers). The dict keys fixed by set_features give the
// row's slots in order; a missing key or None is NaN (a missing value every
// model and transformer tolerates); text takes a category code per feature
// (0, 1, ... in order of first appearance while learning, as the CLI reads a
// text column; a text first seen outside learning is NaN). It lives in C++
// because it is the per-sample cost that decides whether a Python loop keeps
// up with the CLI.
#pragma once

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstddef>
#include <functional>
#include <limits>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace irithyll::python {

class DictRow {
 public:
  static constexpr double kMissing = std::numeric_limits<double>::quiet_NaN();

  // Fixes the dict keys read, in order; the row has one slot per key.
  void set_features(const pybind11::list& keys) {
    keys_.clear();
    for (const auto& k : keys) keys_.push_back(pybind11::reinterpret_borrow<pybind11::object>(k));
    row_.assign(keys_.size(), kMissing);
    codes_.assign(keys_.size(), CodeTable{});
  }
  pybind11::list features() const {
    pybind11::list out;
    for (const auto& k : keys_) out.append(k);
    return out;
  }
  std::size_t size() const { return keys_.size(); }

  // Per feature, its text categories in code order (empty for numeric features).
  std::vector<std::vector<std::string>> code_tables() const {
    std::vector<std::vector<std::string>> out;
    for (const CodeTable& table : codes_) {
      std::vector<std::string>& names = out.emplace_back(table.size());
      for (const auto& [text, code] : table) names[static_cast<std::size_t>(code)] = text;
    }
    return out;
  }
  pybind11::list codes() const { return pybind11::cast(code_tables()); }
  void set_codes(const std::vector<std::vector<std::string>>& tables) {
    if (tables.size() != keys_.size())
      throw pybind11::value_error("set_codes: " + std::to_string(tables.size()) + " tables for " +
                                  std::to_string(keys_.size()) + " features");
    for (std::size_t i = 0; i < tables.size(); ++i) {
      codes_[i].clear();
      for (const std::string& text : tables[i])
        if (!codes_[i].emplace(text, static_cast<double>(codes_[i].size())).second)
          throw pybind11::value_error("set_codes: category " +
                                      pybind11::repr(pybind11::str(text)).cast<std::string>() +
                                      " listed twice for feature " + pybind11::repr(keys_[i]).cast<std::string>());
    }
  }

  // Reads x into the row (see the file comment); another non-number raises
  // TypeError naming the key. Returns true when x held a key outside the
  // feature set. `who` (the model's name) heads the warning given once when
  // a sample shares no key with the feature set.
  bool fill(const pybind11::dict& x, std::string_view who, bool learning = false) {
    std::size_t found = 0;
    for (std::size_t i = 0; i < keys_.size(); ++i) {
      PyObject* v = PyDict_GetItemWithError(x.ptr(), keys_[i].ptr());
      if (v == nullptr) {
        if (PyErr_Occurred()) throw pybind11::error_already_set();
        row_[i] = kMissing;
        continue;
      }
      ++found;
      if (PyFloat_CheckExact(v)) {
        row_[i] = PyFloat_AS_DOUBLE(v);
      } else if (v == Py_None) {
        row_[i] = kMissing;
      } else if (PyUnicode_Check(v) || PyBytes_Check(v)) {
        row_[i] = code_of(i, v, learning);
      } else {
        const double d = PyFloat_AsDouble(v);
        if (d == -1.0 && PyErr_Occurred()) {
          PyErr_Clear();
          throw pybind11::type_error("feature " + pybind11::repr(keys_[i]).cast<std::string>() +
                                     " is not a number: " + pybind11::repr(v).cast<std::string>());
        }
        row_[i] = d;
      }
    }
    const auto size = static_cast<std::size_t>(PyDict_Size(x.ptr()));
    if (found == 0 && size > 0 && !keys_.empty() && !warned_disjoint_) warn_disjoint(who);
    return size > found;
  }
  // The row the last fill() wrote.
  std::span<const double> row() const { return row_; }

 private:
  // Lookups take a string_view, so reading a known category allocates nothing.
  struct TextHash {
    using is_transparent = void;
    std::size_t operator()(std::string_view s) const noexcept { return std::hash<std::string_view>{}(s); }
  };
  using CodeTable = std::unordered_map<std::string, double, TextHash, std::equal_to<>>;

  // A sample sharing no key with the model is read as all-missing: said once
  // per model, since a renamed or misspelt feature set otherwise predicts on
  // nothing without a word.
  void warn_disjoint(std::string_view who) {
    warned_disjoint_ = true;
    std::string known;
    for (std::size_t i = 0; i < keys_.size() && i < 5; ++i)
      known += (i ? ", " : "") + pybind11::repr(keys_[i]).cast<std::string>();
    if (keys_.size() > 5) known += ", ...";
    const std::string msg = std::string(who) + ": the sample shares no feature with the model (it knows " + known +
                            "); every feature is read as missing";
    if (PyErr_WarnEx(PyExc_UserWarning, msg.c_str(), 1) != 0) throw pybind11::error_already_set();
  }

  double code_of(std::size_t i, PyObject* v, bool learning) {
    Py_ssize_t size = 0;
    const char* text = nullptr;
    if (PyUnicode_Check(v)) {
      text = PyUnicode_AsUTF8AndSize(v, &size);
    } else {
      char* bytes = nullptr;
      if (PyBytes_AsStringAndSize(v, &bytes, &size) == 0) text = bytes;
    }
    if (text == nullptr) throw pybind11::error_already_set();
    CodeTable& table = codes_[i];
    const std::string_view key(text, static_cast<std::size_t>(size));
    const auto it = table.find(key);
    if (it != table.end()) return it->second;
    if (!learning) return kMissing;
    const double code = static_cast<double>(table.size());
    table.emplace(std::string(key), code);
    return code;
  }

  std::vector<pybind11::object> keys_;
  std::vector<double> row_;
  std::vector<CodeTable> codes_;
  bool warned_disjoint_ = false;
};

}  // namespace irithyll::python
