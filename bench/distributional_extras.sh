#!/usr/bin/env bash
# distributional_sgbt's huber-k and uncertainty-modulated-lr: prequential MAE
# and 90% interval coverage on friedman, hetero and Friedman #1 with 5% gross
# outliers (targets shifted by +-30 to 60; MAE on the clean rows after row
# 5,000, coverage over all rows after 5,000), seeds 1-3 (BENCHMARKS.md).
#
#   bench/distributional_extras.sh        (needs build/irithyll; writes to a temp dir)
#
# Prints one line per (stream, setting, seed): MAE and coverage.
set -euo pipefail
cd "$(dirname "$0")/.."
B=$PWD/build/irithyll
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
SETTINGS=("" "--huber-k 1.345" "--uncertainty-modulated-lr on" "--huber-k 1.345 --uncertainty-modulated-lr on")
for st in friedman hetero; do
  for m in "${SETTINGS[@]}"; do
    for s in 1 2 3; do
      r=$($B eval --stream $st --model distributional_sgbt $m --seed $s --quiet --json |
          python3 -c "import json,sys; d=json.load(sys.stdin); print('%.4f %.4f' % (d['mae'], d['interval_coverage']))")
      echo "$st | ${m:-off} | seed $s | $r"
    done
  done
done
for s in 1 2 3; do
  python3 - "$T/fo_$s.csv" "$T/fo_$s.flags" "$s" <<'PY'
import math, random, sys
rng = random.Random(int(sys.argv[3]))
with open(sys.argv[1], "w") as f, open(sys.argv[2], "w") as g:
    f.write(",".join(f"x{i}" for i in range(10)) + ",y\n")
    for _ in range(50000):
        x = [rng.random() for _ in range(10)]
        y = 10 * math.sin(math.pi * x[0] * x[1]) + 20 * (x[2] - 0.5) ** 2 + 10 * x[3] + 5 * x[4] + rng.gauss(0, 1)
        out = rng.random() < 0.05
        if out:
            y += (1 if rng.random() < 0.5 else -1) * (30 + 30 * rng.random())
        f.write(",".join(f"{v:.6f}" for v in x) + f",{y:.6f}\n")
        g.write("1\n" if out else "0\n")
PY
done
for guard in "" "--no-target-guard"; do
  for m in "${SETTINGS[@]}"; do
    for s in 1 2 3; do
      $B eval --data "$T/fo_$s.csv" --target y --model distributional_sgbt $m $guard --seed $s --interval 0.9 \
        --predictions "$T/p.txt" --quiet > /dev/null
      r=$(python3 - "$T/p.txt" "$T/fo_$s.flags" "$T/fo_$s.csv" <<'PY'
import sys
pred = [l.strip().split(",") for l in open(sys.argv[1])]
flags = [l.strip() == "1" for l in open(sys.argv[2])]
ys = [float(l.rsplit(",", 1)[1]) for l in list(open(sys.argv[3]))[1:]]
mae = n = cov = na = 0
for i, (p, f, y) in enumerate(zip(pred, flags, ys)):
    if i < 5000:
        continue
    mu, lo, hi = map(float, p)
    na += 1
    cov += lo <= y <= hi
    if not f:
        n += 1
        mae += abs(y - mu)
print(f"{mae / n:.4f} {cov / na:.4f}")
PY
)
      echo "outliers ${guard:-guard} | ${m:-off} | seed $s | $r"
    done
  done
done
