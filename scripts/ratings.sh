#!/usr/bin/env bash
# The next puzzle and the attempts, measured on a store of COUNT puzzles (default 100,000), on
# SQLite and on PostgreSQL (a throwaway cluster, scripts/lib/cluster.sh), with the release build:
#
# - `GET /v1/puzzles/next`: p50 and p99 of the client's wall time (one keep-alive connection, one
#   request at a time, REQUESTS requests, default 2,000) for ratings drawn from 800 to 2,600, with
#   each of the filters sites use (none, a game, a stipulation family, an exact stipulation, a
#   theme, 50 excluded puzzles);
# - `POST /v1/puzzles/{id}/attempts`: attempts a second for SECONDS (default 10) from 8 clients at
#   once, half of them on one puzzle (its row is held while it is updated: they queue), and a check
#   that no attempt was lost (the puzzles' `attempts` grew by exactly the acknowledged ones).
#
# The store is the seeded fixtures' mate puzzles copied until it holds COUNT rows, each copy with a
# rating spread from 600 to 3,000 and its source's tags, with a collection and a theme of 200 of
# them: the answer's cost is the walk of the indexes, which the rows' other columns do not change.
# Prints a Markdown table.
#
#   bash scripts/ratings.sh [COUNT] [REQUESTS] [SECONDS]
#
# BIN=path/to/baroque measures that build instead of building the release one.
set -euo pipefail
cd "$(dirname "$0")/.."
count=${1:-100000}
requests=${2:-2000}
seconds=${3:-10}
if [ -n "${BIN:-}" ]; then
  bin=$(realpath "$BIN")
else
  cargo build --release --quiet
  bin=$PWD/target/release/baroque
fi
# shellcheck source=scripts/lib/cluster.sh
. scripts/lib/cluster.sh

# fill KIND TARGET: the copies' SQL, run by python3's sqlite3 (KIND sqlite, TARGET a file) or psql
# (KIND postgres, TARGET a database name).
fill() {
  python3 - "$1" "$2" "$count" "$pgbin" "$port" <<'PY'
import math, sqlite3, subprocess, sys
kind, target, count, pgbin, port = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4], sys.argv[5]
def psql(sql):
    out = subprocess.run([f"{pgbin}/psql", "-h", "127.0.0.1", "-p", port, "-U", "postgres", "-d", target,
                          "-v", "ON_ERROR_STOP=1", "-qAt"], input=sql, text=True, capture_output=True)
    if out.returncode:
        sys.exit(out.stderr)
    return out.stdout
if kind == "sqlite":
    db = sqlite3.connect(target)
    query = lambda sql: [r for r in db.execute(sql)]
    script = lambda sql: (db.executescript(sql), db.commit())
else:
    query = lambda sql: [r.split("|") for r in psql(sql).splitlines()]
    script = psql
if kind == "sqlite":
    columns = [r[1] for r in query("PRAGMA table_info(puzzles)")]
else:
    columns = [r[0] for r in query("SELECT column_name FROM information_schema.columns "
                                   "WHERE table_name = 'puzzles' ORDER BY ordinal_position")]
sources = [int(r[0]) for r in query("SELECT id FROM puzzles WHERE kind = 'mate' ORDER BY id")]
have = int(query("SELECT count(*) FROM puzzles")[0][0])
override = {"content_hash": "v.hash", "rating_value": "v.r", "rating_deviation": "v.d",
            "rating_volatility": "0.06", "rating_attempts": "5"}
copied = [c for c in columns if c != "id"]
select = ", ".join(override.get(c, f"p.{c}") for c in copied)
golden = (math.sqrt(5) - 1) / 2
script("CREATE TABLE IF NOT EXISTS bench_copies (hash TEXT PRIMARY KEY, src BIGINT NOT NULL);")
batch = 2000
for start in range(have, count, batch):
    rows = []
    for n in range(start, min(count, start + batch)):
        src = sources[n % len(sources)]
        r = 600 + 2400 * ((n * golden) % 1)
        d = 60 + 290 * ((n * golden * golden) % 1)
        rows.append(f"('copy-{n}', {src}, {r:.3f}, {d:.3f})")
    values = ",\n".join(rows)
    script(f"""BEGIN;
WITH v(hash, src, r, d) AS (VALUES {values})
INSERT INTO puzzles ({", ".join(copied)}) SELECT {select} FROM v JOIN puzzles p ON p.id = v.src;
INSERT INTO bench_copies (hash, src) VALUES {", ".join(f"('copy-{n}', {sources[n % len(sources)]})" for n in range(start, min(count, start + batch)))};
COMMIT;""")
script("""INSERT INTO puzzle_tags (puzzle_id, tag)
SELECT c.id, t.tag FROM bench_copies m JOIN puzzles c ON c.content_hash = m.hash
JOIN puzzle_tags t ON t.puzzle_id = m.src;
DROP TABLE bench_copies;""")
# A small collection and a rare theme: 200 puzzles each, spread over the ratings.
script("""INSERT INTO collections (name, game, rules, mate_in, seed, max_pieces, state, summary, created_at)
VALUES ('bench-small', 'baroque', 'abbott', 2, 1, 8, 'done', '{}', '2026-12-07T00:00:00Z');
INSERT INTO collection_puzzles (collection, position, puzzle_id)
SELECT 'bench-small', id, id FROM puzzles WHERE kind = 'mate' AND id % 500 = 0;
INSERT INTO puzzle_tags (puzzle_id, tag)
SELECT id, 'bench-rare' FROM puzzles WHERE kind = 'mate' AND id % 500 = 250;""")
if kind == "sqlite":
    script("ANALYZE;")
