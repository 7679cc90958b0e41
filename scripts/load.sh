#!/usr/bin/env bash
# Load test of the release server on 127.0.0.1 with wrk (Debian: apt-get install wrk), bounded in
# time: DURATION seconds per phase (default 10), about 9 phases.
#
#  1-6. each endpoint alone: POST /v1/analyze, POST /v1/verify, POST /v1/solve (a mate in 1),
#       GET /v1/puzzles/{id}, GET /v1/puzzles (a page of 50), POST /v1/puzzles (a new diagram
#       puzzle per request: every write is a durable SQLite commit);
#  7-8. a flood of expensive searches (FLOOD connections alternating a Baroque mate in 5 and a
#       mate in 8 on a crowded Rococo board, each running to its 2 s budget) and, at the same time,
#       GET /health then POST /v1/analyze: the cheap endpoints must keep answering, with p99 under
#       P99_BOUND_MS (default 50 ms), and every search must answer within its budget plus 1 s;
#  9.   the server's peak resident memory (VmHWM) must stay under RSS_BOUND_MIB (default 512).
#
# Prints requests/s and latency percentiles per phase and exits non-zero when a bound is broken or a
# phase answered errors it should not (a flooded solve may be 503: at most --solve-concurrency
# searches run at once). The rate limit is off for the run (one client on loopback would otherwise
# be limited after its burst; tests/api/ratelimit.rs covers the limiter).
# Settings: DURATION, THREADS (wrk threads, 2), CONNECTIONS (32), FLOOD (16). The server listens on
# a free port it picks (scripts/lib/server.sh).
set -euo pipefail
cd "$(dirname "$0")/.."

DURATION=${DURATION:-10}
THREADS=${THREADS:-2}
CONNECTIONS=${CONNECTIONS:-32}
FLOOD=${FLOOD:-16}
P99_BOUND_MS=${P99_BOUND_MS:-50}
RSS_BOUND_MIB=${RSS_BOUND_MIB:-512}
TOKEN=load-test-token

command -v wrk >/dev/null || { echo "wrk is missing: apt-get install -y wrk" >&2; exit 1; }
cargo build --release --quiet
BIN=${CARGO_TARGET_DIR:-target}/release/baroque

WORK=$(mktemp -d)
SERVER=
trap 'if [ -n "$SERVER" ]; then kill "$SERVER" 2>/dev/null || true; fi; rm -rf "$WORK"' EXIT
. scripts/lib/server.sh
BAROQUE_WRITE_TOKEN=$TOKEN start_server "$WORK/server.log" --db "$WORK/load.db" --fixtures fixtures \
  --rate-limit-per-minute 0

# 20 plies from the start under vchess: 28 pieces, 69 legal moves.
MID='rnbk1qnm/p1ppp2p/B2P2p1/Bp3p2/5b2/1P2P3/P2K1PPP/MNPQ2NR w 20'
# A 26-piece middlegame: no mate in 5 is found within the 2 s budget.
HARD='rnb1k3/1pp4p/5m2/2p5/P1n4p/2B1P3/P2PPPP1/MN1QKB2 b 25'

post() { # file, body
  cat >"$WORK/$1.lua" <<LUA
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.body = '$2'
LUA
}
post analyze "{\"fen\": \"$MID\", \"rules\": \"vchess\"}"
post verify '{"fen": "7k/5ppp/2N5/2n5/3rB3/8/PPP5/K7 w 0", "moves": ["Pc2c4", "Kh8-g8", "Ka1-b1"], "rules": "vchess"}'
post solve '{"fen": "8/8/8/4k3/2K2M2/3q4/8/8 w 0", "mate_in": 1}'
# The red team's crowded Rococo board: a mate in 8 on it once ran 535 s against a 10 s ceiling.
CROWDED='ssssXxS2s/S1sXs3sS/xXSXXxs1xX/Xss1XXXxsX/xksX1sxSsS/xxx1SsXXXx/sxxSXxxSsS/SsS1SSX1XX/S1SsxxsSSK/1SsX1XxXSS w 0 -'
cat >"$WORK/flood.lua" <<LUA
-- Alternates a hard Baroque search and a crowded Rococo one, each with a 2 s budget.
local bodies = {
  '{"fen": "$HARD", "mate_in": 5, "limits": {"millis": 2000}}',
  '{"fen": "$CROWDED", "game": "rococo", "mate_in": 8, "limits": {"millis": 2000}}',
}
local n = 0
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
request = function()
  n = n + 1
  return wrk.format(nil, nil, nil, bodies[n % 2 + 1])
end
LUA
cat >"$WORK/write.lua" <<LUA
-- A distinct diagram puzzle per request: the ply counter of the FEN differs.
n = 0
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.headers["Authorization"] = "Bearer $TOKEN"
request = function()
  n = n + 1
  local body = string.format('{"kind": "diagram", "fen": "7k/8/8/8/8/8/8/K7 w %d", "moves": ["Ka1-a2"], "captures": [], "title": "load %d"}', n, n)
  return wrk.format(nil, nil, nil, body)
