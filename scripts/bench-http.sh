#!/usr/bin/env bash
# Throughput of POST /v1/analyze on a middlegame position next to GET /health (a trivial
# endpoint) on the same release server, in the same run, with wrk (Debian: apt-get install wrk).
# Loopback only and bounded: ROUNDS rounds (default 3) of DURATION seconds per endpoint (default 5),
# the two endpoints alternating so that a change in the machine's load falls on both; the ratio is
# reported per round and as the median. The server is stopped at the end. Settings: ROUNDS,
# DURATION, THREADS (wrk threads, 2), CONNECTIONS (32). The server listens on a free port it picks
# (scripts/lib/server.sh).
set -euo pipefail
cd "$(dirname "$0")/.."

ROUNDS=${ROUNDS:-3}
DURATION=${DURATION:-5}
THREADS=${THREADS:-2}
CONNECTIONS=${CONNECTIONS:-32}
# 20 plies from the start under vchess: 28 pieces, 69 legal moves.
FEN='rnbk1qnm/p1ppp2p/B2P2p1/Bp3p2/5b2/1P2P3/P2K1PPP/MNPQ2NR w 20'

command -v wrk >/dev/null || { echo "wrk is missing: apt-get install -y wrk" >&2; exit 1; }
cargo build --release --quiet
BIN=${CARGO_TARGET_DIR:-target}/release/baroque

# The server logs one line per request, as deployed, into its log file.
WORK=$(mktemp -d)
SERVER=
trap 'if [ -n "$SERVER" ]; then kill "$SERVER" 2>/dev/null || true; fi; rm -rf "$WORK"' EXIT
. scripts/lib/server.sh
start_server "$WORK/server.log" --db "$WORK/bench.db"

cat >"$WORK/analyze.lua" <<LUA
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.body = '{"fen": "$FEN", "rules": "vchess"}'
LUA

run() { # name, then wrk arguments
  local name=$1
  shift
  wrk -t"$THREADS" -c"$CONNECTIONS" -d"${DURATION}s" --latency "$@" >"$WORK/$name.txt"
  if grep -q "Non-2xx" "$WORK/$name.txt"; then
    cat "$WORK/$name.txt" >&2
    echo "error: $name answered non-2xx responses" >&2
    exit 1
  fi
}
rps() { awk '/^Requests\/sec/ {print $2}' "$WORK/$1.txt"; }
p99() { awk '$1 == "99%" {print $2}' "$WORK/$1.txt"; }

echo "round  GET /health req/s (p99)  POST /v1/analyze req/s (p99)  ratio"
for round in $(seq "$ROUNDS"); do
  run health "http://$ADDR/health"
  run analyze -s "$WORK/analyze.lua" "http://$ADDR/v1/analyze"
  h=$(rps health)
  a=$(rps analyze)
  ratio=$(awk -v a="$a" -v h="$h" 'BEGIN {printf "%.2f", a / h}')
  echo "$ratio" >>"$WORK/ratios"
  printf '%5s  %14s (%s)  %19s (%s)  %s\n' "$round" "$h" "$(p99 health)" "$a" "$(p99 analyze)" "$ratio"
done
echo "median analyze / health: $(sort -n "$WORK/ratios" | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}')"