else:
    script("ANALYZE;")
print(f"{kind}: {int(query('SELECT count(*) FROM puzzles')[0][0])} puzzles", file=sys.stderr)
PY
}

# measure LABEL PORT: the table's rows for the server on PORT.
measure() {
  python3 - "$1" "$2" "$requests" "$seconds" <<'PY'
import http.client, json, random, sys, threading, time
label, port, requests, seconds = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4])
rng = random.Random(1)
def get(conn, path):
    conn.request("GET", path)
    r = conn.getresponse()
    body = r.read()
    return r.status, body
conn = http.client.HTTPConnection("127.0.0.1", port)
status, body = get(conn, "/v1/puzzles?kind=mate&limit=200")
ids = [p["id"] for p in json.loads(body)["items"]]
tags = {}
for p in json.loads(body)["items"]:
    for t in p.get("tags", []):
        tags[t] = tags.get(t, 0) + 1
theme = max(tags, key=tags.get) if tags else "mate-in-2"
filters = {
    "none": "",
    "game=rococo": "&game=rococo",
    "stipulation=# (a family)": "&stipulation=%23",
    "stipulation=h# (a family)": "&stipulation=h%23",
    "stipulation=#2": "&stipulation=%232",
    f"theme={theme}": f"&theme={theme}",
    "exclude 50 ids": "&exclude=" + ",".join(str(rng.randrange(1, 100000)) for _ in range(50)),
    "collection of 200 puzzles": "&collection=bench-small",
    "theme of 200 puzzles": "&theme=bench-rare",
}
def percentile(xs, q):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]
every = []
rows = []
for name, extra in filters.items():
    times = []
    for i in range(requests // len(filters)):
        rating = rng.uniform(800, 2600)
        t = time.perf_counter()
        status, _ = get(conn, f"/v1/puzzles/next?rating={rating:.1f}&deviation=100&seed={i}{extra}")
        times.append((time.perf_counter() - t) * 1000)
        if status not in (200, 404):
            sys.exit(f"{name}: status {status}")
    every += times
    rows.append(f"| {label} | next, {name} | {percentile(times, 0.5):.2f} ms | {percentile(times, 0.99):.2f} ms |")
rows.append(f"| {label} | next, all of the above | {percentile(every, 0.5):.2f} ms | {percentile(every, 0.99):.2f} ms |")
for r in rows:
    print(r)
# Attempts: 8 clients for `seconds`, half on one puzzle.
hot = ids[0]
def total():
    c = http.client.HTTPConnection("127.0.0.1", port)
    return sum(json.loads(get(c, f"/v1/puzzles/{i}")[1])["rating"]["attempts"] for i in ids)
before = total()
done = [0] * 8
stop = time.monotonic() + seconds
def client(k):
    c = http.client.HTTPConnection("127.0.0.1", port)
    r = random.Random(k)
    while time.monotonic() < stop:
        pid = hot if k % 2 == 0 else r.choice(ids)
        body = json.dumps({"solved": r.random() < 0.5, "player": {"rating": r.uniform(1000, 2200), "deviation": 120}})
        c.request("POST", f"/v1/puzzles/{pid}/attempts", body,
                  {"content-type": "application/json", "authorization": "Bearer load-test-token"})
        resp = c.getresponse()
        resp.read()
        if resp.status != 200:
            sys.exit(f"attempt: status {resp.status}")
        done[k] += 1
start = time.monotonic()
threads = [threading.Thread(target=client, args=(k,)) for k in range(8)]
for t in threads: t.start()
for t in threads: t.join()
took = time.monotonic() - start
after = total()
lost = sum(done) - (after - before)
print(f"| {label} | attempts, 8 clients (4 on one puzzle) | {sum(done) / took:.0f} a second | {sum(done)} acknowledged, {lost} lost |")
if lost:
    sys.exit(f"{lost} attempts lost")
PY
}

stop_servers() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  for p in "${pids[@]}"; do wait "$p" 2>/dev/null || true; done
  pids=()
}

echo "| store of $count puzzles | request | p50 | p99 |"
echo "|---|---|---|---|"
serve "$work/ratings.db" 18291
stop_servers
fill sqlite "$work/ratings.db"
serve "$work/ratings.db" 18291
measure SQLite 18291
stop_servers
createdb ratings
serve "$(psql_url ratings)" 18292
stop_servers
fill postgres ratings
serve "$(psql_url ratings)" 18292
measure PostgreSQL 18292
stop_servers
