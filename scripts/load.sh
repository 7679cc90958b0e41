#!/usr/bin/env bash
# Writes and reads per second, with latency percentiles, of POST /v1/puzzles (a new puzzle each
# time) and GET /v1/puzzles?limit=50: one replica on SQLite, one on PostgreSQL, two on one
# PostgreSQL (a wrk per replica, run at once). PostgreSQL runs with its defaults (fsync and
# synchronous_commit on), in a throwaway cluster. Needs wrk and the PostgreSQL server binaries;
# builds the release binary.
#
#   bash scripts/load.sh [SECONDS] [CONNECTIONS]
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-10}
connections=${2:-8}
cargo build --release --quiet
bin=$PWD/target/release/baroque
# shellcheck source=scripts/lib/cluster.sh
. scripts/lib/cluster.sh

summary() { # summary LABEL FILES...: requests/s summed, the worst p99
  local label=$1; shift
  python3 - "$label" "$@" <<'PY'
import re, sys
label, files = sys.argv[1], sys.argv[2:]
rate, p99, p50 = 0.0, 0.0, 0.0
unit = {"us": 0.001, "ms": 1.0, "s": 1000.0}
def ms(text):
    m = re.match(r"([\d.]+)(us|ms|s)", text)
    return float(m.group(1)) * unit[m.group(2)]
for f in files:
    t = open(f).read()
    if "Requests/sec" not in t or "99%" not in t:
        sys.exit(f"wrk gave no figures in {f}:\n{t}")
    rate += float(re.search(r"Requests/sec:\s+([\d.]+)", t).group(1))
    p50 = max(p50, ms(re.search(r"^\s+50%\s+(\S+)", t, re.M).group(1)))
    p99 = max(p99, ms(re.search(r"^\s+99%\s+(\S+)", t, re.M).group(1)))
    errors = re.search(r"Non-2xx or 3xx responses: (\d+)", t)
    if errors:
        print(f"  {f}: {errors.group(1)} answers not 2xx", file=sys.stderr)
print(f"| {label} | {rate:,.0f} | {p50:.2f} | {p99:.2f} |")
PY
}

load() { # load LABEL URL...: writes then reads, one wrk per URL at once
  local label=$1; shift
  local i=0 files=()
  for url in "$@"; do
    OFFSET=$((i * 50000000)) wrk -t2 -c"$connections" -d"${seconds}s" --latency \
      -s scripts/load/post.lua "$url" >"$work/post-$i" &
    files+=("$work/post-$i"); i=$((i + 1))
  done
  wait_wrk
  summary "$label, POST /v1/puzzles" "${files[@]}"
  i=0; files=()
  for url in "$@"; do
    wrk -t2 -c"$connections" -d"${seconds}s" --latency "$url/v1/puzzles?limit=50" >"$work/get-$i" &
    files+=("$work/get-$i"); i=$((i + 1))
  done
  wait_wrk
  summary "$label, GET /v1/puzzles?limit=50" "${files[@]}"
}
wait_wrk() { while pgrep -x wrk >/dev/null; do sleep 0.2; done; }

echo "| setup | requests/s | p50 ms | p99 ms |"
echo "|---|---|---|---|"
serve "$work/one.db" 18181
load "one replica, SQLite" http://127.0.0.1:18181
createdb one
serve "$(psql_url one)" 18182
load "one replica, PostgreSQL" http://127.0.0.1:18182
createdb two
serve "$(psql_url two)" 18183
serve "$(psql_url two)" 18184
load "two replicas, one PostgreSQL" http://127.0.0.1:18183 http://127.0.0.1:18184
