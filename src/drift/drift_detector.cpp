// The drift-detector table: one row per kind (name, aliases, validation,
// factory), so adding a detector is one row plus its own file.
#include "irithyll/drift/drift_detector.hpp"

#include <array>
#include <cmath>
#include <string>

#include "irithyll/drift/adwin.hpp"
#include "irithyll/drift/ddm.hpp"
#include "irithyll/drift/eddm.hpp"
#include "irithyll/drift/hddm.hpp"
#include "irithyll/drift/kswin.hpp"
#include "irithyll/drift/page_hinkley.hpp"

namespace irithyll {
namespace {

Status check_page_hinkley(const DriftConfig& c) {
  if (!(std::isfinite(c.delta) && c.delta > 0.0))
    return Status::invalid_argument("page-hinkley delta must be finite and > 0, got " + std::to_string(c.delta));
  if (!(std::isfinite(c.lambda) && c.lambda > 0.0))
    return Status::invalid_argument("page-hinkley lambda must be finite and > 0, got " + std::to_string(c.lambda));
  return Status::ok();
}

Status check_adwin(const DriftConfig& c) {
  if (!(c.delta > 0.0 && c.delta < 1.0))
    return Status::invalid_argument("adwin delta must be in (0, 1), got " + std::to_string(c.delta));
  return Status::ok();
}

Status check_ddm(const DriftConfig& c) {
  if (!(std::isfinite(c.warning_level) && c.warning_level > 0.0))
    return Status::invalid_argument("ddm warning level must be finite and > 0, got " +
                                    std::to_string(c.warning_level));
  if (!(std::isfinite(c.drift_level) && c.drift_level > c.warning_level))
    return Status::invalid_argument("ddm drift level must be finite and > the warning level, got " +
                                    std::to_string(c.drift_level));
  if (c.min_instances == 0) return Status::invalid_argument("ddm min_instances must be > 0");
  return Status::ok();
}

Status check_eddm(const DriftConfig& c) {
  if (!(c.eddm_drift > 0.0 && c.eddm_drift < c.eddm_warning && c.eddm_warning < 1.0))
    return Status::invalid_argument("eddm levels must satisfy 0 < drift < warning < 1, got drift " +
                                    std::to_string(c.eddm_drift) + ", warning " + std::to_string(c.eddm_warning));
  if (c.min_instances == 0) return Status::invalid_argument("eddm min_instances (errors) must be > 0");
  if (c.eddm_confirm_window > Eddm::kMaxConfirmWindow)
    return Status::invalid_argument("eddm confirm window must be at most " + std::to_string(Eddm::kMaxConfirmWindow) +
                                    " distances, got " + std::to_string(c.eddm_confirm_window));
  if (!(std::isfinite(c.eddm_confirm_z) && c.eddm_confirm_z >= 0.0))
    return Status::invalid_argument("eddm confirm z must be finite and >= 0, got " + std::to_string(c.eddm_confirm_z));
  return Status::ok();
}

Status check_hddm(const DriftConfig& c) {
  if (!(c.drift_confidence > 0.0 && c.drift_confidence < c.warning_confidence && c.warning_confidence < 1.0))
    return Status::invalid_argument("hddm confidences must satisfy 0 < drift < warning < 1, got drift " +
                                    std::to_string(c.drift_confidence) + ", warning " +
                                    std::to_string(c.warning_confidence));
  if (!(c.ewma_lambda > 0.0 && c.ewma_lambda < 1.0))
    return Status::invalid_argument("hddm_w lambda must be in (0, 1), got " + std::to_string(c.ewma_lambda));
  return Status::ok();
}

Status check_kswin(const DriftConfig& c) {
  if (!(c.alpha > 0.0 && c.alpha < 1.0))
    return Status::invalid_argument("kswin alpha must be in (0, 1), got " + std::to_string(c.alpha));
  if (c.stat_size < 1 || c.window_size < 2ull * c.stat_size || c.window_size > Kswin::kMaxWindow)
    return Status::invalid_argument("kswin needs 1 <= stat_size and 2 stat_size <= window_size <= " +
                                    std::to_string(Kswin::kMaxWindow) + ", got stat_size " +
                                    std::to_string(c.stat_size) + ", window_size " + std::to_string(c.window_size));
  return Status::ok();
}

std::unique_ptr<DriftDetector> build_page_hinkley(const DriftConfig& c) {
  return std::make_unique<PageHinkley>(c.delta, c.lambda);
}
std::unique_ptr<DriftDetector> build_adwin(const DriftConfig& c) { return std::make_unique<Adwin>(c.delta); }
std::unique_ptr<DriftDetector> build_ddm(const DriftConfig& c) {
  return std::make_unique<Ddm>(c.warning_level, c.drift_level, c.min_instances);
}

std::unique_ptr<DriftDetector> build_eddm(const DriftConfig& c) {
  return std::make_unique<Eddm>(c.eddm_warning, c.eddm_drift, c.min_instances, c.eddm_confirm_window, c.eddm_confirm_z);
}
std::unique_ptr<DriftDetector> build_hddm_a(const DriftConfig& c) {
  return std::make_unique<HddmA>(c.drift_confidence, c.warning_confidence, c.two_sided);
}
std::unique_ptr<DriftDetector> build_hddm_w(const DriftConfig& c) {
  return std::make_unique<HddmW>(c.drift_confidence, c.warning_confidence, c.ewma_lambda, c.two_sided);
}
std::unique_ptr<DriftDetector> build_kswin(const DriftConfig& c) {
  return std::make_unique<Kswin>(c.window_size, c.stat_size, c.alpha, c.seed);
}

struct KindRow {
  DriftKind kind;
  std::string_view name;  // canonical; also the name written by encode_drift_detector
  std::string_view alias1, alias2;
  Status (*check)(const DriftConfig&);
  std::unique_ptr<DriftDetector> (*build)(const DriftConfig&);
};

constexpr std::array<KindRow, 8> kKinds{{
    {DriftKind::kNone, "none", "", "", nullptr, nullptr},
    {DriftKind::kPageHinkley, PageHinkley::kName, "page-hinkley", "page_hinkley", check_page_hinkley,
     build_page_hinkley},
    {DriftKind::kAdwin, Adwin::kName, "", "", check_adwin, build_adwin},
    {DriftKind::kDdm, Ddm::kName, "", "", check_ddm, build_ddm},
    {DriftKind::kEddm, Eddm::kName, "", "", check_eddm, build_eddm},
    {DriftKind::kHddmA, HddmA::kName, "hddm-a", "", check_hddm, build_hddm_a},
    {DriftKind::kHddmW, HddmW::kName, "hddm-w", "", check_hddm, build_hddm_w},
    {DriftKind::kKswin, Kswin::kName, "", "", check_kswin, build_kswin},
}};

const KindRow* find_row(DriftKind kind) {
  for (const auto& row : kKinds)
    if (row.kind == kind) return &row;
  return nullptr;
}

}  // namespace

namespace {
// KSWIN's defaults (River: window 100, 30 tested values, alpha 0.005) run one
// KS test per row at alpha 0.005, so a stationary N(0, 1) stream alarms
// about every 200 rows (a drift before a change at row 5000 on every
// stream). Window 300, 100 tested values, alpha 1e-5: 3% of streams, and a
// mean shift of one sd is still found within 300 rows (mean delay 68).
constexpr std::uint32_t kKswinDefaultWindow = 300;
constexpr std::uint32_t kKswinDefaultStatSize = 100;
constexpr double kKswinDefaultAlpha = 1e-5;
}  // namespace

DriftConfig default_drift_config(DriftKind kind) {
  DriftConfig c;
  c.kind = kind;
  if (kind == DriftKind::kAdwin) c.delta = kAdwinDefaultDelta;
  if (kind == DriftKind::kHddmW) {
    c.drift_confidence = kHddmWDefaultDriftConfidence;
    c.warning_confidence = kHddmWDefaultWarningConfidence;
    c.ewma_lambda = kHddmWDefaultLambda;
  }
  if (kind == DriftKind::kKswin) {
    c.window_size = kKswinDefaultWindow;
    c.stat_size = kKswinDefaultStatSize;
    c.alpha = kKswinDefaultAlpha;
  }
  return c;
}

Result<std::unique_ptr<DriftDetector>> make_drift_detector(const DriftConfig& config) {
  const KindRow* row = find_row(config.kind);
  if (row == nullptr)
    return Status::invalid_argument("unknown drift detector kind " +
                                    std::to_string(static_cast<unsigned>(config.kind)));
  if (row->build == nullptr) return std::unique_ptr<DriftDetector>();
  IRITHYLL_RETURN_IF_ERROR(row->check(config));
  return row->build(config);
}

Result<DriftKind> parse_drift_kind(std::string_view name) {
  for (const auto& row : kKinds)
    if (name == row.name || (!row.alias1.empty() && name == row.alias1) || (!row.alias2.empty() && name == row.alias2))
      return row.kind;
  return Status::invalid_argument("unknown drift detector '" + std::string(name) +
                                  "' (expected adwin, pht, ddm, eddm, hddm_a, hddm_w, kswin or none)");
}

std::string_view drift_kind_name(DriftKind kind) {
  const KindRow* row = find_row(kind);
  return row == nullptr ? std::string_view("unknown") : row->name;
}

void encode_drift_detector(const DriftDetector& detector, ByteWriter& out) {
  out.str(detector.name());
  detector.encode(out);
}

Result<std::unique_ptr<DriftDetector>> decode_drift_detector(ByteReader& in) {
  const std::string name = in.str("drift detector name");
  if (!in.ok()) return in.status();
  const auto kind = parse_drift_kind(name);
  if (!kind.is_ok() || *kind == DriftKind::kNone) {
    in.fail("unknown drift detector '" + name + "'");
    return in.status();
  }
  // Default configuration: decode() overwrites it with the stored one.
  auto built = make_drift_detector(default_drift_config(*kind));
  if (!built.is_ok()) return built.status();
  std::unique_ptr<DriftDetector> detector = std::move(built).value();
  IRITHYLL_RETURN_IF_ERROR(detector->decode(in));
  return detector;
}

}  // namespace irithyll
