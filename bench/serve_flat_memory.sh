#!/usr/bin/env bash
# Memory of `irithyll serve` with many keys: N samples over KEYS
# keys (default 200,000 over 100,000), one worker, tiny SGBT per key, once
# with the LRU bound (--max-keys BOUND per partition) and once unbounded.
# Prints the worker's peak RSS (GNU time %M) and held keys for each.
set -euo pipefail
cd "$(dirname "$0")/.."
N=${1:-200000}
KEYS=${2:-100000}
BOUND=${3:-100}
MODEL=(--model sgbt --n-steps 1 --n-bins 4 --max-depth 2 --grace-period 50)
CLI=build/irithyll
tmp=$(mktemp -d)
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
redis-server --port "$port" --bind 127.0.0.1 --save '' --appendonly no --dir "$tmp" >"$tmp/redis.log" 2>&1 &
redis_pid=$!
trap 'kill -9 $redis_pid 2>/dev/null; rm -rf "$tmp"' EXIT
for _ in $(seq 100); do redis-cli -p "$port" ping >/dev/null 2>&1 && break; sleep 0.05; done
for prefix in bounded unbounded; do
  $CLI produce --redis "127.0.0.1:$port" --prefix $prefix --partitions 8 --stream friedman \
    --max-samples "$N" --keys "$KEYS" >/dev/null
done
run() {  # prefix max-keys
  /usr/bin/time -f '%M' -o "$tmp/$1.rss" $CLI serve --redis "127.0.0.1:$port" --prefix "$1" --partitions 8 \
    --features 10 "${MODEL[@]}" --max-keys "$2" --metrics-ms 2000 --idle-exit-ms 1000 >"$tmp/$1.log" 2>&1
  echo "| --max-keys $2 per partition | $N samples, $KEYS keys | peak RSS $(( $(cat "$tmp/$1.rss") / 1024 )) MiB | most keys held $(grep -o '"keys_held":[0-9]*' "$tmp/$1.log" | cut -d: -f2 | sort -n | tail -1) | learned $(tail -1 "$tmp/$1.log" | grep -o '"learned":[0-9]*' | cut -d: -f2) |"
}
run bounded "$BOUND"
run unbounded 1000000
echo "redis used_memory: $(redis-cli -p "$port" info memory | grep '^used_memory_human' | cut -d: -f2 | tr -d '\r')"
