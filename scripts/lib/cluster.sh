# Sourced by the measuring scripts: a throwaway PostgreSQL cluster (the server's defaults, fsync
# and synchronous_commit on) in a temporary directory, removed on exit with every server started
# by `serve`. Needs the PostgreSQL server binaries and `$bin` (the baroque binary).
work=$(mktemp -d /tmp/baroque-measure.XXXXXX)
chmod 755 "$work"
pgbin=$(pg_config --bindir 2>/dev/null || ls -d /usr/lib/postgresql/*/bin | tail -1)
as_pg=()
[ "$(id -u)" = 0 ] && as_pg=(runuser -u postgres --)
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  "${as_pg[@]}" "$pgbin/pg_ctl" -D "$work/pg" stop -m fast >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT
mkdir "$work/pg"
[ "$(id -u)" = 0 ] && chown postgres "$work/pg"
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
"${as_pg[@]}" "$pgbin/initdb" -D "$work/pg" -A trust -U postgres >/dev/null
"${as_pg[@]}" "$pgbin/pg_ctl" -D "$work/pg" -l "$work/pg/log" -w \
  -o "-p $port -k $work/pg -c listen_addresses=127.0.0.1" start >/dev/null
psql_url() { echo "postgres://postgres@127.0.0.1:$port/$1"; }
createdb() { "${as_pg[@]}" "$pgbin/createdb" -h 127.0.0.1 -p "$port" -U postgres "$1"; }

serve() { # serve DB PORT [FLAGS...]: a server of $bin (or $serve_bin), ready
  local db=$1 at=$2; shift 2
  BAROQUE_WRITE_TOKEN=load-test-token BAROQUE_RATE_LIMIT_PER_MINUTE=0 RUST_LOG=warn \
    "${serve_bin:-$bin}" serve --addr "127.0.0.1:$at" --db "$db" "$@" >"$work/serve-$at.log" 2>&1 &
  pids+=($!)
  for _ in $(seq 100); do
    curl -sf "http://127.0.0.1:$at/ready" >/dev/null && return
    sleep 0.2
  done
  echo "the server on port $at did not start" >&2; cat "$work/serve-$at.log" >&2; exit 1
}
