// Exportable: the capability of a learner that can be written as a packed
// model (the f32 "IRIT" or int16 "IR16" formats). A front end reaches it by
// asking a Learner for this interface, never by naming a concrete model, so
// any learner that implements it exports through the same code:
//
//   const auto* ex = dynamic_cast<const Exportable*>(&learner);
//   auto bytes = ex ? packed::export_packed(*ex, PackedFormat::kF32) : ...;
//
// export_packed writes ONE file: a plain version-1 file for one ensemble
// (regression, binary), or the multiclass bundle ("IRMC", class_bundle.hpp)
// holding one version-1 file per class. The CLI (`irithyll export`), the
// library and Python (`export_packed`) all write it here; PackedModel reads
// the first and PackedClassBundle the second.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "irithyll/core/status.hpp"
#include "irithyll/packed/export_model.hpp"
#include "irithyll/packed/packed_model.hpp"

namespace irithyll {

class Exportable {
 public:
  virtual ~Exportable() = default;
  // Ensembles to write: 1 for regression and binary classification, K for a
  // K-class softmax model (one per class, in class order).
  virtual std::size_t n_export_models() const = 0;
  // REQUIRES: k < n_export_models().
  virtual ExportModel export_model(std::size_t k) const = 0;
};

namespace packed {

// The packed file of `model` in `format`; the message names the class whose
// ensemble cannot be written (a category-set split, a value out of range).
// With `meta`, the file carries the metadata trailer (metadata.hpp): the
// feature, target and class names that let a reader map columns by name.
struct PackedMetadata;
Result<std::vector<std::uint8_t>> export_packed(const Exportable& model, PackedFormat format,
                                                const PackedMetadata* meta = nullptr);

}  // namespace packed
}  // namespace irithyll
