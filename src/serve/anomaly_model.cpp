#include "serve/anomaly_model.hpp"

namespace irithyll::serve {

Status AnomalyModel::decode(ByteReader&) {
  return Status::invalid_argument("anomaly model: decode a record with decode_anomaly_model");
}

Result<std::unique_ptr<Learner>> decode_anomaly_model(std::span<const std::uint8_t> bytes) {
  auto detector = decode_anomaly_detector(bytes);
  if (!detector) return detector.status();
  return std::unique_ptr<Learner>(std::make_unique<AnomalyModel>(std::move(detector).value()));
}

}  // namespace irithyll::serve
