// _core.BanditPolicy: a thin wrapper over the library's bandit policies
// (bandit_policy.hpp). Arm ids, keyword settings and River-style names live
// in irithyll/bandit.py.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "errors.hpp"
#include "irithyll/bandit/bandit_policy.hpp"

namespace py = pybind11;

namespace irithyll::python {
namespace {

class PyBandit {
 public:
  PyBandit(const std::string& name, std::size_t n_arms, std::size_t context_dim,
           const std::vector<std::pair<std::string, std::string>>& settings) {
    ModelSettings s;
    for (const auto& [k, v] : settings) s.set(k, v);
    policy_ = take(make_bandit_policy(name, n_arms, context_dim, s));
  }
  std::size_t select(const std::vector<double>& context) { return take(policy_->select(context)); }
  void update(std::size_t arm, double reward, const std::vector<double>& context) {
    check(policy_->update(arm, reward, context));
  }
  void reset() { policy_->reset(); }
  std::vector<double> values() const { return {policy_->arm_values().begin(), policy_->arm_values().end()}; }
  std::vector<std::uint64_t> counts() const { return {policy_->arm_counts().begin(), policy_->arm_counts().end()}; }
  std::uint64_t pulls() const { return policy_->n_pulls(); }
  std::size_t context_dim() const { return policy_->context_dim(); }
  py::bytes encode() const {
    ByteWriter out;
    policy_->encode(out);
    const auto& b = out.data();
    return py::bytes(reinterpret_cast<const char*>(b.data()), b.size());
  }
  void decode(const py::bytes& data) {
    const std::string s = data;
    ByteReader in(std::span<const std::uint8_t>(reinterpret_cast<const std::uint8_t*>(s.data()), s.size()));
    check(policy_->decode(in));
    if (!in.at_end()) check(Status::corruption("bandit policy: trailing bytes after the state"));
  }

 private:
  std::unique_ptr<BanditPolicy> policy_;
};

}  // namespace

void bind_bandit(py::module_& m) {
  py::class_<PyBandit>(m, "BanditPolicy")
      .def(py::init<const std::string&, std::size_t, std::size_t,
                    const std::vector<std::pair<std::string, std::string>>&>(),
           py::arg("name"), py::arg("n_arms"), py::arg("context_dim"), py::arg("settings"))
      .def("select", &PyBandit::select, py::arg("context"))
      .def("update", &PyBandit::update, py::arg("arm"), py::arg("reward"), py::arg("context"))
      .def("reset", &PyBandit::reset)
      .def("values", &PyBandit::values)
      .def("counts", &PyBandit::counts)
      .def_property_readonly("pulls", &PyBandit::pulls)
      .def_property_readonly("context_dim", &PyBandit::context_dim)
      .def("encode", &PyBandit::encode)
      .def("decode", &PyBandit::decode);
}

}  // namespace irithyll::python
