#!/usr/bin/env bash
# `--model auto` beside each member of its default classification pool, with
# defaults, over several seeds: prints one Markdown table of mean accuracy and
# spread (sample standard deviation over seeds; "min-max" range beside it).
#
#   bench/auto_table.sh [SEEDS] [ROWS]
#     SEEDS  seed list, default "1 2 3 4 5"
#     ROWS   space-separated row names, default all:
#            elec8 sea_stream sea500k agrawal rbf4 hyperplane
#
# Each (row, seed) is one `irithyll compare` run, so every model sees the same
# pass of the same stream. Files are read in file order (the seed changes only
# randomised models); generators are regenerated from the seed. Runs are
# niced and sequential: a 500k SEA run with auto takes minutes of CPU.
# Needs build/irithyll and ../shared/datasets (a file row is skipped, with a
# note, when its file is absent).
set -euo pipefail
cd "$(dirname "$0")/.."
SEEDS=${1:-"1 2 3 4 5"}
ROWS=${2:-"elec8 sea_stream sea500k agrawal rbf4 hyperplane"}
MODELS=${MODELS:-auto,sgbt,sgbt(learning-rate=0.2;max-depth=8),arf(n-trees=20),arf,hoeffding_tree,logistic_regression,gaussian_nb,knn}
DATA=${DATA:-../shared/datasets}
[[ -d $DATA ]] || DATA=../../shared/datasets  # a git worktree one level deeper
BIN=${BIN:-build/irithyll}
out=$(mktemp)
trap 'rm -f "$out"' EXIT

source_of() {
  case "$1" in
    elec8) echo "--data $DATA/elec8.csv" ;;
    sea_stream) echo "--data $DATA/sea_stream.csv" ;;
    sea500k) echo "--stream sea --max-samples 500000" ;;
    agrawal) echo "--stream agrawal --max-samples 100000" ;;
    rbf4) echo "--stream rbf4 --max-samples 100000" ;;
    hyperplane) echo "--stream hyperplane --max-samples 100000" ;;
    *) echo "unknown row $1" >&2; exit 2 ;;
  esac
}

for row in $ROWS; do
  src=$(source_of "$row")
  if [[ $src == --data* && ! -f ${src#--data } ]]; then echo "skip $row: ${src#--data } absent" >&2; continue; fi
  for seed in $SEEDS; do
    # shellcheck disable=SC2086
    nice -n 19 "$BIN" compare $src --models "$MODELS" --seed "$seed" --json --quiet |
      sed "s/^/$row $seed /" >>"$out"
    echo "done $row seed $seed" >&2
  done
done

/usr/bin/python3 - "$out" "$MODELS" <<'PY'
import json, statistics, sys
path, models = sys.argv[1], sys.argv[2]
# Split the model list on top-level commas only (settings hold commas).
names, depth, cur = [], 0, ""
for ch in models:
    if ch == "," and depth == 0:
        names.append(cur); cur = ""; continue
    depth += ch == "("; depth -= ch == ")"; cur += ch
names.append(cur)
acc = {}  # (row, model) -> [accuracy per seed]
rows = []
lines = {}
for line in open(path):
    row, seed, js = line.split(" ", 2)
    lines.setdefault((row, seed), []).append(json.loads(js))
    if row not in rows: rows.append(row)
for (row, seed), reports in lines.items():
    for name, r in zip(names, reports):  # compare prints one line per model, in order
        acc.setdefault((row, name), []).append(r["accuracy"])
def cell(v):
    if not v: return ""
    sd = statistics.stdev(v) if len(v) > 1 else 0.0
    return f"{statistics.mean(v):.4f} ± {sd:.4f} ({min(v):.4f}-{max(v):.4f}, n={len(v)})"
print("| model | " + " | ".join(rows) + " |")
print("|---|" + "---|" * len(rows))
for name in names:
    print(f"| `{name}` | " + " | ".join(cell(acc.get((row, name), [])) for row in rows) + " |")
best = []
for row in rows:
    means = {n: statistics.mean(acc[(row, n)]) for n in names if (row, n) in acc}
    single = max((m for n, m in means.items() if n != "auto"), default=float("nan"))
    best.append(f"{means.get('auto', float('nan')) - single:+.4f}")
print("| auto − best single | " + " | ".join(best) + " |")
PY
