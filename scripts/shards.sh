#!/usr/bin/env bash
# How long one collection takes as a generation job on one replica, then on two sharing one
# PostgreSQL (each replica with --job-threads 1, so that two use this machine's two cores), and
# whether the two collections are the same. With BEFORE=path/to/baroque (a build of a release
# before shards: its jobs run unsharded, on one replica), the same job on one replica of that
# build first, for what sharding costs a single replica. Builds the release binary.
#
#   bash scripts/shards.sh [COUNT] [STIPULATION] [SEED]
set -euo pipefail
cd "$(dirname "$0")/.."
count=${1:-300}
stipulation=${2:-#2}
seed=${3:-11}
cargo build --release --quiet
bin=$PWD/target/release/baroque
# shellcheck source=scripts/lib/cluster.sh
. scripts/lib/cluster.sh

job() { # job LABEL DB PORTS...: the job started on the first, followed to its end
  local label=$1 db=$2; shift 2
  local first=$1 n=0
  for at in "$@"; do
    serve "$(psql_url "$db")" "$at" --job-threads 1 --replica-name "r$n" --job-lease-seconds 4 \
      --job-max-count 5000
    n=$((n + 1))
  done
  python3 - "$label" "$first" "$count" "$stipulation" "$seed" "$work/$db.fens" <<'PY'
import json, sys, time, urllib.request
label, port, count, stipulation, seed, out = sys.argv[1:]
base = f"http://127.0.0.1:{port}"
def call(method, path, body=None):
    req = urllib.request.Request(base + path, method=method,
        data=json.dumps(body).encode() if body is not None else None,
        headers={"authorization": "Bearer load-test-token", "content-type": "application/json"})
    with urllib.request.urlopen(req) as r:
        return json.load(r)
start = time.monotonic()
job = call("POST", "/v1/collections", {"name": "measured", "stipulation": stipulation,
    "count": int(count), "seed": int(seed), "max_pieces": 8})
while job["state"] == "running":
    time.sleep(0.1)
    job = call("GET", job["url"])
took = time.monotonic() - start
if job["state"] != "done":
    sys.exit(f"{label}: the job ended {job['state']}: {job}")
with urllib.request.urlopen(base + "/v1/collections/measured/export") as r:
    fens = [json.loads(line)["fen"] for line in r.read().decode().splitlines()]
open(out, "w").write("\n".join(fens))
print(f"| {label} | {took:.1f} s | {job['progress']['tried']} | {json.dumps(job.get('workers'))} | {json.dumps(job.get('shards'))} |")
PY
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  for p in "${pids[@]}"; do wait "$p" 2>/dev/null || true; done
  pids=()
}

echo "| run of $count \`$stipulation\`, seed $seed | time | candidates | workers | shards |"
echo "|---|---|---|---|---|"
if [ -n "${BEFORE:-}" ]; then
  createdb before
  serve_bin=$BEFORE job "one replica, the build before shards" before 18281
  serve_bin=
fi
createdb one
job "one replica" one 18282
createdb two
job "two replicas" two 18283 18284
cmp -s "$work/one.fens" "$work/two.fens" && echo "The two collections are the same." \
  || { echo "The two collections differ." >&2; exit 1; }
if [ -n "${BEFORE:-}" ]; then
  cmp -s "$work/before.fens" "$work/one.fens" && echo "The build before made the same collection." \
    || echo "The build before made another collection." >&2
fi
