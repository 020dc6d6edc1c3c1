#!/usr/bin/env bash
# moe_sgbt and moe_distributional_sgbt beside sgbt and distributional_sgbt
# prequential accuracy (r2 for regression), median samples/s of
# REPS runs, model bytes, and 90% interval coverage/width where given.
#
#   bench/moe_compare.sh [REPS]        (default 3; needs build/irithyll and ../shared/datasets)
#
# Prints one JSON line per (data, model): {"data", "model", "metric", "value",
# "samples_per_second", "model_bytes"[, "coverage", "width"]}.
set -euo pipefail
cd "$(dirname "$0")/.."
REPS=${1:-3}
run() {  # data options, model options
  local outs=()
  for _ in $(seq "$REPS"); do outs+=("$(build/irithyll eval --quiet --json $1 $2)"); done
  python3 - "$1" "$2" "${outs[@]}" <<'PY'
import json, statistics, sys
data, model, runs = sys.argv[1], sys.argv[2], [json.loads(o) for o in sys.argv[3:]]
d = runs[-1]
metric = "accuracy" if "accuracy" in d else "r2"
row = {"data": data, "model": model, "metric": metric, "value": d[metric],
       "samples_per_second": statistics.median(r["samples_per_second"] for r in runs), "model_bytes": d["model_bytes"]}
if "interval_coverage" in d:
    row["coverage"], row["width"] = d["interval_coverage"], d["interval_mean_width"]
print(json.dumps(row))
PY
}
for data in "--data ../shared/datasets/elec.csv" "--data ../shared/datasets/sea_stream.csv" "--stream friedman"; do
  run "$data" "--model sgbt"
  run "$data" "--model moe_sgbt"
  run "$data" "--model moe_sgbt --gate-lr 0.1"
  run "$data" "--model moe_sgbt --routing topk --gate-lr 0.1"
  run "$data" "--model moe_sgbt --n-steps 12"
  run "$data" "--model moe_sgbt --n-steps 12 --routing topk --gate-lr 0.1"
done
for data in "--stream friedman" "--stream hetero"; do
  run "$data" "--model distributional_sgbt --interval 0.9"
  run "$data" "--model moe_distributional_sgbt --interval 0.9"
  run "$data" "--model moe_distributional_sgbt --routing topk --gate-lr 0.1 --interval 0.9"
done
