// A held model's record inside its holder's checkpoint (member_factory.hpp).
#include <string>

#include "irithyll/selection/member_factory.hpp"

namespace irithyll {

void encode_member_record(const Learner* model, ByteWriter& out) {
  out.str(model ? model->name() : std::string_view());
  ByteWriter inner;
  if (model) model->encode(inner);
  out.u64(inner.data().size());
  out.bytes(inner.data());
}

Result<std::unique_ptr<Learner>> decode_member_record(ByteReader& in, const MemberFactory& factory,
                                                      std::string_view holder, const LearnerContext& context) {
  const std::string kind = in.str("member model kind");
  const std::size_t size = in.read_count(1, "member model state");
  if (!in.ok()) return in.status();
  const std::string who(holder);
  if (kind == holder) return Status::corruption(who + ": holds a '" + who + "' (nesting is not allowed)");
  std::unique_ptr<Learner> model = factory.blank(kind);
  if (model == nullptr) return Status::corruption(who + ": unknown model kind '" + kind + "'");
  ByteReader inner(in.bytes(size, "member model state"));
  if (!in.ok()) return in.status();
  IRITHYLL_RETURN_IF_ERROR(model->decode(inner).with_context(who + " model '" + kind + "'"));
  if (!inner.at_end()) return Status::corruption(who + ": model '" + kind + "' left bytes unread");
  if (model->task() != context.task ||
      model->n_classes() != (context.task == Task::kClassification ? context.n_classes : 0))
    return Status::corruption(who + ": the model '" + kind + "' is for another task");
  return model;
}

}  // namespace irithyll
