#!/usr/bin/env bash
# Makes the old-store fixtures of tests/old_stores.rs for the schema version this build writes:
#
#   bash scripts/make-old-store.sh VERSION
#
# writes, with target/release/baroque as it is (build it first: `cargo build --release`; BIN names
# another binary),
#
#   tests/stores/vVERSION.db                     a SQLite store written by this build
#   tests/stores/vVERSION.expected.json          what this build answers for it
#   tests/stores/vVERSION.postgres.sql           the same store on PostgreSQL: `pg_dump --inserts`
#                                                without its `\restrict`/`\unrestrict` lines
#   tests/stores/vVERSION.postgres.expected.json what this build answers for that one
#
# Each store holds the fixtures built in (seeded at start-up), a posted helpmate (the one of the
# schema-9 store), a selfmate posted as PGN (the game of tests/cli_formats.rs, from
# docs/src/api/solving.md) and two generated collections with their jobs: `twos` (Baroque `#2`,
# seed 42) and `rococo-ones` (Rococo `#1`, seed 7), two puzzles each. The jobs run on one thread
# under the replica name `fixture`, so their `workers` name no host. Both jobs end, so the table
# `job_shards` ends empty (a job's shard rows go when it ends; its `shards` and `workers` stay in
# its row).
#
# The expected answers are those of a second server started on a copy of the finished store (the
# SQLite file copied, the dump restored into a new database), as the test starts one: seeding
# the fixtures again, no write token. They must equal what the writing server answered, or the
# script fails showing the difference. The shape is v9.expected.json's: `listing` (every page of
# GET /v1/puzzles), `puzzles` (GET /v1/puzzles/{id}?include=outcome by id), `collections`,
# `collection` (each by name), `exports` (the 6 exports as text, by `NAME.FORMAT`) and `jobs`
# (GET /v1/jobs/{id} by id).
#
# VERSION must be the schema version the binary writes (checked: SQLite's `user_version`,
# PostgreSQL's `schema_migrations`). Rerunnable: the four files are replaced (the timestamps and
# the jobs' `millis` change from one run to the next, the puzzles do not). PostgreSQL runs as a
# throwaway cluster in a temporary directory (the server binaries from `pg_config --bindir`,
# /usr/lib/postgresql/*/bin or PATH; as root, through `runuser -u postgres`), removed on exit with
# every server this script started (KEEP=1 keeps the directory, with the servers' logs).
set -euo pipefail
cd "$(dirname "$0")/.."

