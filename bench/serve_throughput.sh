#!/usr/bin/env bash
# Throughput of `irithyll serve` against the bare learner.
#
#   [ROUNDS=3] [CHECKPOINT_MS=1000] bench/serve_throughput.sh [N] [KEYS] [extra model options...]
#
# Starts a throwaway redis-server on a loopback port, then measures
#   bare     `irithyll eval` on the same stream and model (predict + learn, one model)
#   bare keyed  build/bench/bench_serve_bare_keys: the same samples, one learner
#            per key as the workers hold them, no log (the like-for-like baseline)
#   1 worker `irithyll serve` over 8 partitions of the same N samples (KEYS keys)
#   2 workers the same samples under another prefix, each worker owning 4 partitions
# Worker time is wall time from start to the last prediction, plus the CPU
# time of each process (which includes the final checkpoint). With ROUNDS=R
# the one- and two-worker runs alternate R times (a fresh prefix each, Redis
# emptied between rounds), so both see the same stretch of a noisy machine;
# the table has the medians (range), the ratio the median of the per-round
# ratios. Prints one markdown table. Needs build/irithyll, build/bench/bench_serve_bare_keys (Release)
# and redis-server.
set -euo pipefail
cd "$(dirname "$0")/.."
N=${1:-200000}
KEYS=${2:-64}
shift $(( $# > 2 ? 2 : $# )) || true
MODEL=(--model sgbt "$@")
CLI=${IRITHYLL_CLI:-build/irithyll}  # another build to compare: IRITHYLL_CLI=path/irithyll
IDLE_MS=1000
# Checkpoint intervals of the workers (the serve defaults): a partition
# commits every CHECKPOINT_MS (window, acks, keys due); a changed key's model
# (SGBT defaults: 0.4-1.1 MB) is rewritten about every KEY_CHECKPOINT_MS.
# KEY_CHECKPOINT_MS=0 rewrites every changed key at every commit (the first
# design); CHECKPOINT_MS=KEY_CHECKPOINT_MS=600000 leaves only the final
# checkpoint, i.e. measures the serving path itself. Runs should last several
# KEY_CHECKPOINT_MS for the figure to include the rewrites.
CHECKPOINT_MS=${CHECKPOINT_MS:-1000}
KEY_CHECKPOINT_MS=${KEY_CHECKPOINT_MS:-10000}
tmp=$(mktemp -d)
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
redis-server --port "$port" --bind 127.0.0.1 --save '' --appendonly no --dir "$tmp" >"$tmp/redis.log" 2>&1 &
redis_pid=$!
trap 'kill -9 $redis_pid 2>/dev/null; rm -rf "$tmp"' EXIT
for _ in $(seq 100); do redis-cli -p "$port" ping >/dev/null 2>&1 && break; sleep 0.05; done

now() { date +%s.%N; }
keyed=$(build/bench/bench_serve_bare_keys "$N" "$KEYS" "${MODEL[@]:2}")
keyed_wall=$(echo "$keyed" | python3 -c 'import json,sys; print(json.load(sys.stdin)["samples_per_second"])')
keyed_cpu=$(echo "$keyed" | python3 -c 'import json,sys; print(json.load(sys.stdin)["cpu_s"])')
bare=$(/usr/bin/time -f '%U %S' -o "$tmp/bare.cpu" $CLI eval --quiet --json --stream friedman --max-samples "$N" "${MODEL[@]}" |
       python3 -c 'import json,sys; print(json.load(sys.stdin)["samples_per_second"])')

serve() {  # prefix max-partitions log
  /usr/bin/time -f '%U %S' -o "$3.cpu" $CLI serve --redis "127.0.0.1:$port" --prefix "$1" --partitions 8 \
    --max-partitions "$2" --features 10 "${MODEL[@]}" --metrics-ms 0 --idle-exit-ms $IDLE_MS \
    --checkpoint-ms "$CHECKPOINT_MS" --key-checkpoint-ms "$KEY_CHECKPOINT_MS" --checkpoint-entries 100000000 >"$3" 2>&1
}
# Time to the last prediction: the output streams' XLEN sum reaches N, polled
# every 20 ms over one connection. (A loop of redis-cli calls forked eight
# processes a poll, about 3 ms of CPU each: half a core taken from the
# workers, which only two workers on two cores felt.) The final checkpoint
# and the idle wait come after it; the checkpoint's latency is printed
# separately. Prints the wall clock (seconds since the epoch) at the poll
# that saw N, and redis-server's CPU seconds then.
redis_cpu() { awk -v hz="$(getconf CLK_TCK)" '{print ($14 + $15) / hz}' /proc/$redis_pid/stat; }
wait_predicted() {
  python3 - "$port" "$1" "$N" "$redis_pid" "$(getconf CLK_TCK)" <<'PY'
import socket, sys, time
port, prefix, n = int(sys.argv[1]), sys.argv[2], int(sys.argv[3])
pid, hz = sys.argv[4], int(sys.argv[5])
s = socket.create_connection(("127.0.0.1", port))
f = s.makefile("rb")
def cmd(*args):
    out = b"*%d\r\n" % len(args)
    for a in args:
        a = a.encode()
        out += b"$%d\r\n%s\r\n" % (len(a), a)
    return out
polls = b"".join(cmd("XLEN", "{%s:%d}:out" % (prefix, p)) for p in range(8))
while True:
    s.sendall(polls)
    total = 0
    for _ in range(8):
        line = f.readline()
        if not line.startswith(b":"):
            sys.exit("unexpected reply: %r" % line)
        total += int(line[1:])
    if total >= n:
        t = time.time()
        stat = open("/proc/%s/stat" % pid).read().rsplit(")", 1)[1].split()
        print("%.6f %.2f" % (t, (int(stat[11]) + int(stat[12])) / hz))
        break
    time.sleep(0.02)
PY
}
produce() {
  $CLI produce --redis "127.0.0.1:$port" --prefix "$1" --partitions 8 --stream friedman \
    --max-samples "$N" --keys "$KEYS" >/dev/null
}
cpu() { awk '{print $1 + $2}' "$1.cpu"; }
rate() { python3 -c "print($N / ($2 - $1))"; }
per_sample() { python3 -c "print(round(($2 - $1) / $N * 1e6, 2))"; }
ROUNDS=${ROUNDS:-3}
redis_all=0
rounds=()
for r in $(seq "$ROUNDS"); do
  # Redis CPU while serving: from the start to the last prediction.
  produce "one$r"
  r0=$(redis_cpu); t0=$(now); serve "one$r" 8 "$tmp/w1" & a=$!; read -r t1 r1 <<<"$(wait_predicted "one$r")"; wait $a
  one=$(rate "$t0" "$t1"); redis_one=$(per_sample "$r0" "$r1")
  produce "two$r"
  r0=$(redis_cpu); t0=$(now); serve "two$r" 4 "$tmp/w2a" & a=$!; serve "two$r" 4 "$tmp/w2b" & b=$!
  read -r t1 r1 <<<"$(wait_predicted "two$r")"; wait $a $b
  two=$(rate "$t0" "$t1"); redis_two=$(per_sample "$r0" "$r1")
  # The slower worker's share of the samples: keys are not split, so with
  # few keys one worker carries more than half (1/share caps the ratio).
  share=$(python3 -c "import json; e=[json.loads(open(f).read().strip().splitlines()[-1])['entries'] for f in ('$tmp/w2a', '$tmp/w2b')]; print(max(e) / sum(e))")
  rounds+=("$one $two $(cpu "$tmp/w1") $(cpu "$tmp/w2a") $(cpu "$tmp/w2b") $redis_one $redis_two $share")
  echo "round $r: 1 worker $one/s, 2 workers $two/s" >&2
  # Redis CPU over everything (produce + serve of 2 x N samples, final checkpoints included).
  redis_all=$(redis_cpu)
  [ "$r" -lt "$ROUNDS" ] && redis-cli -p "$port" flushall >/dev/null
done
echo "redis-server CPU: ${redis_all}s for $ROUNDS x 2 x $N samples = $(python3 -c "print(round($redis_all / ($ROUNDS * 2 * $N) * 1e6, 2))") us per sample (produce + deliver + predict + ack + checkpoints)"
echo "checkpoints (1 worker, last round): $(tail -1 "$tmp/w1" | python3 -c 'import json,sys; m=json.load(sys.stdin); print(m["checkpoints"], "commits,", m["key_writes"], "key records written, last", m["checkpoint_ms"], "ms, max", m["checkpoint_ms_max"], "ms")')"
python3 - "$bare" "$N" "$KEYS" "$(cpu "$tmp/bare")" "$keyed_wall" "$keyed_cpu" "${rounds[@]}" <<'PY'
import statistics, sys
bare, n, keys, cb, kw, kc = float(sys.argv[1]), int(sys.argv[2]), sys.argv[3], *map(float, sys.argv[4:7])
rows = [list(map(float, r.split())) for r in sys.argv[7:]]
col = lambda i: [r[i] for r in rows]
def med(xs, fmt):
    m = statistics.median(xs)
    return fmt.format(m) if len(xs) == 1 else (fmt + " ({}-{})").format(m, fmt.format(min(xs)), fmt.format(max(xs)))
one, two = col(0), col(1)
c1, c2 = col(2), [max(r[3], r[4]) for r in rows]
print(f"| run ({n} samples, {keys} keys, 8 partitions, {len(rows)} rounds) | wall samples/s | wall ratio | process CPU s | CPU samples/s | CPU ratio | redis-server CPU per sample while serving |")
print("|---|---|---|---|---|---|---|")
print(f"| bare learner (irithyll eval) | {bare:,.0f} | 1.00 | {cb:.2f} | {n / cb:,.0f} | 1.00 | - |")
print(f"| bare keyed (one learner per key, no log) | {kw:,.0f} | {kw / bare:.2f} | {kc:.2f} | {n / kc:,.0f} | {cb / kc:.2f} | - |")
# CPU rate: samples per CPU-second of the worker process (what it sustains
# with a core to itself; Redis runs in its own process).
print(f"| 1 worker | {med(one, '{:,.0f}')} | {med([x / kw for x in one], '{:.2f}')} of keyed | {med(c1, '{:.2f}')} |"
      f" {med([n / c for c in c1], '{:,.0f}')} | {med([kc / c for c in c1], '{:.2f}')} of keyed | {med(col(5), '{:.2f}')} us |")
print(f"| 2 workers | {med(two, '{:,.0f}')} | **{med([b / a for a, b in zip(one, two)], '{:.2f}')}x one worker** |"
      f" {med(c2, '{:.2f}')} (slower worker) | {med([n / c for c in c2], '{:,.0f}')} (slower worker) |"
      f" {med([a / b for a, b in zip(c1, c2)], '{:.2f}')}x one worker | {med(col(6), '{:.2f}')} us |")
print(f"\nTwo workers: the slower one carried {med([100 * x for x in col(7)], '{:.1f}')}% of the samples"
      f" (keys are not split: the wall ratio is at most 1 / that share).")
PY
