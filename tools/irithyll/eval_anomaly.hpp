// `irithyll eval --task anomaly`: an anomaly detector scored on a CSV file
// against a 0/1 label column the detector never sees (eval_anomaly.cpp).
#pragma once

#include <span>

namespace irithyll::cli {

// True when argv asks for --task anomaly (cmd_eval then hands over).
bool wants_anomaly_task(std::span<char* const> argv);
int run_eval_anomaly(std::span<char* const> argv);

}  // namespace irithyll::cli
