// Catalogue row "pipeline": transformers composed with a learner
// (pipeline.hpp). It has no settings of its own (its parts have theirs), so it
// is a decode-only row: checkpoints of pipelines decode through it, and the
// listings leave it out.
#include "irithyll/pipeline.hpp"
#include "row.hpp"

namespace irithyll::catalogue_detail {
namespace {

std::span<const FieldInfo> pipeline_no_fields() { return {}; }

Result<std::unique_ptr<Learner>> no_factory(const ModelSettings&, const LearnerContext&) {
  return Status::not_supported("pipeline: build one from a learner and transformers (pipeline.hpp)");
}

ModelSettings no_settings(const Learner&) { return {}; }

}  // namespace

CatalogueEntry pipeline_row() {
  return {"pipeline", "transformers composed with a learner", true, true, false,
          &pipeline_no_fields, &no_factory, &make_blank<Pipeline>, &no_settings};
}

}  // namespace irithyll::catalogue_detail