if [ $# -ne 1 ] || ! [[ $1 =~ ^[0-9]+$ ]]; then
  echo "usage: bash scripts/make-old-store.sh VERSION (the schema version this build writes)" >&2
  exit 2
fi
VERSION=$1
BIN=${BIN:-$PWD/target/release/baroque}
OUT=$PWD/tests/stores
[ -x "$BIN" ] || { echo "error: $BIN is missing: cargo build --release" >&2; exit 1; }
for tool in python3 sqlite3 pg_dump psql; do
  command -v "$tool" >/dev/null || { echo "error: $tool is missing" >&2; exit 1; }
done

WORK=$(mktemp -d /tmp/baroque-old-store.XXXXXX)
chmod 755 "$WORK" # the postgres user reaches its cluster's directory inside
SERVER=
PG_STARTED=
cleanup() {
  if [ -n "$SERVER" ]; then kill "$SERVER" 2>/dev/null || true; wait "$SERVER" 2>/dev/null || true; fi
  if [ -n "$PG_STARTED" ]; then
    "${AS_PG[@]}" "$PGBIN/pg_ctl" -D "$WORK/pg" -w -m fast stop >/dev/null 2>&1 || true
  fi
  if [ -n "${KEEP:-}" ]; then echo "kept $WORK" >&2; else rm -rf "$WORK"; fi
}
trap cleanup EXIT

# shellcheck source=scripts/lib/server.sh
. scripts/lib/server.sh # start_server LOG [FLAGS...]: sets SERVER and ADDR

# No rate limit (the fixture posts and exports more than a burst); writes take this token (the
# writing server's alone).
TOKEN=make-old-store
export BAROQUE_RATE_LIMIT_PER_MINUTE=0
export RUST_LOG=info

# The requests and the answers, in Python (standard library only):
#   store.py fill BASE JOBS        the posts and the two jobs (waited for); the job ids to JOBS
#   store.py answers BASE JOBS OUT what the server answers for the store, as JSON, to OUT
#   store.py same A B              fails, showing where, unless the two answer files are equal
cat >"$WORK/store.py" <<'PY'
import json, os, sys, time, urllib.error, urllib.request

TOKEN = os.environ["TOKEN"]

def call(base, method, path, body=None, content_type="application/json", raw=False):
    data = None
    if body is not None:
        data = body.encode() if isinstance(body, str) else json.dumps(body).encode()
    req = urllib.request.Request(base + path, method=method, data=data,
                                 headers={"authorization": f"Bearer {TOKEN}",
                                          "content-type": content_type})
    try:
        with urllib.request.urlopen(req, timeout=120) as r:
            text = r.read().decode()
            return (r.status, text if raw else json.loads(text))
    except urllib.error.HTTPError as e:
        sys.exit(f"{method} {path}: {e.code} {e.read().decode()}")

# A helpmate posted as JSON: the one of the schema-9 store.
HELPMATE = {"kind": "mate", "fen": "8/6P1/8/8/2K5/4k3/8/6M1 w 0", "stipulation": "h#1.5",
            "title": "a helpmate"}
# A selfmate posted as PGN: the game of tests/cli_formats.rs (docs/src/api/solving.md's selfmate).
PGN = ('[Event "Offered Chameleon"]\n[Site "README"]\n[Variant "Baroque"]\n[SetUp "1"]\n'
       '[FEN "8/8/8/6M1/6m1/3B1K2/8/4k3 w 0"]\n[Stipulation "s#1"]\n\n1. Bd3-e2 Ke1xe2 0-1\n')
# The two generated collections, as the schema-9 store has them.
COLLECTIONS = [
    {"name": "twos", "mate_in": 2, "count": 2, "seed": 42, "max_pieces": 8},
    {"name": "rococo-ones", "game": "rococo", "mate_in": 1, "count": 2, "seed": 7, "max_pieces": 6},
]

def fill(base, jobs_file):
    status, puzzle = call(base, "POST", "/v1/puzzles", HELPMATE)
    assert status == 201 and puzzle["stipulation"] == "h#1.5", (status, puzzle)
    status, puzzle = call(base, "POST", "/v1/puzzles", PGN, "application/x-chess-pgn")
    assert status == 201 and puzzle["stipulation"] == "s#1", (status, puzzle)
    ids = []
    for request in COLLECTIONS:
        status, job = call(base, "POST", "/v1/collections", request)
        assert status == 202, (status, job)
        deadline = time.monotonic() + 300
        while job["state"] == "running":
            if time.monotonic() > deadline:
                sys.exit(f"job {job['id']} still runs after 300 s: {job}")
            time.sleep(0.2)
            job = call(base, "GET", job["url"])[1]
        if job["state"] != "done" or len(job["puzzle_ids"]) != request["count"]:
            sys.exit(f"job {job['id']} ended {job['state']}: {job}")
        ids.append(job["id"])
    json.dump(ids, open(jobs_file, "w"))

def answers(base, jobs_file, out):
    get = lambda path: call(base, "GET", path)[1]
    listing, cursor = [], None
    while True:
        page = get("/v1/puzzles?limit=200" + (f"&cursor={cursor}" if cursor else ""))
        listing += page["items"]
        cursor = page["next_cursor"]
        if cursor is None:
            break
    collections = get("/v1/collections")
    names = [c["name"] for c in collections["items"]]
    exports = {}
    for name in names:
        for fmt in ("csv", "jsonl", "pgn"):
            exports[f"{name}.{fmt}"] = call(base, "GET",
                f"/v1/collections/{name}/export?format={fmt}", raw=True)[1]
    doc = {
        "listing": listing,
        "puzzles": {str(p["id"]): get(f"/v1/puzzles/{p['id']}?include=outcome") for p in listing},
        "collections": collections,
        "collection": {name: get(f"/v1/collections/{name}") for name in names},
        "exports": exports,
        "jobs": {str(i): get(f"/v1/jobs/{i}") for i in json.load(open(jobs_file))},
    }
    with open(out, "w") as f:
        json.dump(doc, f, indent=1, sort_keys=True, ensure_ascii=False)
        f.write("\n")

def same(a, b):
    x, y = json.load(open(a)), json.load(open(b))
    if x == y:
        return
    for part in sorted(set(x) | set(y)):
        xs, ys = x.get(part), y.get(part)
        if isinstance(xs, dict) and isinstance(ys, dict):
            for key in sorted(set(xs) | set(ys)):
                if xs.get(key) != ys.get(key):
                    print(f"{part}[{key}]:\n  writer: {json.dumps(xs.get(key))[:2000]}\n"
                          f"  reader: {json.dumps(ys.get(key))[:2000]}", file=sys.stderr)
        elif xs != ys:
            print(f"{part} differs", file=sys.stderr)
    sys.exit(f"{a} and {b} differ: the store does not read back as its writer answered")

{"fill": fill, "answers": answers, "same": same}[sys.argv[1]](*sys.argv[2:])
PY
store() { TOKEN=$TOKEN python3 "$WORK/store.py" "$@"; }

stop_server() { # SIGTERM, then waits for the server's exit (its SQLite WAL checkpointed)
  kill "$SERVER"
  wait "$SERVER" || true
  SERVER=
}

# write DB NAME: a store at DB filled by a server of this build; its answers to $WORK/NAME.writer.json
write() {
  local db=$1 name=$2
  start_server "$WORK/$name.writer.log" --db "$db" --write-token "$TOKEN" --replica-name fixture \
    --job-threads 1
  store fill "http://$ADDR" "$WORK/jobs.json"
  store answers "http://$ADDR" "$WORK/jobs.json" "$WORK/$name.writer.json"
  stop_server
}

# read_back DB NAME OUT: what a fresh server (as the test starts one) answers for DB, to OUT,
# checked against the writer's answers
read_back() {
  local db=$1 name=$2 out=$3
  start_server "$WORK/$name.reader.log" --db "$db"
  store answers "http://$ADDR" "$WORK/jobs.json" "$WORK/$name.reader.json"
  stop_server
  store same "$WORK/$name.writer.json" "$WORK/$name.reader.json"
  cp "$WORK/$name.reader.json" "$out"
}

# --- SQLite ---------------------------------------------------------------------------------
write "$WORK/store.db" sqlite
# The fixture is the one file: the server's last connection, closing, usually folds the WAL back
# into it, but not always before the process ends; sqlite3, closing as the last one, does.
if [ -e "$WORK/store.db-wal" ]; then
  sqlite3 "$WORK/store.db" 'PRAGMA wal_checkpoint(TRUNCATE);' >/dev/null
  echo "note: the server left its WAL; checkpointed by sqlite3" >&2
fi
[ ! -s "$WORK/store.db-wal" ] || { echo "error: the WAL was not checkpointed" >&2; exit 1; }
written=$(sqlite3 "$WORK/store.db" 'PRAGMA user_version')
if [ "$written" != "$VERSION" ]; then
  echo "error: this build writes schema version $written, not $VERSION" >&2
  exit 1
fi
cp "$WORK/store.db" "$OUT/v$VERSION.db"
cp "$WORK/store.db" "$WORK/copy.db" # the reader may write (seeding, facts): never the fixture
read_back "$WORK/copy.db" sqlite "$OUT/v$VERSION.expected.json"

# --- PostgreSQL -----------------------------------------------------------------------------
PGBIN=$(pg_config --bindir 2>/dev/null || true)
[ -x "$PGBIN/initdb" ] || PGBIN=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
[ -x "$PGBIN/initdb" ] || PGBIN=$(dirname "$(command -v initdb)")
AS_PG=()
if [ "$(id -u)" = 0 ]; then AS_PG=(runuser -u postgres --); fi
mkdir "$WORK/pg"
if [ "$(id -u)" = 0 ]; then chown postgres "$WORK/pg"; fi
PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
"${AS_PG[@]}" "$PGBIN/initdb" -D "$WORK/pg" -A trust -U postgres --no-sync -E UTF8 --locale=C \
  >"$WORK/initdb.log"
"${AS_PG[@]}" "$PGBIN/pg_ctl" -D "$WORK/pg" -l "$WORK/pg/server.log" -w \
  -o "-p $PORT -k $WORK/pg -c listen_addresses=127.0.0.1 -c fsync=off" start >/dev/null
PG_STARTED=1
sql() { psql -X -q -v ON_ERROR_STOP=1 -h 127.0.0.1 -p "$PORT" -U postgres "$@"; }
url() { echo "postgres://postgres@127.0.0.1:$PORT/$1"; }

sql -d postgres -c 'CREATE DATABASE store' -c 'CREATE DATABASE readback'
write "$(url store)" postgres
written=$(sql -d store -At -c 'SELECT max(version) FROM schema_migrations')
if [ "$written" != "$VERSION" ]; then
  echo "error: this build writes schema version $written on PostgreSQL, not $VERSION" >&2
  exit 1
fi
# No owners or grants (the dump runs as whichever role restores it); the `\restrict` lines of
# recent pg_dump releases are psql meta-commands, which the test's plain SQL client cannot run.
pg_dump --inserts --no-owner --no-privileges -h 127.0.0.1 -p "$PORT" -U postgres store |
  sed -e '/^\\restrict /d' -e '/^\\unrestrict /d' >"$OUT/v$VERSION.postgres.sql"
sql -d readback -f "$OUT/v$VERSION.postgres.sql" >/dev/null
read_back "$(url readback)" postgres "$OUT/v$VERSION.postgres.expected.json"

ls -l "$OUT"/v"$VERSION".*