end
LUA
# wrk runs one Lua state per thread: give each thread its own ply range.
cat >>"$WORK/write.lua" <<'LUA'
local threads = 0
setup = function(thread) thread:set("id", threads); threads = threads + 1 end
init = function() n = id * 10000000 end
LUA

FAILED=0
run() { # name, connections, then wrk arguments
  local name=$1 conns=$2
  shift 2
  wrk -t"$THREADS" -c"$conns" -d"${DURATION}s" --timeout 10s --latency "$@" >"$WORK/$name.txt" 2>&1
}
field() { awk -v k="$2" '$1 == k {print $2}' "$WORK/$1.txt"; }
rps() { awk '/^Requests\/sec/ {print $2}' "$WORK/$1.txt"; }
errors() { awk '/Non-2xx/ {print $NF} /Socket errors/ {print}' "$WORK/$1.txt" | paste -sd' ' -; }
report() { # name, label
  printf '%-34s %10s req/s  p50 %8s  p90 %8s  p99 %8s  %s\n' "$2" "$(rps "$1")" \
    "$(field "$1" 50%)" "$(field "$1" 90%)" "$(field "$1" 99%)" "$(errors "$1")"
}
must_be_ok() { # name
  if grep -q "Non-2xx\|Socket errors" "$WORK/$1.txt"; then
    echo "error: $1 answered errors:" >&2
    cat "$WORK/$1.txt" >&2
    FAILED=1
  fi
}
millis() { # a wrk latency (850.00us, 4.10ms, 1.19s) in ms
  awk -v v="$1" 'BEGIN {
    if (v ~ /us$/) { sub(/us$/, "", v); print v / 1000 }
    else if (v ~ /ms$/) { sub(/ms$/, "", v); print v + 0 }
    else if (v ~ /m$/) { sub(/m$/, "", v); print v * 60000 }
    else { sub(/s$/, "", v); print v * 1000 } }'
}

echo "load: $DURATION s per phase, $CONNECTIONS connections, $THREADS wrk threads, release build"
for phase in analyze verify; do
  run "$phase" "$CONNECTIONS" -s "$WORK/$phase.lua" "http://$ADDR/v1/$phase"
  report "$phase" "POST /v1/$phase"
  must_be_ok "$phase"
done
# One connection per search slot (--solve-concurrency, 2): more would be told 503 busy.
run solve 2 -s "$WORK/solve.lua" "http://$ADDR/v1/solve"
report solve "POST /v1/solve (mate in 1, 2 conns)"
must_be_ok solve
run get "$CONNECTIONS" "http://$ADDR/v1/puzzles/1"
report get "GET /v1/puzzles/1"
must_be_ok get
run list "$CONNECTIONS" "http://$ADDR/v1/puzzles?limit=50"
report list "GET /v1/puzzles?limit=50"
must_be_ok list
run write "$CONNECTIONS" -s "$WORK/write.lua" "http://$ADDR/v1/puzzles"
report write "POST /v1/puzzles (durable writes)"
must_be_ok write

echo "flood: $FLOOD connections of POST /v1/solve (Baroque #5 and crowded Rococo #8, 2 s budgets) while the cheap endpoints are measured"
wrk -t1 -c"$FLOOD" -d"$((2 * DURATION + 4))s" --timeout 10s -s "$WORK/flood.lua" "http://$ADDR/v1/solve" \
  >"$WORK/flood.txt" 2>&1 &
FLOODER=$!
sleep 2
run health_flood "$CONNECTIONS" "http://$ADDR/health"
report health_flood "GET /health during the flood"
must_be_ok health_flood
run analyze_flood "$CONNECTIONS" -s "$WORK/analyze.lua" "http://$ADDR/v1/analyze"
report analyze_flood "POST /v1/analyze during the flood"
must_be_ok analyze_flood
wait "$FLOODER"
solves=$(awk '/requests in/ {print $1}' "$WORK/flood.txt")
busy=$(awk '/Non-2xx/ {print $NF}' "$WORK/flood.txt")
slowest=$(awk '$1 == "Latency" {print $4}' "$WORK/flood.txt")
echo "flooding solves: $solves answered, ${busy:-0} of them 503 (every search slot taken); slowest answer $slowest"
if awk -v p="$(millis "$slowest")" 'BEGIN {exit !(p > 3000)}'; then
  echo "error: a search of a 2 s budget answered after $slowest" >&2
  FAILED=1
fi

for name in health_flood analyze_flood; do
  p99=$(millis "$(field "$name" 99%)")
  if awk -v p="$p99" -v b="$P99_BOUND_MS" 'BEGIN {exit !(p > b)}'; then
    echo "error: $name p99 ${p99} ms is above the bound of $P99_BOUND_MS ms" >&2
    FAILED=1
  fi
done

rss_kib=$(awk '/^VmHWM/ {print $2}' "/proc/$SERVER/status")
rss_mib=$((rss_kib / 1024))
echo "server peak resident memory: $rss_mib MiB (bound $RSS_BOUND_MIB MiB)"
if [ "$rss_mib" -gt "$RSS_BOUND_MIB" ]; then
  echo "error: peak memory above the bound" >&2
  FAILED=1
fi
exit "$FAILED"
