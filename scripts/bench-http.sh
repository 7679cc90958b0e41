#!/usr/bin/env bash
# Throughput of POST /v1/analyze on a middlegame position next to GET /health (a trivial
# endpoint) on the same release server, in the same run, with wrk (Debian: apt-get install wrk).
# Loopback only and bounded: DURATION seconds per endpoint (default 10); the server is stopped at
# the end. Settings: DURATION, THREADS (wrk threads, 2), CONNECTIONS (32), PORT (18090).
set -euo pipefail
cd "$(dirname "$0")/.."

DURATION=${DURATION:-10}
THREADS=${THREADS:-2}
CONNECTIONS=${CONNECTIONS:-32}
PORT=${PORT:-18090}
ADDR=127.0.0.1:$PORT
# 20 plies from the start under vchess: 28 pieces, 69 legal moves.
FEN='rnbk1qnm/p1ppp2p/B2P2p1/Bp3p2/5b2/1P2P3/P2K1PPP/MNPQ2NR w 20'

command -v wrk >/dev/null || { echo "wrk is missing: apt-get install -y wrk" >&2; exit 1; }
cargo build --release --quiet
BIN=${CARGO_TARGET_DIR:-target}/release/baroque

# The server logs one line per request, as deployed; the lines go to /dev/null.
"$BIN" serve --addr "$ADDR" >/dev/null 2>&1 &
SERVER=$!
WORK=$(mktemp -d)
trap 'kill "$SERVER" 2>/dev/null || true; rm -rf "$WORK"' EXIT
for _ in $(seq 50); do
  "$BIN" health --addr "$ADDR" >/dev/null 2>&1 && break
  sleep 0.1
done
"$BIN" health --addr "$ADDR" >/dev/null

cat >"$WORK/analyze.lua" <<LUA
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.body = '{"fen": "$FEN", "rules": "vchess"}'
LUA

run() { # name, then wrk arguments
  local name=$1
  shift
  echo "== $name"
  wrk -t"$THREADS" -c"$CONNECTIONS" -d"${DURATION}s" --latency "$@" | tee "$WORK/$name.txt"
  if grep -q "Non-2xx" "$WORK/$name.txt"; then
    echo "error: $name answered non-2xx responses" >&2
    exit 1
  fi
}
run health "http://$ADDR/health"
run analyze -s "$WORK/analyze.lua" "http://$ADDR/v1/analyze"

rps() { awk '/^Requests\/sec/ {print $2}' "$WORK/$1.txt"; }
echo
echo "GET /health       $(rps health) req/s"
echo "POST /v1/analyze  $(rps analyze) req/s"
awk -v a="$(rps analyze)" -v h="$(rps health)" 'BEGIN {printf "analyze / health  %.2f\n", a / h}'
